"""Issue 27 §6: a fifth ruleset needs nothing but the checklist of docs/architecture.md. The toy race of tests/toy (two
racers, one die) is laid out as every ruleset is, outside kessen, and added with ``kessen.rulesets.register`` alone;
then Match, kessen.simulate, the odds (the API, the CLI's code path, the web page's) and the web API all play it.
It ships no page texts (kessen/web/text): the page falls back to its input model's descriptions."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import kessen
from kessen.core.steps import StepGame
from kessen.io.scenarios import scenario_model
from kessen.rulesets import get_ruleset, register, ruleset_ids, unregister
from kessen.web import api
from kessen.web.app import create_app
from kessen.web.store import Store
from tests.toy.referee.game import GAME
from tests.toy.scenario import Scenario
from tests.web.clients import local, played

RACE = 'ruleset = "toy"\nname = "A race"\nsides = ["Red", "Blue"]\n'


@pytest.fixture
def client(toy: str, tmp_path: Path) -> Iterator[TestClient]:
    api._rulesets.cache_clear()  # the page's listing of the rulesets is kept per process: list the toy too
    with local(create_app(Store.open(tmp_path / "k.sqlite3")), raise_server_exceptions=False) as test_client:
        yield test_client
    api._rulesets.cache_clear()


def test_register_adds_a_ruleset_from_its_package_and_unregister_forgets_it(toy: str) -> None:
    """The registry finds the toy's RULESET, procedures and engine in its package, checks nothing is taken twice,
    and its scenario model by the package it is laid out in."""
    assert "toy" in ruleset_ids() and ruleset_ids()[:4] == ("song-of-blades", "battlehost", "legions", "armies-clash")
    toy_ruleset = get_ruleset("toy")
    assert isinstance(toy_ruleset.game, StepGame) and toy_ruleset.game is GAME and toy_ruleset.prefix == "TOY"
    assert scenario_model("toy") is Scenario
    with pytest.raises(ValueError, match="already registered"):
        register("toy", "tests.toy")
    with pytest.raises(ValueError, match="ships with kessen"):
        unregister("legions")


def test_toy_1_match_plays_a_race_from_its_file_to_its_end(toy: str, tmp_path: Path) -> None:
    """TOY-1, TOY-3: Match.open finds the ruleset by the file's ``ruleset`` key; the race ends with the summary every
    ruleset gives; the toy narrates in both languages from the catalogues in its own package."""
    path = tmp_path / "race.toml"
    path.write_text(RACE, encoding="utf-8")
    match = kessen.Match.open(path, seed=3, people={"Red"})
    match.run()
    decision = match.decision
    assert isinstance(decision, kessen.PendingDecision) and decision.prompt == "Red: the dash of Red racer"
    assert [(o.notation, o.odds) for o in decision.options] == [
        ("dash 3", {"made_it": Fraction(2, 3)}), ("dash 2", {"made_it": Fraction(5, 6)}), ("dash 1", {"made_it": Fraction(1)})]
    match.choose("dash 5")
    while match.decision is not None:
        match.choose(match.decision.options[0].notation)
    result = match.result
    assert isinstance(result, kessen.Terminal) and {"rounds", "casualties", "survivors"} <= set(result.summary)
    assert GAME.narrate(match.events[0], "ja").startswith("Red が 5 マスのダッシュ")


def test_toy_1_simulate_plays_many_races(toy: str) -> None:
    """kessen.simulate plays the toy's races from its text (in this process: pool workers would have to register the
    toy too) and tells the progress."""
    heard: list[int] = []
    stats = kessen.simulate("race.toml", text=RACE, runs=5, seed=2, workers=1, progress=heard.append)
    assert stats.runs == sum(heard) == 5 and stats.sides == ("Red", "Blue")
    assert sum(stats.wins.values()) + stats.draws == 5


def test_toy_1_odds_of_the_procedure_and_beside_a_choice_agree(toy: str) -> None:
    """TOY-1: a dash of 4 is made on 4, 5 or 6 (1/2), exactly, through kessen.odds, and the engine shows the same
    number beside the choice (it asks the rule, never rewrites it)."""
    result = kessen.odds("toy", "dash", {"squares": 4})
    assert result.outcomes == [({"made_it": False}, Fraction(1, 2)), ({"made_it": True}, Fraction(1, 2))]
    state, _ = GAME.start(GAME.load_scenario(RACE, "race.toml"))
    decision = GAME.node(state)
    assert GAME.odds(state, decision, GAME.parse(state, decision, "dash 4")) == {"made_it": Fraction(1, 2)}  # type: ignore[arg-type]


def test_the_web_api_lists_the_toy_answers_its_odds_and_plays_it(client: TestClient) -> None:
    """With no page catalogue, the page shows the registry's title and summary and each input field's own
    description (its model's, from a capital letter); the odds route answers what kessen.odds does; a match plays."""
    listed = {r["id"]: r for r in client.get("/api/rulesets").json()["rulesets"]}
    assert listed["toy"]["title"] == "A toy race" and listed["toy"]["plays_battles"]
    for lang in ("en", "ja"):
        toy_page = client.get(f"/api/rulesets/toy?lang={lang}").json()
        (dash,) = toy_page["procedures"]
        assert (dash["title"], dash["summary"]) == ("dash", "One dash: whether the racer makes it (TOY-1).")
        assert dash["fields"]["squares"]["description"] == "The squares the racer dashes: a d6 of this or more makes it (TOY-1)"
    answer = client.post("/api/odds/toy/dash", json={"squares": 4}).json()
    assert answer == kessen.odds("toy", "dash", {"squares": 4}).to_json_dict()
    assert client.post("/api/scenarios/check", json={"text": RACE}).json() == {"ok": True, "ruleset": "toy", "sides": ["Red", "Blue"]}
    made = client.post("/api/matches", json={"scenario": RACE, "seed": 3, "people": []})
    assert made.status_code == 201, made.text
    assert played(client, made.json()["id"])["result"]["winner"] in ("Red", "Blue", None)
