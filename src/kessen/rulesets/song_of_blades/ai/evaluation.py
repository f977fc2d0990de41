"""What a song-of-blades position is worth to a side, for the search AI's leaves (issue 23 §2).

The game is won by the side that has lost the smaller fraction of its starting points (SB-TURN-4), so a position is
worth the difference of those fractions, with the models that are all but lost counted in part: a fallen model is
struck at +2 and every win against it kills (SB-MOD-1, SB-MELEE-10), so one in contact with a standing enemy is
as good as half lost, and any fallen model loses an action to stand up (SB-DOWN-2). Each standing model in contact
with enemies is credited with part of the exact worth of its best attack (the melee odds as the table stands:
outnumbering, fallen foes, high ground, obstacles), since it may make it at its next activation.
"""

from __future__ import annotations

from kessen.rulesets.song_of_blades.ai.greedy import KILL, attack_value
from kessen.rulesets.song_of_blades.referee.state import SobState

FALLEN_IN_CONTACT = 0.5
"""The part of a fallen model's points counted lost while a standing enemy touches it."""
FALLEN_ALONE = 0.15
"""The part counted lost while no standing enemy touches it (it must spend an action to stand, SB-DOWN-2)."""
ATTACKS_COUNTED = 0.25
"""The part of the worth of a model's best attack in contact credited before it is made."""


def evaluate(state: SobState, side: str) -> float:
    """The fraction of its starting points the other side has lost, less the fraction *side* has lost, fallen models
    counted in part (see the module docstring): -1 .. 1, zero-sum."""
    sides, start = state.skirmish.sides, state.skirmish.start_points
    lost = [0.0, 0.0]
    for c in state.casualties:
        lost[sides.index(c.side)] += c.points
    here = state.here
    for f in state.figures:
        contacts = here.contacts(f)
        if f.state == "fallen":
            threatened = any(e.is_active for e in contacts)
            lost[sides.index(f.side)] += f.points * (FALLEN_IN_CONTACT if threatened else FALLEN_ALONE)
        elif f.state == "standing" and contacts:
            best = max(float(attack_value(state, f.id, e.id, False)) for e in contacts)
            # worth in results (a kill is KILL) of the side's points: counted as points the enemy side loses
            lost[1 - sides.index(f.side)] += ATTACKS_COUNTED * best / KILL * start[1 - sides.index(f.side)]
    fractions = [lost[i] / start[i] if start[i] else 0.0 for i in (0, 1)]
    mine = sides.index(side)
    return max(-1.0, min(1.0, fractions[1 - mine] - fractions[mine]))
