"""The armies-clash AI: the greedy one-step AI (``greedy``), and what the search AI knows of armies-clash
(``tactics``: the decisions and move ends worth searching; ``evaluation``: what a position is worth, from the
victory points that decide the battle)."""

from kessen.rulesets.armies_clash.ai.greedy import AcAI, expected_damage, spell_value
from kessen.rulesets.armies_clash.ai.tactics import AcTactics

__all__ = ["AcAI", "AcTactics", "expected_damage", "spell_value"]
