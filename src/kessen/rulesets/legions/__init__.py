"""legions: the Legions Imperialis Combat phase (rule IDs LI-*).

Modules: profiles (model types, Scales, target profiles), inputs (odds inputs), targeting
(Engaged-target penalty, obscured Knights and Titans), hit_rolls (hit rolls and the hit pool),
saves (AP, Light AT, rear arc, best save, Void Shields), allocation (allocation order and the
hit-resolution routine R), firing (``fire`` and ``resolve_hits``), close_combat (fight rolls,
fights, combats), morale (Morale checks), withdrawal (Withdrawal saves and distance), broken
(Break Points), procedures (the odds registry).

Whole battles: scenario (TOML files), state (models, Detachments, Formations, the game state),
deployment (the initial state from a scenario), battlefield (distances, contact, arcs, combats,
Withdrawal paths), movement (the engine's own Orders and Movement rules), shooting (targets, volleys),
pairing (LI-PAIR), steps (the pending steps), game (the state machine: node, apply, the dispatch of
steps), and one module per section for what the steps do: rounds (Orders, Initiative, Movement and End
phases, the end of the battle), stages (§4.1 stages, §4.2 activation), attacks (§4.4 firing),
engagement (§4.3, §4.5 combats: pairing, fights, combat result), withdrawal_moves (§4.5 Withdrawal),
broken_formations (§4.6 Break Points and Morale checks); events, ai, battle (the Game object).

Not done: Overwatch, terrain, Flyers, Structures, reserves arriving, Void Shields re-igniting, weapon
traits other than Light AT (outside the spec, §1).
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.legions.battle import LegionsGame
from kessen.rulesets.legions.procedures import PROCEDURES

RULESET = Ruleset(
    id="legions",
    title="Legions Imperialis: the Combat phase (firing, close combat, morale, Break Points)",
    prefix="LI",
    procedures=PROCEDURES,
    game=LegionsGame(),
)
