"""armies-clash: D&D 5e "When Armies Clash" mass combat on a grid of 20-ft squares (rule IDs AC-*, spec
``rules/armies-clash.md``).

The package map:

- ``rules/``: the pure procedures, each a function of a frozen question to an exact ``Dist`` (or a predicate of
  plain values): ``dice_strings`` (AC-PROC-DICE), ``d20`` (AC-D20), ``tables`` (exact convolution), ``damage``
  (damage rolls, criticals, doubling, resistance; solos hit by hit: AC-DMG-5), ``grid`` (squares, footprints,
  distances, terrain costs, ranges, areas), ``movement`` (speeds, budgets, where a piece may go: AC-MOVE),
  ``integrity`` (AC-INTEG;
  how few stands of a regiment must end its turn alone: AC-REG-4), ``attack`` (``attack``, ``unit_attack``, ``solo_attack``), ``spells`` (``save``,
  automatic damage, spell uses), ``morale``, ``commanders`` (``commander_check``), ``initiative``, ``ending``
  (``decisive_rout``), ``dying`` (``death_saves``).
- ``referee/``: the engine. ``state`` (pieces, the turn, the frozen state), ``steps`` (the pending steps and the
  decision kinds), ``machine`` (the step table: each step's node and resolution, the automatic steps between),
  ``game`` (the ``Game`` and ``ENGINE``), ``options`` (the choices of its decisions), ``setup`` (§5.9), ``rounds``
  (§5.11), ``pieces`` (lookups: statistics, footprints, occupancy, commanders, hiding), ``actions`` (battle actions,
  §5.13), ``special_actions`` (Configure, Dash, Hide, Join, Retreat), ``objectives`` (§5.26), ``end_of_round``
  (§5.24), ``regiment_moves`` (the moves and activations AC-REG-4 allows a regiment's stands); then one module per rules module it drives: ``movement``, ``integrity``, ``attack``, ``spells``,
  ``damage``, ``morale``, ``commanders``, ``initiative``, ``ending``, ``dying``. The battlefield is the square grid
  of ``rules/grid.py`` (no round bases, so no ``referee/battlefield.py``).
- ``procedures.py`` (the odds registry: pydantic inputs validated at the edge, turned into ``rules`` questions),
  ``scenario.py`` (the scenario file, its limits: docs/scenarios/armies-clash.md), ``profiles.py`` (attack records,
  cover, formations), ``events.py``, ``text.py`` (narration, option words with the exact odds, who decides),
  ``board.py`` (the board drawn for ``kessen board`` and as data), ``ai.py`` (the AI's policy).

Not done: forced movement other than an attack record's push (pull, leap, teleport and spell pushes have no place in
the spec's data model); a commander's Incite or Prepare between two stand activations; flying and climbing; line
of sight (AC-RANGE-3); AC-SKIRM-6 and AC-SOLO-4 only mark isolation (AC-REG-4 alone refuses moves).
"""

from kessen.rulesets import Ruleset

RULESET = Ruleset.of_package(
    __name__, id="armies-clash", prefix="AC",
    title='D&D 5e "When Armies Clash": attacks, saves, morale, initiative, battle end and death saves',
)
