"""Shared helpers for the battlehost tests: outcome tables, brute-force enumeration, strategies."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import product
from math import prod
from typing import Any, TypeVar

from hypothesis import strategies as st

import kessen
from kessen.rulesets.battlehost.rules.strikes import Striker, StrikeTarget

O = TypeVar("O", bound=Hashable)


def table(procedure: str, data: dict[str, Any]) -> dict[tuple[Any, ...], Fraction]:
    """The odds of a battlehost procedure as {outcome field values in order: probability}."""
    result = kessen.odds("battlehost", procedure, data)
    assert sum(p for _, p in result.outcomes) == 1
    return {tuple(o.values()): p for o, p in result.outcomes}


def brute_force(procedure: Callable[..., O], sides: tuple[int, ...]) -> dict[O, Fraction]:
    """Every combination of die faces, equally likely: the plain-enumeration oracle."""
    weight = Fraction(1, prod(sides))
    out: defaultdict[O, Fraction] = defaultdict(Fraction)
    for faces in product(*(range(1, n + 1) for n in sides)):
        out[procedure(*faces)] += weight
    return dict(out)


def score_by_hand(natural: int, modifier: int) -> int:
    """BH-DICE-2 restated for the oracles: natural plus modifier, clamped to 1..6."""
    return max(1, min(6, natural + modifier))


# The wound chart of BH-WOUND-2, transcribed cell by cell from the spec (rows S1..S10, columns D1..D10).
WOUND_CHART_TEXT = """
4 5 5 6 6 6/4 6/5 6/6 - -
4 4 5 5 6 6 6/4 6/5 6/6 -
3 4 4 5 5 6 6 6/4 6/5 6/6
3 3 4 4 5 5 6 6 6/4 6/5
3 3 3 4 4 5 5 6 6 6/4
3 3 3 3 4 4 5 5 6 6
3 3 3 3 3 4 4 5 5 6
3 3 3 3 3 3 4 4 5 5
3 3 3 3 3 3 3 4 4 5
3 3 3 3 3 3 3 3 4 4
"""
WOUND_CHART: dict[tuple[int, int], str] = {
    (s, d): cell
    for s, row in enumerate(WOUND_CHART_TEXT.strip().splitlines(), start=1)
    for d, cell in enumerate(row.split(), start=1)
}


def wound_chance_by_hand(strength: int, defence: int, modifier: int = 0) -> Fraction:
    """BH-WOUND-1/3 from the transcribed chart, counting faces: an oracle independent of kessen's chart code."""
    cell = WOUND_CHART[(strength, defence)]
    if cell == "-":
        return Fraction(0)
    needs = [int(x) for x in cell.split("/")]
    chance = Fraction(1)
    for needed in needs:
        chance *= Fraction(sum(1 for f in range(1, 7) if score_by_hand(f, modifier) >= needed), 6)
    return chance


duel_model = st.fixed_dictionaries(
    {"fight": st.integers(1, 10), "attacks": st.integers(1, 2)},
    optional={"two_handed": st.booleans(), "duel_modifier": st.integers(-3, 3)},
)


def duel_by_hand(good: list[dict[str, Any]], evil: list[dict[str, Any]], good_might: int, evil_might: int):  # type: ignore[no-untyped-def]
    """BH-DUEL-1..9 and the Might policy restated literally over every die and the roll-off die."""
    owners = [("good", m) for m in good for _ in range(m["attacks"])] + [("evil", m) for m in evil for _ in range(m["attacks"])]
    gf, ef = max(m["fight"] for m in good), max(m["fight"] for m in evil)

    def chance(own: int, other: int, own_f: int, other_f: int) -> Fraction:
        return Fraction(1) if own > other or (own == other and own_f > other_f) else Fraction(1, 2) if (own == other and own_f == other_f) else Fraction(0)

    def duel(*faces: int) -> tuple[str, str, int]:
        best = {"good": 1, "evil": 1}
        for (side, m), face in zip(owners, faces):
            modifier = m.get("duel_modifier", 0) - (1 if m.get("two_handed", False) else 0)
            best[side] = max(best[side], max(1, min(6, face + modifier)))
        spent = 0
        for side, might, own_f, other_f in (("good", good_might, gf, ef), ("evil", evil_might, ef, gf)):
            if might:
                other = best["evil" if side == "good" else "good"]
                options = [k for k in range(might + 1) if best[side] + k <= 6]
                values = [chance(best[side] + k, other, own_f, other_f) for k in options]
                spent = options[values.index(max(values))]
                best[side] += spent
        g, e = best["good"], best["evil"]
        if g != e:
            return ("good" if g > e else "evil", "score", spent)
        if gf != ef:
            return ("good" if gf > ef else "evil", "fight_value", spent)
        return ("good" if faces[-1] >= 4 else "evil", "roll_off", spent)

    return duel, (6,) * (len(owners) + 1)


def strikes_tree(strikers: Sequence[Striker], targets: Sequence[StrikeTarget]) -> dict[tuple[int, int], Fraction]:
    """The default allocation roll by roll, every roll a branch, no merging: the reference for resolve_strikes."""
    out: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
    plan = [s for s in strikers for _ in range(s.attacks)]

    def walk(k: int, left: tuple[int, ...], weight: Fraction) -> None:
        if k == len(plan):
            hurt = sum(t.wounds - w for t, w in zip(targets, left))
            out[(hurt, sum(1 for w in left if w == 0))] += weight
            return
        alive = [i for i, w in enumerate(left) if w > 0]
        if not alive:
            walk(k + 1, left, weight)  # BH-STRIKE-9: the strike is lost
            return
        aim = alive[0]
        p = wound_chance_by_hand(plan[k].strength, targets[aim].defence, 1 if plan[k].two_handed else 0)
        rolls = 2 if targets[aim].trapped else 1

        def roll(r: int, now: tuple[int, ...], w: Fraction) -> None:
            if r == rolls or now[aim] == 0:  # the second roll is lost once the target is slain
                walk(k + 1, now, w)
                return
            hit = now[:aim] + (now[aim] - 1,) + now[aim + 1 :]
            if p:
                roll(r + 1, hit, w * p)
            if p != 1:
                roll(r + 1, now, w * (1 - p))

        roll(0, left, weight)

    walk(0, tuple(t.wounds for t in targets), Fraction(1))
    return {k: v for k, v in out.items() if v}
