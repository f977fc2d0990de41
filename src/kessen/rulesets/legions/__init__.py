"""legions: the Legions Imperialis Combat phase (rule IDs LI-*).

Modules: profiles (model types, Scales, target profiles), inputs (odds inputs), targeting
(Engaged-target penalty, obscured Knights and Titans), hit_rolls (hit rolls and the hit pool),
saves (AP, Light AT, rear arc, best save, Void Shields), allocation (allocation order and the
hit-resolution routine R), firing (``fire`` and ``resolve_hits``), close_combat (fight rolls,
fights, combats), morale (Morale checks), withdrawal (Withdrawal saves and distance), broken
(Break Points), procedures (the odds registry).

Not done yet: the engine side — stages and activation (LI-STAGE, LI-ACT), combats and pairing
(LI-ENG, LI-PAIR), targeting geometry and arcs (LI-TGT-1..4, LI-ARC-2), Withdrawal geometry
(LI-WD-2..9) and the timing of Break Point and Morale checks (LI-BREAK-4/7, LI-MORALE-2).
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.legions.procedures import PROCEDURES

RULESET = Ruleset(
    id="legions",
    title="Legions Imperialis: the Combat phase (firing, close combat, morale, Break Points)",
    prefix="LI",
    procedures=PROCEDURES,
)
