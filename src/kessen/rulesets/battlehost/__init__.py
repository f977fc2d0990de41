"""battlehost: Middle-earth SBG Battlehost quickstart, the Shoot and Fight phases and whole battles (rule IDs BH-*).

rules/ (pure, no engine state): dice (scores, clamping, Might), sides, wounding (the wound chart and the To
Wound roll), shooting (the hit roll, a shot), duel (the duel roll, two-handed, the Might policy, tie-breaks),
strikes (doubled strikes on the trapped, allocation), fight (a whole fight), might (a Hero's own dice one by
one). referee/ (the engine): state (the frozen state), steps (the queue of pending steps and the decision kinds),
machine (the step table), game (the Game and ENGINE), battlefield (geometry: bases, contact, control zones, the
board, paths, sight), options (what players choose), setup (a scenario's models on the board), turns (priority,
end phase, victory), moves (the Move phase), shooting (the Shoot phase), pairing (splitting contacts into
fights), fight (fights, their order and stages, losers backing away), backing_away (where a loser goes:
direction away, trapped, making way), duel, strikes, might (a Hero's dice in play), notation (choices as text,
parsed back), odds (the numbers beside a choice). At the top: procedures (the odds registry: input models →
rules), scenario (the file format, swapping deployment), profiles (characteristics, F notation, missile weapon
chart), board (the board drawn as text and as data), events, text (narration, option words, prompts), ai.

Not done yet: the odds procedures take "trapped" as given (the engine decides it from the geometry),
and take Might only in the duel (section 9 defines no Might input for shots and strikes).
"""

from kessen.rulesets import Ruleset

RULESET = Ruleset.of_package(
    __name__, id="battlehost", prefix="BH",
    title="Middle-earth SBG Battlehost quickstart: shooting, duels, strikes and fights",
)
