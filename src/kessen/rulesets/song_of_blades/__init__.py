"""song-of-blades: Song of Blades and Heroes melee (rule IDs SB-*).

Modules: profiles (sizes, states, special rules), inputs (odds inputs), melee (combat roll,
modifiers, outnumbering, result ladder), disengaging (free hacks), quality (activation, morale),
priority (melee priority), procedures (the odds registry); for whole games: scenario (files),
battlefield (geometry of §5), state (options, pending steps, the frozen state), turns (activation,
turnover, rounds, the end), moves (moving, disengaging, fleeing), fights (combat rolls read off the table,
recoils, follow-ups, morale), game (node and apply), events, ai, board (the map of `kessen board`), skirmish (the
engine's Game). The scenario format for players: docs/scenarios/song-of-blades.md.

Not done yet: shooting, magic and the special rules beyond the four the seed names (out of the spec's scope);
morale tests other than the gruesome-kill trigger (SB-TURN-2).
"""

from kessen.rulesets import Ruleset
from kessen.rulesets.song_of_blades.procedures import PROCEDURES
from kessen.rulesets.song_of_blades.skirmish import SobGame

RULESET = Ruleset(
    id="song-of-blades",
    title="Song of Blades and Heroes: melee, disengaging, activation and morale",
    prefix="SB",
    procedures=PROCEDURES,
    game=SobGame(),
)
