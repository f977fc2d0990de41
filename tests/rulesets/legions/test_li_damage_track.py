"""R as one chain over the damage track: the track itself, and one sweep for every hit count (§5.1, LI-ALLOC, LI-VOID)."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.dice import Dist
from kessen.rulesets.legions.rules.allocation import (
    HitsResolved,
    allocation_order,
    damage_track,
    losses_after_each_hit,
    resolve,
    results_along,
)
from kessen.rulesets.legions.rules.saves import TargetProfile
from kessen.rulesets.legions.rules.saves import Attack

TANK = TargetProfile("vehicle", 2, 2, 4)


def test_li_wound_1_li_save_3_two_wound_tank_track_and_chain() -> None:
    """LI-WOUND-1, LI-SAVE-3: a 2-Wound tank on a 4+ save loses a Wound per failed save (3 of 6 faces stop a hit)."""
    track = damage_track([TANK], Attack())
    assert [(loss.stopped, loss.after) for loss in track] == [(3, HitsResolved(1, 0, 0)), (3, HitsResolved(2, 1, 0))]
    # hand count out of 6**h: 1 hit 3:3; 2 hits 3·3 : 3·3 + 3·3 : 3·3; then the tank is gone (LI-ALLOC-4)
    assert losses_after_each_hit(track, 3) == [[1], [3, 3], [9, 18, 9], [27, 81, 108]]


def test_li_void_2_shields_without_ap_end_the_track() -> None:
    """LI-VOID-2: a hit without AP −1 or better is discarded by active shields, so no hit ever gets through."""
    titan = TargetProfile("titan", 12, 12, 2, void_shields=3)
    assert damage_track([titan, TANK], Attack(ap=0)) == ()
    track = damage_track([titan], Attack(ap=-1))
    # three shields fall for sure, then the 2+ Armour Save at AP −1 is 3+: 4 faces of 6 stop a hit
    assert [loss.stopped for loss in track[:4]] == [0, 0, 0, 4]
    assert track[2].after == HitsResolved(0, 0, 3)


def test_li_save_4_save_that_always_passes_ends_the_track() -> None:
    """LI-SAVE-4: a 1+ save passes whatever the die, so the current model stops every hit and later models are safe."""
    armoured = TargetProfile("infantry", 1, 1, 2)
    assert damage_track([armoured, TANK], Attack(armour_save_modifier=1)) == ()


def test_li_alloc_4_track_ends_after_the_last_model() -> None:
    """LI-ALLOC-4: once every model is destroyed further hits are discarded: the last state keeps its weight."""
    track = damage_track([TargetProfile("infantry", 1, 1, None)], Attack())
    assert losses_after_each_hit(track, 3) == [[1], [0, 6], [0, 36], [0, 216]]
    assert resolve((TargetProfile("infantry", 1, 1, None),), Attack(), 3) == Dist.always(HitsResolved(1, 1, 0))


def _one_hit_at_a_time(order: tuple[TargetProfile, ...], attack: Attack, hits: int) -> Dist[HitsResolved]:
    """R hit by hit over (losses taken) with Dist.bind: the plain reading the sweep must agree with."""
    track = damage_track(order, attack)
    states = Dist.always(0)
    for _ in range(hits):
        states = states.bind(
            lambda p: Dist.always(p) if p == len(track) else Dist({p: track[p].stopped, p + 1: 6 - track[p].stopped})
        )
    return states.map(lambda p: results_along(track)[p])


profiles = st.builds(
    lambda kind, wounds, lost, armour, shields: TargetProfile(
        kind, wounds, max(1, wounds - lost), armour, void_shields=shields if kind == "titan" else 0
    ),
    st.sampled_from(["infantry", "vehicle", "titan"]),
    st.integers(1, 3),
    st.integers(0, 2),
    st.sampled_from([None, 2, 3, 4, 5, 6]),
    st.integers(0, 2),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(profiles, min_size=1, max_size=4), st.integers(-3, 0), st.integers(0, 8))
def test_li_alloc_3_sweep_gives_every_hit_count(models: list[TargetProfile], ap: int, hits: int) -> None:
    """LI-ALLOC-3: the chain after h hits is the prefix of the chain after h + 1, so one sweep answers every count."""
    order = allocation_order(models, [True] * len(models))
    attack = Attack(ap=ap)
    rows = losses_after_each_hit(damage_track(order, attack), hits)
    for h, row in enumerate(rows):
        assert sum(row) == 6**h
        assert resolve(order, attack, h) == _one_hit_at_a_time(order, attack, h)
    assert sum(F(w, 6**hits) for w in rows[hits]) == 1
