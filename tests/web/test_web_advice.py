"""The advisor's API (issue 23 §3), on the toy race (tests/toy): each option's chance to win worked out in the
background, exactly the numbers of ``kessen.Match.advise`` at the same position, exact or from playouts; its progress
in playouts, its cancel, its bounds, and every refusal with its status. Also the AI levels the page offers (§1)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.ai import advisor as advisor_module
from kessen.ai.levels import SERVED_NODES
from kessen.match import Match
from kessen.web import advice as advice_module
from kessen.web.advice import ADVICE_PLAYOUTS, ADVICE_WAITING, Advisor
from tests.toy import RULESET as TOY

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'
ENDED = ("done", "cancelled", "stopped", "failed")


@pytest.fixture(autouse=True)
def toy_registered(toy: str) -> None:
    """The toy race of tests/toy is a ruleset of this process for every test here."""


def start(client: TestClient, *, people: list[str] | None = None, ai: Any = None, seed: int = 3) -> str:
    body: dict[str, Any] = {"scenario": SCENARIO, "seed": seed, "people": ["Red"] if people is None else people}
    if ai is not None:
        body["ai"] = ai
    made = client.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def ask(client: TestClient, match_id: str, **body: Any) -> dict[str, Any]:
    made = client.post(f"/api/matches/{match_id}/advice", json=body)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def ended(client: TestClient, match_id: str, advice_id: str, timeout: float = 60) -> dict[str, Any]:
    """The advice once it has ended; the progress seen on the way never goes back."""
    end, seen = time.monotonic() + timeout, 0
    while True:
        body: dict[str, Any] = client.get(f"/api/matches/{match_id}/advice/{advice_id}").json()
        assert seen <= body["done"] <= body["total"]
        seen = body["done"]
        if body["status"] in ENDED:
            return body
        assert time.monotonic() < end, body
        time.sleep(0.02)


def refusal(response: Any, status: int = 422) -> str:
    assert response.status_code == status, response.text
    line: str = response.json()["error"]
    assert line.startswith("kessen: error: ") and "\n" not in line
    return line


def fraction(value: Fraction | float) -> str:
    assert isinstance(value, Fraction)
    return f"{value.numerator}/{value.denominator}"


def test_the_advice_is_exact_on_a_small_race_and_equals_match_advise(client: TestClient) -> None:
    """Where the rest of the race is small enough to walk, each option's chances are exact fractions with the worth
    under best play, the very ones ``Match.advise`` gives at the same position."""
    match_id = start(client, ai={"Blue": "random"})
    asked = ask(client, match_id)
    assert (asked["status"], asked["playouts"], asked["ai"], asked["player"], asked["total"]) == ("queued", 100, "random", "Red", 300)
    done = ended(client, match_id, asked["id"])
    same = Match(TOY, SCENARIO, "scenario", seed=3, people=("Red",), ai={"Blue": "random"})
    same.run()
    expected = same.advise(playouts=100, ai="random")
    assert done["status"] == "done" and done["done"] == done["total"] == 300 and done["error"] is None
    assert [o["notation"] for o in done["options"]] == ["dash 3", "dash 2", "dash 1"]
    for shown, c in zip(done["options"], expected, strict=True):
        assert c.exact and c.best is not None
        assert shown == {
            "notation": c.notation, "exact": True, "playouts": 0, "win": {"p": float(c.win), "fraction": fraction(c.win)},
            "draw": {"p": float(c.draw), "fraction": fraction(c.draw)}, "low": float(c.win), "high": float(c.win),
            "best": {"p": float(c.best), "fraction": fraction(c.best)},
        }


def test_the_advice_from_playouts_gives_the_interval_and_the_number_of_playouts(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor's exact walk cut to 10 positions, as a large battle's would be: each option is played out."""
    monkeypatch.setitem(advisor_module.advise.__kwdefaults__, "exact_positions", 10)
    match_id = start(client)
    done = ended(client, match_id, ask(client, match_id, playouts=30, ai="greedy")["id"])
    same = Match(TOY, SCENARIO, "scenario", seed=3, people=("Red",))
    same.run()
    expected = same.advise(playouts=30, ai="greedy")
    assert done["status"] == "done" and done["done"] == 90
    for shown, c in zip(done["options"], expected, strict=True):
        assert not c.exact
        assert shown == {
            "notation": c.notation, "exact": False, "playouts": 30, "win": {"p": c.win, "fraction": None},
            "draw": {"p": c.draw, "fraction": None}, "low": c.low, "high": c.high, "best": None,
        }
        assert shown["low"] <= shown["win"]["p"] <= shown["high"]


class Held:
    """Holds the advisor at every playout until the test lets it go on (the advisor's Match made a subclass)."""

    def __init__(self) -> None:
        self.reached, self.go_on = threading.Event(), threading.Event()
        holder = self

        class HeldMatch(Match):
            def advise(self, *, on_progress: Callable[[int, int], None] | None = None, **options: Any) -> Any:
                assert on_progress is not None

                def progress(done: int, total: int) -> None:
                    on_progress(done, total)
                    holder.reached.set()
                    assert holder.go_on.wait(timeout=60)

                return super().advise(on_progress=progress, **options)

        self.match = HeldMatch


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    holder = Held()
    monkeypatch.setattr(advice_module, "Match", holder.match)
    monkeypatch.setitem(advisor_module.advise.__kwdefaults__, "exact_positions", 10)
    yield holder
    holder.go_on.set()


def test_advice_in_work_shows_its_progress_and_is_cancelled(client: TestClient, held: Held) -> None:
    """The request answers at once; GET shows the playouts done; DELETE ends it cancelled, with no chances, and
    the advisor stops at its next playout and goes on with the next request."""
    match_id = start(client)
    asked = ask(client, match_id, playouts=20)
    assert held.reached.wait(timeout=30)
    running = client.get(f"/api/matches/{match_id}/advice/{asked['id']}").json()
    assert (running["status"], running["done"], running["total"], running["options"]) == ("running", 1, 60, None)
    cancelled = client.delete(f"/api/matches/{match_id}/advice/{asked['id']}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    held.go_on.set()
    assert ended(client, match_id, asked["id"])["status"] == "cancelled"
    again = refusal(client.delete(f"/api/matches/{match_id}/advice/{asked['id']}"), 409)
    assert again == f"kessen: error: advice: it has ended already (cancelled); there is nothing to cancel (got {asked['id']!r})"
    next_one = ask(client, match_id, playouts=2)
    assert ended(client, match_id, next_one["id"])["status"] == "done"


def test_a_new_request_for_a_match_cancels_its_advice_in_work(client: TestClient, held: Held) -> None:
    match_id = start(client)
    first = ask(client, match_id, playouts=20)
    assert held.reached.wait(timeout=30)
    second = ask(client, match_id, playouts=2)
    assert client.get(f"/api/matches/{match_id}/advice/{first['id']}").json()["status"] == "cancelled"
    held.go_on.set()
    assert ended(client, match_id, second["id"])["status"] == "done"


def test_advice_out_of_time_is_stopped_with_no_chances(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """[DECISION] Advice has five minutes of running time; out of it, it ends stopped and says to ask with fewer
    playouts (here an advisor with no time at all, its exact walk cut so that it plays out)."""
    monkeypatch.setitem(advisor_module.advise.__kwdefaults__, "exact_positions", 10)
    client.app.state.advisor = Advisor(client.app.state.advisor.matches, seconds=0)  # type: ignore[attr-defined]
    match_id = start(client)
    body = ended(client, match_id, ask(client, match_id, playouts=5)["id"])
    assert (body["status"], body["options"]) == ("stopped", None)
    assert body["error"] == "kessen: error: advice: out of time after 1 of 15 playouts (0 seconds); ask with fewer playouts"
    client.app.state.advisor.stop()  # type: ignore[attr-defined]


def test_advice_waiting_is_bounded(client: TestClient, held: Held) -> None:
    """[DECISION] 8 requests for advice may wait or be worked out at once (one per match); the next is 429."""
    matches = [start(client, seed=seed) for seed in range(ADVICE_WAITING + 1)]
    for match_id in matches[:ADVICE_WAITING]:
        ask(client, match_id, playouts=5)
    line = refusal(client.post(f"/api/matches/{matches[-1]}/advice", json={}), 429)
    assert line == f"kessen: error: advice: the server works out at most {ADVICE_WAITING} at a time; try again once one has ended"


def test_the_advice_is_of_the_position_asked_even_if_the_person_decides_meanwhile(client: TestClient, held: Held) -> None:
    match_id = start(client)
    asked = ask(client, match_id, playouts=3, ai="greedy")
    assert held.reached.wait(timeout=30)
    assert client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 1"}).status_code == 200
    held.go_on.set()
    done = ended(client, match_id, asked["id"])
    same = Match(TOY, SCENARIO, "scenario", seed=3, people=("Red",))
    same.run()
    assert [o["win"]["p"] for o in done["options"]] == [c.win for c in same.advise(playouts=3, ai="greedy")]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"playouts": 0}, "playouts: must be a whole number from 1 to 1,000 (got 0)"),
        ({"playouts": ADVICE_PLAYOUTS + 1}, "playouts: must be a whole number from 1 to 1,000 (got 1001)"),
        ({"playouts": "many"}, "playouts: must be an integer"),
        ({"playouts": 2.5}, "playouts: "),
        ({"ai": "cunning"}, "ai: must be an AI level"),
        ({"ai": "os:system"}, "ai: a plug-in AI plays only from the command line or Python, not on the web page (got 'os:system')"),
        ({"ai": f"search:{SERVED_NODES + 1}"}, "ai: the web page searches at most 20,000 positions a decision"),
        ({"ai": {"Green": "search"}}, "ai.Green: not a side of this scenario (its sides are Red, Blue)"),
        ({"seed": 1}, "seed: unknown field"),
    ],
)
def test_bad_advice_requests_are_422_naming_the_field(client: TestClient, body: dict[str, Any], expected: str) -> None:
    match_id = start(client)
    assert refusal(client.post(f"/api/matches/{match_id}/advice", json=body)).startswith(f"kessen: error: {expected}")


def test_advice_is_refused_where_no_person_decides_and_unknown_ids_are_404(client: TestClient) -> None:
    ai_battle = start(client, people=[])
    while client.get(f"/api/matches/{ai_battle}").json()["status"] == "playing":
        time.sleep(0.02)
    line = refusal(client.post(f"/api/matches/{ai_battle}/advice", json={}), 409)
    assert line == f"kessen: error: match: the battle is over; there is nothing to advise (got {ai_battle!r})"
    refusal(client.post("/api/matches/nope/advice", json={}), 404)
    match_id = start(client)
    other = start(client, seed=4)
    asked = ask(client, match_id, playouts=1)
    assert refusal(client.get(f"/api/matches/{other}/advice/{asked['id']}"), 404).startswith("kessen: error: advice: no such advice for this match")
    refusal(client.get(f"/api/matches/{match_id}/advice/nope"), 404)
    refusal(client.delete(f"/api/matches/{match_id}/advice/nope"), 404)


def test_the_ai_levels_the_page_offers_and_the_routes_in_the_api_documentation(client: TestClient) -> None:
    assert client.get("/api/ai").json() == {"levels": ["greedy", "search", "random"], "default": "greedy", "nodes": {"search": 800, "most": SERVED_NODES}}
    paths = set(client.get("/api/openapi.json").json()["paths"])
    assert {"/api/ai", "/api/matches/{match_id}/advice", "/api/matches/{match_id}/advice/{advice_id}"} <= paths
