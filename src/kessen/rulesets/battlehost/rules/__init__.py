"""The battlehost rules as pure procedures: each a function of an immutable input to an exact distribution, or a
plain predicate of die faces (no engine state, no validation of input files).

dice (scores, clamping, Might, BH-DICE-*), sides (Good and Evil), wounding (the wound chart and the To Wound roll,
BH-WOUND-*), shooting (the hit roll and a shot, BH-SHOOT-5..9), duel (the duel roll, BH-DUEL-*), strikes (strikes
and their allocation, BH-STRIKE-*), fight (a whole fight, BH-FIGHT-3), might (a Hero's own dice rolled one by one,
BH-DICE-4).
"""
