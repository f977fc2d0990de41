"""armies-clash odds where an activation or a move leads to an attack (issue 24 §4): in the Attack action, a stand to
activate and each square to move to show the best attack the piece would make (its mean damage and its decisive
effect's chance, as the attack shows them), and an attack, or the best attack an option leads to, opens the calculator
on the ``attack`` input whose numbers are the ones shown."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from kessen import odds as calculator
from kessen.match import Match
from kessen.rulesets.armies_clash.referee.attack import attack_odds, attack_options
from kessen.rulesets.armies_clash.referee.options import Destination, Stay
from kessen.rulesets.armies_clash.referee.prospects import moved_to

ROOT = Path(__file__).resolve().parents[3]


def _best_numbers(state, piece: str) -> dict[str, Fraction] | None:
    """The highest mean damage (then chance) among *piece*'s attacks, worked out here from ``attack_odds``."""
    rated = []
    for k, option in enumerate(attack_options(state, piece)):
        found = attack_odds(state, piece, option)
        numbers = {"expected_damage": found.mean_damage, **({found.effect: found.chance} if found.chance is not None else {})}
        rated.append(((found.mean_damage, found.chance or Fraction(0), -k), numbers))
    return max(rated, key=lambda r: r[0])[1] if rated else None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_AC_ATTACK_1_a_move_in_the_attack_action_shows_the_best_attack_from_its_square(lang: str) -> None:
    """AC-ATTACK-1, AC-ATTACK-2: each square a piece that takes Attack may move to shows the exact odds of its best
    attack from there; staying shows the best from where it stands."""
    match = Match.open(ROOT / "examples" / "armies-clash" / "skirmish-ridge.toml", seed=2, lang=lang, people=("a", "b"))
    for _ in range(400):
        match.run()
        d = match.decision
        assert d is not None
        if d.kind == "move" and any(o.odds for o in d.options):
            break
        match.choose(d.options[0])
    state = match.state
    piece = state.turn.piece
    for option in d.options:
        assert isinstance(option.choice, Destination | Stay)
        at = moved_to(state, piece, option.choice)
        assert option.odds == (None if at is None else _best_numbers(at, piece))


def test_AC_MOVE_2_every_calculator_link_gives_the_mean_damage_shown() -> None:
    """AC-MOVE-2, §6.3: an attack, an activation and a move open the ``attack`` procedure with an input whose mean
    damage (and casualty chance against a stand's HP) are the numbers shown."""
    match = Match.open(ROOT / "examples" / "armies-clash" / "skirmish-ridge.toml", seed=2, people=("a", "b"))
    kinds: set[str] = set()
    for _ in range(400):
        match.run()
        d = match.decision
        if d is None:
            break
        for option in d.options:
            if option.calculator is None:
                continue
            procedure, data = option.calculator
            assert procedure == "attack" and option.odds is not None
            outcomes = calculator("armies-clash", procedure, data).outcomes
            assert sum((o["damage"] * p for o, p in outcomes), Fraction(0)) == option.odds["expected_damage"]
            kinds.add(d.kind)
        match.choose(d.options[0])
    assert {"activate", "move", "act"} <= kinds
