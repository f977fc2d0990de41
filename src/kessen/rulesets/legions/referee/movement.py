"""The Movement phase: where a Detachment's models may go, the moves the engine makes for it, and coherency.

[DECISION throughout: the spec leaves the Movement phase out (§1); these are the engine's own rules, chosen to
feed the Combat phase, each with an engine rule ID that refusals name.]

- **LI-MOVE-1** Detachments with an Advance, Charge, March or Fall Back order move, one at a time, alternating
  from the player with Initiative; First Fire Detachments stay put. The controlling player places each model.
- **LI-MOVE-2** A model moves in a straight line, its base centre at most its Movement from where it stood when
  its Detachment began to move (twice its Movement with a March order).
- **LI-MOVE-3** Its path never crosses another model's base, and it never ends overlapping one.
- **LI-MOVE-4** Only a charging model may enter an enemy model's 1-inch Engagement Zone (to reach base contact);
  any other stays at least 1 inch from every enemy model all along its path, or, if it began nearer, never goes
  nearer than it began.
- **LI-MOVE-5** A model in base contact with an enemy model when its Detachment begins to move stays where it is.
- **LI-MOVE-6** Every base stays wholly on the battlefield.
- **LI-MOVE-7** A model with a Fall Back order moves straight toward its own battlefield edge.
- **LI-MOVE-8** Coherency: a model within 2 inches of another model of its Detachment when the Detachment begins to
  move is within 2 inches of one when the move ends (a Detachment broken up by casualties need not close up).

The moves the engine makes for a Detachment (the default and the suggestions a player or the AI can pick):
**as ordered** (each model, nearest the enemy first, straight toward its nearest enemy model: Advance up to its
Movement and March up to twice it, stopping outside every enemy Engagement Zone; Charge up to its Movement into
base contact if it reaches; Fall Back up to its Movement toward its edge; a model stops where its base would
overlap another), a **charge at** a chosen enemy Detachment (the same, toward that Detachment's models), and a
move **toward** an enemy Detachment **in line** (the whole Detachment as a block, keeping its shape, as far as its
slowest model may go, so it keeps its coherency), and, with an Advance or March order, a move **back** in line (the
same block, straight toward its own battlefield edge, as far as every model may go: out of the enemy's reach, as a
player would pull a line back behind cover; suggested as the move of the block to that point, 1 inch or more).
[DECISION LI-MOVE-8] The moves by Order (as ordered, charge at)
move each model on its own exactly as the engine always has, without a coherency check: the as-ordered move is the
default every AI battle, golden event log and kessen-save/1 file was made with, so it stays as it was; coherency
is checked on the moves a player places (a block to a point, model by model).

At the end of the phase a Detachment is Engaged when a model of it touches an enemy model (LI-ENG-1), and Engaged
& Pinned when every one of its models does; a Charge Detachment of which some model moved at least 1 inch has
charged and moved (LI-FIGHT-3).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping

from kessen.core.errors import IllegalChoice
from kessen.core.geometry import Point, segment_point_distance
from kessen.core.measures import apart, decimal
from kessen.core.records import evolve, record
from kessen.rulesets.legions.referee.battlefield import (
    EDGE_DIRECTION,
    ENGAGEMENT_ZONE_INCHES,
    EPS,
    all_models_in_contact,
    distance,
    distances,
    free_run,
    has_enemy_contact,
    in_base_contact,
    on_battlefield,
    room_to_edge,
    touching_of,
)
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model, board_fact
from kessen.rulesets.legions.referee.steps import Origins

COHERENCY_INCHES = 2.0
"""[DECISION LI-MOVE-8] A model keeps coherency within 2 inches (base edge to base edge) of another model of its
Detachment, as in the published game."""

MOVING_ORDERS = frozenset({"advance", "charge", "march", "fall_back"})

# --- the choices of a move --------------------------------------------------------------------------------


@record
class AsOrdered:
    """The move the engine makes for the Detachment by its Order (the default)."""


@record
class Hold:
    """No model of the Detachment moves."""


@record
class ChargeAt:
    """A Charge Detachment's models move as ordered, but toward the models of *target* (an enemy Detachment)."""

    target: str


@record
class InLine:
    """The Detachment moves as a block, keeping its shape, straight toward the enemy Detachment *toward*."""

    toward: str


@record
class MoveTo:
    """The Detachment moves as a block: every model that may move shifts by the same offset, which brings the
    centre of those models (the mean of their base centres where they stood) to (x, y)."""

    x: float
    y: float


@record
class MoveModel:
    """One model of the Detachment moves to (x, y); the Detachment's move goes on until it is done."""

    model: str
    x: float
    y: float


@record
class Done:
    """The Detachment's move, made model by model, is over."""


MoveChoice = AsOrdered | Hold | ChargeAt | InLine | MoveTo | MoveModel | Done


def may_move(det: Detachment) -> bool:
    """LI-MOVE-1: a Detachment on the battlefield with an Order that moves."""
    return det.on_battlefield and det.order in MOVING_ORDERS


def origins_of(det: Detachment) -> Origins:
    return tuple((m.id, m.x, m.y) for m in det.live)


def allowance(det: Detachment, model: Model) -> float:
    """LI-MOVE-2: how far the model may move with its Detachment's Order."""
    return float(model.movement) * (2 if det.order == "march" else 1)


@board_fact
def _enemies(state: LiState, det: Detachment) -> tuple[Model, ...]:
    return tuple(m for d, m in state.live_models() if d.owner != det.owner)


def locked(state: LiState, det: Detachment) -> frozenset[str]:
    """LI-MOVE-5: the models of *det* in base contact with an enemy model, which stay where they are."""
    contacts = touching_of(state, det)
    if contacts is not None:
        return frozenset(m.id for m in det.live if m.id in contacts)
    enemies = _enemies(state, det)
    return frozenset(m.id for m in det.live if any(in_base_contact(m, e) for e in enemies))


def reset(state: LiState, origins: Origins) -> LiState:
    """Every model of the moving Detachment back where it stood when its move began."""
    for model_id, x, y in origins:
        model = state.model(model_id)
        if model.x != x or model.y != y:
            state = state.with_model(model.at(Point(x, y)))
    return state


# --- checking a model's move (LI-MOVE-2..7) ---------------------------------------------------------------


def model_move_refusal(
    state: LiState, det: Detachment, model: Model, start: Point, end: Point, *, held: Collection[str], together: Collection[str] = ()
) -> IllegalChoice | None:
    """Why *model* may not move straight from *start* to *end* with the models where they stand now, or None when it
    may: *held* are the Detachment's models locked in combat when its move began (LI-MOVE-5), *together* the models
    moving with it in the same block, which it cannot meet."""
    if model.id in held and (end - start).length() > EPS:
        return IllegalChoice("LI-MOVE-5", f"{model.id} is in base contact with an enemy model and stays where it is")
    length = (end - start).length()
    reach = allowance(det, model)
    if length > reach + EPS:
        away, most = apart(length, reach)
        return IllegalChoice("LI-MOVE-2", f"{model.id} may move {most} inches; that is {away} inches away")
    if not on_battlefield(state, end, model.base_radius):
        return IllegalChoice("LI-MOVE-6", f"{model.id}'s base would not lie wholly on the battlefield")
    if det.order == "fall_back" and length > EPS:
        edge = EDGE_DIRECTION[state.edge_of(det.owner)]
        if (end - start).dot(edge) < length - 1e-6:
            return IllegalChoice("LI-MOVE-7", f"{model.id} falls back straight toward its own battlefield edge")
    charging = det.order == "charge"
    for other_det, other in state.live_models():
        if other.id == model.id or other.id in together:
            continue
        gap = segment_point_distance(start, end, other.centre) - model.base_radius - other.base_radius
        if gap < -EPS:
            return IllegalChoice("LI-MOVE-3", f"{model.id}'s path crosses the base of {other.id}")
        if other_det.owner != det.owner and not charging:
            zone = min(ENGAGEMENT_ZONE_INCHES, max(0.0, (start - other.centre).length() - model.base_radius - other.base_radius))
            if gap < zone - EPS:
                return IllegalChoice("LI-MOVE-4", f"{model.id} would enter the Engagement Zone of {other.id} (only a charge may)")
    return None


def coherency_refusal(state: LiState, det_id: str, origins: Origins) -> IllegalChoice | None:
    """LI-MOVE-8: the first model that kept coherency when the move began and has lost it, or None."""
    for model in strays(state, det_id, origins):
        return IllegalChoice(
            "LI-MOVE-8", f"{model.id} would be more than {decimal(COHERENCY_INCHES, 3)} inches from every other model of {det_id}"
        )
    return None


def strays(state: LiState, det_id: str, origins: Origins) -> list[Model]:
    """The models that kept coherency where they stood when the move began and do not now (LI-MOVE-8)."""
    det = state.detachment(det_id)
    start = {i: Point(x, y) for i, x, y in origins}
    live = [m for m in det.live if m.id in start]

    def near(points: Mapping[str, Point], m: Model) -> bool:
        return any(
            (points[m.id] - points[o.id]).length() - m.base_radius - o.base_radius <= COHERENCY_INCHES + EPS for o in live if o.id != m.id
        )

    now = {m.id: m.centre for m in live}
    return [m for m in live if near(start, m) and not near(now, m)]


def move_refusal(state: LiState, det_id: str, origins: Origins, choice: MoveChoice) -> IllegalChoice | None:
    """Why a player's move of the Detachment is not legal, or None (LI-MOVE-2..8)."""
    det = state.detachment(det_id)
    if isinstance(choice, MoveModel):
        ids = {i for i, _, _ in origins}
        if choice.model not in ids:
            return IllegalChoice("LI-MOVE-1", f"{choice.model} is not a model of {det_id} on the battlefield")
        start = next(Point(x, y) for i, x, y in origins if i == choice.model)
        held = locked(reset(state, origins), det)
        return model_move_refusal(state, det, state.model(choice.model), start, Point(choice.x, choice.y), held=held)
    if isinstance(choice, MoveTo):
        return _block_refusal(reset(state, origins), det_id, origins, Point(choice.x, choice.y))
    if isinstance(choice, Done):
        return coherency_refusal(state, det_id, origins)
    return None


def block_offset(state: LiState, det: Detachment, centre: Point) -> tuple[tuple[Model, ...], Point]:
    """The models a block move shifts (all but the locked ones, LI-MOVE-5) and the offset that brings their centre to
    *centre*."""
    held = locked(state, det)
    movers = tuple(m for m in det.live if m.id not in held)
    if not movers:
        return (), Point(0.0, 0.0)
    mean = Point(sum(m.x for m in movers) / len(movers), sum(m.y for m in movers) / len(movers))
    return movers, centre - mean


def _block_refusal(state: LiState, det_id: str, origins: Origins, centre: Point) -> IllegalChoice | None:
    det = state.detachment(det_id)
    movers, offset = block_offset(state, det, centre)
    if not movers:
        return IllegalChoice("LI-MOVE-5", f"every model of {det_id} is in base contact with an enemy model and stays where it is")
    together = {m.id for m in movers}
    for m in movers:
        refusal = model_move_refusal(state, det, m, m.centre, m.centre + offset, held=(), together=together)
        if refusal is not None:
            return refusal
    return coherency_refusal(shifted(state, movers, offset), det_id, origins)


def shifted(state: LiState, movers: Iterable[Model], offset: Point) -> LiState:
    for m in movers:
        state = state.with_model(m.at(_placed(m.centre + offset)))
    return state


def _placed(p: Point) -> Point:
    """A position as the engine keeps it (six decimals, so that a position read back from notation is the same)."""
    return Point(round(p.x, 6), round(p.y, 6))


# --- the moves the engine makes ------------------------------------------------------------------------------


def move(state: LiState, det_id: str, origins: Origins, choice: MoveChoice) -> LiState:
    """The state after a final move choice (the models placed from where they stood) or one model's move."""
    if isinstance(choice, MoveModel):
        model = state.model(choice.model)
        return state.with_model(model.at(_placed(Point(choice.x, choice.y))))
    if isinstance(choice, Done):
        return state
    state = reset(state, origins)
    det = state.detachment(det_id)
    if isinstance(choice, Hold):
        return state
    if isinstance(choice, MoveTo):
        movers, offset = block_offset(state, det, Point(choice.x, choice.y))
        return shifted(state, movers, offset)
    if isinstance(choice, InLine):
        return _in_line(state, det, state.detachment(choice.toward))
    toward = state.detachment(choice.target).live if isinstance(choice, ChargeAt) else None
    return _each_model(state, det, toward)


def _each_model(state: LiState, det: Detachment, toward: tuple[Model, ...] | None) -> LiState:
    """Every model not locked in combat, nearest the enemy first, straight toward its nearest enemy model (of
    *toward*, if given) or, falling back, toward its edge; each stops where its base would overlap another."""
    targets = toward if toward is not None else _enemies(state, det)
    if not targets and det.order != "fall_back":
        return state
    held = locked(state, det)  # the enemies stand still while the Detachment moves, so contact is judged once
    ids = [e.id for e in targets]
    nearest = {m.id: min(zip(distances(m, targets), ids, targets), default=(0.0, "", None)) for m in det.live}
    for model_id in sorted(nearest, key=lambda i: (nearest[i][0], i)):
        if model_id in held:
            continue
        model = state.model(model_id)
        dest = _destination(state, det, model, nearest[model_id][2])
        if (dest - model.centre).length() > 1e-9:
            state = state.with_model(model.at(_placed(dest)))
    return state


def _destination(state: LiState, det: Detachment, model: Model, nearest: Model | None) -> Point:
    """Where the model goes, toward *nearest* (its nearest target model, none for a Fall Back move)."""
    order = det.order
    if order == "fall_back":
        direction = EDGE_DIRECTION[state.edge_of(det.owner)]
        length = min(float(model.movement), room_to_edge(state, model, state.edge_of(det.owner)))
        return model.centre + direction.scaled(free_run(state, model, direction, length))
    assert nearest is not None
    offset = nearest.centre - model.centre
    if offset.length() < 1e-9:
        return model.centre
    direction = offset.unit()
    if order == "charge":
        contact = max(0.0, offset.length() - model.base_radius - nearest.base_radius)
        length = min(float(model.movement), contact)
        run = free_run(state, model, direction, length, ignore=frozenset({nearest.id}))
        return model.centre + direction.scaled(min(run, length))
    run = free_run(state, model, direction, allowance(det, model), zone_from=state.other(det.owner))
    return model.centre + direction.scaled(run)


def _in_line(state: LiState, det: Detachment, toward: Detachment) -> LiState:
    """The Detachment as a block, straight toward the nearest model of *toward* from its centre, as far as every
    model may go (its allowance, other bases, Engagement Zones unless charging, the battlefield's edges)."""
    movers, _ = block_offset(state, det, Point(0.0, 0.0))
    if not movers or not toward.live:
        return state
    centre = Point(sum(m.x for m in movers) / len(movers), sum(m.y for m in movers) / len(movers))
    nearest = min(toward.live, key=lambda e: ((e.centre - centre).length(), e.id))
    offset = nearest.centre - centre
    if offset.length() < 1e-9:
        return state
    direction = offset.unit()
    ignore = frozenset(m.id for m in movers)
    zone = None if det.order == "charge" else state.other(det.owner)
    run = min(
        min(free_run(state, m, direction, allowance(det, m), zone_from=zone, ignore=ignore), _room(state, m, direction))
        for m in movers
    )
    return shifted(state, movers, direction.scaled(max(0.0, run)))


def back_in_line(state: LiState, det: Detachment) -> MoveTo | None:
    """The move back in line: the Detachment's block straight toward its own battlefield edge, as far as every model
    may go (its allowance, other bases, enemy Engagement Zones, the edge), written to three decimals as notation
    keeps a point and a thousandth short of the farthest (so the point read back is as far or nearer); None below 1
    inch or without an Advance or March order."""
    if det.order not in ("advance", "march"):
        return None
    movers, _ = block_offset(state, det, Point(0.0, 0.0))
    if not movers:
        return None
    edge = state.edge_of(det.owner)
    direction = EDGE_DIRECTION[edge]
    ignore = frozenset(m.id for m in movers)
    zone = state.other(det.owner)
    run = min(min(free_run(state, m, direction, allowance(det, m), zone_from=zone, ignore=ignore), room_to_edge(state, m, edge)) for m in movers)
    if run < 1.0:
        return None
    run -= 0.001
    x = sum(m.x for m in movers) / len(movers) + direction.x * run
    y = sum(m.y for m in movers) / len(movers) + direction.y * run
    return MoveTo(round(x, 3) + 0.0, round(y, 3) + 0.0)


def _room(state: LiState, model: Model, direction: Point) -> float:
    """How far the model can go along *direction* with its base on the battlefield."""
    r, limits = model.base_radius, []
    for position, step, size in ((model.x, direction.x, state.width), (model.y, direction.y, state.height)):
        if step > 1e-12:
            limits.append((size - r - position) / step)
        elif step < -1e-12:
            limits.append((position - r) / -step)
    return max(0.0, min(limits, default=math.inf))


def longest_move(state: LiState, origins: Origins) -> float:
    """The farthest any model of the Detachment has moved from where it stood."""
    return max((math.hypot(state.model(i).x - x, state.model(i).y - y) for i, x, y in origins), default=0.0)


def finish_move(state: LiState, det_id: str, origins: Origins) -> tuple[LiState, float]:
    """A Detachment's move is over: a Charge Detachment that moved at least 1 inch has charged and moved
    (LI-FIGHT-3). Returns the state and the longest move."""
    moved = longest_move(state, origins)
    det = state.detachment(det_id)
    if det.order == "charge" and moved >= 1.0:
        state = state.with_detachment(evolve(det, charged_and_moved=True))
    return state, moved


def refresh_engagement(state: LiState) -> LiState:
    """Engaged and Engaged & Pinned from the bases at the end of the Movement phase (LI-ENG-1) [DECISION: pinned
    when every model of the Detachment is in base contact with an enemy model]."""
    dets = []
    for det in state.detachments:
        engaged = det.on_battlefield and has_enemy_contact(state, det)
        dets.append(evolve(det, engaged=engaged, pinned=engaged and all_models_in_contact(state, det)))
    return evolve(state, detachments=tuple(dets))
