"""The dice behind a volley's result, as the table sees them: each hit die, and each hit's save die and the model it
went to (LI-HIT, §5.1 R, LI-SAVE, LI-VOID).

A volley is drawn as its result (hits, Wounds lost, shields lost); the faces that make it are drawn afterwards, each
from its exact conditional distribution given that result (:mod:`kessen.dice.faces`), so showing them changes no
odds and no draw of the battle.
"""

from __future__ import annotations

from collections.abc import Sequence

from kessen.core.records import record
from kessen.dice.faces import Draw, successes_placed, uniform_face, weighted
from kessen.rulesets.legions.rules.allocation import SIDES, allocation_indices, damage_track_and_end
from kessen.rulesets.legions.rules.hit_rolls import hit_roll_hits
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile, save_passes

FACES = range(1, SIDES + 1)


@record
class SaveShown:
    """One hit resolved (§5.1 R): the model it went to (its place in the question's models; -1 for a hit discarded),
    the save die rolled and
    the score it needed (0 and 0 when none was rolled: a Void Shield takes the hit, the model has no usable Save, or
    the hit is discarded), and what the hit did: ``saved``, ``wound``, ``shield`` or ``discarded``."""

    model: int
    face: int
    needed: int
    result: str


@record
class VolleyShown:
    """A volley's dice: the natural hit dice, then each hit's save."""

    hit_dice: tuple[int, ...]
    saves: tuple[SaveShown, ...]


def hit_faces(draw: Draw, *, dice: int, hits: int, to_hit: int, modifier: int) -> tuple[int, ...]:
    """The natural hit dice of a pool known to have scored *hits*: which dice hit, every arrangement equally likely,
    then each die's face among those that hit or those that miss (LI-HIT-1, LI-HIT-2)."""
    hitting = tuple(f for f in FACES if hit_roll_hits(f, to_hit=to_hit, modifier=modifier))
    missing = tuple(f for f in FACES if f not in hitting)
    return tuple(uniform_face(draw, hitting if hit else missing) for hit in successes_placed(draw, dice, hits))


def saves_shown(
    draw: Draw, *, models: Sequence[TargetProfile], allocatable: Sequence[bool], attack: Attack, hits: int, losses: int
) -> tuple[SaveShown, ...]:
    """The saves of *hits* hits resolved in the default order and known to have taken *losses* losses (Wounds and
    Void Shield levels) along the damage track: hit by hit, whether it stops (a passed save) or takes the next loss,
    weighted by the ways the hits after it can still end there, then its die given that (§5.1 R, LI-SAVE-3,
    LI-VOID-2, LI-ALLOC-4)."""
    order = allocation_indices(models, allocatable)
    track, end = damage_track_and_end([models[i] for i in order], attack)
    stays = [loss.stopped for loss in track] + [SIDES]
    # ways[j][q]: the weight, out of 6**j, that j more hits from loss q end at *losses*
    ways = [[int(q == losses) for q in range(len(stays))]]
    for _ in range(hits):
        last = ways[-1]
        ways.append([stays[q] * last[q] + (SIDES - stays[q]) * (last[q + 1] if q + 1 < len(stays) else 0) for q in range(len(stays))])
    shown: list[SaveShown] = []
    q = 0
    for left in range(hits - 1, -1, -1):
        if q == len(track):
            if end is None:
                shown.append(SaveShown(-1, 0, 0, "discarded"))
            else:
                shown.append(SaveShown(order[end.model], uniform_face(draw, (f for f in FACES if save_passes(f, end.save))), end.save, "saved"))
            continue
        loss = track[q]
        stop = weighted(draw, {True: stays[q] * ways[left][q], False: (SIDES - stays[q]) * ways[left][q + 1]})
        model = order[loss.model]
        if loss.save is None:
            result = "wound" if loss.after.shields_lost == (track[q - 1].after.shields_lost if q else 0) else "shield"
            shown.append(SaveShown(model, 0, 0, result))
        else:
            face = uniform_face(draw, (f for f in FACES if save_passes(f, loss.save) == stop))
            shown.append(SaveShown(model, face, loss.save, "saved" if stop else "wound"))
        q += not stop
    return tuple(shown)
