"""The JSON API, route by route: what each answers, and every refusal as a 4xx with the CLI's one error line."""

from __future__ import annotations

import asyncio
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen import get_ruleset, odds, ruleset_ids
from kessen.io.scenarios import shipped_scenarios
from kessen.web.app import create_app
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.store import Store
from kessen.web.texts import field_paths
from tests.web.clients import JSON

SB = "song-of-blades"
MELEE = {"attacker_combat": 3, "defender_combat": 2}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def error_of(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}
    line = body["error"]
    assert line.startswith("kessen: error: ") and "\n" not in line
    return str(line)


# --- rulesets ------------------------------------------------------------------------------------------


def test_rulesets_lists_every_ruleset_with_its_procedures(client: TestClient) -> None:
    response = client.get("/api/rulesets")
    assert response.status_code == 200
    listed = response.json()["rulesets"]
    assert [r["id"] for r in listed] == list(ruleset_ids())
    for entry in listed:
        ruleset = get_ruleset(entry["id"])
        assert entry["prefix"] == ruleset.prefix
        assert [p["name"] for p in entry["procedures"]] == list(ruleset.procedures)
        assert all(p["title"] and p["summary"] for p in entry["procedures"])


def test_rulesets_in_japanese_have_japanese_titles(client: TestClient) -> None:
    en = client.get("/api/rulesets?lang=en").json()["rulesets"]
    ja = client.get("/api/rulesets?lang=ja").json()["rulesets"]
    assert [r["id"] for r in en] == [r["id"] for r in ja]
    for one, other in zip(en, ja):
        assert one["title"] != other["title"]
        assert any(ord(ch) > 0x3000 for ch in other["title"])


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_ruleset_gives_each_procedure_the_schema_the_cli_prints(client: TestClient, ruleset: str) -> None:
    """The schema is exactly ``kessen odds RULESET PROCEDURE --schema``; fields name every path of it."""
    body = client.get(f"/api/rulesets/{ruleset}").json()
    assert body["id"] == ruleset
    chosen = get_ruleset(ruleset)
    assert [p["name"] for p in body["procedures"]] == list(chosen.procedures)
    for entry in body["procedures"]:
        schema = chosen.procedures[entry["name"]].input_model.model_json_schema()
        assert entry["schema"] == json.loads(json.dumps(schema))
        assert set(entry["fields"]) == {path for path, _ in field_paths(schema)}
        assert odds(ruleset, entry["name"], entry["start"]).outcomes  # the form's starting input is valid


def test_unknown_ruleset_is_404_naming_it(client: TestClient) -> None:
    response = client.get("/api/rulesets/chess")
    assert response.status_code == 404
    assert "ruleset: unknown ruleset" in error_of(response) and "'chess'" in error_of(response)


def test_unknown_language_is_422(client: TestClient) -> None:
    for path in ("/api/rulesets?lang=fr", f"/api/rulesets/{SB}?lang=fr", "/api/texts/fr"):
        response = client.get(path)
        assert response.status_code == 422
        assert error_of(response) == "kessen: error: lang: must be one of en, ja (got 'fr')"


def test_page_words_have_the_same_keys_in_both_languages(client: TestClient) -> None:
    en, ja = client.get("/api/texts/en").json(), client.get("/api/texts/ja").json()
    assert set(en) == set(ja) and en["odds_title"] == "Odds calculator" and ja["odds_title"] == "確率計算機"


# --- odds ----------------------------------------------------------------------------------------------


def test_odds_answers_the_contract_object(client: TestClient) -> None:
    response = client.post(f"/api/odds/{SB}/melee", json=MELEE)
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    assert response.json() == odds(SB, "melee", MELEE).to_json_dict()


def test_odds_bad_body_is_422_with_the_field_and_value(client: TestClient) -> None:
    response = client.post(f"/api/odds/{SB}/melee", json={"attacker_combat": 13, "defender_combat": 2})
    assert response.status_code == 422
    assert error_of(response) == "kessen: error: attacker_combat: must be ≤ 12 (got 13)"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"", "kessen: error: input: not valid JSON"),
        (b"[1, 2]", "kessen: error: input: must be an object"),
        (b"{\"attacker_combat\": 3}", "kessen: error: defender_combat: required field is missing"),
        (b"{\"attacker_combat\": 3, \"defender_combat\": 2, \"x\": 1}", "kessen: error: x: unknown field"),
        (b"\xff\xfe", "kessen: error: input: not valid UTF-8 text"),
    ],
)
def test_odds_malformed_bodies_are_422(client: TestClient, body: bytes, expected: str) -> None:
    response = client.post(f"/api/odds/{SB}/melee", content=body, headers=JSON)
    assert response.status_code == 422
    assert error_of(response).startswith(expected)


def test_odds_unknown_ruleset_or_procedure_is_404(client: TestClient) -> None:
    assert client.post("/api/odds/chess/melee", json=MELEE).status_code == 404
    response = client.post(f"/api/odds/{SB}/shoot", json=MELEE)
    assert response.status_code == 404
    assert "procedure: song-of-blades has no such procedure" in error_of(response)


def test_odds_wrong_method_is_405(client: TestClient) -> None:
    response = client.get(f"/api/odds/{SB}/melee")
    assert response.status_code == 405
    assert "method not allowed" in error_of(response)


# --- body limit ----------------------------------------------------------------------------------------


def test_body_over_the_limit_is_413_by_its_content_length(client: TestClient) -> None:
    response = client.post(f"/api/odds/{SB}/melee", content=b" " * (MAX_BODY_BYTES + 1), headers=JSON)
    assert response.status_code == 413
    assert error_of(response) == "kessen: error: body: larger than the limit of 1,000,000 bytes"


def test_body_at_the_limit_is_read(client: TestClient) -> None:
    body = json.dumps(MELEE).encode().ljust(MAX_BODY_BYTES, b" ")
    assert client.post(f"/api/odds/{SB}/melee", content=body, headers=JSON).status_code == 200


def test_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    response = client.post(f"/api/odds/{SB}/melee", content=iter([b" " * 600_000, b" " * 600_000]), headers=JSON)
    assert response.status_code == 413
    assert error_of(response) == "kessen: error: body: larger than the limit of 1,000,000 bytes"


def test_streamed_body_is_refused_as_soon_as_it_passes_the_limit(store: Store) -> None:
    """A body without Content-Length is counted chunk by chunk: the app stops reading at the chunk that passes
    the limit and answers 413; the chunks after it are never received."""
    pulled = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b" " * 100_000, "more_body": pulled < 50}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": f"/api/odds/{SB}/melee", "raw_path": f"/api/odds/{SB}/melee".encode(),
             "query_string": b"", "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")], "http_version": "1.1",
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000), "root_path": ""}
    asyncio.run(create_app(store)(scope, receive, send))
    assert sent[0]["status"] == 413
    assert pulled == MAX_BODY_BYTES // 100_000 + 1


def test_bad_content_length_is_400(client: TestClient) -> None:
    response = client.post(f"/api/odds/{SB}/melee", content=b"{}", headers={**JSON, "content-length": "lots"})
    assert response.status_code == 400
    assert "content-length" in error_of(response)


# --- scenarios -----------------------------------------------------------------------------------------


def test_scenarios_lists_the_shipped_ones(client: TestClient) -> None:
    listed = client.get("/api/scenarios").json()["scenarios"]
    assert [s["name"] for s in listed] == [s.name for s in shipped_scenarios()]
    assert {s["ruleset"] for s in listed} == set(ruleset_ids())
    assert all(s["title"] and "path" not in s for s in listed)


@pytest.mark.parametrize("scenario", shipped_scenarios(), ids=lambda s: s.name)
def test_every_shipped_scenario_checks_ok_with_its_sides(client: TestClient, scenario: Any) -> None:
    text = scenario.path.read_text(encoding="utf-8")
    response = client.post("/api/scenarios/check", json={"ruleset": scenario.ruleset, "text": text})
    assert response.status_code == 200
    body = response.json()
    chosen = get_ruleset(scenario.ruleset)
    sides = chosen.game.sides(chosen.game.load_scenario(text, "scenario"))
    assert body == {"ok": True, "ruleset": scenario.ruleset, "sides": list(sides)}


def test_scenario_check_names_the_bad_field(client: TestClient) -> None:
    text = (EXAMPLES / "battlehost" / "doorway.toml").read_text(encoding="utf-8").replace('name = "Hero holding the doorway"', "name = 3")
    response = client.post("/api/scenarios/check", json={"ruleset": "battlehost", "text": text})
    assert response.status_code == 422
    assert error_of(response) == "kessen: error: scenario: name: must be a string (got 3)"


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        ({"ruleset": "battlehost", "text": "name = "}, 422, "kessen: error: scenario: not valid TOML"),
        ({"ruleset": "battlehost", "text": "a = " + "[" * 5000 + "]" * 5000}, 422, "kessen: error: scenario: "),
        ({"ruleset": "chess", "text": ""}, 404, "kessen: error: ruleset: unknown ruleset"),
        ({"text": "name = 'x'"}, 422, "kessen: error: ruleset: give the scenario's ruleset"),
        ({"text": "ruleset = 'chess'"}, 404, "kessen: error: ruleset: unknown ruleset"),
        ({"text": "ruleset = 3"}, 422, "kessen: error: scenario: ruleset: must be a string (got 3)"),
        ({"ruleset": "legions", "text": "ruleset = 'battlehost'"}, 422, "kessen: error: ruleset: the scenario says ruleset = 'battlehost'"),
        ({"ruleset": "battlehost"}, 422, "kessen: error: text: required field is missing"),
        ({"ruleset": "battlehost", "text": 3}, 422, "kessen: error: text: must be a string (got 3)"),
        ({"ruleset": "battlehost", "text": "", "path": "/etc/passwd"}, 422, "kessen: error: path: unknown field"),
    ],
)
def test_scenario_check_refusals(client: TestClient, body: dict[str, Any], status: int, expected: str) -> None:
    response = client.post("/api/scenarios/check", json=body)
    assert response.status_code == status
    assert error_of(response).startswith(expected)


# --- page, docs and unknown routes ---------------------------------------------------------------------


def test_page_and_its_files_are_served(client: TestClient) -> None:
    for path in ("/", "/odds"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/js/main.js">' in page.text
        assert page.headers["content-security-policy"].startswith("default-src 'self'")
    script = client.get("/static/js/main.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    again = client.get("/static/js/main.js", headers={"if-none-match": script.headers["etag"]})
    assert again.status_code == 304


def test_static_paths_never_leave_the_page_files(client: TestClient) -> None:
    for path in ("/static/../api.py", "/static/%2e%2e/api.py", "/static/..%2fapi.py", "/static/vendor/../../store.py", "/static/"):
        response = client.get(path)
        assert response.status_code == 404, path
        error_of(response)


def test_api_documentation_is_served_without_a_cdn(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs.text and "cdn" not in docs.text.lower()
    assert '"validatorUrl": null' in docs.text
    assert client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js").status_code == 200
    spec = client.get("/api/openapi.json").json()
    assert {"/api/rulesets", "/api/rulesets/{ruleset}", "/api/odds/{ruleset}/{procedure}", "/api/scenarios", "/api/scenarios/check"} <= set(spec["paths"])


def test_unknown_route_is_404_with_the_error_line(client: TestClient) -> None:
    for path in ("/nothing", "/api", "/api/odds", "/api/rulesets/song-of-blades/melee"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "no such page or API route" in error_of(response)


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/api/scenarios/check", {"text": ""}),
        ("/api/scenarios/board", {"scenario": ""}),
        ("/api/matches", {"scenario": "", "seed": 1, "people": []}),
        ("/api/simulations", {"scenario": "", "seed": 1, "runs": 1}),
    ],
)
def test_a_scenario_too_costly_to_parse_is_422_on_every_route(client: TestClient, monkeypatch: pytest.MonkeyPatch, route: str, body: dict[str, Any]) -> None:
    """Issue 22 §3: 589 KB of 60,000 empty tables (seconds of tomllib, 12–14 s four at once) is refused by the one
    bounded reader, counted before any parsing, with the line the CLI prints."""
    text = 'ruleset = "song-of-blades"\n' + "".join(f"[table{i}]\n" for i in range(60_000))

    def parse(_text: str) -> None:
        raise AssertionError("tomllib was called")

    monkeypatch.setattr(tomllib, "loads", parse)
    field = "text" if "text" in body else "scenario"
    response = client.post(route, json={**body, field: text})
    assert response.status_code == 422
    assert error_of(response) == "kessen: error: scenario: more than 50,000 keys, tables and list entries (60,001 of =, [, { and , outside strings and comments)"
