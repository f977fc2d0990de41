"""A whole fight: duel, trapped and prone losers, strikes (BH-FIGHT-3, BH-BACK-4/5, BH-STRIKE-*, BH-PROC-5, E12–E14)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from bh_support import brute_force, duel_by_hand, strikes_tree, table
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare
from typer.testing import CliRunner

import kessen
from kessen.cli.main import app
from kessen.core.errors import InputError
from kessen.dice import stream
from kessen.rulesets.battlehost.rules.dice import raise_with_might
from kessen.rulesets.battlehost.rules.duel import decide_duel, duel_scores, duel_winner, might_to_spend, side_best
from kessen.rulesets.battlehost.rules.strikes import (
    Striker,
    StrikeTarget,
    makes_strikes,
    rolls_per_strike,
    strike_targets_allowed,
)
from kessen.rulesets.battlehost.rules.wounding import needs_second_die, to_wound_modifier, wound_chart, wound_roll_succeeds

F = Fraction

ORC = {"fight": 3, "attacks": 1, "strength": 3, "defence": 5}
HERO = {"fight": 5, "attacks": 2, "strength": 4, "defence": 6, "wounds": 2}
E12 = {"good": [{"fight": 4, "attacks": 1, "strength": 3, "defence": 5}], "evil": [{**ORC, "trapped": True}]}
E13 = {"good": [HERO], "evil": [ORC, {**ORC, "trapped": True}]}


def test_bh_back_4_e12_one_against_one_trapped_loser() -> None:
    """BH-BACK-4, BH-STRIKE-5, worked example E12: Good wins 7/12 and strikes the trapped orc twice (5+ each)."""
    assert table("fight", E12) == {
        ("good", "score", 0, 1, 1): F(25, 108),
        ("good", "score", 0, 0, 0): F(5, 27),
        ("good", "fight_value", 0, 1, 1): F(5, 54),
        ("good", "fight_value", 0, 0, 0): F(2, 27),
        ("evil", "score", 0, 1, 1): F(5, 36),
        ("evil", "score", 0, 0, 0): F(5, 18),
    }


def test_bh_strike_7_e13_hero_against_two_orcs_one_trapped() -> None:
    """BH-STRIKE-7/8/9, worked example E13: a hero's two strikes go to the first orc until it dies, then the trapped one."""
    got = table("fight", E13)
    assert got == {
        ("good", "score", 0, 0, 0): F(505, 2916),
        ("good", "score", 0, 1, 1): F(2525, 17496),
        ("good", "score", 0, 2, 2): F(2525, 34992),
        ("good", "fight_value", 0, 0, 0): F(143, 1458),
        ("good", "fight_value", 0, 1, 1): F(715, 8748),
        ("good", "fight_value", 0, 2, 2): F(715, 17496),
        ("evil", "score", 0, 0, 0): F(12625, 46656),
        ("evil", "score", 0, 1, 0): F(2525, 23328),
        ("evil", "score", 0, 2, 1): F(505, 46656),
    }
    assert sum(p for k, p in got.items() if k[0] == "good") == F(791, 1296)
    assert sum(p for k, p in got.items() if k[3] >= 1) == F(2375, 5184)


def test_bh_back_5_prone_loser_counts_as_trapped() -> None:
    """BH-BACK-5: a prone model always counts as trapped if its side loses: when it loses, the same as a trapped one."""
    prone = table("fight", {"good": E12["good"], "evil": [{**ORC, "prone": True}]})
    trapped = table("fight", E12)
    assert {k: p for k, p in prone.items() if k[0] == "good"} == {k: p for k, p in trapped.items() if k[0] == "good"}
    assert prone[("evil", "score", 0, 0, 0)] == F(5, 12)  # and a prone winner strikes no one


def test_bh_back_5_prone_model_still_rolls_in_the_duel_but_makes_no_strikes() -> None:
    """BH-BACK-5: a prone model rolls in the duel normally; if its side wins it makes no strikes."""
    standing = table("fight", {"good": [{**ORC, "fight": 4}], "evil": [ORC]})
    prone = table("fight", {"good": [{**ORC, "fight": 4, "prone": True}], "evil": [ORC]})
    # Good still wins 7/12 (E8's duel) but inflicts nothing; Evil's strike at the prone (trapped) model is two 5+ rolls.
    assert sum(p for k, p in prone.items() if k[0] == "good") == F(7, 12)
    assert {k[3] for k in prone if k[0] == "good"} == {0}
    assert prone[("evil", "score", 0, 1, 1)] == F(5, 12) * (1 - F(2, 3) ** 2)
    assert standing[("evil", "score", 0, 1, 1)] == F(5, 12) * F(1, 3)


def test_bh_back_5_only_the_prone_model_forgoes_its_strikes() -> None:
    """BH-BACK-5 [DECISION], BH-STRIKE-1 (BH-SCN-25): two Good models, one prone, win: only the standing one strikes."""
    standing = {"fight": 3, "attacks": 1, "strength": 4, "defence": 4}
    got = kessen.odds("battlehost", "fight", {"good": [standing, {**standing, "prone": True}], "evil": [{"fight": 3, "attacks": 1, "strength": 3, "defence": 4, "wounds": 3}]})
    wins = got.probability(winner="good")
    # One striker, one 4+ roll: wounds ≤ 1 and P(1 wound | Good wins) = 1/2.
    assert got.probability(winner="good", wounds=1) == wins / 2
    assert got.probability(winner="good", wounds=2) == 0


def test_bh_strike_4_several_winners_all_strike_the_lone_loser() -> None:
    """BH-STRIKE-4/7, BH-PROC-5: two winners against one loser each make their A strikes at it, own Strength each."""
    two = [{"fight": 4, "attacks": 2, "strength": 4, "defence": 4}, {"fight": 4, "attacks": 1, "strength": 6, "defence": 4}]
    got = kessen.odds("battlehost", "fight", {"good": two, "evil": [{"fight": 3, "attacks": 1, "strength": 3, "defence": 4, "wounds": 3}]})
    wins = got.probability(winner="good")
    # Two 4+ rolls (S4 v D4) and one 3+ roll (S6 v D4): all three wound with (1/2)² · 2/3 = 1/6.
    assert got.probability(winner="good", wounds=3, slain=1) == wins * F(1, 6)


def test_bh_strike_6_two_handed_is_minus_one_duel_plus_one_to_wound_in_one_fight() -> None:
    """BH-DUEL-2/3, BH-STRIKE-6: a declared two-handed weapon costs a duel pip and adds one to wound."""
    heavy = kessen.odds("battlehost", "fight", {"good": [{**ORC, "fight": 4, "two_handed": True}], "evil": [ORC]})
    # The duel is E10's with one orc: Good scores max(1, g − 1) against e, wins ties on Fight 4.
    wins = sum((F(1, 36) for g in range(1, 7) for e in range(1, 7) if max(1, g - 1) >= e), F(0))
    assert heavy.probability(winner="good") == wins
    assert heavy.probability(winner="good", wounds=1) == wins * F(1, 2)  # S3 v D5 is 5+, with +1 4+


def _fight_by_hand(data: dict[str, Any]):  # type: ignore[no-untyped-def]
    """BH-PROC-5 restated: the enumerated duel (every die) then, for its winner, the roll-by-roll strike tree."""
    good, evil = data["good"], data["evil"]
    duel, dice = duel_by_hand(good, evil, data.get("good_might", 0), data.get("evil_might", 0))
    after = {}
    for side, winners, losers in (("good", good, evil), ("evil", evil, good)):
        strikers = [Striker(m["attacks"], m["strength"], m.get("two_handed", False)) for m in winners if not m.get("prone", False)]
        targets = [StrikeTarget(m["defence"], m.get("wounds", 1), m.get("trapped", False) or m.get("prone", False)) for m in losers]
        after[side] = strikes_tree(strikers, targets)
    out: defaultdict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    for (winner, how, spent), p in brute_force(duel, dice).items():
        for (wounds, slain), q in after[winner].items():
            out[(winner, how, spent, wounds, slain)] += p * q
    return dict(out)


fight_model = st.fixed_dictionaries(
    {"fight": st.integers(1, 10), "attacks": st.integers(1, 2), "strength": st.integers(1, 10), "defence": st.integers(1, 10)},
    optional={"wounds": st.integers(1, 3), "two_handed": st.booleans(), "duel_modifier": st.integers(-3, 3), "prone": st.booleans(), "trapped": st.booleans()},
)
fight_sides = st.tuples(st.lists(fight_model, min_size=1, max_size=3), st.lists(fight_model, min_size=1, max_size=1)).filter(
    lambda s: sum(m["attacks"] for m in s[0] + s[1]) <= 4
)


@settings(max_examples=100, deadline=None)
@given(sides=fight_sides, lone_is_good=st.booleans(), might=st.integers(0, 3))
def test_bh_fight_3_fight_matches_duel_then_strike_tree(sides: tuple[list[dict[str, Any]], list[dict[str, Any]]], lone_is_good: bool, might: int) -> None:
    """BH-FIGHT-3, BH-PROC-5: duel, then trapped/prone losers, then strikes; equals enumeration of duel dice and every strike roll."""
    many, lone = sides
    data = {"good": lone, "evil": many, "good_might": might} if lone_is_good else {"good": many, "evil": lone, "evil_might": might}
    assert table("fight", data) == _fight_by_hand(data)


@settings(max_examples=60, deadline=None)
@given(sides=fight_sides, might=st.integers(0, 6))
def test_bh_fight_3_duel_part_of_a_fight_is_the_duel(sides: tuple[list[dict[str, Any]], list[dict[str, Any]]], might: int) -> None:
    """BH-FIGHT-3: the fight's winner, decided_by and Might spent are distributed exactly as the duel procedure's."""
    many, lone = sides
    data = {"good": many, "evil": lone, "good_might": might}
    duel_only = {k: [{f: m[f] for f in ("fight", "attacks", "two_handed", "duel_modifier") if f in m} for m in v] for k, v in data.items() if k != "good_might"}
    duel = table("duel", {**duel_only, "good_might": might})
    fight: defaultdict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    for key, p in table("fight", data).items():
        fight[key[:3]] += p
    assert dict(fight) == duel


# --- the pure rule functions, played die by die as an engine would, against the exact answer ----


def _play(data: dict[str, Any], rng: Any) -> tuple[Any, ...]:
    """One fight rolled die by die with the rule functions an engine uses (BH-DUEL-*, BH-STRIKE-*, BH-WOUND-*)."""
    sides = {s: [{"wounds": 1, "two_handed": False, "duel_modifier": 0, "prone": False, "trapped": False, **m} for m in data[s]] for s in ("good", "evil")}
    fight_value = {s: max(m["fight"] for m in sides[s]) for s in sides}
    best = {
        s: side_best(score for m in sides[s] for score in duel_scores(rng.integers(1, 7, size=m["attacks"]).tolist(), two_handed=m["two_handed"], duel_modifier=m["duel_modifier"]))
        for s in sides
    }
    spent = 0
    for s, o in (("good", "evil"), ("evil", "good")):
        if data.get(f"{s}_might", 0):
            spent = might_to_spend(best[s], best[o], own_fight=fight_value[s], other_fight=fight_value[o], might=data[f"{s}_might"])
            best[s] = raise_with_might(best[s], spent)
    tie = decide_duel(best["good"], best["evil"], good_fight=fight_value["good"], evil_fight=fight_value["evil"]) is None
    decision = duel_winner(best["good"], best["evil"], good_fight=fight_value["good"], evil_fight=fight_value["evil"],
                           roll_off_face=int(rng.integers(1, 7)) if tie else None)
    winners, losers = sides[decision.winner], sides["evil" if decision.winner == "good" else "good"]
    left = [m["wounds"] for m in losers]
    for striker in winners:
        if not makes_strikes(prone=striker["prone"]):
            continue
        struck: list[int] = []
        modifier = to_wound_modifier(two_handed=striker["two_handed"])
        for _ in range(striker["attacks"]):
            allowed = strike_targets_allowed([w > 0 for w in left], struck)
            if not allowed:
                break
            aim = min(allowed)  # the default allocation: the first model in the list not yet slain
            if not struck or struck[-1] != aim:
                struck.append(aim)
            entry = wound_chart(striker["strength"], losers[aim]["defence"])
            for _roll in range(rolls_per_strike(trapped=losers[aim]["trapped"], prone=losers[aim]["prone"])):
                if left[aim] == 0:
                    break
                first = int(rng.integers(1, 7))
                second = int(rng.integers(1, 7)) if needs_second_die(entry, first, modifier=modifier) else None
                if wound_roll_succeeds(entry, first, second, modifier=modifier):
                    left[aim] -= 1
    wounds = sum(m["wounds"] - w for m, w in zip(losers, left))
    return (decision.winner, decision.decided_by, spent, wounds, sum(1 for w in left if w == 0))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("e13", E13),
        ("might", {"good": [{**HERO, "two_handed": True}], "evil": [{**ORC, "attacks": 2, "wounds": 2}], "good_might": 2}),
        ("three-orcs", {"good": [{**HERO, "attacks": 3, "fight": 3}], "evil": [ORC, {**ORC, "prone": True}, {**ORC, "wounds": 2}], "evil_might": 1}),
    ],
)
def test_bh_fight_3_dice_by_dice_play_agrees_with_the_exact_odds(name: str, data: dict[str, Any]) -> None:
    """BH-FIGHT-3, BH-DUEL-*, BH-STRIKE-*: 20,000 seeded fights rolled die by die fit the exact distribution (chi-squared)."""
    exact = table("fight", data)
    rng = stream(7)
    n = 20_000
    seen = Counter(_play(data, rng) for _ in range(n))
    assert set(seen) <= set(exact), set(seen) - set(exact)
    common = [k for k in exact if exact[k] * n >= 5]
    rare = [k for k in exact if k not in common]
    observed = [seen[k] for k in common] + ([sum(seen[k] for k in rare)] if rare else [])
    expected = [float(exact[k]) * n for k in common] + ([float(sum(exact[k] for k in rare)) * n] if rare else [])
    assert chisquare(observed, expected).pvalue > 1e-3


# --- BH-PROC-0 / BH-PROC-5: bad input, the structural errors and the CLI ----------------------

TWO_A_SIDE = {"good": [ORC, ORC], "evil": [ORC, ORC]}  # worked example E14


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (TWO_A_SIDE, "evil"),
        ({"good": [ORC], "evil": [ORC], "good_might": 2, "evil_might": 1}, "evil_might"),
        ({"good": [ORC], "evil": [{**ORC, "wounds": 21}]}, "evil[0].wounds"),
        ({"good": [ORC], "evil": [{"fight": 3, "attacks": 1, "strength": 3}]}, "evil[0].defence"),
        ({"good": [ORC], "evil": [{**ORC, "trapped": None}]}, "evil[0].trapped"),
        ({"good": [{**ORC, "side": "good"}], "evil": [ORC]}, "good[0].side"),
        ({"good": [ORC], "evil": [ORC], "priority": "good"}, "priority"),
        ({"good": [ORC], "evil": [ORC] * 9}, "evil"),
    ],
)
def test_bh_proc_0_fight_bad_input_names_the_field(data: dict[str, Any], field: str) -> None:
    """BH-PROC-0, BH-PROC-5, BH-FIGHT-1: bad fight input, two models a side among it, names the field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", "fight", data)
    assert caught.value.field == field


def test_bh_proc_0_fight_bad_input_through_the_cli() -> None:
    """BH-PROC-0, worked example E14: the CLI exits 2, prints nothing on stdout and names the field on stderr."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "kessen"), "odds", "battlehost", "fight", "--input", "-"],
        input=json.dumps(TWO_A_SIDE), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("kessen: error: evil: ") and "Traceback" not in done.stderr


def test_bh_proc_5_cli_prints_the_contract() -> None:
    """BH-PROC-5: the CLI prints the normalised input and reduced fractions summing to 1 (worked example E12)."""
    result = CliRunner().invoke(app, ["odds", "battlehost", "fight", "--input", "-"], input=json.dumps(E12))
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["input"]["good"][0] == {"fight": 4, "attacks": 1, "strength": 3, "defence": 5, "wounds": 1, "two_handed": False,
                                           "duel_modifier": 0, "prone": False, "trapped": False}
    assert printed["input"]["good_might"] == 0 and printed["input"]["evil"][0]["trapped"] is True
    assert sum(F(o["probability"]) for o in printed["outcomes"]) == 1
    assert {"winner": "good", "decided_by": "score", "might_spent": 0, "wounds": 1, "slain": 1} in [o["outcome"] for o in printed["outcomes"]]
