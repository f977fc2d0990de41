"""The AI levels and the win chance, in Debian's headless Chromium against a real ``kessen serve`` (issue 23 §1,
§3): a level chosen per machine side on the Play, viewer and Simulate pages and played at that level; the advisor's
progress bar and each option's chances, the numbers of ``kessen.Match.advise`` at the same position."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from kessen.io.scenarios import shipped_scenarios
from kessen.match import Match

MOB = "song-of-blades/hero-against-mob"
SCENARIO = {s.name: s for s in shipped_scenarios()}[MOB]


def mob(seed: int, **options: Any) -> Match:
    return Match.open(str(SCENARIO.path), seed=seed, **options)


def match_id(page: Page) -> str:
    found = re.search(r"match=([\w-]+)", page.url)
    assert found, page.url
    return found.group(1)


def test_browser_play_against_the_ai_level_chosen_for_its_side(server: str, page: Page) -> None:
    """The Goblins' AI chosen as search with 200 positions a decision: the match plays them so (its events are those
    of kessen.Match with that level after the same choice), and the page says the level, in English and Japanese."""
    page.goto(f"{server}/play?lang=en&scenario={MOB}")
    page.locator("#play-side").select_option("Hero")
    level = page.locator('#play-ai-levels select[data-side="Goblins"]')
    expect(level).to_have_value("greedy")
    assert page.locator('#play-ai-levels select[data-side="Hero"]').count() == 0  # the person's side has no AI
    level.select_option("search:N")
    page.locator('#play-ai-levels input.ai-nodes[data-side="Goblins"]').fill("200")
    page.locator("#play-seed").fill("1")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#play-ai")).to_have_text("AI: Goblins: search, 200 positions a decision")
    page.locator('#options button.option[data-notation="end turn"]').click()
    expect(page.locator("#turn-banner")).to_contain_text("Hero to decide")
    state = page.request.get(f"{server}/api/matches/{match_id(page)}").json()
    assert state["ai"] == {"Goblins": "search:200"}
    expected = mob(1, people={"Hero"}, ai={"Goblins": "search:200"})
    expected.run()
    expected.choose("end turn")
    assert [e["text"] for e in state["events"]] == [expected.narrate(e) for e in expected.events]
    greedy = mob(1, people={"Hero"})
    greedy.run()
    greedy.choose("end turn")
    assert [greedy.narrate(e) for e in greedy.events] != [expected.narrate(e) for e in expected.events]  # the level showed
    page.locator('#lang-switch button[data-lang="ja"]').click()
    expect(page.locator("#play-ai")).to_have_text("AI：Goblins：search（1手あたり 200 局面）")


def test_browser_watch_and_simulate_with_a_level_for_every_side(server: str, page: Page) -> None:
    """The viewer's AI battle and the Simulate page's battles take a level for each side and say them."""
    page.goto(f"{server}/viewer?lang=en&scenario={MOB}")
    page.locator('#viewer-ai-levels select[data-side="Hero"]').select_option("random")
    page.locator("#replay-seed").fill("3")
    page.locator('[data-action="watch"]').click()
    expect(page.locator("#replay-controls")).to_be_visible(timeout=60_000)
    expect(page.locator("#viewer-ai")).to_have_text("AI: Hero: random · Goblins: greedy")
    expected = mob(3, ai={"Hero": "random"})
    expected.run()
    assert page.locator(".event-log li").all_inner_texts() == [expected.narrate(e) for e in expected.events]

    page.goto(f"{server}/simulate?lang=en&scenario={MOB}")
    page.locator('#sim-ai-levels select[data-side="Goblins"]').select_option("random")
    page.locator("#sim-runs").fill("4")
    page.locator('[data-action="simulate"]').click()
    expect(page.locator("#sim-status")).to_have_attribute("data-status", "done", timeout=60_000)
    expect(page.locator("#sim-ai")).to_have_text("AI: Hero: greedy · Goblins: random")
    found = re.search(r"sim=([\w-]+)", page.url)
    assert found
    assert page.request.get(f"{server}/api/simulations/{found.group(1)}").json()["ai"] == {"Hero": "greedy", "Goblins": "random"}


def test_browser_win_chance_shows_a_progress_bar_then_each_options_chances(server: str, page: Page) -> None:
    """Song of Blades, the hero against the mob, the hero's first activation: 1,000 playouts an option asked and
    cancelled; then with 3 playouts an option, the bar fills to 4 × 3 playouts, and each option's win and draw chances, 95% interval and playouts are those of
    kessen.Match.advise(playouts=3) at the same position."""
    page.goto(f"{server}/play?lang=en&scenario={MOB}")
    page.locator("#play-side").select_option("Hero")
    page.locator("#play-seed").fill("2")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#options button.option").first).to_be_visible()
    page.locator("#advice-playouts").fill("1000")
    page.locator('[data-action="advise"]').click()
    expect(page.locator("#advice-progress")).to_be_visible()
    expect(page.locator("#advice-status")).to_have_text(re.compile(r"^\d+ of 4000 playouts$"))
    page.locator('[data-action="cancel-advice"]').click()
    expect(page.locator("#advice-status")).to_have_text("Cancelled.")
    expect(page.locator('[data-action="cancel-advice"]')).to_be_hidden()
    page.locator("#advice-playouts").fill("3")
    page.locator('[data-action="advise"]').click()
    expect(page.locator('[data-action="cancel-advice"]')).to_be_visible()
    rows = page.locator("#advice-table tbody tr")
    expect(rows).to_have_count(4, timeout=120_000)
    expect(page.locator("#advice-progress")).to_have_attribute("value", "12")
    expect(page.locator("#advice-status")).to_have_text("Each option's chance if you take it and greedy then plays both sides:")
    expected = mob(2, people={"Hero"})
    expected.run()
    chances = expected.advise(playouts=3)
    for row, c in zip(rows.all(), chances, strict=True):
        assert row.get_attribute("data-notation") == c.notation and row.get_attribute("data-exact") == "false"
        assert row.locator("td.win").inner_text() == f"{100 * float(c.win):.1f}%"
        assert row.locator("td.draw").inner_text() == f"{100 * float(c.draw):.1f}%"
        assert row.locator("td.how").inner_text() == f"95%: {100 * c.low:.1f}% – {100 * c.high:.1f}%, 3 playouts"
        assert row.locator("td.best").inner_text() == "–"
    page.locator('#options button.option[data-notation="end turn"]').click()  # a new position drops the advice
    expect(rows).to_have_count(0)


DUEL = """ruleset = "song-of-blades"
name = "Duel"
turns = 1

[[sides]]
side = "Hero"
models = [{ id = "hero", name = "Hero", points = 90, quality = 3, combat = 5, x = 480.0, y = 450.0 }]

[[sides]]
side = "Goblins"
models = [{ id = "boss", name = "Goblin Boss", points = 30, quality = 4, combat = 2, x = 510.0, y = 450.0 }]
"""


def test_browser_win_chance_is_exact_where_the_rest_of_the_battle_is_small(server: str, page: Page) -> None:
    """A pasted one-turn duel of the hero and the goblin boss: every option's chances are exact fractions, with the
    worth under best play, those of kessen.Match.advise."""
    page.goto(f"{server}/play?lang=en")
    page.locator("#scenario").select_option("")
    page.locator("#scenario-text").fill(DUEL)
    page.locator('[data-action="check-scenario"]').click()
    page.locator("#play-side").select_option("Hero")
    page.locator("#play-seed").fill("1")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#options button.option").first).to_be_visible()
    page.locator('[data-action="advise"]').click()
    rows = page.locator("#advice-table tbody tr")
    expect(rows).to_have_count(4, timeout=60_000)
    expected = Match.from_text(DUEL, ruleset="song-of-blades", seed=1, people={"Hero"})
    expected.run()
    chances = expected.advise()
    # the hero's activations, 1 to 3 dice, before the turn ends: the goblin boss, its side's last model, rolled three
    # dice (SB-ACT-3, issue 23 §5), charged the hero and fell, so the hero strikes a fallen boss
    assert [str(c.win) for c in chances] == ["35/54", "71/81", "155/162", "0"]
    for row, c in zip(rows.all(), chances, strict=True):
        assert row.get_attribute("data-exact") == "true" and row.locator("td.how").inner_text() == "exact"
        assert row.locator("td.win .fraction").inner_text().strip() == f"{c.win.numerator}/{c.win.denominator}"
        assert row.locator("td.draw .fraction").inner_text().strip() == f"{c.draw.numerator}/{c.draw.denominator}"
        assert c.best is not None and row.locator("td.best .fraction").inner_text().strip() == f"{c.best.numerator}/{c.best.denominator}"
    assert rows.nth(1).locator("td.win b").inner_text() == "87.65%"
