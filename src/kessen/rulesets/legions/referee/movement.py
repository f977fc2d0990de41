"""The Orders and Movement phases as far as a whole battle needs them [DECISION throughout: the spec leaves
these phases out (§1); these are the engine's own simple rules, chosen to feed the Combat phase].

- Orders: each Detachment on the battlefield is issued one of Advance, First Fire, Charge or March
  (§3.6); a Broken Formation's Detachments only Advance or Charge (LI-BREAK-5). A Detachment holding a
  Fall Back order keeps it through the next round and is issued nothing; the Fall Back order is removed
  in the End phase of the round it began with it (the Detachment rallies). Reserves stay off the table.
- Movement: Detachments move one at a time, alternating from the player with Initiative. Models in base
  contact with an enemy model stay where they are. Every other model moves in a straight line:
  Advance up to its Movement, March up to twice its Movement, toward the nearest enemy model but never
  into its 1-inch Engagement Zone; Charge up to its Movement toward the nearest enemy model, into base
  contact if it reaches it; Fall Back up to its Movement straight toward its own battlefield edge.
  First Fire Detachments stay put. A model stops when its base would overlap another model.
- At the end of the phase a Detachment is Engaged when a model of it touches an enemy model (LI-ENG-1),
  and Engaged & Pinned when every one of its models does (all of it is locked in close combat).
  A Charge Detachment of which some model moved at least 1 inch has charged and moved (LI-FIGHT-3).
"""

from __future__ import annotations

from dataclasses import replace

from kessen.core.geometry import Point
from kessen.rulesets.legions.referee.battlefield import (
    EDGE_DIRECTION,
    all_models_in_contact,
    distance,
    free_run,
    has_enemy_contact,
    in_base_contact,
    room_to_edge,
)
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model

ORDERS = ("advance", "first_fire", "charge", "march")
BROKEN_ORDERS = ("advance", "charge")
MOVING_ORDERS = frozenset({"advance", "charge", "march", "fall_back"})


def order_options(state: LiState, det: Detachment) -> tuple[str, ...]:
    """The Orders a Detachment may be issued; a Broken Formation's only Advance or Charge (LI-BREAK-5)."""
    return BROKEN_ORDERS if state.formation(det.formation).broken else ORDERS


def needs_order(det: Detachment) -> bool:
    """Every Detachment on the battlefield gets an Order, except one that keeps its Fall Back order."""
    return det.on_battlefield and det.order != "fall_back"


def may_move(det: Detachment) -> bool:
    return det.on_battlefield and det.order in MOVING_ORDERS


def _enemies(state: LiState, det: Detachment) -> list[Model]:
    return [m for d, m in state.live_models() if d.owner != det.owner]


def move_detachment(state: LiState, det_id: str) -> tuple[LiState, float]:
    """Move every model of a Detachment by its Order; returns the new state and the longest move."""
    det = state.detachment(det_id)
    enemies = _enemies(state, det)
    if not enemies and det.order != "fall_back":
        return state, 0.0
    longest = 0.0
    key = {m.id: min((distance(m, e) for e in enemies), default=0.0) for m in det.live}
    for model_id in sorted(key, key=lambda i: (key[i], i)):
        model = state.model(model_id)
        if any(in_base_contact(model, e) for e in enemies):
            continue
        dest = _destination(state, det, model, enemies)
        moved = (dest - model.centre).length()
        if moved > 1e-9:
            state = state.with_model(model.at(Point(round(dest.x, 6), round(dest.y, 6))))
            longest = max(longest, moved)
    det = state.detachment(det_id)
    if det.order == "charge" and longest >= 1.0:
        state = state.with_detachment(replace(det, charged_and_moved=True))
    return state, longest


def _destination(state: LiState, det: Detachment, model: Model, enemies: list[Model]) -> Point:
    order = det.order
    if order == "fall_back":
        direction = EDGE_DIRECTION[state.edge_of(det.owner)]
        length = min(float(model.movement), room_to_edge(state, model, state.edge_of(det.owner)))
        return model.centre + direction.scaled(free_run(state, model, direction, length))
    nearest = min(enemies, key=lambda e: (distance(model, e), e.id))
    offset = nearest.centre - model.centre
    if offset.length() < 1e-9:
        return model.centre
    direction = offset.unit()
    if order == "charge":
        contact = max(0.0, offset.length() - model.base_radius - nearest.base_radius)
        length = min(float(model.movement), contact)
        run = free_run(state, model, direction, length, ignore=frozenset({nearest.id}))
        return model.centre + direction.scaled(min(run, length))
    length = float(model.movement) * (2 if order == "march" else 1)
    run = free_run(state, model, direction, length, zone_from=state.other(det.owner))
    return model.centre + direction.scaled(run)


def refresh_engagement(state: LiState) -> LiState:
    """Engaged and Engaged & Pinned from the bases at the end of the Movement phase (LI-ENG-1) [DECISION: pinned
    when every model of the Detachment is in base contact with an enemy model]."""
    dets = []
    for det in state.detachments:
        engaged = det.on_battlefield and has_enemy_contact(state, det)
        dets.append(replace(det, engaged=engaged, pinned=engaged and all_models_in_contact(state, det)))
    return replace(state, detachments=tuple(dets))
