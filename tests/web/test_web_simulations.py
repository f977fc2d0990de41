"""The simulation API: N AI battles in the background with their progress kept, then the same win rates, intervals
and distributions as ``kessen.sim``'s own run of the same scenario, runs and seed; a stopped server's simulation
is played again at the next start; every refusal with its status."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen import get_ruleset
from kessen.sim.battles import simulate, wilson
from kessen.sim.executors import InlineExecutor
from kessen.sim.tally import distribution
from kessen.web.app import create_app
from kessen.web.scenarios import shipped_text
from kessen.web.simulations import MAX_RUNS, WAITING
from kessen.web.store import Store
from tests.web.clients import local

HERO = "song-of-blades/hero-against-mob"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


def finished(client: TestClient, simulation_id: str, timeout: float = 120) -> dict[str, Any]:
    """The simulation once it is done (or failed); the progress seen on the way never goes back."""
    end = time.monotonic() + timeout
    seen = 0
    while True:
        body: dict[str, Any] = client.get(f"/api/simulations/{simulation_id}").json()
        assert body["done"] >= seen or body["status"] == "queued"
        seen = body["done"]
        if body["status"] in ("done", "failed"):
            return body
        assert time.monotonic() < end, body
        time.sleep(0.05)


def expected(runs: int, seed: int) -> Any:
    return simulate(get_ruleset("song-of-blades"), shipped_text(HERO), HERO, runs=runs, seed=seed, executor=InlineExecutor())


def test_a_simulation_gives_the_win_rates_intervals_and_casualties_of_kessen_sim(client: TestClient) -> None:
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 12, "seed": 7})
    assert made.status_code == 201 and set(made.json()) == {"id"}
    body = finished(client, made.json()["id"])
    assert (body["status"], body["done"], body["runs"], body["seed"], body["scenario"], body["ruleset"], body["error"]) == ("done", 12, 12, 7, HERO, "song-of-blades", None)
    stats = expected(12, 7)
    result = body["result"]
    assert result["battles"] == 12
    assert [w["side"] for w in result["wins"]] == list(stats.sides)
    for entry in result["wins"]:
        p, low, high = stats.win_rate(entry["side"])
        assert (entry["count"], entry["rate"], entry["low"], entry["high"]) == (stats.wins[entry["side"]], p, low, high)
    assert result["draws"] == dict(zip(("count", "rate", "low", "high"), (stats.draws, *wilson(stats.draws, 12))))
    for side, counts in stats.casualties.items():
        assert result["per_side"]["casualties"][side]["counts"] == distribution(counts)
    assert result["numbers"]["rounds"]["counts"] == distribution(stats.tally.numbers["rounds"])
    assert result["labels"]["casualties"] == "casualties of each side"
    ja = client.get(f"/api/simulations/{made.json()['id']}?lang=ja").json()
    assert ja["result"]["labels"]["casualties"] != "casualties of each side" and ja["result"]["wins"] == result["wins"]


def test_a_simulation_on_the_process_pool_gives_the_same_result(store: Store) -> None:
    """The server's default: battles on spawned worker processes; the seeded chunks give the same tally."""
    with local(create_app(store, workers=1)) as client:
        body = finished(client, client.post("/api/simulations", json={"scenario": HERO, "runs": 6, "seed": 3}).json()["id"])
    stats = expected(6, 3)
    assert body["status"] == "done"
    assert [w["count"] for w in body["result"]["wins"]] == [stats.wins[s] for s in stats.sides]
    assert {s: d["counts"] for s, d in body["result"]["per_side"]["casualties"].items()} == {s: distribution(c) for s, c in stats.casualties.items()}


def test_a_simulation_left_unfinished_runs_again_when_the_server_starts(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = Store.open(path)
    record = store.add_simulation(ruleset="song-of-blades", scenario=shipped_text(HERO), runs=5, seed=9, source=HERO)
    store.record_progress(record.id, done=3)  # a server stopped while it ran
    with local(create_app(Store.open(path))) as client:
        body = finished(client, record.id)
    assert body["status"] == "done" and body["done"] == 5
    stats = expected(5, 9)
    assert [w["count"] for w in body["result"]["wins"]] == [stats.wins[s] for s in stats.sides]


def test_a_pasted_scenario_simulates_under_its_own_name(client: TestClient) -> None:
    made = client.post("/api/simulations", json={"scenario": shipped_text(HERO), "runs": 2, "seed": 1})
    body = finished(client, made.json()["id"])
    assert body["status"] == "done" and body["scenario"] == "scenario"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"scenario": HERO, "runs": 0, "seed": 1}, f"kessen: error: runs: must be a whole number of battles from 1 to {MAX_RUNS:,} (got 0)"),
        ({"scenario": HERO, "runs": MAX_RUNS + 1, "seed": 1}, f"kessen: error: runs: must be a whole number of battles from 1 to {MAX_RUNS:,}"),
        ({"scenario": HERO, "runs": 5, "seed": -3}, "kessen: error: seed: must be from 0 to 2**64 - 1 (got -3)"),
        ({"scenario": HERO, "runs": 5.5, "seed": 1}, "kessen: error: runs: must be an integer"),
        ({"scenario": HERO, "seed": 1}, "kessen: error: runs: required field is missing"),
        ({"scenario": "song-of-blades/nowhere", "runs": 5, "seed": 1}, "kessen: error: scenario: no shipped scenario has this name"),
        ({"scenario": HERO, "ruleset": "legions", "runs": 5, "seed": 1}, "kessen: error: ruleset: song-of-blades/hero-against-mob is a song-of-blades scenario"),
        ({"scenario": "ruleset = 'song-of-blades'\nname = 3", "runs": 5, "seed": 1}, "kessen: error: scenario: "),
    ],
)
def test_a_bad_simulation_is_422_naming_the_field(client: TestClient, body: dict[str, Any], expected: str) -> None:
    response = client.post("/api/simulations", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"].startswith(expected)


def test_too_many_waiting_simulations_is_429(store: Store) -> None:
    app = create_app(store)  # not started: nothing plays, so every one waits
    for _ in range(WAITING):
        store.add_simulation(ruleset="song-of-blades", scenario=shipped_text(HERO), runs=5, seed=1, source=HERO)
    response = local(app).post("/api/simulations", json={"scenario": HERO, "runs": 5, "seed": 1})
    assert response.status_code == 429
    assert response.json()["error"] == f"kessen: error: simulations waiting or running: the server keeps at most {WAITING}, and none of them can be dropped yet; finish one or try later"


def test_an_unknown_simulation_is_404_and_a_bad_language_422(client: TestClient) -> None:
    missing = client.get("/api/simulations/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"] == "kessen: error: simulation: no such simulation (got 'nothing-here')"
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 1, "seed": 1}).json()["id"]
    assert client.get(f"/api/simulations/{made}?lang=xx").status_code == 422
