"""battlehost: Middle-earth SBG Battlehost quickstart, Shoot and Fight phases (rule IDs BH-*).

Modules: rolls (dice conventions: scores, clamping, Might), profiles (characteristics, F notation,
missile weapon chart), inputs (odds inputs), wounding (wound chart, To Wound roll), shooting (hit
roll, moved shooters, natural 6), duels (duel roll, two-handed, Might policy, tie-breaks), strikes
(doubled strikes on the trapped, allocation), fighting (a whole fight), procedures (the odds registry);
for whole battles: scenario (files), battlefield (geometry: bases, contact, control zones, the board,
paths, sight), backing_away (direction away, trapped, making way), pairing (splitting contacts into
fights), might (Might on a Hero's own hit and To Wound rolls), state (the frozen state, options,
outcomes), turns (priority, end phase, victory), moves (the Move phase), shoot_phase, fight_phase
(fights and their order, losers backing away), duel_roll, striking, hero_rolls (a Hero's dice rolled
one by one), game (node, apply and the steps that settle themselves), events, ai, battle (the
engine's Game).

Not done yet: the odds procedures take "trapped" as given (the engine decides it from the geometry),
and take Might only in the duel (section 9 defines no Might input for shots and strikes).
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.battlehost.battle import BattlehostGame
from kessen.rulesets.battlehost.procedures import PROCEDURES

RULESET = Ruleset(
    id="battlehost",
    title="Middle-earth SBG Battlehost quickstart: shooting, duels, strikes and fights",
    prefix="BH",
    procedures=PROCEDURES,
    game=BattlehostGame(),
)
