"""Firing: hit rolls, the Engaged-target penalty, obscuration, and `fire` against brute force (LI-HIT, LI-TGT, LI-OBSC, LI-FIRE, LI-FAST)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction as F
from itertools import product
from typing import Any

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.dice import binomial
from kessen.io.validation import validate_data
from kessen.rulesets.legions.procedures import FireInput
from kessen.rulesets.legions.rules.firing import fire
from kessen.rulesets.legions.rules.hit_rolls import hit_chance, hit_pool, hit_roll_hits
from kessen.rulesets.legions.rules.targeting import engaged_penalty, may_receive_hits

ARMOURED = {"vehicle", "super_heavy_vehicle", "knight", "titan"}
SCALES = {"infantry": 1, "cavalry": 1, "walker": 1, "vehicle": 2, "super_heavy_vehicle": 3, "knight": 4, "titan": 5}
PENALTY = {0: 0, 25: 1, 50: 2}


def table(procedure: str, data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    return {tuple(o.values()): q for o, q in kessen.odds("legions", procedure, data).outcomes}


# --- an independent, plain reading of §5.1–5.2 that rolls every die -------------------------


def _expand(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    models = []
    for e in targets:
        for _ in range(e.get("count", 1)):
            wounds = e.get("wounds", 1)
            models.append(
                {
                    "type": e.get("type", "infantry"),
                    "wounds": wounds,
                    "left": e.get("wounds_remaining", wounds),
                    "armour": e["armour_save"],
                    "special": e.get("special_save"),
                    "cover": e.get("cover_save"),
                    "shields": e.get("void_shields", 0),
                    "eligible": e.get("eligible", True),
                    "penalty": PENALTY[e.get("obscured", 0)],
                    **({"rear": e["rear"]} if "rear" in e else {}),
                }
            )
    return models


def _resolve_with_dice(data: dict[str, Any], models: list[dict[str, Any]], allowed: list[bool], saves: tuple[int, ...]) -> tuple[int, int, int]:
    models = [dict(m) for m in models]
    start_left = [m["left"] for m in models]
    start_shields = [m["shields"] for m in models]
    ap, light_at, rear = data.get("ap", 0), data.get("light_at", False), data.get("rear_arc", False)
    for die in saves:
        alive = [i for i, m in enumerate(models) if allowed[i] and m["left"] > 0]
        wounded = [i for i in alive if models[i]["left"] < models[i]["wounds"]]
        if not alive:
            continue  # discarded
        m = models[(wounded or alive)[0]]
        armoured = m["type"] in ARMOURED
        trait_ap = 0 if light_at and armoured else ap
        if m["shields"] > 0:
            if trait_ap <= -1:
                m["shields"] -= 1
            continue
        final_ap = trait_ap - (1 if m.get("rear", rear) and armoured else 0)
        options = [s for s in (m["special"], m["cover"]) if s is not None]
        if m["armour"] is not None:
            options.append(m["armour"] - final_ap - data.get("armour_save_modifier", 0))
        if options and (min(options) <= 1 or (min(options) <= 6 and die >= min(options))):
            continue
        m["left"] -= 1
    wounds = sum(s - m["left"] for s, m in zip(start_left, models))
    destroyed = sum(1 for m in models if m["left"] == 0)
    shields = sum(s - m["shields"] for s, m in zip(start_shields, models))
    return wounds, destroyed, shields


def brute_resolve(data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    models = _expand(data["target_models"])
    allowed = [m["eligible"] for m in models]
    out: dict[tuple[Any, ...], F] = defaultdict(F)
    for saves in product(range(1, 7), repeat=data["hits"]):
        w, dd, s = _resolve_with_dice(data, models, allowed, saves)
        out[(w, dd, s, 2 * w >= len(models))] += F(1, 6 ** data["hits"])
    return dict(out)


def brute_fire(data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    models = _expand(data["target_models"])
    chosen = data.get("obscuration_penalty", max(m["penalty"] for m in models if m["eligible"]))
    allowed = [m["eligible"] and m["penalty"] <= chosen for m in models]
    scale = data.get("target_scale", max(SCALES[m["type"]] for m in models))
    engaged = 1 if any(scale < s + 2 for s in data.get("target_engaged_with_scales", [])) else 0
    modifier = data.get("hit_modifier", 0) - engaged - chosen
    n = data["firing_models"] * data.get("dice", 1)
    out: dict[tuple[Any, ...], F] = defaultdict(F)
    for faces in product(range(1, 7), repeat=n):
        hits = sum(1 for f in faces if f == 6 or (f != 1 and f + modifier >= data["to_hit"]))
        for saves in product(range(1, 7), repeat=hits):
            w, dd, s = _resolve_with_dice(data, models, allowed, saves)
            out[(hits, w, dd, s, 2 * w >= len(models))] += F(1, 6 ** (n + hits))
    return dict(out)


save_value = st.one_of(st.none(), st.integers(2, 6))


@st.composite
def target_entry(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(SCALES)))
    wounds = draw(st.integers(1, 3))
    entry: dict[str, Any] = {"type": kind, "wounds": wounds, "armour_save": draw(save_value), "count": draw(st.integers(1, 2))}
    entry["wounds_remaining"] = draw(st.integers(1, wounds))
    for name in ("special_save", "cover_save"):
        if draw(st.booleans()):
            entry[name] = draw(save_value)
    if draw(st.integers(0, 3)) == 0:
        entry["void_shields"] = draw(st.integers(1, 2))
    if draw(st.integers(0, 3)) == 0:
        entry["eligible"] = False
    if kind in ("knight", "titan"):
        entry["obscured"] = draw(st.sampled_from([0, 25, 50]))
    return entry


@st.composite
def attack(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "ap": draw(st.integers(-3, 0)),
        "light_at": draw(st.booleans()),
        "rear_arc": draw(st.booleans()),
        "armour_save_modifier": draw(st.integers(-1, 1)),
    }


# --- hit rolls ----------------------------------------------------------------------------------


def test_li_hit_1_modified_result_against_to_hit() -> None:
    """LI-HIT-1: a die hits when face + modifiers ≥ To Hit: at 4+ with −1, faces 5 and 6 hit."""
    assert [hit_roll_hits(f, to_hit=4, modifier=-1) for f in range(1, 7)] == [False, False, False, False, True, True]


def test_li_hit_2_natural_six_and_one_whatever_the_modifiers() -> None:
    """LI-HIT-2: with −6 only the 6 hits, with +6 only the 1 misses."""
    assert [hit_roll_hits(f, to_hit=6, modifier=-6) for f in range(1, 7)] == [False] * 5 + [True]
    assert [hit_roll_hits(f, to_hit=2, modifier=6) for f in range(1, 7)] == [False] + [True] * 5
    assert hit_chance(to_hit=6, modifier=-6) == F(1, 6)
    assert hit_chance(to_hit=2, modifier=6) == F(5, 6)


def test_li_hit_1_li_fast_1_hit_pool_is_binomial_against_icepool() -> None:
    """LI-HIT-1, LI-FAST-1: all hit dice rolled together; the hit count matches icepool's pool of 7 dice at 4+ with −1."""
    die = icepool.d6.map(lambda f: 1 if f == 6 or (f != 1 and f - 1 >= 4) else 0)
    oracle = (7 @ die)
    ours = hit_pool(7, to_hit=4, modifier=-1)
    for hits in range(8):
        assert ours.probability(hits) == F(oracle.quantity(hits), oracle.denominator())


# --- targets --------------------------------------------------------------------------------


def test_li_tgt_5_sc_tgt_1_engaged_penalty_by_scale() -> None:
    """LI-TGT-5 (SC-TGT-1): Titan vs 1 and 3: 0; add a 4: −1; Knight vs 1 and 2: 0; Vehicle vs 1: −1; not Engaged: 0."""
    assert engaged_penalty(5, [1, 3]) == 0
    assert engaged_penalty(5, [1, 3, 4]) == 1
    assert engaged_penalty(4, [1, 2]) == 0
    assert engaged_penalty(2, [1]) == 1
    assert engaged_penalty(1, []) == 0


def test_li_tgt_5_sc_eng_5_only_direct_opponents_count() -> None:
    """LI-TGT-5 (SC-ENG-5): A(4) vs [1]: 0; C(2) vs [1, 1]: −1; B(1) vs [4, 2]: −1; D(1) vs [2]: −1."""
    assert [engaged_penalty(4, [1]), engaged_penalty(2, [1, 1]), engaged_penalty(1, [4, 2]), engaged_penalty(1, [2])] == [0, 1, 1, 1]


def test_li_obsc_2_sc_tgt_4_which_knights_may_take_hits() -> None:
    """LI-OBSC-2, LI-ALLOC-2 (SC-TGT-4): K1 50%, K2 25%, K3 in view; −2: all; −1: K2, K3; 0: K3 only; a banner-only Knight: none."""
    own = [2, 1, 0]
    assert [[may_receive_hits(eligible=True, own_penalty=o, chosen_penalty=c) for o in own] for c in (2, 1, 0)] == [
        [True, True, True],
        [False, True, True],
        [False, False, True],
    ]
    assert not may_receive_hits(eligible=False, own_penalty=0, chosen_penalty=2)


def test_li_tgt_5_default_target_scale_from_types() -> None:
    """LI-TGT-5, §5.2: the target's Scale defaults to its highest model Scale (knight 4), so Engaged with a 2 gives no penalty."""
    base = {"firing_models": 2, "to_hit": 4, "target_models": [{"armour_save": 4}, {"type": "knight", "wounds": 2, "armour_save": 3}]}
    result = kessen.odds("legions", "fire", {**base, "target_engaged_with_scales": [2]})
    assert result.input["target_scale"] == 4
    assert result.outcomes == kessen.odds("legions", "fire", base).outcomes
    worse = kessen.odds("legions", "fire", {**base, "target_scale": 1, "target_engaged_with_scales": [2]})
    assert worse.probability(hits=0) == F(4, 9)  # −1: hits on 5+, (2/3)^2


def test_li_hit_4_modifiers_add_up() -> None:
    """LI-HIT-4: the Engaged penalty (−1), a 25% obscuration (−1) and +2 from another rule cancel out."""
    target = [{"type": "knight", "wounds": 3, "armour_save": 3, "obscured": 25}]
    plain = table("fire", {"firing_models": 3, "dice": 2, "to_hit": 4, "obscuration_penalty": 1, "hit_modifier": 1, "target_models": target})
    engaged = table(
        "fire",
        {"firing_models": 3, "dice": 2, "to_hit": 4, "hit_modifier": 2, "target_engaged_with_scales": [4], "target_models": target},
    )
    assert plain == engaged
    assert sum(q for k, q in plain.items() if k[0] == 0) == F(1, 64)  # hits on 4+: (1/2)^6


def test_li_fast_1_dice_value_times_models_is_one_pool() -> None:
    """LI-FAST-1: 3 models with Dice 4 roll the same 12 dice as 12 models with Dice 1."""
    target = [{"type": "vehicle", "wounds": 2, "armour_save": 4, "count": 3}]
    assert table("fire", {"firing_models": 3, "dice": 4, "to_hit": 4, "ap": -1, "target_models": target}) == table(
        "fire", {"firing_models": 12, "to_hit": 4, "ap": -1, "target_models": target}
    )


def test_li_fire_1_li_hit_3_fire_is_hit_rolls_then_resolving_hits() -> None:
    """LI-FIRE-1, LI-HIT-3: fire = Binomial hit count, then exactly resolve_hits with that many (automatic) hits."""
    target = [{"type": "knight", "wounds": 3, "armour_save": 3, "void_shields": 1}, {"armour_save": 5, "count": 3}]
    fired = table("fire", {"firing_models": 4, "dice": 2, "to_hit": 3, "ap": -1, "obscuration_penalty": 0, "target_models": target})
    hits = binomial(8, F(2, 3))
    expected: dict[tuple[Any, ...], F] = defaultdict(F)
    for h in range(9):
        for key, q in table("resolve_hits", {"hits": h, "ap": -1, "target_models": target}).items():
            expected[(h, *key)] += hits.probability(h) * q
    assert fired == dict(expected)


@settings(max_examples=60, deadline=None)
@given(
    firing_models=st.integers(1, 3),
    to_hit=st.integers(2, 6),
    hit_modifier=st.integers(-3, 3),
    engaged=st.lists(st.integers(1, 5), max_size=2),
    weapon=attack(),
    targets=st.lists(target_entry(), min_size=1, max_size=3),
    pick=st.integers(0, 2),
)
def test_li_fire_1_li_alloc_3_li_obsc_2_fire_matches_every_die_rolled(
    firing_models: int, to_hit: int, hit_modifier: int, engaged: list[int], weapon: dict[str, Any], targets: list[dict[str, Any]], pick: int
) -> None:
    """LI-FIRE-1, LI-ALLOC-1..4, LI-OBSC-2, LI-SAVE-1..9, LI-VOID-2: `fire` equals a plain roll of every hit and save die."""
    if not any(t.get("eligible", True) for t in targets):
        targets[0]["eligible"] = True
    offered = sorted({PENALTY[t.get("obscured", 0)] for t in targets if t.get("eligible", True)})
    data = {"firing_models": firing_models, "to_hit": to_hit, "hit_modifier": hit_modifier, "target_engaged_with_scales": engaged, **weapon, "target_models": targets}
    if pick < len(offered):
        data["obscuration_penalty"] = offered[pick]
    assert table("fire", data) == brute_fire(data)


@settings(max_examples=60, deadline=None)
@given(
    firing_models=st.integers(1, 2),
    weapon=attack(),
    targets=st.lists(target_entry(), min_size=1, max_size=3),
    rears=st.lists(st.booleans(), min_size=3, max_size=3),
)
def test_li_arc_1_mixed_arcs_fire_matches_every_die_rolled(
    firing_models: int, weapon: dict[str, Any], targets: list[dict[str, Any]], rears: list[bool]
) -> None:
    """LI-ARC-1: with the firing models in the rear arc of some target models and the front arc of others, each hit is
    saved from the arc of the model it is allocated to: the exact ``fire`` question with an arc per model equals a
    plain roll of every hit and save die, each save judged from the arc of the model taking that hit."""
    if not any(t.get("eligible", True) for t in targets):
        targets[0]["eligible"] = True
    data = {"firing_models": firing_models, "to_hit": 4, **weapon, "target_models": targets}
    question = validate_data(FireInput, data).question()
    arcs = [rears[i] for i, t in enumerate(targets) for _ in range(t.get("count", 1))]
    mixed = replace(question, models=tuple(replace(p, rear_arc=r) for p, r in zip(question.models, arcs, strict=True)))
    for entry, rear in zip(targets, rears):
        entry["rear"] = rear
    exact = {(o.hits, o.wounds, o.destroyed, o.shields_lost, o.morale_threshold_reached): q for o, q in fire(mixed).probabilities().items()}
    assert exact == brute_fire(data)


@settings(max_examples=60, deadline=None)
@given(hits=st.integers(0, 4), weapon=attack(), targets=st.lists(target_entry(), min_size=1, max_size=3))
def test_li_alloc_3_li_alloc_4_li_void_2_resolve_hits_matches_every_die_rolled(hits: int, weapon: dict[str, Any], targets: list[dict[str, Any]]) -> None:
    """LI-ALLOC-1..4, LI-SAVE-1..9, LI-ARC-1, LI-VOID-1..3, LI-WOUND-1: the Markov chain of R equals rolling every save die."""
    data = {"hits": hits, **weapon, "target_models": targets}
    assert table("resolve_hits", data) == brute_resolve(data)


@settings(max_examples=40, deadline=None)
@given(to_hit=st.integers(2, 6), hit_modifier=st.integers(-3, 2), targets=st.lists(target_entry(), min_size=1, max_size=3), weapon=attack())
def test_li_hit_1_easier_to_hit_never_fewer_hits_or_wounds(to_hit: int, hit_modifier: int, targets: list[dict[str, Any]], weapon: dict[str, Any]) -> None:
    """LI-HIT-1: one more to the hit modifier never lowers P(hits ≥ k) or P(wounds ≥ k)."""
    for t in targets:
        t["eligible"] = True
    base = {"firing_models": 5, "dice": 2, "to_hit": to_hit, **weapon, "target_models": targets}
    worse = kessen.odds("legions", "fire", {**base, "hit_modifier": hit_modifier}).outcomes
    better = kessen.odds("legions", "fire", {**base, "hit_modifier": hit_modifier + 1}).outcomes
    for field in ("hits", "wounds"):
        for k in range(11):
            at_least = [sum((q for o, q in rows if o[field] >= k), F(0)) for rows in (worse, better)]
            assert at_least[0] <= at_least[1]
