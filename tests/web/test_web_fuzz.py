"""Hostile requests never get a 5xx: thousands of malformed requests across every route (random methods, paths,
queries, headers and bodies; foreign hosts and origins, bodies of every content type; mutated odds inputs; mutated
scenario texts, some too costly to parse; mutated match, choice, save, events and simulation requests; cancels of
simulations waiting, ended or unknown), each answered with a 2xx, a 304 or a 4xx whose body is one error line (a
refused choice also names its rule and reason).

Derandomized like tests/test_fuzz_inputs.py (the same requests every run); KESSEN_FUZZ_RANDOM=1 explores fresh ones.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kessen import get_ruleset, ruleset_ids
from kessen.core.saves import checksum
from kessen.io.scenarios import shipped_scenarios
from kessen.web.advice import Advisor
from kessen.web.app import create_app
from kessen.web.simulations import SimulationRunner
from kessen.web.store import Store
from kessen.web.texts import starting_inputs
from tests.web.clients import BASE, JSON, local

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared strategies
from strategies import garbage_values  # noqa: E402


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=not os.environ.get("KESSEN_FUZZ_RANDOM"),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    )


class Accepting(SimulationRunner):
    """Takes simulations as the server does, without playing them: the fuzz tests the requests, and thousands of
    battles in the background would only slow it."""

    def submit(self, simulation_id: str) -> None:
        self.store.end_simulation(simulation_id, status="failed", done=0, error="kessen: error: not played in the fuzz test")


_client: TestClient | None = None
_match: str = ""
_simulation: str = ""


def client(tmp: Path) -> TestClient:
    """One app for all examples of a test run (a new client per example would dominate the time), with one match
    in play whose id the paths use."""
    global _client, _match, _simulation
    if _client is None:
        store = Store.open(tmp / "fuzz.sqlite3")
        app = create_app(store)
        app.state.simulations = Accepting(store, workers=0)
        app.state.advisor = Advisor(app.state.matches, waiting=0)  # checks every request for advice, works out none
        _client = local(app, raise_server_exceptions=False)
        made = _client.post("/api/matches", json={"scenario": "song-of-blades/hero-against-mob", "seed": 1, "people": ["Hero"]})
        assert made.status_code == 201, made.text
        _match = made.json()["id"]
        _simulation = _client.post("/api/simulations", json={"scenario": "song-of-blades/hero-against-mob", "runs": 1, "seed": 1}).json()["id"]
    return _client


def assert_answered(response: Any, method: str) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if response.status_code >= 400 and method != "HEAD":
        body = response.json()
        assert set(body) in ({"error"}, {"error", "rule", "reason"}) and body["error"].startswith("kessen: error: ") and "\n" not in body["error"]


RULESETS = list(ruleset_ids())
PROCEDURES = sorted({name for rid in RULESETS for name in get_ruleset(rid).procedures})
SCENARIOS = [(s.ruleset, s.path.read_text(encoding="utf-8"), s.name, s.sides) for s in shipped_scenarios()]
MATCH_ROUTES = ["", "/choose", "/undo", "/save", "/replay", "/advice", "/advice/x"]
segments = st.one_of(
    st.sampled_from([*RULESETS, *PROCEDURES, "en", "ja", "..", ".", "%2e%2e", "%00", "", "js", "main.js", "vendor", "matches", "load", "MATCH"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="/?#"), max_size=12).map(lambda s: quote(s, safe="%")),
)
paths = st.one_of(
    st.builds(lambda r, p: f"/api/odds/{r}/{p}", segments, segments),
    st.builds(lambda r: f"/api/rulesets/{r}", segments),
    st.builds(lambda r: f"/api/texts/{r}", segments),
    st.builds(lambda *parts: "/static/" + "/".join(parts), segments, segments),
    st.sampled_from(["/", "/odds", "/viewer", "/play", "/simulate", "/docs", "/api/openapi.json", "/api/rulesets", "/api/scenarios", "/api/scenarios/check",
                     "/api/scenarios/board", "/api/matches", "/api/matches/load", "/api/matches/from-events", "/api/simulations"]),
    st.builds(lambda m, r: f"/api/matches/{m}{r}", segments, st.sampled_from(MATCH_ROUTES)),
    st.builds(lambda r: f"/api/simulations/{r}", st.one_of(segments, st.just("SIM"))),
    st.builds(lambda r, n: f"/api/scenarios/{r}/{n}", segments, segments),
    st.lists(segments, max_size=4).map(lambda parts: "/" + "/".join(parts)),
)
queries = st.one_of(st.just(""), st.builds(lambda v: f"?lang={v}", segments), st.text(max_size=20).map(lambda q: "?" + quote(q, safe="=&%")))
bodies = st.one_of(
    st.binary(max_size=200),
    garbage_values.map(lambda v: json.dumps(v).encode()),
    st.text(max_size=200).map(str.encode),
)
header_values = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
    st.sampled_from(["127.0.0.1:8000", "localhost", "[::1]", "evil.example", "http://127.0.0.1:8000", "http://evil.example", "null",
                     "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=latin-1"]),
)
headers = st.dictionaries(
    st.sampled_from(["content-type", "accept", "if-none-match", "accept-language", "x-forwarded-for", "origin", "host", "sec-fetch-site"]),
    header_values,
    max_size=3,
)


@fuzz(1200)
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]), path=paths, query=queries, body=bodies, extra=headers)
def test_web_fuzz_any_request_to_any_route_is_never_a_5xx(tmp_path_factory: Any, method: str, path: str, query: str, body: bytes, extra: dict[str, str]) -> None:
    served = client(tmp_path_factory.getbasetemp())
    path = path.replace("/MATCH", f"/{_match}").replace("/SIM", f"/{_simulation}")  # the match and simulation kept, so their routes are reached too
    response = served.request(method, BASE + path + query, content=body if method not in ("GET", "HEAD") else None, headers={**JSON, **extra})
    assert_answered(response, method)


def _procedure_inputs() -> list[tuple[str, str, Any]]:
    return [(rid, name, start) for rid, procedures in starting_inputs().items() for name, start in procedures.items()]


@st.composite
def mutated_inputs(draw: st.DrawFn) -> tuple[str, str, Any]:
    """A procedure's starting input with one to three changes: a value replaced by garbage, a key dropped or added,
    a list entry duplicated or removed."""
    rid, name, value = draw(st.sampled_from(_procedure_inputs()))
    value = json.loads(json.dumps(value))
    for _ in range(draw(st.integers(1, 3))):
        holders = _containers(value)
        holder = draw(st.sampled_from(holders))
        if isinstance(holder, dict):
            choice = draw(st.sampled_from(["replace", "drop", "add"])) if holder else "add"
            if choice == "add":
                holder[draw(st.text(max_size=6))] = draw(garbage_values)
            else:
                key = draw(st.sampled_from(sorted(holder)))
                if choice == "drop":
                    del holder[key]
                else:
                    holder[key] = draw(garbage_values)
        elif holder:
            index = draw(st.integers(0, len(holder) - 1))
            action = draw(st.sampled_from(["duplicate", "remove", "replace"]))
            if action == "duplicate":
                holder.extend([json.loads(json.dumps(holder[index]))] * draw(st.integers(1, 12)))
            elif action == "remove":
                del holder[index]
            else:
                holder[index] = draw(garbage_values)
    return rid, name, value


def _containers(value: Any) -> list[Any]:
    found: list[Any] = []
    if isinstance(value, dict | list):
        found.append(value)
        for inner in value.values() if isinstance(value, dict) else value:
            found += _containers(inner)
    return found


@fuzz(1200)
@given(case=mutated_inputs())
def test_web_fuzz_mutated_odds_inputs_are_answered_or_refused(tmp_path_factory: Any, case: tuple[str, str, Any]) -> None:
    rid, name, value = case
    response = client(tmp_path_factory.getbasetemp()).post(f"/api/odds/{rid}/{name}", content=json.dumps(value).encode(), headers=JSON)
    assert_answered(response, "POST")
    if response.status_code == 200:
        assert response.json()["outcomes"]


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A shipped scenario with lines dropped, repeated, or a value after ``=`` replaced by garbage TOML."""
    rid, text, _, _ = draw(st.sampled_from(SCENARIOS))
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "repeat", "value", "garble"]))
        if action == "drop":
            del lines[index]
        elif action == "repeat":
            lines.insert(index, lines[index])
        elif action == "value" and "=" in lines[index]:
            key = lines[index].split("=", 1)[0]
            lines[index] = key + "= " + draw(st.sampled_from(["-1", "0", "1e9", "3.5", "true", '"x"', "[]", "{}", "[[1, 2]]", "99999999999999999999", '"standing"', "nan", "-inf"]))
        else:
            lines[index] = draw(st.text(max_size=20))
        if not lines:
            lines = [""]
    if draw(st.integers(0, 19)) == 0:  # now and then many tables, keys, list entries or lines: too costly to parse from 50,001 on
        many = draw(st.sampled_from(["[t{}]\n", "k{} = 1\n", "{},", "#\n"]))
        lines.append("".join(many.format(i) for i in range(draw(st.sampled_from([5_000, 50_001, 60_000])))))
    ruleset = draw(st.one_of(st.just(rid), st.none(), st.sampled_from(RULESETS)))
    return {"text": "\n".join(lines), **({"ruleset": ruleset} if ruleset else {})}


@fuzz(600)
@given(body=mutated_scenarios())
def test_web_fuzz_mutated_scenarios_are_checked_or_refused(tmp_path_factory: Any, body: dict[str, Any]) -> None:
    response = client(tmp_path_factory.getbasetemp()).post("/api/scenarios/check", json=body)
    assert_answered(response, "POST")


@st.composite
def match_requests(draw: st.DrawFn) -> tuple[str, Any]:
    """A new match, board, simulation or events request: a shipped scenario's name, its text or a mutated text, with
    each other field valid, missing or garbage."""
    rid, text, name, sides = draw(st.sampled_from(SCENARIOS))
    scenario = draw(st.one_of(st.just(name), st.just(text), mutated_scenarios().map(lambda b: b["text"]), garbage_values))
    route = draw(st.sampled_from(["/api/matches", "/api/scenarios/board", "/api/simulations", "/api/matches/from-events"]))
    body: dict[str, Any] = {"scenario": scenario}
    fields = {
        "ruleset": st.one_of(st.just(rid), st.sampled_from(RULESETS), garbage_values),
        "seed": st.one_of(st.integers(0, 5), garbage_values),
        "people": st.one_of(st.just([]), st.just([sides[0]]), st.just(list(sides)), st.lists(st.text(max_size=6), max_size=20), garbage_values),
        "lang": st.one_of(st.sampled_from(["en", "ja"]), garbage_values),
        "runs": st.one_of(st.integers(-2, 3), st.just(10**9), garbage_values),
        "events": st.one_of(st.text(max_size=200), st.just('{"type":"x"}\n'), garbage_values),
    }
    for key, values in fields.items():
        if draw(st.booleans()):
            body[key] = draw(values)
    return route, body


@fuzz(300)
@given(request=match_requests())
def test_web_fuzz_match_board_and_simulation_requests_are_answered_or_refused(tmp_path_factory: Any, request: tuple[str, Any]) -> None:
    route, body = request
    response = client(tmp_path_factory.getbasetemp()).post(route, content=json.dumps(body).encode(), headers=JSON)
    assert_answered(response, "POST")


@fuzz(300)
@given(notation=st.one_of(st.text(max_size=40), st.sampled_from(["move", "move x to 1,2", "move  to ,", "attack", "undo", "1e999,1", "nan,nan", "-0,-0"]),
                          st.builds(lambda a, b: f"move {a} to {b}", st.text(max_size=8), st.text(max_size=12))))
def test_web_fuzz_any_notation_is_taken_or_refused_with_its_rule(tmp_path_factory: Any, notation: str) -> None:
    served = client(tmp_path_factory.getbasetemp())
    response = served.post(f"/api/matches/{_match}/choose", json={"notation": notation})
    assert_answered(response, "POST")
    if response.status_code == 200:  # a legal choice was made: take it back, so the match stays at its first decision
        assert served.post(f"/api/matches/{_match}/undo", json={}).status_code == 200


@fuzz(200)
@given(body=st.dictionaries(st.sampled_from(["playouts", "ai", "seed"]), st.one_of(
    st.integers(-5, 2_000), st.sampled_from(["greedy", "search", "search:0", "search:20001", "random", "os:system", "Hero=search"]),
    st.dictionaries(st.sampled_from(["Hero", "Goblins", "Orcs"]), st.one_of(st.sampled_from(["search:5", "random"]), garbage_values), max_size=3),
    garbage_values,
)))
def test_web_fuzz_requests_for_advice_are_checked_or_refused(tmp_path_factory: Any, body: dict[str, Any]) -> None:
    """Issue 23 §3: the advisor's request is checked in full before any work (the fuzz's advisor then refuses it as
    busy, 429: it works out nothing)."""
    response = client(tmp_path_factory.getbasetemp()).post(f"/api/matches/{_match}/advice", content=json.dumps(body).encode(), headers=JSON)
    assert_answered(response, "POST")
    assert response.status_code in (422, 429)


@fuzz(200)
@given(data=st.data())
def test_web_fuzz_damaged_saves_are_loaded_or_refused(tmp_path_factory: Any, data: st.DataObject) -> None:
    """The match's own save with a field replaced, a step dropped or garbled, or its text cut: loaded, or refused
    naming the save."""
    served = client(tmp_path_factory.getbasetemp())
    save = served.get(f"/api/matches/{_match}/save").text
    how = data.draw(st.sampled_from(["field", "cut", "bytes", "resealed"]))
    if how == "cut":
        body = save[: data.draw(st.integers(0, len(save)))].encode()
    elif how == "bytes":
        raw = bytearray(save.encode())
        for _ in range(data.draw(st.integers(1, 4))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        body = bytes(raw)
    else:
        parsed = json.loads(save)
        parsed[data.draw(st.sampled_from(sorted(k for k in parsed if k != "checksum")))] = data.draw(garbage_values)
        if how == "resealed":  # a checksum that matches: the save's contents themselves are checked
            parsed["checksum"] = checksum({k: v for k, v in parsed.items() if k != "checksum"})
        body = json.dumps(parsed).encode()
    assert_answered(served.post("/api/matches/load", content=body, headers=JSON), "POST")
