"""armies-clash: D&D 5e "When Armies Clash" mass combat (rule IDs AC-*).

Modules: dice_strings (the ``NdS+K`` notation and damage ceiling), d20 (tests, advantage, natural
1 and 20), damage (damage rolls, criticals, doubling, resistance), tables (exact convolution of damage
tables), profiles (attack records, cover, formations), inputs (odds inputs), attacks (Attack action,
unit attacks and overflow), spells (saves against spells and areas), morale (morale checks, rally),
commanders (Prepare and Incite), initiative (turn order), victory (battle end, decisive rout),
dying (death saves), procedures (the odds registry).

For whole battles: grid (squares, terrain, ranges, areas), scenario (files), forces (stands, units,
solos, budgets, integrity), movement (paths on the grid), options (decisions), game (the state machine's
node and apply), referee (the rules of §5 as the state machine runs them, one module per section), events,
ai, board (the terminal drawing), battle (the engine's Game).

Not done yet: forced movement other than an attack record's push (pull, leap, teleport and spell pushes have
no place in the spec's data model); a commander's Incite or Prepare between two stand activations.
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.armies_clash.battle import AcGame
from kessen.rulesets.armies_clash.procedures import PROCEDURES

RULESET = Ruleset(
    id="armies-clash",
    title='D&D 5e "When Armies Clash": attacks, saves, morale, initiative, battle end and death saves',
    prefix="AC",
    procedures=PROCEDURES,
    game=AcGame(),
)
