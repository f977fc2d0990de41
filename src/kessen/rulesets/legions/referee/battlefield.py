"""Battlefield geometry: distances, base contact, arcs, Engaged Detachments, combats, Withdrawal paths (§3.7, LI-ENG, LI-ARC-2, LI-WD).

Distances are in inches between base edges; bases are circles; contact and overlap use a tolerance of
1e-6 inch (§3.7).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from kessen.core.geometry import Point, base_gap, bases_overlap, bases_touch, first_touch, gap, swept_overlaps_base
from kessen.rulesets.legions.profiles import is_armoured
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model, board_fact

EPS = 1e-6
ENGAGEMENT_ZONE_INCHES = 1
"""[DECISION LI-WD-8] The Engagement Zone reaches 1 inch from the edge of a model's base."""

EDGE_DIRECTION = {"south": Point(0.0, -1.0), "north": Point(0.0, 1.0), "west": Point(-1.0, 0.0), "east": Point(1.0, 0.0)}
EDGE_FACING = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}
"""A model's default facing: toward the opposing side of the table from its own edge."""


def model_gap(a: Model, b: Model) -> float:
    """Centre distance minus both radii: negative when the bases overlap (§3.7)."""
    return base_gap(a.x, a.y, a.base_radius, b.x, b.y, b.base_radius)


def distance(a: Model, b: Model) -> float:
    """Base edge to base edge, never below 0 (§3.7)."""
    return max(0.0, model_gap(a, b))


def distances(a: Model, others: Iterable[Model]) -> list[float]:
    """``distance(a, b)`` for each model *b* of *others*, in their order."""
    ax, ay, ar = a.x, a.y, a.base_radius
    found: list[float] = []
    for b in others:
        gap = base_gap(ax, ay, ar, b.x, b.y, b.base_radius)
        found.append(gap if gap > 0.0 else 0.0)  # ``max(0.0, gap)``, without the generic builtin call
    return found


def in_base_contact(a: Model, b: Model) -> bool:
    """Base contact: distance 0 within the tolerance (§3.7)."""
    reach = a.base_radius + b.base_radius + 2 * EPS  # far apart along one axis: no contact, without a square root
    if abs(a.x - b.x) > reach or abs(a.y - b.y) > reach:
        return False
    return bases_touch(a.x, a.y, a.base_radius, b.x, b.y, b.base_radius, EPS)


def overlaps(a: Model, b: Model) -> bool:
    """The bases cut into each other by more than the tolerance (§3.7)."""
    return bases_overlap(a.x, a.y, a.base_radius, b.x, b.y, b.base_radius, EPS)


def in_rear_arc(target: Model, firer: Model) -> bool:
    """Whether *firer* stands in the rear arc of an armoured *target*: ``(c_f − c_t) · f < 0`` (LI-ARC-2).

    The arcs are the halves split by the line through the target's centre at right angles to its
    facing; exactly on the line is front [DECISION LI-ARC-2]. Non-armoured types have no rear arc.

    >>> from kessen.rulesets.legions.referee.state import Model
    >>> t = Model("t", "knight", 4, 8, 3, None, None, 3, 3, 4, 2, 0, 0, 10.0, 10.0, 1.0, 90.0, 0, ())
    >>> in_rear_arc(t, Model("f", "infantry", 1, 5, 5, None, None, 1, 1, 2, 4, 0, 0, 10.0, 5.0, 0.5, 90.0, 0, ()))
    True
    """
    if not is_armoured(target.type):
        return False
    angle = math.radians(target.facing)
    return (firer.x - target.x) * math.cos(angle) + (firer.y - target.y) * math.sin(angle) < -1e-9  # (c_f − c_t) · f


def can_see(state: LiState, firer: Model, target: Model) -> bool:
    """Line of sight is state (§3.7): every model sees every model unless the scenario blocks the pair,
    and a Knight or Titan showing only inessential parts is not in sight (LI-OBSC-1)."""
    if target.obscured == 100:
        return False
    return frozenset((firer.id, target.id)) not in state.no_sight


@board_fact
def touching(state: LiState) -> Mapping[str, frozenset[str]]:
    """The base contacts of the battlefield (§3.7): each model on it that touches an enemy model, by its id, with the
    ids of the Detachments of the enemy models it touches."""
    live = sorted(state.live_models(), key=lambda pair: pair[1].x)
    widest = max((m.base_radius for _, m in live), default=0.0)
    found: dict[str, set[str]] = {}
    for i, (da, ma) in enumerate(live):
        reach = ma.x + ma.base_radius + widest + 2 * EPS  # models farther along x touch nothing of this one
        for db, mb in live[i + 1 :]:
            if mb.x > reach:
                break
            if da.owner != db.owner and in_base_contact(ma, mb):
                found.setdefault(ma.id, set()).add(db.id)
                found.setdefault(mb.id, set()).add(da.id)
    return {model: frozenset(dets) for model, dets in found.items()}


def touching_of(state: LiState, det: Detachment) -> Mapping[str, frozenset[str]] | None:
    """``touching(state)`` when it tells about *det*'s models: *det* is on the battlefield with the state's own
    models; None otherwise (a Detachment in Reserve, or a changed copy), when its contacts are measured model by model."""
    if det.in_reserve or state.detachment(det.id).models is not det.models:
        return None
    return touching(state)


@board_fact
def engaged_pairs(state: LiState) -> frozenset[frozenset[str]]:
    """Every pair of opposing Detachments Engaged with each other: a model of one in base contact with one of the other (LI-ENG-1)."""
    return frozenset(
        frozenset((state.owner_of_model(model).id, other)) for model, dets in touching(state).items() for other in dets
    )


def engaged_with(state: LiState, det_id: str) -> tuple[str, ...]:
    """The Detachments *det_id* is Engaged with: direct base contacts only, never the whole combat (LI-ENG-3)."""
    det = state.detachment(det_id)
    if det.in_reserve:
        return ()
    contacts = touching(state)
    return tuple(sorted({d for m in det.live for d in contacts.get(m.id, ())}))


@board_fact
def combats(state: LiState) -> tuple[tuple[str, ...], ...]:
    """The combats: connected chains of Engaged Detachments, each with at least one edge (LI-ENG-2).

    Each combat lists its Detachments in battle order; combats are listed by their first Detachment.
    """
    pairs = engaged_pairs(state)
    order = [d.id for d in state.detachments]
    seen: set[str] = set()
    found: list[tuple[str, ...]] = []
    for start in order:
        if start in seen or not any(start in p for p in pairs):
            continue
        chain, frontier = {start}, [start]
        while frontier:  # add the enemies it is Engaged with, then theirs, until nothing new is added
            current = frontier.pop()
            for p in pairs:
                if current in p:
                    (other,) = p - {current}
                    if other not in chain:
                        chain.add(other)
                        frontier.append(other)
        seen |= chain
        found.append(tuple(d for d in order if d in chain))
    return tuple(found)


def enemy_contacts(state: LiState, det_ids: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The base-contact graph G of a combat's models: (model, model) pairs of opposing models in contact (LI-PAIR-1, LI-PAIR-4)."""
    members = [state.detachment(d) for d in det_ids]
    live = [(d, m) for d in members for m in d.live]
    edges: list[tuple[str, str]] = []
    for i, (da, ma) in enumerate(live):
        for db, mb in live[i + 1 :]:
            if da.owner != db.owner and in_base_contact(ma, mb):
                edges.append((ma.id, mb.id))
    return tuple(edges)


def has_enemy_contact(state: LiState, det: Detachment) -> bool:
    """Whether a model of *det* is in base contact with an enemy model (LI-ENG-1, LI-ENG-5)."""
    contacts = touching_of(state, det)
    if contacts is not None:
        return any(m.id in contacts for m in det.live)
    enemies = [m for d in state.detachments if d.owner != det.owner and not d.in_reserve for m in d.live]
    return any(in_base_contact(m, e) for m in det.live for e in enemies)


def all_models_in_contact(state: LiState, det: Detachment) -> bool:
    """Whether every model of *det* on the battlefield is in base contact with an enemy model."""
    contacts = touching_of(state, det)
    if contacts is not None:
        return bool(det.live) and all(m.id in contacts for m in det.live)
    enemies = [m for d in state.detachments if d.owner != det.owner and not d.in_reserve for m in d.live]
    return bool(det.live) and all(any(in_base_contact(m, e) for e in enemies) for m in det.live)


# --- moving ----------------------------------------------------------------------------------------


def on_battlefield(state: LiState, p: Point, r: float) -> bool:
    """The whole base lies on the battlefield (§3.7)."""
    return r - EPS <= p.x <= state.width - r + EPS and r - EPS <= p.y <= state.height - r + EPS


def room_to_edge(state: LiState, model: Model, edge: str) -> float:
    """How far a model can move straight toward a battlefield edge before its base touches it (LI-WD-2)."""
    r = model.base_radius
    return max(0.0, {"south": model.y - r, "north": state.height - model.y - r, "west": model.x - r, "east": state.width - model.x - r}[edge])


def free_run(
    state: LiState, model: Model, direction: Point, length: float, *, zone_from: str | None = None, ignore: frozenset[str] = frozenset()
) -> float:
    """How far *model* can slide along the unit *direction*, up to *length*, before it would overlap another
    model (or, when *zone_from* names a player, enter the 1-inch Engagement Zone of that player's models)."""
    run = length
    for d, other in state.live_models():
        if other.id == model.id or other.id in ignore:
            continue
        reach = other.base_radius + (ENGAGEMENT_ZONE_INCHES if zone_from is not None and d.owner == zone_from else 0.0)
        far = length + model.base_radius + reach + 1.0
        if abs(other.x - model.x) > far or abs(other.y - model.y) > far:
            continue  # farther than the whole run, it could only be met beyond it (along a unit direction)
        t = first_touch(model.centre, direction, model.base_radius, other.centre, reach, EPS)
        if t is not None:
            run = min(run, t)
    return max(0.0, run)


def closest_gap(a: Detachment, b: Detachment) -> float:
    """The least distance between a model of *a* and a model of *b*, base edge to base edge (§3.7); each must have a
    model left. Kept on *a* while neither Detachment's models change."""
    known = a.gaps.get(b.id)
    if known is not None and known[0] is b.models:
        return known[1]
    gap = min(min(distances(m, b.live)) for m in a.live)
    a.gaps[b.id] = (b.models, gap)
    return gap


def withdrawal_path(state: LiState, model: Model, edge: str, distance_inches: float) -> tuple[Point, Point]:
    """The straight path of a Withdrawal move: at right angles to the owner's edge, stopping when the base touches it (LI-WD-2, LI-WD-7)."""
    run = min(float(distance_inches), room_to_edge(state, model, edge))
    return model.centre, model.centre + EDGE_DIRECTION[edge].scaled(run)


def moved_through(state: LiState, model: Model, owner: str, start: Point, end: Point) -> tuple[Detachment, ...]:
    """The enemy Detachments whose models the swept base overlaps, in the order met along the path (LI-WD-4).

    A Detachment is moved through when the distance from one of its models' centres to the path is
    less than the sum of the radii [DECISION LI-WD-4]; it counts once, at its first model met.
    """
    direction = end - start
    met: dict[str, float] = {}
    for d, other in state.live_models():
        if d.owner == owner:
            continue
        if swept_overlaps_base(start, end, model.base_radius, other.centre, other.base_radius, EPS):
            along = (other.centre - start).dot(direction) if direction.length() > 0 else 0.0
            met[d.id] = min(met.get(d.id, along), along)
    return tuple(state.detachment(i) for i in sorted(met, key=lambda i: (met[i], i)))


def nearest_free_point(state: LiState, model: Model, end: Point) -> Point:
    """The point nearest *end* where the base overlaps no model and lies wholly on the battlefield (LI-WD-6).

    Candidates: *end* itself; *end* pushed out of each nearby model along the line of centres to
    touching; the points touching two models at once; each clamped onto the battlefield; failing all
    of them, rings of growing radius. Equally near points: the lowest (x, y) [DECISION: the
    controlling player would pick one; the engine takes the first]."""
    r = model.base_radius
    others = [o for _, o in state.live_models() if o.id != model.id]

    def free(p: Point) -> bool:
        return on_battlefield(state, p, r) and all(gap(p, r, o.centre, o.base_radius) >= -EPS for o in others)

    def clamp(p: Point) -> Point:
        return Point(min(max(p.x, r), state.width - r), min(max(p.y, r), state.height - r))

    near = [o for o in others if (o.centre - end).length() < r + o.base_radius + 4 * r + 2.0]
    candidates = [end, clamp(end)]
    for o in near:
        reach = r + o.base_radius + 2 * EPS
        away = end - o.centre
        unit = away.unit() if away.length() > 1e-12 else Point(1.0, 0.0)
        candidates.append(o.centre + unit.scaled(reach))
    for i, a in enumerate(near):
        for b in near[i + 1 :]:
            candidates += _touching_both(a.centre, r + a.base_radius + 2 * EPS, b.centre, r + b.base_radius + 2 * EPS)
    candidates += [clamp(c) for c in candidates]
    good = [c for c in candidates if free(c)]
    if not good:
        for ring in range(1, 200):
            radius = ring * r / 2
            good = [p for k in range(36) if free(p := end + Point(math.cos(k * math.pi / 18), math.sin(k * math.pi / 18)).scaled(radius))]
            if good:
                break
    return min(good, key=lambda p: (round((p - end).length(), 9), p.x, p.y))


def _touching_both(a: Point, ra: float, b: Point, rb: float) -> list[Point]:
    """The intersections of two circles (centres a, b; radii ra, rb)."""
    d = (b - a).length()
    if d == 0 or d > ra + rb or d < abs(ra - rb):
        return []
    along = (ra * ra - rb * rb + d * d) / (2 * d)
    h = math.sqrt(max(0.0, ra * ra - along * along))
    u = (b - a).scaled(1 / d)
    mid = a + u.scaled(along)
    perp = Point(-u.y, u.x)
    return [mid + perp.scaled(h), mid - perp.scaled(h)]
