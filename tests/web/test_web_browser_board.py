"""Boards a player can read, in Debian's headless Chromium against a real ``kessen serve`` (issue 24 §1, §2, §5):
labels that never overlap on every shipped scenario, no page wider than a phone, zoom, a model's reach, the ruler, a
save continued, the language switched in play. What the page shows is checked against the API and kessen.Match."""

from __future__ import annotations

import json
import re
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from kessen.io.scenarios import shipped_scenarios
from kessen.match import Match
from tests.web.conftest import KESSEN

SHIPPED = {s.name: s for s in shipped_scenarios()}

OVERLAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((n) => n.getBoundingClientRect()).filter((r) => r.width > 0);
  const pairs = [];
  for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) {
    const [a, b] = [boxes[i], boxes[j]];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5) pairs.push([i, j]);
  }
  return [boxes.length, pairs.length];
}"""
LABELS = "#viewer-board svg.board-overlay text.label"


def ai_battle(page: Page, server: str, name: str, seed: int = 1) -> str:
    """An AI battle of *name* made through the API, once the server has played it."""
    made = page.request.post(f"{server}/api/matches", data={"scenario": name, "seed": seed, "people": []}).json()["id"]
    end = time.monotonic() + 60
    while page.request.get(f"{server}/api/matches/{made}").json()["status"] == "playing":
        assert time.monotonic() < end
        time.sleep(0.05)
    return str(made)


def labels_apart(page: Page) -> int:
    """The number of labels shown, after checking that no two of them overlap on the screen."""
    shown, overlapping = page.evaluate(OVERLAPS, LABELS)
    assert overlapping == 0, f"{overlapping} overlapping label pairs among {shown}"
    assert shown > 0
    return int(shown)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_browser_labels_never_overlap_at_the_start_middle_and_end_of_every_shipped_scenario(server: str, page: Page, name: str) -> None:
    """Issue 24 §1: zero overlapping labels at the start, the middle and the end of an AI battle, on a desktop
    screen and on a phone, zoomed out and zoomed in."""
    match = ai_battle(page, server, name)
    page.goto(f"{server}/viewer?lang=en&match={match}&at=0")
    expect(page.locator("#replay-controls")).to_be_visible()
    total = int(page.locator("#scrubber").get_attribute("max") or 0)
    for at in (0, total // 2, total):
        page.locator("#scrubber").fill(str(at))
        labels_apart(page)
    page.locator('#viewer-board [data-action="fit-models"]').click()
    labels_apart(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator('#viewer-board [data-action="fit-table"]').click()
    page.wait_for_timeout(100)  # the frame's new size is seen by its ResizeObserver
    labels_apart(page)
    page.locator('#viewer-board [data-action="zoom-in"]').click()
    labels_apart(page)


def scale(page: Page, board: str = "#viewer-board") -> float:
    return float(page.locator(board).get_attribute("data-scale") or 0)


def test_browser_zoom_changes_the_scale_and_fit_brings_it_back(server: str, page: Page) -> None:
    """The + button, the wheel, the − button and "whole table": pixels per inch follow each."""
    page.goto(f"{server}/viewer?lang=en&scenario=legions/hold-the-line")
    expect(page.locator("#viewer-board")).to_have_attribute("data-scale", re.compile(r"^[1-9]"))
    whole = scale(page)
    page.locator('#viewer-board [data-action="zoom-in"]').click()
    assert scale(page) == pytest.approx(whole * 1.5, rel=1e-3)
    box = page.locator("#viewer-board svg.board").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_timeout(100)
    assert scale(page) > whole * 1.5 * 1.3
    page.locator('#viewer-board [data-action="zoom-out"]').click()
    page.locator('#viewer-board [data-action="fit-table"]').click()
    assert scale(page) == pytest.approx(whole, rel=1e-3)
    page.locator('#viewer-board [data-action="fit-models"]').click()
    assert scale(page) > whole  # the models of hold-the-line fill less than the table
    ticks = [float(t) for t in page.eval_on_selector_all("#viewer-board .tick-x", "ns => ns.map(n => n.textContent)")]
    assert len(ticks) >= 3 and ticks == sorted(ticks) and 0 <= ticks[0] and ticks[-1] <= 72


PAGES = ["/odds?lang=en", "/viewer?lang=en&scenario=legions/hold-the-line", "/play?lang=en", "/simulate?lang=en", "/build?lang=en", "/odds?lang=ja"]


def test_browser_no_page_is_wider_than_a_phone(server: str, page: Page) -> None:
    """Issue 24: at 390 × 844 no page scrolls sideways (the header wraps), a match in play neither; compare mode
    fits a 1366 px screen."""
    page.set_viewport_size({"width": 390, "height": 844})
    for path in PAGES:
        page.goto(f"{server}{path}")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        assert page.locator('#lang-switch [data-lang="ja"]').bounding_box()["x"] + 10 < 390  # type: ignore[index]
    made = page.request.post(f"{server}/api/matches", data={"scenario": "armies-clash/skirmish-ridge", "seed": 5, "people": ["a"]}).json()["id"]
    page.goto(f"{server}/play?lang=en&match={made}")
    expect(page.locator("#prompt")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{server}/odds?lang=en&ruleset=legions&procedure=fire")
    page.locator('button[data-action="compare"]').click()
    expect(page.locator('[data-form="b"]')).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366


def start_match(page: Page, server: str, name: str, side: str, seed: int = 5) -> dict[str, Any]:
    made = page.request.post(f"{server}/api/matches", data={"scenario": name, "seed": seed, "people": [side]}).json()["id"]
    state: dict[str, Any] = page.request.get(f"{server}/api/matches/{made}").json()
    for _ in range(40):
        decision = state["decision"]
        if decision["free"] and decision["kind"] == "move":
            return state
        state = page.request.post(f"{server}/api/matches/{made}/choose", data={"notation": decision["options"][0]["notation"]}).json()
    pytest.fail(f"no free move in {name}")


def test_browser_a_selected_stand_shows_its_squares_and_a_click_on_one_moves_it(server: str, page: Page) -> None:
    """Armies-clash: the stand that moves is selected, its reachable squares are the reach route's, and a click on
    one of them moves it there."""
    state = start_match(page, server, "armies-clash/skirmish-ridge", "a")
    actor = state["decision"]["actor"]
    page.goto(f"{server}/play?lang=en&match={state['id']}")
    expect(page.locator("#play-board .reach-square").first).to_be_attached()
    reach = page.request.get(f"{server}/api/matches/{state['id']}/reach?model={actor}").json()
    shown = page.eval_on_selector_all("#play-board .reach-square", "ns => ns.map(n => [Number(n.dataset.x), Number(n.dataset.y)])")
    assert sorted(map(tuple, shown)) == sorted((s["x"], s["y"]) for s in reach["squares"])
    target = reach["squares"][-1]
    page.locator(f'#play-board .reach-square[data-x="{target["x"]}"][data-y="{target["y"]}"]').click()
    page.wait_for_function("n => document.querySelectorAll('.event-log li').length !== n", arg=len(state["events"]))
    after = page.request.get(f"{server}/api/matches/{state['id']}").json()
    moved = next(m for m in after["board"]["models"] if m["id"] == actor)
    assert (moved["x"], moved["y"]) == (target["x"], target["y"])
    assert page.locator("#turn-banner").get_attribute("data-side") in ("a", "b", "")


def test_browser_a_selected_model_shows_its_reach_and_a_drag_moves_it(server: str, page: Page) -> None:
    """Song of Blades: the model that acts shows the reach route's ring; dragged to a point inside it, it moves there."""
    state = start_match(page, server, "song-of-blades/hero-against-mob", "Hero")
    actor = state["decision"]["actor"]
    page.goto(f"{server}/play?lang=en&match={state['id']}")
    expect(page.locator("#play-board .reach-ring")).to_be_attached()
    reach = page.request.get(f"{server}/api/matches/{state['id']}/reach?model={actor}").json()
    ring = page.locator("#play-board .reach-ring")
    assert float(ring.get_attribute("r") or 0) == pytest.approx(reach["ring"]["r"])
    model = next(m for m in state["board"]["models"] if m["id"] == actor)
    x, y = max(reach["area"], key=lambda p: (p[0] - model["x"]) ** 2 + (p[1] - model["y"]) ** 2)  # the farthest legal end
    x, y = model["x"] + (x - model["x"]) * 0.8, model["y"] + (y - model["y"]) * 0.8
    to_screen = "([x, y]) => { const svg = document.querySelector('#play-board svg.board'); const p = new DOMPoint(x, Number(svg.dataset.height) - y).matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }"
    start = page.evaluate(to_screen, [model["x"], model["y"]])
    end = page.evaluate(to_screen, [x, y])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    page.wait_for_function("n => !document.body.classList.contains('waiting') && document.querySelectorAll('.event-log li').length !== n", arg=len(state["events"]))
    moved = next(m for m in page.request.get(f"{server}/api/matches/{state['id']}").json()["board"]["models"] if m["id"] == actor)
    assert moved["x"] == pytest.approx(x, abs=1) and moved["y"] == pytest.approx(y, abs=1)


def test_browser_the_ruler_between_two_models(server: str, page: Page) -> None:
    """Battlehost: the ruler's words carry the measure route's distance and its line of sight rule."""
    state = start_match(page, server, "battlehost/doorway", "good")
    page.goto(f"{server}/play?lang=en&match={state['id']}")
    expect(page.locator("#prompt")).to_be_visible()
    a, b = state["board"]["models"][0]["id"], state["board"]["models"][-1]["id"]
    page.locator('#play-board [data-action="ruler"]').click()
    page.locator(f'#play-board [data-model="{a}"]').click()
    page.locator(f'#play-board [data-model="{b}"]').click()
    expect(page.locator("#play-board .ruler")).to_be_attached()
    measured = page.request.get(f"{server}/api/matches/{state['id']}/measure?a={a}&b={b}").json()
    details = page.locator("#play-board .board-details").inner_text()
    assert f"{measured['distance']:g} inches" in details and "BH-GEO-8" in details


def test_browser_a_save_file_goes_on_to_the_same_decision_and_in_another_language(server: str, page: Page, tmp_path: Path) -> None:
    """Issue 24 §5: a downloaded save continued on the play page reaches the decision Match.loads reaches; the
    日本語 switch then shows that match in Japanese, its prompt and report the Match's own."""
    state = start_match(page, server, "legions/hold-the-line", "Auxilia")
    save = tmp_path / "match.json"
    save.write_text(page.request.get(f"{server}/api/matches/{state['id']}/save").text(), encoding="utf-8")
    page.goto(f"{server}/play?lang=en")
    page.locator("#play-file").set_input_files(str(save))
    expect(page.locator("#prompt")).to_be_visible()
    match = Match.loads(json.loads(save.read_text(encoding="utf-8")))
    match.run()
    assert match.decision is not None
    assert page.locator("#prompt").inner_text() == match.decision.prompt
    assert page.eval_on_selector_all("button.option", "ns => ns.map(n => n.dataset.notation)") == [o.notation for o in match.decision.options]
    assert "Auxilia" in page.locator("#turn-banner").inner_text()
    page.locator('#lang-switch [data-lang="ja"]').click()
    japanese = Match.loads(json.loads(save.read_text(encoding="utf-8")), lang="ja")
    japanese.run()
    assert japanese.decision is not None
    expect(page.locator("#prompt")).to_have_text(japanese.decision.prompt)
    assert page.locator(".event-log li").all_inner_texts() == [japanese.narrate(e) for e in japanese.events]
    expect(page.locator('[data-action="undo"]')).to_have_text("取り消す")


def test_browser_two_people_at_one_screen_play_both_sides(server: str, page: Page) -> None:
    """Issue 24 §5: with "two people" both sides are people; the banner names the side that decides."""
    page.goto(f"{server}/play?lang=en&scenario=song-of-blades/hero-against-mob")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled()
    page.locator("#play-both").check()
    page.locator("#play-seed").fill("3")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    match_id = page.url.split("match=")[1].split("&")[0]
    state = page.request.get(f"{server}/api/matches/{match_id}").json()
    assert state["people"] == ["Hero", "Goblins"]
    seen = set()
    for _ in range(12):
        seen.add(page.locator("#turn-banner").get_attribute("data-side"))
        if len(seen) == 2:
            break
        told = page.locator(".event-log li").count()
        page.locator("button.option:visible").last.click()  # end the activation or the turn: the other side's turn comes
        expect(page.locator(".event-log li")).not_to_have_count(told)
    assert seen == {"Hero", "Goblins"}


TO_SCREEN = """([board, x, y]) => { const svg = document.querySelector(board + ' svg.board');
  const p = new DOMPoint(x, Number(svg.dataset.height) - y).matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }"""


def drag(page: Page, start: list[float], end: list[float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=3)
    page.mouse.move(*end, steps=3)
    page.mouse.up()


def built(page: Page) -> dict[str, Any]:
    return tomllib.loads(page.locator("#build-toml").input_value())


def settled_box(page: Page, selector: str) -> dict[str, float]:
    """The box of *selector* once it is drawn: the builder redraws its board when each check answers, so an element
    found a moment ago may be gone (a box of None) until the last answer is drawn."""
    for _ in range(100):
        page.locator(selector).wait_for(state="visible")
        box = page.locator(selector).bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} never settled on the page")


def test_browser_the_builder_makes_a_scenario_kessen_check_accepts(server: str, page: Page, tmp_path: Path) -> None:
    """Issue 24 §6: song-of-blades' hero dragged across the table, a rectangle of cover drawn, the name typed in the
    schema's form (a hero dropped into a drop is refused, SB-GEO-4); the TOML downloaded is a scenario `kessen check` accepts, and the play page plays it."""
    page.goto(f"{server}/build?lang=en&ruleset=song-of-blades")
    page.locator("#build-start").select_option("song-of-blades/hero-against-mob")
    expect(page.locator("#build-status")).to_have_attribute("data-ok", "true")
    box = settled_box(page, '#build-board .handle[data-label="hero"]')
    drag(page, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2], page.evaluate(TO_SCREEN, ["#build-board", 300, 250]))
    expect(page.locator("#build-status")).to_contain_text("SB-GEO-4")
    expect(page.locator('#build-board .handle[data-label="hero"]')).to_have_count(0)  # nothing to drag on a refused scenario
    page.locator("#build-toml").fill(page.locator("#build-toml").input_value().replace("x = 300", "x = 480").replace("y = 250", "y = 450"))
    page.locator('[data-action="check-text"]').click()
    expect(page.locator("#build-status")).to_have_attribute("data-ok", "true")
    box = settled_box(page, '#build-board .handle[data-label="hero"]')
    drag(page, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2], page.evaluate(TO_SCREEN, ["#build-board", 400, 440]))  # along the bridge
    expect(page.locator("#build-toml")).to_have_value(re.compile(r"x = (39\d|40\d)"))
    expect(page.locator("#build-status")).to_have_attribute("data-ok", "true")
    hero = built(page)["sides"][0]["models"][0]
    assert abs(hero["x"] - 400) <= 3 and abs(hero["y"] - 440) <= 3
    covers = len(built(page).get("cover", []))
    page.locator('[data-action="draw-terrain"]').click()
    drag(page, page.evaluate(TO_SCREEN, ["#build-board", 100, 800]), page.evaluate(TO_SCREEN, ["#build-board", 220, 700]))
    expect(page.locator("#build-board .terrain-cover")).to_have_count(covers + 1)
    x0, y0, x1, y1 = built(page)["cover"][-1]
    assert abs(x0 - 100) <= 3 and abs(y0 - 700) <= 3 and abs(x1 - 220) <= 3 and abs(y1 - 800) <= 3
    page.locator('[data-form="scenario"] [data-path="name"] input').fill("The mob at the ford")
    expect(page.locator("#build-toml")).to_have_value(re.compile('name = "The mob at the ford"'))
    expect(page.locator("#build-status")).to_have_attribute("data-ok", "true")
    with page.expect_download() as download:
        page.locator("#build-download").click()
    scenario = tmp_path / "built.toml"
    scenario.write_text(Path(download.value.path()).read_text(encoding="utf-8"), encoding="utf-8")
    checked = subprocess.run([str(KESSEN), "check", str(scenario)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and 'scenario "The mob at the ford", sides Hero, Goblins' in checked.stdout, checked.stderr
    page.locator('[data-action="build-play"]').click()
    expect(page.locator('[data-action="start-match"]')).to_be_enabled()
    assert page.locator("#scenario-text").input_value() == scenario.read_text(encoding="utf-8")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    hero_now = next(m for m in api_board(page, server)["models"] if m["id"] == "hero")
    assert (hero_now["x"], hero_now["y"]) == (hero["x"], hero["y"])


def api_board(page: Page, server: str) -> Any:
    match_id = page.url.split("match=")[1].split("&")[0]
    return page.request.get(f"{server}/api/matches/{match_id}").json()["board"]
