"""battlehost's duel odds at the choices that lead to one (issue 24 §4): a charge and the choice of the next fight show
the chooser's exact chance to win the duel (BH-DUEL-1..9), labelled in English and Japanese."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from kessen.cli.person import odds_text
from kessen.match import Match, PendingDecision
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.rules.duel import Duel, Duellist, duel

ROOT = Path(__file__).resolve().parents[3]


def _duel_chance(match: Match, good: tuple[str, ...], evil: tuple[str, ...], side: str) -> Fraction:
    models = {m.id: m for m in match.state.models}
    sides = [tuple(Duellist(models[i].fight, models[i].attacks) for i in ids) for ids in (good, evil)]
    return duel(Duel(sides[0], sides[1])).probability(lambda o: o.winner == side)


def _first(match: Match, wanted: type) -> PendingDecision:
    """Play the match by hand (charges and fights first) until a decision offers a *wanted* option with odds."""
    for _ in range(3000):
        match.run()
        d = match.decision
        assert d is not None
        if any(isinstance(o.choice, wanted) and o.odds for o in d.options):
            return d
        charges = [o for o in d.options if o.odds and "duel" in o.odds]
        match.choose(charges[0] if charges else d.options[0] if d.kind == "move" else d.options[-1])
    raise AssertionError("no such decision")


def test_BH_DUEL_a_charge_and_a_fight_to_resolve_show_the_duel_won_exactly() -> None:
    match = Match.open(ROOT / "examples" / "battlehost" / "line-fight.toml", seed=1, people=("good", "evil"))
    d = _first(match, op.MoveTo)
    charge = next(o for o in d.options if isinstance(o.choice, op.MoveTo) and o.choice.charge)
    pair = (charge.choice.model,), (charge.choice.charge,)
    assert charge.odds == {"duel": _duel_chance(match, *(pair if d.player == "good" else pair[::-1]), d.player)}
    d = _first(match, op.ChooseFight)
    for o in d.options:
        assert o.odds == {"duel": _duel_chance(match, o.choice.fight.good, o.choice.fight.evil, d.player)}
    assert odds_text("battlehost", "en", {"duel": Fraction(61, 100)}) == "the duel won (before Might) 61.0% (61/100)"
    assert odds_text("battlehost", "ja", {"duel": Fraction(1, 2)}) == "デュエルに勝つ（マイト使用前） 50.0% (1/2)"
