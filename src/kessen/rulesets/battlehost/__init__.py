"""battlehost: Middle-earth SBG Battlehost quickstart, Shoot and Fight phases (rule IDs BH-*).

Modules: rolls (dice conventions: scores, clamping, Might), profiles (characteristics, F notation,
missile weapon chart), inputs (odds inputs), wounding (wound chart, To Wound roll), shooting (hit
roll, moved shooters, natural 6), duels (duel roll, two-handed, Might policy, tie-breaks), strikes
(doubled strikes on the trapped, allocation), fighting (a whole fight), procedures (the odds registry).

Not done yet: geometry (BH-GEO-*), backing away and making way (BH-BACK-1..3, 6..8), fight
splitting and order (BH-FIGHT-1, 2), the Shoot phase order and targeting (BH-SHOOT-1..4), the turn
sequence (BH-TURN-*, BH-MOVE-*) and the game engine; the odds procedures take "trapped" as given.
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.battlehost.procedures import PROCEDURES

RULESET = Ruleset(
    id="battlehost",
    title="Middle-earth SBG Battlehost quickstart: shooting, duels, strikes and fights",
    prefix="BH",
    procedures=PROCEDURES,
)
