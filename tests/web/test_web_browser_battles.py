"""The battle viewer, play against the AI and simulate, in Debian's headless Chromium against a real ``kessen serve``
(fixtures in conftest.py), for every ruleset. What the page shows is checked against kessen itself: the replay's
narration and result against :class:`kessen.Match` with the same seed, a played match against its downloaded save
replayed by ``Match.loads``, the simulation's numbers against ``kessen.sim`` with the same runs and seed.
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from kessen import get_ruleset
from kessen.core.errors import IllegalChoice
from kessen.io.scenarios import shipped_scenarios
from kessen.match import Match
from kessen.sim.battles import simulate
from kessen.sim.executors import InlineExecutor

# one scenario of each ruleset, small enough for a battle in a second or two
SCENARIOS = {
    "song-of-blades": "song-of-blades/hero-against-mob",
    "battlehost": "battlehost/doorway",
    "legions": "legions/hold-the-line",
    "armies-clash": "armies-clash/skirmish-ridge",
}
SHIPPED = {s.name: s for s in shipped_scenarios()}


def ai_battle(name: str, seed: int, lang: str = "en") -> Match:
    scenario = SHIPPED[name]
    match = Match(get_ruleset(scenario.ruleset), scenario.path.read_text(encoding="utf-8"), name, seed=seed, lang=lang)
    match.run()
    return match


def position(page: Page) -> tuple[int, int]:
    found = re.search(r"(\d+)\D+(\d+)", page.locator("#position").inner_text())
    assert found, page.locator("#position").inner_text()
    return int(found.group(1)), int(found.group(2))


def models_shown(page: Page) -> dict[str, tuple[float, float]]:
    got: list[list[Any]] = page.eval_on_selector_all("#viewer-board [data-model], #play-board [data-model]", "ns => ns.map(n => [n.dataset.model, Number(n.dataset.x), Number(n.dataset.y)])")
    return {m: (x, y) for m, x, y in got}


def board_models(board: Any) -> dict[str, tuple[float, float]]:
    return {m["id"]: (float(m["x"]), float(m["y"])) for m in board["models"]}


# --- the battle viewer ------------------------------------------------------------------------------------------


def test_browser_viewer_watch_an_ai_battle_to_its_end(server: str, page: Page) -> None:
    """Song of Blades: the hero against the goblin mob, seed 4, played at the fastest speed until the result shows:
    every event narrated as kessen.Match narrates it, and the board at the end the Match's own."""
    name = SCENARIOS["song-of-blades"]
    page.goto(f"{server}/viewer?lang=en&scenario={name}")
    page.locator("#replay-seed").fill("4")
    page.locator('[data-action="watch"]').click()
    expect(page.locator("#replay-controls")).to_be_visible()
    expected = ai_battle(name, 4)
    assert position(page) == (0, len(expected.events))
    page.locator("#speed").select_option("128")
    page.locator('[data-action="play"]').click()
    expect(page.locator("#viewer-result .result")).to_be_visible(timeout=60_000)
    assert position(page) == (len(expected.events), len(expected.events))
    assert page.locator(".event-log li").all_inner_texts() == [expected.narrate(e) for e in expected.events]
    assert expected.result is not None
    assert page.locator("#viewer-result .result").get_attribute("data-winner") == (expected.result.winner or "")
    assert models_shown(page) == board_models(expected.board())
    assert f"at={len(expected.events)}" in page.url


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_browser_viewer_steps_and_scrubs_with_the_board_following_the_events(server: str, page: Page, ruleset: str) -> None:
    """Each ruleset: the board after each step of the replay is the board the Match had after that step."""
    name = SCENARIOS[ruleset]
    page.goto(f"{server}/viewer?lang=en&scenario={name}")
    expect(page.locator("#viewer-board svg.board")).to_be_visible()  # the scenario's board before any battle
    page.locator("#replay-seed").fill("2")
    page.locator('[data-action="watch"]').click()
    expect(page.locator("#replay-controls")).to_be_visible()
    scenario = SHIPPED[name]
    expected = Match(get_ruleset(scenario.ruleset), scenario.path.read_text(encoding="utf-8"), name, seed=2)
    start = expected.board()
    steps: list[tuple[int, Any]] = []  # (the step's first event, the board after it), for each step with events
    expected.run(on_events=lambda events: steps.append((len(expected.events) - len(events), expected.board())))
    total = len(expected.events)

    def board_at(shown: int) -> Any:
        """The board once *shown* events are told: after the last step whose first event is among them."""
        return ([start] + [board for first, board in steps if first < shown])[-1]

    for _ in range(3):
        page.locator('[data-action="step"]').click()
    assert position(page)[0] == 3
    assert models_shown(page) == board_models(board_at(3))
    middle = total // 2
    page.locator("#scrubber").fill(str(middle))
    assert position(page) == (middle, total)
    assert models_shown(page) == board_models(board_at(middle))
    page.locator('[data-action="back"]').click()
    assert models_shown(page) == board_models(board_at(middle - 1))
    page.locator('[data-action="last"]').click()
    expect(page.locator("#viewer-result .result")).to_be_visible()
    assert models_shown(page) == board_models(expected.board())
    page.reload()  # the address keeps the battle and the position
    expect(page.locator("#replay-controls")).to_be_visible()
    assert position(page) == (total, total)


def test_browser_viewer_opens_a_save_file_and_an_events_file(server: str, page: Page, tmp_path: Path) -> None:
    """Legions: a save file replays as it is; the events file of the same AI battle replays given its seed."""
    name = SCENARIOS["legions"]
    expected = ai_battle(name, 3)
    save = tmp_path / "battle.json"
    save.write_text(expected.dumps(), encoding="utf-8")
    page.goto(f"{server}/viewer?lang=en&scenario={name}")
    page.locator("#replay-file").set_input_files(str(save))
    expect(page.locator("#replay-controls")).to_be_visible()
    assert position(page) == (0, len(expected.events))
    from kessen.core.events import to_json_line

    events = tmp_path / "battle.jsonl"
    events.write_text("".join(to_json_line(e) + "\n" for e in expected.events), encoding="utf-8")
    page.goto(f"{server}/viewer?lang=en&scenario={name}")
    page.locator("#replay-seed").fill("3")
    page.locator("#replay-file").set_input_files(str(events))
    expect(page.locator("#replay-controls")).to_be_visible()
    page.locator('[data-action="last"]').click()
    assert page.locator(".event-log li").all_inner_texts() == [expected.narrate(e) for e in expected.events]
    page.locator("#replay-seed").fill("4")  # not the seed it was played with
    page.locator("#replay-file").set_input_files(str(events))
    expect(page.locator("#viewer-error")).to_contain_text("not the event this scenario and seed give here")


def test_browser_viewer_narrates_in_japanese(server: str, page: Page) -> None:
    name = SCENARIOS["battlehost"]
    page.goto(f"{server}/viewer?lang=ja&scenario={name}")
    page.locator("#replay-seed").fill("1")
    page.locator('[data-action="watch"]').click()
    expect(page.locator("#replay-controls")).to_be_visible()
    expected = ai_battle(name, 1, lang="ja")
    page.locator('[data-action="last"]').click()
    assert page.locator(".event-log li").all_inner_texts() == [expected.narrate(e) for e in expected.events]
    expect(page.locator('[data-action="play"]')).to_have_text("再生")


# --- play against the AI ------------------------------------------------------------------------------------------


def api_state(page: Page, server: str) -> Any:
    match_id = re.search(r"match=([\w-]+)", page.url)
    assert match_id, page.url
    return page.request.get(f"{server}/api/matches/{match_id.group(1)}").json()


def wait_for_state(page: Page, server: str, events: int) -> Any:
    """The match's state once the page shows it after a decision (its battle report has changed length)."""
    page.wait_for_function("n => !document.body.classList.contains('waiting') && document.querySelectorAll('.event-log li').length !== n", arg=events)
    return api_state(page, server)


def wait_for_change(page: Page, server: str, before: Any) -> Any:
    """The match's state once the page shows the one after *before* (a decision may add no event: an order, a mover)."""
    shown = "ns => ns.map(n => n.dataset.notation)"
    old = (len(before["events"]), before["decision"] and [o["notation"] for o in before["decision"]["options"]], before["decision"] and before["decision"]["prompt"])
    for _ in range(300):
        page.wait_for_function("() => !document.body.classList.contains('waiting')")
        prompt = page.locator("#prompt").inner_text() if page.locator("#prompt").count() else None
        now = (page.locator(".event-log li").count(), page.eval_on_selector_all("button.option", shown) or None, prompt)
        if now != old:
            return api_state(page, server)
        page.wait_for_timeout(100)
    pytest.fail(f"the page did not change after a choice at {before['decision']}")


def legal_point(save: str, decision: Any, board: Any, model: Any) -> str | None:
    """A point near *model* that kessen.Match accepts for it (asked through Match.odds, which parses the choice)."""
    match = Match.loads(json.loads(save))
    match.run()
    step = {"mm": 40.0, "inch": 1.5, "square": 1.0}[board["units"]]
    for distance in (step, step * 2, step / 2):
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            x, y = model["x"] + dx * distance, model["y"] + dy * distance
            if not (0 < x < board["width"] and 0 < y < board["height"]):
                continue
            point = f"{round(x)},{round(y)}" if board["units"] != "inch" else f"{round(x, 1):g},{round(y, 1):g}"
            notation = f"move {model['id']} to {point}"
            try:
                match.odds(notation)
            except IllegalChoice:
                continue
            return point
    return None


def offers_a_free_move(decision: dict[str, Any]) -> bool:
    """A free decision where a click on the board moves a model: the ``move`` kind, or one whose suggested options
    include moves to a point (song-of-blades offers its moves among a model's actions)."""
    return bool(decision["free"]) and (decision["kind"] == "move" or any(re.match(r"move \S+ to ", o["notation"]) for o in decision["options"]))


def click_board_point(page: Page, x: float, y: float) -> None:
    """A click on the board at (x, y) in the board's own units."""
    at = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('#play-board svg.board');
             const down = svg.dataset.flip === 'y' ? Number(svg.dataset.height) - y : y;  // a table is drawn north up
             const p = new DOMPoint(x, down).matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }""",
        [x, y],
    )
    page.mouse.click(at[0], at[1])


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_browser_play_a_few_decisions_with_a_free_move_by_clicking_the_board_then_undo_and_reload(server: str, page: Page, ruleset: str) -> None:
    """Each ruleset: start a match as the first side; take suggested options until a free move, then click a model
    and a point on the board; the model stands where asked. Undo takes the move back; a reload finds the match; its
    downloaded save replays in kessen.Match to exactly what the page shows."""
    name = SCENARIOS[ruleset]
    page.goto(f"{server}/play?lang=en&scenario={name}")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled()
    side = SHIPPED[name].sides[0]
    page.locator("#play-side").select_option(side)
    page.locator("#play-seed").fill("5")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    state = api_state(page, server)
    for _ in range(40):
        decision = state["decision"]
        assert decision is not None, state["result"]
        if offers_a_free_move(decision):
            break
        page.locator("button.option").first.click()
        state = wait_for_change(page, server, state)
    else:
        pytest.fail(f"no free move in 40 decisions of {name}")
    decision, board = state["decision"], state["board"]
    ids = {m["id"]: m for m in board["models"]}
    group = [m for m in board["models"] if m.get("group") == decision["actor"]]  # a Detachment acts through its models
    mover = ids.get(decision["actor"]) or (group[0] if group else next(m for m in board["models"] if m["side"] == side and not m["status"]))
    save = page.request.get(f"{server}/api/matches/{state['id']}/save").text()
    point = legal_point(save, decision, board, mover)
    assert point is not None, f"no legal point near {mover['id']}"
    before = state
    page.locator(f'#play-board [data-model="{mover["id"]}"]').click()
    expect(page.locator("#board-hint")).to_contain_text(mover["id"])
    x, y = (float(v) for v in point.split(","))
    if board["units"] == "square":
        x, y = x + 0.5, y + 0.5  # the middle of the square
    click_board_point(page, x, y)
    state = wait_for_state(page, server, len(before["events"]))
    sent = page.locator("#notation").input_value() or page.locator('.event-log li').last.inner_text()
    moved = {m["id"]: m for m in state["board"]["models"]}[mover["id"]]
    assert (moved["x"], moved["y"]) != (mover["x"], mover["y"]), sent
    assert page.locator("#refusal").is_hidden()
    # undo: back to before the move
    page.locator('[data-action="undo"]').click()
    state = wait_for_state(page, server, len(state["events"]))
    assert state["board"] == before["board"] and state["decision"] == before["decision"]
    # an illegal point is refused with its rule, changing nothing
    page.locator(f'#play-board [data-model="{mover["id"]}"]').click()
    far = 0.5 if ruleset == "armies-clash" else board["width"] / 50  # well inside the table: a click never rounds off it
    click_board_point(page, board["width"] - far, board["height"] - far)
    expect(page.locator("#refusal")).to_be_visible()
    assert re.search(r"[A-Z]+-[A-Z]+-\d+", page.locator("#refusal").inner_text()), page.locator("#refusal").inner_text()
    assert api_state(page, server)["board"] == before["board"]
    # a reload finds the match where it was
    page.reload()
    expect(page.locator("#prompt")).to_have_text(before["decision"]["prompt"])
    assert page.locator(".event-log li").count() == len(before["events"])
    assert models_shown(page) == board_models(before["board"])
    # the downloaded save is the match: kessen.Match replays it to what the page shows
    with page.expect_download() as download:
        page.locator("#save-link").click()
    replayed = Match.loads(json.loads(Path(download.value.path()).read_text(encoding="utf-8")))
    replayed.run()
    assert replayed.board() == before["board"]
    assert [replayed.narrate(e) for e in replayed.events] == page.locator(".event-log li").all_inner_texts()
    assert replayed.decision is not None and [o.notation for o in replayed.decision.options] == page.eval_on_selector_all("button.option", "ns => ns.map(n => n.dataset.notation)")


def test_browser_play_shows_each_options_exact_odds(server: str, page: Page) -> None:
    """Song of Blades: every suggested option's odds on the page are the Match's exact fractions."""
    name = SCENARIOS["song-of-blades"]
    page.goto(f"{server}/play?lang=en&scenario={name}")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled()
    page.locator("#play-side").select_option(SHIPPED[name].sides[0])
    page.locator("#play-seed").fill("8")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    state = api_state(page, server)
    match = Match.loads(json.loads(page.request.get(f"{server}/api/matches/{state['id']}/save").text()))
    match.run()
    assert match.decision is not None
    for option in match.decision.options:
        chips = page.locator(f'button.option[data-notation="{option.notation}"] .odds .fraction').all_inner_texts()
        expected = [f"{p.numerator}/{p.denominator}" for p in (option.odds or {}).values()]
        assert [c.strip() for c in chips] == expected


# --- simulate -----------------------------------------------------------------------------------------------------


def js_percent(p: float) -> str:
    """*p* as the page writes it: JavaScript's ``(p * 100).toFixed(1)`` rounds the double's exact value half up
    (5/16 → 31.3%, where Python's format rounds the tie to even, 31.2%)."""
    return f"{Decimal(p * 100).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def run_simulation(server: str, page: Page, name: str, *, runs: int, seed: int) -> None:
    """Ask the Simulate page for *runs* battles of the shipped scenario *name* with *seed*."""
    page.goto(f"{server}/simulate?lang=en&scenario={name}")
    expect(page.locator('[data-action="simulate"]')).to_be_enabled()
    page.locator("#sim-runs").fill(str(runs))
    page.locator("#sim-seed").fill(str(seed))
    page.locator('[data-action="simulate"]').click()


def kessen_sim(name: str, *, runs: int, seed: int) -> Any:
    scenario = SHIPPED[name]
    return simulate(get_ruleset(scenario.ruleset), scenario.path.read_text(encoding="utf-8"), name, runs=runs, seed=seed, executor=InlineExecutor())


def test_browser_simulate_to_its_result(server: str, page: Page) -> None:
    """Armies-clash: 16 battles with a progress bar, then the win rates with their 95% intervals and the casualty
    histogram, each number kessen.sim's for the same scenario, runs and seed."""
    name = SCENARIOS["armies-clash"]
    run_simulation(server, page, name, runs=16, seed=11)
    expect(page.locator("#sim-status")).to_have_attribute("data-status", "done", timeout=120_000)
    assert page.locator("#sim-progress").get_attribute("value") == "16"
    stats = kessen_sim(name, runs=16, seed=11)
    for side in stats.sides:
        row = page.locator(f'.win-table tr[data-side="{side}"]')
        p, low, high = stats.win_rate(side)
        assert row.locator("td").nth(0).inner_text() == str(stats.wins[side])
        assert row.locator("td.rate").inner_text() == js_percent(p)
        assert row.locator("td.interval").inner_text() == f"{js_percent(low)} – {js_percent(high)}"
    assert page.locator("#sim-chart-field").input_value() == "casualties"
    assert page.locator("#sim-histogram rect.bar").count() >= len(stats.sides)
    page.reload()  # the address keeps the simulation
    expect(page.locator("#sim-status")).to_have_attribute("data-status", "done")
    assert page.locator(".win-table tbody tr").count() == len(stats.sides) + 1


def test_browser_simulate_cancel_shows_the_battles_it_finished(server: str, page: Page) -> None:
    """Issue 22 §3: Cancel on a running simulation of 10,000 battles; the page says it was cancelled and shows the
    win rates of the battles it finished, each kessen.sim's for that many battles with the same seed."""
    name = SCENARIOS["song-of-blades"]
    run_simulation(server, page, name, runs=10_000, seed=3)
    expect(page.locator("#sim-status")).to_have_attribute("data-status", "running", timeout=60_000)
    while int(page.locator("#sim-progress").get_attribute("value") or 0) < 4:  # the page's policy forbids wait_for_function
        page.wait_for_timeout(100)
    page.locator('[data-action="cancel-simulation"]').click()
    expect(page.locator("#sim-status")).to_have_attribute("data-status", "cancelled", timeout=30_000)
    expect(page.locator('[data-action="cancel-simulation"]')).to_be_hidden()
    found = re.search(r"cancelled after (\d+) of 10000 battles", page.locator("#sim-status").inner_text())
    assert found, page.locator("#sim-status").inner_text()
    stats = kessen_sim(name, runs=int(found.group(1)), seed=3)
    for side in stats.sides:
        assert page.locator(f'.win-table tr[data-side="{side}"] td').nth(0).inner_text() == str(stats.wins[side])


def test_browser_simulate_refuses_too_many_battles(server: str, page: Page) -> None:
    page.goto(f"{server}/simulate?lang=en")
    expect(page.locator('[data-action="simulate"]')).to_be_enabled()
    page.locator("#sim-runs").fill("10001")
    page.locator('[data-action="simulate"]').click()
    expect(page.locator("#sim-error")).to_have_text("kessen: error: runs: must be a whole number of battles from 1 to 10,000 (got 10001)")


def test_browser_a_click_on_the_board_is_written_in_the_rulesets_notation(server: str, page: Page) -> None:
    """The play page writes a clicked point into the form of a suggested option that ends in a point (its model
    replaced by the clicked one), or ``move <model> to x,y`` for a free move with no such option; a point goes in
    the board's units (whole mm, tenths of an inch, the square)."""
    page.goto(f"{server}/play?lang=en")
    board = {"units": "mm", "width": 900, "height": 900, "models": [{"id": "k1"}, {"id": "k2"}, {"id": "orc-1"}]}
    cases = [
        ({"free": True, "kind": "move", "options": [{"notation": "move k1 to 312,440"}, {"notation": "end activation"}]}, "k2", "100,200", "move k2 to 100,200"),
        ({"free": True, "kind": "move", "options": [{"notation": "move k1 to 312,440"}]}, None, "100,200", None),
        ({"free": True, "kind": "recoil", "options": [{"notation": "recoil to 290,455"}]}, None, "100,200", "recoil to 100,200"),
        ({"free": True, "kind": "move", "options": [{"notation": "end activation"}]}, "k1", "7,3", "move k1 to 7,3"),
        ({"free": True, "kind": "target", "options": [{"notation": "attack orc-1"}]}, "k1", "7,3", None),
        ({"free": False, "kind": "move", "options": [{"notation": "move k1 to 312,440"}]}, "k1", "7,3", None),
    ]
    for decision, model, point, expected in cases:
        got = page.evaluate("([d, m, p, b]) => import('/static/js/play.js').then((play) => play.pointNotation(d, m, p, b))", [decision, model, point, board])
        assert got == expected, (decision, model, point)
    points = page.evaluate(
        """() => import('/static/js/board.js').then((b) => [
             b.notationPoint({units: 'mm'}, 312.4, 440.6), b.notationPoint({units: 'inch'}, 12.34, 7.05), b.notationPoint({units: 'square'}, 7.9, 3.2)])"""
    )
    assert points == ["312,441", "12.3,7.1", "7,3"]
