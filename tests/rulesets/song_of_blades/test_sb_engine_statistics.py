"""Seeded statistical checks: the engine's combat-roll draws agree with the exact `melee` distribution."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sb_engine_support import chance, model, pending_roll, ready, results, state_of, step
from scipy.stats import chisquare

from kessen.dice import draw, draw_many, stream
from kessen.rulesets.song_of_blades.referee import game as g
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.rules.melee import melee


def chi_square_p(observed: Counter[Any], probabilities: dict[Any, Any], n: int) -> float:
    """The chi-square p-value of observed counts against exact probabilities (every outcome of the dist)."""
    assert set(observed) <= set(probabilities)
    keys = sorted(probabilities, key=repr)
    expected = [float(probabilities[k]) * n for k in keys]
    return float(chisquare([observed.get(k, 0) for k in keys], expected).pvalue)


def test_sb_melee_3_sampled_combat_roll_matches_exact_distribution() -> None:
    """SB-MELEE-3..6 (EX-1 position): 40 000 seeded draws at the engine's combat-roll node agree with the exact melee
    distribution of its Melee input (chi-square, p > 0.001)."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    node = chance(state, "combat roll")
    exact = melee(pending_roll(state).roll).probabilities()
    assert results(node).probabilities() == exact
    n = 40_000
    observed = Counter(rolled.outcome for rolled in draw_many(node.dist, stream(20240601), n))
    assert len(observed) == len(exact)  # every outcome turns up
    assert chi_square_p(observed, exact, n) > 0.001


def test_sb_out_1_engine_attacks_match_exact_distribution() -> None:
    """SB-OUT-1, SB-MOD-1, SB-MELEE-4: 3 000 whole engine attacks (draw at the chance node, apply, read the
    combat-roll event) by A (C4) on a fallen B (C3) touched by two Red models agree with the exact distribution."""
    state = state_of([model("A", 100, 100, combat=4), model("R", 125, 125)], [model("B", 125, 100, state="fallen")])
    state = step(ready(state, "Red", "A"), opt.Attack("B"))[0]
    node = chance(state, "combat roll")
    roll = pending_roll(state).roll
    assert roll.defender_state == "fallen" and roll.defender_enemies_in_contact == 2
    rng = stream(7)
    observed: Counter[Any] = Counter()
    n = 3_000
    for _ in range(n):
        outcome = draw(node.dist, rng)
        _, events = g.GAME.apply(state, outcome)
        result = next(e for e in events if e.type == "combat_roll")
        observed[(result.verdict, result.result)] += 1  # type: ignore[attr-defined]
    exact: dict[Any, Any] = {}
    for o, p in melee(roll).probabilities().items():
        verdict = "tie" if o.winner == "none" else f"{o.winner}_wins"  # B is fallen, not defensive: never "held"
        exact[(verdict, o.result)] = exact.get((verdict, o.result), 0) + p
    assert chi_square_p(observed, exact, n) > 0.001
