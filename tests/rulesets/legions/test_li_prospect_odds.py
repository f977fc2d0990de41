"""legions' odds where an Order, a move or an activation leads to dice (issue 24 §4): a firing Order and an
activation show the best attack the Detachment could make (its volleys chained as one attack), an Advance
Detachment's move the best attack from where it would stand, a Charge Detachment's move the combat it would start;
each number equal to the procedures' own, and the calculator's input (where one procedure gives them) asking for the
very numbers shown."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen import odds as calculator
from kessen.match import Match, Option, PendingDecision
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.firing import attack_damage
from kessen.rulesets.legions.referee.movement import ChargeAt
from kessen.rulesets.legions.referee.prospects import after_move, charge_combat
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire, fire_options
from kessen.rulesets.legions.rules.close_combat import combat

ROOT = Path(__file__).resolve().parents[3]
SIDES = ("Auxilia", "Traitors")


def _best(state: LiState, det_id: str) -> tuple[Fire, dict[str, Fraction]] | None:
    """The attack with the highest mean losses, then the likeliest Wound, worked out here from ``attack_damage``."""
    det = state.detachment(det_id)
    rated = []
    for k, option in enumerate(fire_options(state, det)):
        if isinstance(option, Fire):
            damage = attack_damage(state, det, option)
            numbers = {
                "expected_damage": damage.map(lambda d: d.losses).mean(),
                "p_wound": damage.probability(lambda d: d.wounds > 0),
                "expected_destroyed": damage.map(lambda d: d.destroyed).mean(),
            }
            rated.append(((numbers["expected_damage"], numbers["p_wound"], -k), option, numbers))
    if not rated:
        return None
    _, option, numbers = max(rated, key=lambda r: r[0])
    return option, numbers


def _play(match: Match, wanted: Any, *, order: str = "advance", steps: int = 600) -> PendingDecision:
    """Play on by hand, each Detachment given *order* where it may be, until ``wanted(state, decision)``."""
    for _ in range(steps):
        match.run()
        d = match.decision
        assert d is not None
        if wanted(match.state, d):
            return d
        chosen = next((o for o in d.options if o.choice == order), None) if d.kind == "order" else None
        charges = [o for o in d.options if isinstance(o.choice, ChargeAt)]
        match.choose(chosen or (charges[0] if charges else d.options[0]))
    raise AssertionError("no such decision")


def _calculated(option: Option) -> dict[str, Fraction]:
    """The numbers the odds calculator gives for the option's input, as the option names them."""
    assert option.calculator is not None
    procedure, data = option.calculator
    assert procedure == "fire"
    outcomes = calculator("legions", procedure, data).outcomes

    def mean(field: str) -> Fraction:
        return sum((o[field] * p for o, p in outcomes), Fraction(0))

    return {
        "expected_damage": mean("wounds") + mean("shields_lost"),
        "p_wound": sum((p for o, p in outcomes if o["wounds"] > 0), Fraction(0)),
        "expected_destroyed": mean("destroyed"),
    }


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_LI_STAGE_2_a_firing_order_shows_the_best_attack_from_where_the_detachment_stands(lang: str) -> None:
    """LI-STAGE-2, LI-FIRE-2: First Fire and Advance Orders show the exact odds of the Detachment's best attack (the
    highest mean losses); Charge, March and Fall Back, which fire at nothing, show none."""
    match = Match.open(ROOT / "examples" / "legions" / "hold-the-line.toml", seed=3, people=SIDES, lang=lang)
    d = _play(match, lambda state, d: d.kind == "order" and any(o.odds for o in d.options))
    state = match.state
    best = _best(state, state.pending[0].detachment)
    assert best is not None
    for option in d.options:
        if option.choice in ("first_fire", "advance"):
            assert option.odds == best[1]
            assert best[0].target in option.text
        else:
            assert option.odds is None


def test_LI_ACT_1_an_activation_shows_the_detachments_best_attack() -> None:
    """LI-ACT-1: each Detachment the player may activate shows its best attack's exact odds, as the target decision
    that follows shows that attack."""
    match = Match.open(ROOT / "examples" / "legions" / "hold-the-line.toml", seed=3, people=SIDES)
    d = _play(match, lambda state, d: d.kind == "activation")
    state = match.state
    for option in d.options:
        best = _best(state, option.choice)
        assert option.odds == (None if best is None else best[1])
    shown = d.options[0]
    match.choose(shown)
    match.run()
    target = match.decision
    assert target is not None and target.kind == "target"
    assert shown.odds in [o.odds for o in target.options]


def test_LI_MOVE_1_an_advance_move_shows_the_best_attack_from_where_it_puts_the_detachment() -> None:
    """LI-MOVE-1, LI-STAGE-2: an Advance Detachment's suggested moves each show the best attack from where the move
    puts its models (it fires in the Advancing Fire stage)."""
    match = Match.open(ROOT / "examples" / "legions" / "hold-the-line.toml", seed=3, people=SIDES)
    d = _play(match, lambda state, d: d.kind == "move" and any(o.odds for o in d.options))
    state = match.state
    step = state.pending[0]
    assert isinstance(step, st.MoveDetachment)
    for option in d.options:
        moved = after_move(state, step, option.choice)
        best = None if moved is None else _best(moved, step.detachment)
        assert option.odds == (None if best is None else best[1])


def test_LI_RESULT_1_a_charge_shows_the_combat_it_starts() -> None:
    """LI-PAIR-3, LI-RESULT-1: a Charge Detachment's move into contact shows its side's exact chance to win and to
    lose the combat the ``combat`` procedure gives for its default pairing, and opens that procedure."""
    match = Match.open(ROOT / "examples" / "legions" / "hold-the-line.toml", seed=3, people=SIDES)
    d = _play(match, lambda state, d: d.kind == "move" and any(o.odds and "combat_won" in o.odds for o in d.options), order="charge")
    state = match.state
    step = state.pending[0]
    option = next(o for o in d.options if o.odds and "combat_won" in o.odds)
    moved = after_move(state, step, option.choice)
    assert moved is not None
    found = charge_combat(moved, step.detachment)
    assert found is not None
    question, side = found
    dist = combat(question)
    assert option.odds == {
        "combat_won": dist.probability(lambda o: o.winner == side),
        "combat_lost": dist.probability(lambda o: o.winner not in (side, "draw")),
    }
    assert option.calculator is not None and option.calculator[0] == "combat"
    assert calculator("legions", "combat", option.calculator[1]).probability(winner=side) == option.odds["combat_won"]


def test_LI_FIRE_2_every_link_to_the_calculator_asks_for_the_numbers_shown() -> None:
    """LI-FIRE-2, §5.2: wherever an order, a move, an activation or an attack of one volley opens the calculator, its
    ``fire`` input gives the numbers shown beside the option; an attack of several volleys opens none."""
    match = Match.open(ROOT / "examples" / "legions" / "hold-the-line.toml", seed=3, people=SIDES)
    checked: set[str] = set()
    for _ in range(400):
        match.run()
        d = match.decision
        if d is None:
            break
        for option in d.options:
            if option.calculator is not None and option.calculator[0] == "fire" and "expected_damage" in (option.odds or {}):
                assert _calculated(option) == option.odds
                checked.add(d.kind)
        match.choose(d.options[0])
    assert {"order", "move", "activation", "target"} <= checked
