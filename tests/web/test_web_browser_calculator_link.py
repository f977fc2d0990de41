"""An option's "open in the calculator" link (issue 24 §4), in Debian's headless Chromium against a real ``kessen
serve``: an option whose odds one procedure gives (a duel, a shot or a strike, an Order, a move, an activation, an
attack) links to the odds page on that procedure and input, which shows ``kessen.odds``' outcomes for it; the
option's odds are shown once, as numbers beside its words."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Locator, Page, expect
from test_web_browser import expected, wait_for
from test_web_browser_battles import SHIPPED, api_state, wait_for_change

# the chance a battlehost option shows, as the field and value of its procedure's outcome the calculator reads it from
CHANCE_FIELDS = {"duel": "winner", "hit": "hit", "wound": "wounded", "slay": "slain"}


def first_linked_option(page: Page, server: str, name: str, decisions: int) -> tuple[dict[str, Any], dict[str, Any], Locator]:
    """*name* played as its first side at seed 2, the first suggested option taken, until an option links to the
    calculator: the decision, that option and its row on the page."""
    page.goto(f"{server}/play?lang=en&scenario={name}")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled(timeout=20000)
    page.locator("#play-side").select_option(SHIPPED[name].sides[0])
    page.locator("#play-seed").fill("2")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    state = api_state(page, server)
    for _ in range(decisions):
        decision = state["decision"]
        assert decision is not None, state["result"]
        linked = [o for o in decision["options"] if o["calculator"]]
        if linked:
            option = linked[0]
            return decision, option, page.locator(f'.option-row[data-notation="{option["notation"]}"]')
        page.locator("button.option").first.click()
        state = wait_for_change(page, server, state)
    raise AssertionError(f"no option with a calculator link in {decisions} decisions")


def follow_link(page: Page, server: str, row: Locator, ruleset: str, calculator: dict[str, Any]) -> None:
    """The row's link names the option's procedure and input, and the odds page it opens shows kessen.odds' outcomes."""
    link = row.locator("a.calculator-link")
    assert link.inner_text() == "Open in the calculator"
    href = link.get_attribute("href")
    assert href is not None
    query = parse_qs(urlparse(href).query)
    assert (query["ruleset"], query["procedure"]) == ([ruleset], [calculator["procedure"]])
    assert json.loads(query["a"][0]) == calculator["input"]
    page.goto(f"{server}{href}")
    wait_for(page, expected(ruleset, calculator["procedure"], calculator["input"]))


def test_browser_BH_PROC_4_an_options_calculator_link_opens_the_odds_page_on_its_numbers(server: str, page: Page) -> None:
    """battlehost line-fight played as good until an option shows a duel's, a shot's or a strike's odds: its link
    opens the calculator with that option's input, and the calculator's chance is the option's percentage."""
    decision, option, row = first_linked_option(page, server, "battlehost/line-fight", 60)
    key = next(o["key"] for o in option["odds"] if o["key"] in CHANCE_FIELDS)
    chip = row.locator(f'.odds[data-key="{key}"] b').inner_text()
    follow_link(page, server, row, "battlehost", option["calculator"])
    field = CHANCE_FIELDS[key]
    value = json.dumps(decision["player"] if key == "duel" else True)
    page.locator("#chart-field").select_option(field)
    cell = page.locator(f'.marginal-table[data-field="{field}"] tr[data-value=\'{value}\'] td.probability .percent').first
    expect(cell).to_have_text(chip)


@pytest.mark.parametrize(("name", "ruleset", "procedures"), [
    ("legions/hold-the-line", "legions", {"fire", "combat", "fight"}),
    ("armies-clash/skirmish-ridge", "armies-clash", {"attack"}),
])
def test_browser_an_options_calculator_link_opens_the_odds_page_on_its_input(
    server: str, page: Page, name: str, ruleset: str, procedures: set[str]
) -> None:
    """LI-FIRE-2 (§5.2) and AC-ATTACK-1 (§6.3): played as the first side until an option links to the calculator; the
    link's procedure and input are the option's, and the odds page opened on it shows kessen.odds' outcomes."""
    _, option, row = first_linked_option(page, server, name, 80)
    calculator = option["calculator"]
    assert calculator["ruleset"] == ruleset and calculator["procedure"] in procedures
    words = row.locator(".option-text").inner_text()
    assert not words.endswith("]") and row.locator(".odds").count() == len(option["odds"])  # the odds once, as chips
    follow_link(page, server, row, ruleset, calculator)
