"""The legions AI: the greedy one-step AI (``greedy``), and what the search AI knows of legions (``tactics``: the
decisions worth searching; ``evaluation``: what a position is worth, from the losses that decide the battle)."""

from kessen.rulesets.legions.ai.greedy import LiAI, expected_damage, will_have_target
from kessen.rulesets.legions.ai.tactics import LiTactics

__all__ = ["LiAI", "LiTactics", "expected_damage", "will_have_target"]
