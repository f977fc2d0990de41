"""The board routes of a match in play (issue 24 §2, §5): a model's reach is exactly the places the referee accepts,
the ruler's numbers are the referee's geometry, and a match changes language in play. Every refusal names its field."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.core.errors import IllegalChoice
from kessen.match import Match
from tests.web.clients import JSON


def free_move(client: TestClient, scenario: str, side: str, seed: int = 5) -> dict[str, Any]:
    """A match of *scenario* played by a person as *side*, its first options taken until a free ``move``."""
    response = client.post("/api/matches", json={"scenario": scenario, "seed": seed, "people": [side]})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = client.get(f"/api/matches/{response.json()['id']}").json()
    for _ in range(40):
        decision = state["decision"]
        if decision["free"] and decision["kind"] == "move":
            return state
        state = client.post(f"/api/matches/{state['id']}/choose", json={"notation": decision["options"][0]["notation"]}).json()
    pytest.fail(f"no free move in {scenario}")


def mover(state: dict[str, Any]) -> dict[str, Any]:
    actor = state["decision"]["actor"]
    models = state["board"]["models"]
    return next((m for m in models if m["id"] == actor or m["group"] == actor), None) or next(m for m in models if m["side"] in state["people"])


def replayed(client: TestClient, state: dict[str, Any]) -> Match:
    match = Match.loads(json.loads(client.get(f"/api/matches/{state['id']}/save").text))
    match.run()
    return match


def legal(match: Match, notation: str) -> bool:
    try:
        match.odds(notation)
    except IllegalChoice:
        return False
    return True


def test_reach_on_the_armies_clash_grid_is_every_square_the_referee_accepts(client: TestClient) -> None:
    """AC-MOVE: the squares given are exactly the squares of the grid where ``move <stand> to x,y`` is legal."""
    state = free_move(client, "armies-clash/skirmish-ridge", "a")
    model = mover(state)
    found = client.get(f"/api/matches/{state['id']}/reach", params={"model": model["id"]}).json()
    match = replayed(client, state)
    board = state["board"]
    expected = {(x, y) for x in range(int(board["width"])) for y in range(int(board["height"])) if legal(match, f"move {model['id']} to {x},{y}")}
    assert {(s["x"], s["y"]) for s in found["squares"]} == expected and expected
    words = {o["notation"]: o["text"] for o in state["decision"]["options"]}
    assert all(s["notation"] == f"move {model['id']} to {s['x']},{s['y']}" and s["text"] == words.get(s["notation"]) for s in found["squares"])
    assert found["area"] is None and found["ring"] is None


@pytest.mark.parametrize(("scenario", "side"), [("legions/hold-the-line", "Auxilia"), ("song-of-blades/hero-against-mob", "Hero"), ("battlehost/doorway", "good")])
def test_reach_on_a_table_is_an_area_of_places_the_referee_accepts(client: TestClient, scenario: str, side: str) -> None:
    """LI-MOVE-2, SB-MOVE-1, BH-MOVE: each corner of the area is a legal end of the model's move; a step past the
    ring's radius, straight out, is not."""
    state = free_move(client, scenario, side)
    model = mover(state)
    found = client.get(f"/api/matches/{state['id']}/reach", params={"model": model["id"]}).json()
    match = replayed(client, state)
    units = state["board"]["units"]
    point = (lambda x, y: f"{round(x, 1):g},{round(y, 1):g}") if units == "inch" else (lambda x, y: f"{round(x)},{round(y)}")
    ring = found["ring"]
    assert ring["x"] == model["x"] and ring["y"] == model["y"] and ring["r"] > 0
    corners = [(x, y) for x, y in found["area"] if (x, y) != (model["x"], model["y"])]
    assert corners and all(legal(match, f"move {model['id']} to {point(x, y)}") for x, y in corners)
    assert max(math.hypot(x - model["x"], y - model["y"]) for x, y in found["area"]) == pytest.approx(ring["r"], abs=1e-3)
    beyond = ring["r"] * 1.5 + (model["base"] or 0)
    outside = [(model["x"] + beyond * math.cos(a), model["y"] + beyond * math.sin(a)) for a in (0, math.pi / 2, math.pi, 3 * math.pi / 2)]
    inside = [(x, y) for x, y in outside if 0 <= x <= state["board"]["width"] and 0 <= y <= state["board"]["height"]]
    assert inside and not any(legal(match, f"move {model['id']} to {point(x, y)}") for x, y in inside)


def test_reach_refusals_name_their_field(client: TestClient) -> None:
    state = free_move(client, "song-of-blades/hero-against-mob", "Hero")
    route = f"/api/matches/{state['id']}/reach"
    missing = client.get(route)
    assert missing.status_code == 422 and missing.json()["error"] == "kessen: error: query.model: field required"
    unknown = client.get(route, params={"model": "nobody"})
    assert unknown.status_code == 422 and "model: no model of this id is on the board (got 'nobody')" in unknown.json()["error"]
    assert client.get("/api/matches/no-such/reach", params={"model": "x"}).status_code == 404
    done = client.post("/api/matches", json={"scenario": "song-of-blades/hero-against-mob", "seed": 1, "people": []}).json()["id"]
    while client.get(f"/api/matches/{done}").json()["status"] == "playing":
        pass
    over = client.get(f"/api/matches/{done}/reach", params={"model": "hero"})
    assert over.status_code == 422 and over.json()["error"].startswith("kessen: error: match: no free decision is asked now")


def test_the_ruler_measures_with_the_referees_geometry(client: TestClient) -> None:
    """Battlehost (BH-GEO-8): centres and base gap in inches, and line of sight; song-of-blades has no sight rule;
    armies-clash counts squares between footprints (AC-GRID-1)."""
    state = free_move(client, "battlehost/doorway", "good")
    a, b = state["board"]["models"][0], state["board"]["models"][-1]
    got = client.get(f"/api/matches/{state['id']}/measure", params={"a": a["id"], "b": b["id"]}).json()
    centre = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
    assert got["distance"] == round(centre, 3) and got["gap"] == round(centre - a["base"] / 2 - b["base"] / 2, 3)
    assert isinstance(got["sight"], bool) and got["sight_rule"] == "BH-GEO-8" and got["units"] == "inch"
    sob = free_move(client, "song-of-blades/hero-against-mob", "Hero")
    ids = [m["id"] for m in sob["board"]["models"]][:2]
    assert client.get(f"/api/matches/{sob['id']}/measure", params={"a": ids[0], "b": ids[1]}).json()["sight"] is None
    ac = free_move(client, "armies-clash/skirmish-ridge", "a")
    first, last = ac["board"]["models"][0], ac["board"]["models"][-1]
    squares = client.get(f"/api/matches/{ac['id']}/measure", params={"a": first["id"], "b": last["id"]}).json()
    assert squares["gap"] is None and squares["distance"] >= max(abs(first["x"] - last["x"]), abs(first["y"] - last["y"])) - 2
    bad = client.get(f"/api/matches/{ac['id']}/measure", params={"a": first["id"], "b": "nobody"})
    assert bad.status_code == 422 and "b: no model of this id" in bad.json()["error"]


def test_a_match_in_play_changes_language(client: TestClient) -> None:
    """Issue 24 §5: after the switch the prompt, options and report are the Match's own in Japanese, and the save
    records it."""
    state = free_move(client, "legions/hold-the-line", "Auxilia")
    route = f"/api/matches/{state['id']}/lang"
    refused = client.post(route, json={"lang": "fr"})
    assert refused.status_code == 422 and "lang: must be one of en, ja (got 'fr')" in refused.json()["error"]
    assert client.post(route, content="{}", headers=JSON).status_code == 422
    japanese = client.post(route, json={"lang": "ja"}).json()
    match = Match.loads(json.loads(client.get(f"/api/matches/{state['id']}/save").text))
    match.run()
    assert match.lang == "ja" and match.decision is not None
    assert japanese["lang"] == "ja" and japanese["decision"]["prompt"] == match.decision.prompt
    assert [e["text"] for e in japanese["events"]] == [match.narrate(e) for e in match.events]
    assert japanese["decision"]["prompt"] != state["decision"]["prompt"]


# --- the scenario builder (issue 24 §6) ---------------------------------------------------------------------------


def test_builder_moves_an_entry_and_adds_terrain_as_the_referee_accepts(client: TestClient) -> None:
    """Battlehost: the doorway's captain moved and an impassable block drawn; the TOML written is what the ruleset
    loads, its board shows both (BH-GEO-5)."""
    opened = client.post("/api/builder/open", json={"scenario": "battlehost/doorway"}).json()
    assert opened["ok"] and opened["handles"][0] == {"path": ["good", 0], "x": 23.0, "y": 23.0, "form": "xy", "label": "Captain"}
    data = opened["data"]
    data["good"][0] |= {"x": 10.5, "y": 12.0}
    moved = client.post("/api/builder/data", json={"ruleset": "battlehost", "data": data}).json()
    assert moved["ok"] and 'x = 10.5' in moved["text"]
    captain = next(m for m in moved["board"]["models"] if m["id"] == "Captain")
    assert (captain["x"], captain["y"]) == (10.5, 12.0)
    walled = client.post("/api/builder/rectangle", json={"ruleset": "battlehost", "data": moved["data"], "box": [40, 40, 30, 35]}).json()
    assert walled["ok"] and walled["data"]["terrain"][-1] == [30.0, 35.0, 40.0, 40.0]
    assert {"kind": "impassable", "shape": "rect", "points": [[30.0, 35.0], [40.0, 40.0]], "height": None} in walled["board"]["terrain"]
    match = Match.from_text(walled["text"], ruleset="battlehost")
    assert match.board() == walled["board"]


def test_builder_says_what_the_referee_refuses_and_refuses_bad_requests(client: TestClient) -> None:
    opened = client.post("/api/builder/open", json={"scenario": "armies-clash/skirmish-ridge"}).json()
    data = opened["data"]
    data["stands"][0]["at"] = [99, 99]
    judged = client.post("/api/builder/data", json={"ruleset": "armies-clash", "data": data}).json()
    assert judged["ok"] is False and judged["error"].startswith("kessen: error: scenario: stands[0]")
    typed = client.post("/api/builder/text", json={"ruleset": "legions", "text": "rounds = ["}).json()
    assert typed["ok"] is False and "not valid TOML" in typed["error"] and typed["data"] is None
    null = client.post("/api/builder/data", json={"ruleset": "legions", "data": {"name": None}})
    assert null.status_code == 422 and null.json()["error"].startswith("kessen: error: data: cannot be written as TOML")
    legions = client.post("/api/builder/rectangle", json={"ruleset": "legions", "data": {}, "box": [0, 0, 1, 1]})
    assert legions.status_code == 422 and "its scenarios have no terrain with a shape" in legions.json()["error"]
    assert client.post("/api/builder/rectangle", json={"ruleset": "legions", "data": {}, "box": [0, 0]}).status_code == 422
    assert client.get("/api/builder/chess").status_code == 404
    assert client.post("/api/builder/open", json={"scenario": "legions/nope"}).status_code == 422
    wrong = client.post("/api/builder/text", json={"ruleset": "legions", "text": 'ruleset = "battlehost"'})
    assert wrong.status_code == 422 and "ruleset" in wrong.json()["error"]
