"""The match API, route by route, on the toy race (tests/toy): start, state, choose, undo, save, load,
replay, events files; every refusal with its status; the store keeping matches across a restart, and its limit."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.core.events import to_json_line
from kessen.match import Match
from kessen.web.app import create_app
from kessen.web import playing
from kessen.web.playing import AI_PLAYING, Matches
from kessen.web.store import Room, Store, StoreFull
from tests.toy import RULESET as TOY

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'
from tests.web.clients import JSON, local, played


@pytest.fixture(autouse=True)
def toy_registered(toy: str) -> None:
    """The toy race of tests/toy is a ruleset of this process for every test here."""


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


def start(client: TestClient, *, seed: int = 3, people: list[str] | None = None, lang: str = "en") -> str:
    """A new match's id; an AI battle (no people) once the AI has played it in the background."""
    response = client.post("/api/matches", json={"scenario": SCENARIO, "seed": seed, "people": ["Red"] if people is None else people, "lang": lang})
    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) == {"id"}
    played(client, body["id"])
    return str(body["id"])


def refusal(response: Any, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"].startswith("kessen: error: ") and "\n" not in body["error"]
    return body


def same_match(seed: int = 3) -> Match:
    """The match the API plays, made directly through kessen.Match: what every answer must equal."""
    match = Match(TOY, SCENARIO, "scenario", seed=seed, people=("Red",))
    match.run()
    return match


# --- start and state --------------------------------------------------------------------------------------------


def test_a_new_match_waits_for_the_person_with_the_suggested_options_and_their_exact_odds(client: TestClient) -> None:
    """TOY-1: a dash of N squares made on a d6 roll of N or more: dash 3 is 4/6 = 2/3, dash 2 is 5/6, dash 1 certain."""
    state = client.get(f"/api/matches/{start(client)}").json()
    assert (state["ruleset"], state["scenario"], state["seed"], state["sides"], state["people"], state["lang"]) == ("toy", "scenario", 3, ["Red", "Blue"], ["Red"], "en")
    decision = state["decision"]
    assert (decision["player"], decision["kind"], decision["actor"], decision["free"], decision["prompt"]) == ("Red", "dash", "Red racer", True, "Red: the dash of Red racer")
    assert [o["notation"] for o in decision["options"]] == ["dash 3", "dash 2", "dash 1"]
    assert [o["odds"] for o in decision["options"]] == [
        [{"key": "made_it", "label": "made it", "fraction": f, "p": p, "kind": "probability"}] for f, p in (("2/3", 2 / 3), ("5/6", 5 / 6), ("1/1", 1.0))
    ]
    assert state["board"] == same_match().board()
    assert state["result"] is None and state["can_undo"] is False and state["events"] == []


def test_the_odds_labels_are_in_the_matchs_language(client: TestClient) -> None:
    state = client.get(f"/api/matches/{start(client, lang='ja')}").json()
    assert state["lang"] == "ja"
    assert {o["odds"][0]["label"] for o in state["decision"]["options"]} == {"成功"}


def test_choosing_a_suggested_option_plays_on_to_the_next_decision_with_the_ais_moves_narrated(client: TestClient) -> None:
    match_id = start(client)
    after = client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 2"})
    assert after.status_code == 200
    expected = same_match()
    expected.choose("dash 2")
    body = after.json()
    assert [e["text"] for e in body["events"]] == [expected.narrate(e) for e in expected.events]
    assert [e["type"] for e in body["events"]] == [e.type for e in expected.events] and len(body["events"]) == 2  # Red's dash, then Blue's
    assert body["board"] == expected.board() and body["can_undo"] is True
    assert client.get(f"/api/matches/{match_id}").json() == body


def test_a_free_choice_beyond_the_suggested_ones_is_taken(client: TestClient) -> None:
    """TOY-1: any dash from 1 to 6 squares is legal, though only 1 to 3 are suggested."""
    match_id = start(client)
    body = client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 6"}).json()
    assert body["events"][0]["text"] == "Red dashes 6: " + ("made it" if body["board"]["models"][0]["x"] == 6 else "fell short")


def test_a_refused_choice_is_422_with_its_rule_and_reason_and_changes_nothing(client: TestClient) -> None:
    """TOY-1: a dash of 9 squares is refused by the rule that allows 1 to 6."""
    match_id = start(client)
    before = client.get(f"/api/matches/{match_id}").json()
    body = refusal(client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 9"}))
    assert body == {"error": "kessen: error: TOY-1: a dash is 1 to 6 squares (got 9)", "rule": "TOY-1", "reason": "a dash is 1 to 6 squares (got 9)"}
    other = refusal(client.post(f"/api/matches/{match_id}/choose", json={"notation": "fly away"}))
    assert other["rule"] is None and other["reason"].startswith("not a choice here (got 'fly away')")
    assert client.get(f"/api/matches/{match_id}").json() == before


def test_undo_goes_back_to_before_the_persons_last_decision(client: TestClient) -> None:
    match_id = start(client)
    before = client.get(f"/api/matches/{match_id}").json()
    client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 3"})
    client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 1"})
    once = client.post(f"/api/matches/{match_id}/undo", json={})
    assert once.status_code == 200 and once.json()["can_undo"] is True
    twice = client.post(f"/api/matches/{match_id}/undo", json={}).json()
    assert twice == before
    body = refusal(client.post(f"/api/matches/{match_id}/undo", json={}))
    assert body["rule"] is None and body["reason"] == "there is no decision of yours to undo"


def test_an_ai_battle_is_played_to_its_end(client: TestClient) -> None:
    state = client.get(f"/api/matches/{start(client, people=[])}").json()
    assert state["status"] == "done" and state["decision"] is None and state["result"] is not None
    expected = Match(TOY, SCENARIO, "scenario", seed=3)
    expected.run()
    assert expected.result is not None
    assert state["result"] == {"winner": expected.result.winner, "summary": expected.result.summary,
                               "labels": {"rounds": "rounds played", "casualties": "casualties of each side", "survivors": "survivors of each side",
                                          "position": "squares run by each side"}, "words": {}}
    assert refusal(client.post(f"/api/matches/{state['id']}/choose", json={"notation": "dash 1"}))["reason"] == "the battle is over"


class Gated(Match):
    """A Match whose AI waits for the test's word before it plays (the background battle stays in play)."""

    gate = threading.Event()

    def run(self, on_events: Any = None) -> None:
        assert self.gate.wait(timeout=60)
        super().run(on_events)


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    monkeypatch.setattr(playing, "Match", Gated)
    Gated.gate.clear()
    yield Gated.gate
    Gated.gate.set()


def test_an_ai_battle_is_played_in_the_background_not_in_the_request(client: TestClient, gated: threading.Event) -> None:
    """Issue 22 §3: POST /api/matches with no people answers with the id while the battle is still to be played;
    GET shows it ``playing`` (what was asked, no board yet), then ``done``; until then it cannot be changed or
    replayed (409)."""
    made = client.post("/api/matches", json={"scenario": SCENARIO, "seed": 3, "people": [], "lang": "ja"})
    assert made.status_code == 201  # answered while the AI waits for the gate
    match_id = made.json()["id"]
    assert client.get(f"/api/matches/{match_id}").json() == {
        "id": match_id, "status": "playing", "ruleset": "toy", "scenario": "scenario", "seed": 3, "sides": ["Red", "Blue"], "people": [], "lang": "ja", "ai": {"Red": "greedy", "Blue": "greedy"},
    }
    for response in (client.get(f"/api/matches/{match_id}/replay"), client.get(f"/api/matches/{match_id}/save"), client.post(f"/api/matches/{match_id}/undo", json={})):
        assert refusal(response, 409)["error"] == f"kessen: error: match: the AI is still playing this battle; ask again once its status is no longer playing (got {match_id!r})"
    gated.set()
    state = played(client, match_id)
    expected = Match(TOY, SCENARIO, "scenario", seed=3, lang="ja")
    expected.run()
    assert state["status"] == "done" and [e["text"] for e in state["events"]] == [expected.narrate(e) for e in expected.events]
    assert client.get(f"/api/matches/{match_id}/replay").status_code == 200


def test_ai_battles_in_the_background_are_bounded(client: TestClient, gated: threading.Event) -> None:
    """[DECISION] 16 AI battles may wait or be played at once; the 17th is 429 until one ends."""
    for _ in range(AI_PLAYING):
        assert client.post("/api/matches", json={"scenario": SCENARIO, "seed": 1, "people": []}).status_code == 201
    body = refusal(client.post("/api/matches", json={"scenario": SCENARIO, "seed": 1, "people": []}), 429)
    assert body["error"] == f"kessen: error: AI battles being played: the server keeps at most {AI_PLAYING}, and none of them can be dropped yet; finish one or try later"
    gated.set()  # a person's match is not one of them (the AI plays its first moves in the request: let it)
    assert client.post("/api/matches", json={"scenario": SCENARIO, "seed": 1, "people": ["Red"]}).status_code == 201


def test_an_ai_battle_a_stopped_server_left_unplayed_is_played_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = Store.open(path)
    unplayed = Match(TOY, SCENARIO, "scenario", seed=5)
    kept = store.add_match(ruleset="toy", scenario=SCENARIO, seed=5, people=(), save=unplayed.dumps(), playing=16)
    with local(create_app(Store.open(path))) as client:
        state = played(client, kept.id)
    unplayed.run()
    assert state["status"] == "done" and state["result"]["winner"] == (unplayed.result.winner if unplayed.result else None)


def test_an_unfinished_ai_save_loaded_is_played_in_the_background(client: TestClient, gated: threading.Event) -> None:
    """A save of an AI battle not over yet goes on in the background too, not inside the POST that loads it."""
    save = Match(TOY, SCENARIO, "scenario", seed=4).dumps()
    loaded = client.post("/api/matches/load", content=save.encode(), headers=JSON)
    assert loaded.status_code == 201 and client.get(f"/api/matches/{loaded.json()['id']}").json()["status"] == "playing"
    gated.set()
    assert played(client, loaded.json()["id"])["status"] == "done"


# --- save, load, and a restart ------------------------------------------------------------------------------------


def test_the_save_downloads_as_the_matchs_save_file_and_loads_into_a_new_match(client: TestClient) -> None:
    match_id = start(client)
    state = client.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 2"}).json()
    save = client.get(f"/api/matches/{match_id}/save")
    assert save.status_code == 200 and save.headers["content-type"] == "application/json"
    assert save.headers["content-disposition"] == f'attachment; filename="kessen-{match_id}.json"'
    expected = same_match()
    expected.choose("dash 2")
    assert save.text == expected.dumps()
    loaded = client.post("/api/matches/load", content=save.content, headers=JSON)
    assert loaded.status_code == 201
    again = client.get(f"/api/matches/{loaded.json()['id']}").json()
    assert {k: v for k, v in again.items() if k != "id"} == {k: v for k, v in state.items() if k != "id"}
    assert client.post(f"/api/matches/{loaded.json()['id']}/undo", json={}).json()["events"] == []  # the undo point came back too


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"", "kessen: error: save: not valid JSON"),
        (b"[]", "kessen: error: save: not a kessen save file"),
        (b'{"format": "kessen-save/2", "checksum": "0"}', "kessen: error: save: damaged save file"),
        (b"\xff", "kessen: error: save: not valid UTF-8 text"),
    ],
)
def test_a_bad_save_is_refused_naming_it(client: TestClient, body: bytes, expected: str) -> None:
    assert refusal(client.post("/api/matches/load", content=body, headers=JSON))["error"].startswith(expected)


def test_a_tampered_save_is_refused(client: TestClient) -> None:
    save = client.get(f"/api/matches/{start(client)}/save").json()
    save["seed"] = 4
    assert "damaged save file" in refusal(client.post("/api/matches/load", json=save))["error"]


def test_a_restarted_server_replays_every_match_from_its_save(tmp_path: Path) -> None:
    """Nothing is lost: a new app on the same store finds the match at the same decision, with its undo points."""
    path = tmp_path / "k.sqlite3"
    with local(create_app(Store.open(path))) as first:
        match_id = start(first)
        state = first.post(f"/api/matches/{match_id}/choose", json={"notation": "dash 1"}).json()
    with local(create_app(Store.open(path))) as second:
        assert second.get(f"/api/matches/{match_id}").json() == state
        assert second.post(f"/api/matches/{match_id}/undo", json={}).json()["events"] == []


def test_a_match_evicted_from_memory_replays_from_the_store(store: Store) -> None:
    matches = Matches(store, live=1)
    first, second = start_direct(matches), start_direct(matches)
    with matches.using(first, change=True) as match:  # replayed: only the second was still live
        match.choose("dash 2")
    with matches.using(second) as other:
        assert other.events == []
    with matches.using(first) as again:
        assert [e.type for e in again.events] == ["dashed", "dashed"]


def start_direct(matches: Matches) -> str:
    from kessen.web.scenarios import choose_scenario

    return matches.start(choose_scenario(SCENARIO, "toy"), seed=3, people=("Red",), lang="en")


def test_the_store_makes_room_by_dropping_finished_matches_first(store: Store) -> None:
    """[DECISION] a full store drops the finished match least recently touched, then one idle past the limit,
    and otherwise refuses a new match (429)."""
    matches = Matches(store, room=Room(limit=2, idle=3600.0))
    finished = matches.start(choose_scenario_toy(), seed=3, people=(), lang="en")
    end = time.monotonic() + 60
    while not (found := store.match(finished)) or not found.finished:  # played in the background
        assert time.monotonic() < end
        time.sleep(0.02)
    playing = start_direct(matches)
    third = start_direct(matches)  # room made: the finished one went
    assert store.match(finished) is None and store.match(playing) is not None and store.match(third) is not None
    with pytest.raises(StoreFull) as full:
        start_direct(matches)
    assert str(full.value) == "open matches: the server keeps at most 2, and none of them can be dropped yet; finish one or try later"
    idle = Matches(store, room=Room(limit=2, idle=-1.0))  # every unfinished match counts as idle
    fourth = start_direct(idle)
    assert store.match(playing) is None and store.match(fourth) is not None


def choose_scenario_toy() -> Any:
    from kessen.web.scenarios import choose_scenario

    return choose_scenario(SCENARIO, "toy")


def test_a_full_store_is_429(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    matches: Matches = client.app.state.matches  # type: ignore[attr-defined]
    monkeypatch.setattr(matches, "room", Room(limit=1, idle=3600.0))
    start(client)
    body = refusal(client.post("/api/matches", json={"scenario": SCENARIO, "seed": 1, "people": ["Red"]}), 429)
    assert "open matches: the server keeps at most 1" in body["error"]


# --- replays and events files -------------------------------------------------------------------------------------


def test_the_replay_gives_the_board_after_every_step_as_the_match_played_it(client: TestClient) -> None:
    match_id = start(client, people=[])
    replay = client.get(f"/api/matches/{match_id}/replay").json()
    expected = Match(TOY, SCENARIO, "scenario", seed=3)
    boards: list[tuple[int, Any]] = []
    expected.run(on_events=lambda events: boards.append((len(expected.events) - len(events), expected.board())))
    assert replay["start"] == Match(TOY, SCENARIO, "scenario", seed=3).board()
    assert [e["text"] for e in replay["events"]] == [expected.narrate(e) for e in expected.events]
    # the frames, applied in order, give the board after each step
    models = {m["id"]: m for m in replay["start"]["models"]}
    frames = iter(replay["frames"])
    frame = next(frames, None)
    for at, board in boards:
        while frame is not None and frame["at"] <= at:
            models.update({m["id"]: m for m in frame["models"]})
            for gone in frame["gone"]:
                del models[gone]
            frame = next(frames, None)
        assert list(models.values()) == board["models"], at
    assert replay["result"]["winner"] == (expected.result.winner if expected.result else None)


def test_an_events_file_replays_when_it_is_the_scenarios_battle_for_that_seed(client: TestClient) -> None:
    expected = Match(TOY, SCENARIO, "scenario", seed=5)
    expected.run()
    events = "".join(to_json_line(e) + "\n" for e in expected.events)
    made = client.post("/api/matches/from-events", json={"scenario": SCENARIO, "ruleset": "toy", "seed": 5, "events": events})
    assert made.status_code == 201
    replay = client.get(f"/api/matches/{made.json()['id']}/replay").json()
    assert [e["text"] for e in replay["events"]] == [expected.narrate(e) for e in expected.events]
    wrong = refusal(client.post("/api/matches/from-events", json={"scenario": SCENARIO, "seed": 6, "events": events}))
    assert wrong["error"].startswith("kessen: error: events: line ") and "not the event this scenario and seed give here" in wrong["error"]
    short = refusal(client.post("/api/matches/from-events", json={"scenario": SCENARIO, "seed": 5, "events": events.split("\n", 1)[0]}))
    assert "the file stops after 1 of the battle's" in short["error"]
    empty = refusal(client.post("/api/matches/from-events", json={"scenario": SCENARIO, "seed": 5, "events": "\n"}))
    assert empty["error"] == "kessen: error: events: the events file is empty"


# --- refusals -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"scenario": SCENARIO, "seed": 1, "people": ["Green"]}, "kessen: error: people: not a side of this scenario (its sides are Red, Blue) (got 'Green')"),
        ({"scenario": SCENARIO, "seed": -1}, "kessen: error: seed: must be an integer from 0 to 2^64 - 1 (got -1)"),
        ({"scenario": SCENARIO, "seed": 2**64}, "kessen: error: seed: integer too large"),
        ({"scenario": SCENARIO, "seed": "1"}, "kessen: error: seed: must be an integer"),
        ({"scenario": SCENARIO, "seed": 1, "lang": "fr"}, "kessen: error: lang: must be one of en, ja (got 'fr')"),
        ({"scenario": SCENARIO}, "kessen: error: seed: required field is missing"),
        ({"scenario": "toy/nothing", "seed": 1}, "kessen: error: scenario: no shipped scenario has this name"),
        ({"scenario": "sides = [", "ruleset": "toy", "seed": 1}, "kessen: error: scenario: not valid TOML"),
        ({"scenario": 'sides = ["Red"]', "ruleset": "toy", "seed": 1}, "kessen: error: scenario: sides[1]: required field is missing"),
        ({"scenario": SCENARIO, "seed": 1, "people": ["Red"] * 17}, "kessen: error: people: "),
        ({"scenario": SCENARIO, "seed": 1, "path": "/etc/passwd"}, "kessen: error: path: unknown field"),
    ],
)
def test_a_bad_new_match_is_422_naming_the_field(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert refusal(client.post("/api/matches", json=body))["error"].startswith(expected)


def test_an_unknown_ruleset_for_a_match_is_404(client: TestClient) -> None:
    refusal(client.post("/api/matches", json={"scenario": "sides = []", "ruleset": "chess", "seed": 1}), 404)


@pytest.mark.parametrize("route", ["", "/save", "/replay"])
def test_an_unknown_match_is_404(client: TestClient, route: str) -> None:
    body = refusal(client.get(f"/api/matches/no-such-match{route}"), 404)
    assert body["error"].startswith("kessen: error: match: no such match")


@pytest.mark.parametrize(("route", "body"), [("choose", {"notation": "dash 1"}), ("undo", {})])
def test_choosing_or_undoing_in_an_unknown_match_is_404(client: TestClient, route: str, body: Any) -> None:
    refusal(client.post(f"/api/matches/nope/{route}", json=body), 404)


@pytest.mark.parametrize(("body", "expected"), [({}, "notation: required field is missing"), ({"notation": 3}, "notation: must be a string"), ({"notation": "x" * 10_001}, "notation: ")])
def test_a_malformed_choice_is_422(client: TestClient, body: dict[str, Any], expected: str) -> None:
    match_id = start(client)
    assert expected in refusal(client.post(f"/api/matches/{match_id}/choose", json=body))["error"]


def test_the_match_routes_are_in_the_api_documentation(client: TestClient) -> None:
    paths = set(client.get("/api/openapi.json").json()["paths"])
    assert {"/api/matches", "/api/matches/load", "/api/matches/from-events", "/api/matches/{match_id}", "/api/matches/{match_id}/choose",
            "/api/matches/{match_id}/undo", "/api/matches/{match_id}/save", "/api/matches/{match_id}/replay", "/api/scenarios/board"} <= paths


def test_a_match_plays_its_machine_side_at_the_level_asked_and_refuses_plugins_and_huge_budgets(client: TestClient) -> None:
    """Issue 23 §1: the Play page's AI per side; a plug-in is never imported by a request (its path names any module)."""
    made = client.post("/api/matches", json={"scenario": SCENARIO, "seed": 3, "people": ["Red"], "ai": {"Blue": "search:50"}})
    assert made.status_code == 201, made.text
    assert client.get(f"/api/matches/{made.json()['id']}").json()["ai"] == {"Blue": "search:50"}
    plugin = refusal(client.post("/api/matches", json={"scenario": SCENARIO, "seed": 3, "people": [], "ai": "os:system"}))
    assert plugin["error"] == "kessen: error: ai: a plug-in AI plays only from the command line or Python, not on the web page (got 'os:system')"
    huge = refusal(client.post("/api/matches", json={"scenario": SCENARIO, "seed": 3, "people": [], "ai": {"Blue": "search:900000"}}))
    assert huge["error"].startswith("kessen: error: ai.Blue: the web page searches at most 20,000 positions")
    unknown = refusal(client.post("/api/matches", json={"scenario": SCENARIO, "seed": 3, "people": [], "ai": {"Green": "search"}}))
    assert "ai.Green" in unknown["error"]
    save = json.loads(Match(TOY, SCENARIO, "scenario", seed=4, ai="random").dumps())
    save["ai"] = {"Red": "os:system"}
    from kessen.core.saves import checksum

    save["checksum"] = checksum({k: v for k, v in save.items() if k != "checksum"})
    loaded = client.post("/api/matches/load", content=json.dumps(save).encode(), headers=JSON)
    assert loaded.status_code == 422 and "plug-in" in loaded.json()["error"]
