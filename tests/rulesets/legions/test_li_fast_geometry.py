"""The engine's quick ways to its geometry agree with the rules' own definitions, measured model by model.

Each fast path (the board's contact table, the skipped far bases of a slide, the kept gaps between Detachments, the
sightlines of a firing Detachment) is checked on seeded crowded battlefields against the plain definition written
out here from ``in_base_contact``, ``first_touch``, ``distance`` and ``can_see``.
"""

from __future__ import annotations

import math
import random

from kessen.core.geometry import Point, first_touch
from kessen.core.records import evolve
from kessen.rulesets.legions.referee.battlefield import (
    EPS,
    all_models_in_contact,
    closest_gap,
    distance,
    engaged_pairs,
    engaged_with,
    free_run,
    has_enemy_contact,
    in_base_contact,
)
from kessen.rulesets.legions.referee.movement import locked
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model
from kessen.rulesets.legions.referee.targeting import closest_visible, in_sight, sightlines
from tests.rulesets.legions.test_li_engine_support import det, m, state_of

SEEDS = range(12)


def _crowd(seed: int) -> LiState:
    """Three Detachments a side packed in a 13-inch square, some bases touching exactly, a Detachment in Reserve."""
    rng = random.Random(seed)
    cells = [(20 + 2.2 * i + rng.random() * 0.15, 20 + 2.2 * j + rng.random() * 0.15) for i in range(6) for j in range(6)]
    rng.shuffle(cells)

    def models(profile: str, n: int) -> list[dict[str, object]]:
        return [m(profile, *cells.pop()) for _ in range(n)]

    red = [det("r1", *models("inf", 5)), det("r2", *models("gun", 4)), det("r3", *models("tank", 2), in_reserve=True)]
    blue = [det("b1", *models("inf", 5)), det("b2", *models("tank", 3)), det("b3", *models("gun", 4))]
    state = state_of(red, blue)
    # put one model of each blue Detachment exactly in base contact with a red model (centre distance = radii)
    for blue_id, red_id in (("b1", "r1"), ("b2", "r2")):
        target, mover = state.detachment(red_id).models[0], state.detachment(blue_id).models[0]
        reach = target.base_radius + mover.base_radius
        state = state.with_model(mover.at(Point(target.x + reach, target.y)))
    return state


def _enemies(state: LiState, d: Detachment) -> list[Model]:
    return [e for o in state.detachments if o.owner != d.owner and not o.in_reserve for e in o.live]


def test_li_eng_1_contacts_agree_with_base_contact_model_by_model() -> None:
    """LI-ENG-1, LI-ENG-3, LI-MOVE-5: Engaged pairs, who a Detachment is Engaged with, its models in contact and
    whether all are, read from the board's contact table, are what base contact between each two models gives."""
    for seed in SEEDS:
        state = _crowd(seed)
        pairs = set()
        for d in state.detachments:
            enemies = _enemies(state, d)
            touching = {x.id for x in d.live if any(in_base_contact(x, e) for e in enemies)}
            assert has_enemy_contact(state, d) == bool(touching)
            assert all_models_in_contact(state, d) == (bool(d.live) and touching == {x.id for x in d.live})
            assert locked(state, d) == touching
            others = sorted(
                o.id for o in state.detachments
                if o.owner != d.owner and not o.in_reserve and any(in_base_contact(x, e) for x in d.live for e in o.live)
            )
            assert engaged_with(state, d.id) == (tuple(others) if not d.in_reserve else ())
            pairs |= {frozenset((d.id, o)) for o in others if not d.in_reserve}
            copy = evolve(d, models=tuple(reversed(d.models)))  # a changed copy: measured model by model
            assert has_enemy_contact(state, copy) == bool(touching)
        assert engaged_pairs(state) == pairs
        assert pairs, "the crowd has contacts"


def test_li_move_3_free_run_skips_only_bases_beyond_the_run() -> None:
    """LI-MOVE-3, LI-MOVE-4: a model slides as far as the first base (or Engagement Zone) it would meet, exactly as
    ``first_touch`` against every other base gives, though bases beyond the whole run are never measured."""
    for seed in SEEDS:
        state, rng = _crowd(seed), random.Random(seed)
        for _, model in state.live_models():
            angle = rng.random() * 2 * math.pi
            direction = Point(math.cos(angle), math.sin(angle))
            length = rng.choice([0.5, 3.0, 8.0, 30.0])
            zone = rng.choice([None, "red", "blue"])
            run = length
            for d, other in state.live_models():
                if other.id != model.id:
                    reach = other.base_radius + (1 if zone is not None and d.owner == zone else 0.0)
                    t = first_touch(model.centre, direction, model.base_radius, other.centre, reach, EPS)
                    run = run if t is None else min(run, t)
            assert free_run(state, model, direction, length, zone_from=zone) == max(0.0, run)


def test_li_move_2_closest_gap_is_the_least_distance_between_models() -> None:
    """§3.7: the gap between two Detachments is the least base-to-base distance between their models, kept only
    while neither Detachment's models change."""
    state = _crowd(3)
    r1, b2 = state.detachment("r1"), state.detachment("b2")
    assert closest_gap(r1, b2) == min(distance(x, e) for x in r1.live for e in b2.live)
    moved = b2.with_model(b2.models[0].at(Point(60.0, 40.0)))
    assert closest_gap(r1, moved) == min(distance(x, e) for x in r1.live for e in moved.live) != closest_gap(r1, b2)


def test_li_tgt_1_sightlines_agree_with_closest_visible() -> None:
    """LI-TGT-1, LI-TGT-2: the sightlines of a firing Detachment give each model's ``closest_visible`` and
    ``in_sight`` of the target, with the scenario's blocked lines of sight."""
    blocked = [["r2-1", "b3-1"], ["r2-2", "b3-1"], ["r2-2", "b3-2"]]
    for seed in SEEDS:
        state = _crowd(seed)
        state = evolve(state, battle=evolve(state.battle, no_sight=frozenset(frozenset(p) for p in blocked)))
        for firing in ("r1", "r2"):
            for target in ("b1", "b2", "b3"):
                lines = sightlines(state, state.detachment(firing), state.detachment(target))
                assert [f.id for f, _, _ in lines] == [f.id for f in state.detachment(firing).live]
                for f, closest, seen in lines:
                    assert closest == closest_visible(state, f, state.detachment(target))
                    assert seen == in_sight(state, f, state.detachment(target))
        assert [x.id for x, _ in in_sight(state, state.model("r2-2"), state.detachment("b3"))] == ["b3-3", "b3-4"]
