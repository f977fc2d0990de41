"""The rules of song-of-blades as pure procedures: each a function of plain, immutable values to an exact
distribution (or a plain answer), knowing nothing of the table, the engine or the input files.

melee (the combat roll, SB-MELEE, SB-MOD, SB-OUT), disengaging (free hacks on leaving contact, SB-DIS), quality
(activation and morale rolls, SB-ACT, SB-MOR), priority (melee priority, SB-PRIO), turns (the roll-off and the
end of the game, SB-TURN).
"""
