"""The simulation API: N AI battles in the background with their progress kept, then the same win rates, intervals
and distributions as ``kessen.sim``'s own run of the same scenario, runs and seed; a stopped server's simulation
goes on from its finished chunks at the next start; a simulation cancelled or out of time ends with the numbers of
its first finished battles; the waiting limit holds under concurrent requests; every refusal with its status."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import kessen.sim.runner
from kessen import get_ruleset
from kessen.sim.battles import simulate, wilson
from kessen.sim.executors import InlineExecutor
from kessen.sim.tally import distribution
from kessen.sim.chunks import ChunkJob, battle_seeds, chunk_plan, play_chunk
from kessen.web.app import create_app
from kessen.web.scenarios import shipped_text
from kessen.web.simulations import MAX_RUNS, SIMULATION_SECONDS, WAITING, SimulationRunner
from kessen.web.store import Store
from tests.web.clients import local

HERO = "song-of-blades/hero-against-mob"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


ENDED = ("done", "stopped", "cancelled", "failed")


def finished(client: TestClient, simulation_id: str, timeout: float = 120) -> dict[str, Any]:
    """The simulation once it has ended; the progress seen on the way never goes back."""
    end = time.monotonic() + timeout
    seen = 0
    while True:
        body: dict[str, Any] = client.get(f"/api/simulations/{simulation_id}").json()
        assert body["done"] >= seen
        seen = body["done"]
        if body["status"] in ENDED:
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


def wins(body: dict[str, Any]) -> list[int]:
    return [w["count"] for w in body["result"]["wins"]]


def same_numbers(body: dict[str, Any], battles: int, seed: int) -> None:
    """The result of *body* is exactly kessen.sim's for *battles* battles with *seed*: wins, draws, casualties."""
    stats = expected(battles, seed)
    assert body["result"]["battles"] == body["done"] == battles
    assert wins(body) == [stats.wins[s] for s in stats.sides] and body["result"]["draws"]["count"] == stats.draws
    assert {s: d["counts"] for s, d in body["result"]["per_side"]["casualties"].items()} == {s: distribution(c) for s, c in stats.casualties.items()}


PREFIXES = {sum(c.size for c in chunk_plan(0, MAX_RUNS)[:n]) for n in range(len(chunk_plan(0, MAX_RUNS)) + 1)}
"""The battles a simulation may end with: its first chunks, all of them finished (0, 1, 2, 4, 6, 10, ...)."""


def test_a_simulation_left_unfinished_goes_on_from_its_finished_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 §3: a server stopped after chunks 0 to 3 (6 battles) of 40 plays chunks 4 to 8 only at its next
    start, and the result is the uninterrupted run's."""
    path = tmp_path / "k.sqlite3"
    store = Store.open(path)
    text = shipped_text(HERO)
    record = store.add_simulation(ruleset="song-of-blades", scenario=text, runs=40, seed=9, source=HERO, sides=("Hero", "Goblins"))
    for chunk in chunk_plan(0, 40)[:4]:
        _, tally = play_chunk(ChunkJob((0, chunk.index), "song-of-blades", text, HERO, battle_seeds(9, chunk)))
        store.record_chunk(record.id, chunk=chunk.index, tally=tally, done=chunk.first + chunk.size, seconds=1.0)
    played: list[int] = []

    def spy(job: ChunkJob) -> Any:
        played.append(job.key[1])
        return play_chunk(job)

    monkeypatch.setattr(kessen.sim.runner, "play_chunk", spy)  # what every executor is handed
    with local(create_app(Store.open(path))) as client:
        body = finished(client, record.id)
    assert body["status"] == "done" and sorted(played) == [4, 5, 6, 7, 8]
    same_numbers(body, 40, 9)


def test_a_server_stopped_in_the_middle_goes_on_where_it_stopped(tmp_path: Path) -> None:
    """Issue 22 §3, on the process pool: stopped with some battles done, restarted, the simulation ends with the
    numbers of an uninterrupted run and never starts again from battle 0."""
    path = tmp_path / "k.sqlite3"
    with local(create_app(Store.open(path), workers=1)) as client:
        made = client.post("/api/simulations", json={"scenario": HERO, "runs": 120, "seed": 4}).json()["id"]
        end = time.monotonic() + 60
        while client.get(f"/api/simulations/{made}").json()["done"] < 20:
            assert time.monotonic() < end
            time.sleep(0.05)
    stopped = Store.open(path).simulation(made)
    assert stopped is not None and stopped.status == "running" and 20 <= stopped.done < 120 and Store.open(path).chunks(made)
    with local(create_app(Store.open(path), workers=1)) as client:
        assert client.get(f"/api/simulations/{made}").json()["done"] >= stopped.done  # not from battle 0
        body = finished(client, made)
    assert body["status"] == "done" and body["seconds"] >= stopped.seconds
    same_numbers(body, 120, 4)


def test_a_simulation_out_of_time_is_stopped_with_its_first_battles(store: Store) -> None:
    """Issue 22 §3: with no time at all, a simulation on the runner's thread plays its first chunk (1 battle) and
    ends ``stopped`` with that battle's numbers: the same as a simulation of 1 battle with the same seed."""
    with local(create_app(store, simulation_seconds=0)) as client:
        body = finished(client, client.post("/api/simulations", json={"scenario": HERO, "runs": 40, "seed": 5}).json()["id"])
    assert body["status"] == "stopped" and body["runs"] == 40
    same_numbers(body, 1, 5)


def test_a_simulation_out_of_time_on_the_pool_keeps_whole_first_chunks(store: Store) -> None:
    """Issue 22 §3: on the process pool the time runs out while chunks are in play; the result is that of the first
    chunks that all finished, so its numbers are those of that many battles with the same seed, never of whichever
    battles a worker happened to finish."""
    with local(create_app(store, workers=1, simulation_seconds=3)) as client:
        body = finished(client, client.post("/api/simulations", json={"scenario": HERO, "runs": MAX_RUNS, "seed": 6}).json()["id"])
    assert body["status"] == "stopped" and body["done"] in PREFIXES and 0 < body["done"] < MAX_RUNS
    same_numbers(body, body["done"], 6)


def test_a_waiting_simulation_is_cancelled_with_nothing_played(store: Store) -> None:
    app = create_app(store)
    app.state.simulations = Idle(store, workers=0)
    client = local(app, raise_server_exceptions=False)
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 5, "seed": 1}).json()["id"]
    cancelled = client.delete(f"/api/simulations/{made}")
    assert cancelled.status_code == 200
    assert {k: cancelled.json()[k] for k in ("status", "done", "result")} == {"status": "cancelled", "done": 0, "result": None}
    again = client.delete(f"/api/simulations/{made}")
    assert again.status_code == 409
    assert again.json()["error"] == f"kessen: error: simulation: it has ended already (cancelled); there is nothing to cancel (got {made!r})"
    assert client.delete("/api/simulations/nothing-here").status_code == 404
    assert store.unfinished_simulations() == []


def test_a_running_simulation_is_cancelled_and_its_workers_stop(store: Store) -> None:
    """Issue 22 §3: ``DELETE`` ends a running simulation as cancelled, with the numbers of its first finished
    battles, and its worker process is gone within two seconds; the next simulation plays on a new one."""
    with local(create_app(store, workers=1)) as client:
        made = client.post("/api/simulations", json={"scenario": HERO, "runs": MAX_RUNS, "seed": 8}).json()["id"]
        end = time.monotonic() + 60
        while client.get(f"/api/simulations/{made}").json()["done"] < 10:
            assert time.monotonic() < end
            time.sleep(0.05)
        cancelled = client.delete(f"/api/simulations/{made}").json()
        assert cancelled["status"] == "cancelled" and cancelled["done"] in PREFIXES and cancelled["done"] >= 10
        end = time.monotonic() + 2
        while multiprocessing.active_children():
            assert time.monotonic() < end, multiprocessing.active_children()
            time.sleep(0.05)
        same_numbers(finished(client, made), cancelled["done"], 8)
        after = finished(client, client.post("/api/simulations", json={"scenario": HERO, "runs": 3, "seed": 1}).json()["id"])
        assert after["status"] == "done"


def test_a_cancel_from_another_origin_is_403(client: TestClient) -> None:
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 2, "seed": 1}).json()["id"]
    assert client.delete(f"/api/simulations/{made}", headers={"origin": "http://evil.example"}).status_code == 403


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


class Idle(SimulationRunner):
    """Takes simulations without playing them: each one waits, so the waiting limit is what refuses."""

    def submit(self, simulation_id: str) -> None:
        """Nothing plays."""


def test_too_many_waiting_simulations_is_429(store: Store) -> None:
    app = create_app(store)
    app.state.simulations = Idle(store, workers=0)
    for _ in range(WAITING):
        store.add_simulation(ruleset="song-of-blades", scenario=shipped_text(HERO), runs=5, seed=1, source=HERO)
    response = local(app).post("/api/simulations", json={"scenario": HERO, "runs": 5, "seed": 1})
    assert response.status_code == 429
    assert response.json()["error"] == f"kessen: error: simulations waiting or running: the server keeps at most {WAITING}, and none of them can be dropped yet; finish one or try later"


def test_the_waiting_limit_holds_for_64_concurrent_clients(store: Store) -> None:
    """Issue 22 §3: 64 clients asking at once get exactly 16 simulations (201) and 48 refusals (429); the race of
    counting outside the write transaction let 55 in."""
    app = create_app(store)
    app.state.simulations = Idle(store, workers=0)
    start = threading.Barrier(64)
    with local(app) as client:

        def ask(_: int) -> int:
            start.wait()
            return client.post("/api/simulations", json={"scenario": HERO, "runs": 5, "seed": 1}).status_code

        with ThreadPoolExecutor(64) as pool:
            statuses = sorted(pool.map(ask, range(64)))
    assert statuses == [201] * WAITING + [429] * (64 - WAITING)
    assert len(store.unfinished_simulations()) == WAITING


def test_an_unknown_simulation_is_404_and_a_bad_language_422(client: TestClient) -> None:
    missing = client.get("/api/simulations/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"] == "kessen: error: simulation: no such simulation (got 'nothing-here')"
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 1, "seed": 1}).json()["id"]
    assert client.get(f"/api/simulations/{made}?lang=xx").status_code == 422


def test_the_readme_states_the_time_limit() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"every simulation has **{SIMULATION_SECONDS / 60:g} minutes**" in readme.replace("\n", " ")


def test_a_simulation_plays_each_side_at_the_level_asked_as_kessen_simulate_does(client: TestClient) -> None:
    """Issue 23 §1: the Simulate page's AI per side gives what ``kessen.simulate(ai=...)`` gives; plug-ins refused."""
    made = client.post("/api/simulations", json={"scenario": HERO, "runs": 6, "seed": 2, "ai": {"Hero": "random"}})
    assert made.status_code == 201, made.text
    body = finished(client, made.json()["id"])
    assert body["ai"] == {"Hero": "random", "Goblins": "greedy"}
    stats = simulate(get_ruleset("song-of-blades"), shipped_text(HERO), HERO, runs=6, seed=2, workers=1, ai={"Hero": "random"})
    assert [w["count"] for w in body["result"]["wins"]] == [stats.wins[side] for side in stats.sides]
    refused = client.post("/api/simulations", json={"scenario": HERO, "runs": 6, "seed": 2, "ai": "tests.toy.ai:ShortestDash"})
    assert refused.status_code == 422 and "plug-in" in refused.json()["error"]
