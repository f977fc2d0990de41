"""The "open in the calculator" link of legions and armies-clash options (issue 24 §4), in Debian's headless Chromium
against a real ``kessen serve``: an Order, a move, an activation or an attack whose odds one procedure gives links to
the odds page on that procedure and input, which shows ``kessen.odds``' outcomes for it; the option's odds are shown
once, as numbers beside its words."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect
from test_web_browser import expected, wait_for
from test_web_browser_battles import SHIPPED, api_state, wait_for_change


@pytest.mark.parametrize(("name", "ruleset", "procedures"), [
    ("legions/hold-the-line", "legions", {"fire", "combat", "fight"}),
    ("armies-clash/skirmish-ridge", "armies-clash", {"attack"}),
])
def test_browser_an_options_calculator_link_opens_the_odds_page_on_its_input(
    server: str, page: Page, name: str, ruleset: str, procedures: set[str]
) -> None:
    """LI-FIRE-2 (§5.2) and AC-ATTACK-1 (§6.3): played as the first side until an option links to the calculator; the
    link's procedure and input are the option's, and the odds page opened on it shows kessen.odds' outcomes."""
    page.goto(f"{server}/play?lang=en&scenario={name}")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled(timeout=20000)
    page.locator("#play-side").select_option(SHIPPED[name].sides[0])
    page.locator("#play-seed").fill("2")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    state = api_state(page, server)
    for _ in range(80):
        decision = state["decision"]
        assert decision is not None, state["result"]
        linked = [o for o in decision["options"] if o["calculator"]]
        if linked:
            break
        page.locator("button.option").first.click()
        state = wait_for_change(page, server, state)
    else:
        raise AssertionError("no option with a calculator link in 80 decisions")
    option = linked[0]
    calculator = option["calculator"]
    assert calculator["ruleset"] == ruleset and calculator["procedure"] in procedures
    row = page.locator(f'.option-row[data-notation="{option["notation"]}"]')
    words = row.locator(".option-text").inner_text()
    assert not words.endswith("]") and row.locator(".odds").count() == len(option["odds"])  # the odds once, as chips
    link = row.locator("a.calculator-link")
    assert link.inner_text() == "Open in the calculator"
    href = link.get_attribute("href")
    assert href is not None
    query = parse_qs(urlparse(href).query)
    assert (query["ruleset"], query["procedure"]) == ([ruleset], [calculator["procedure"]])
    assert json.loads(query["a"][0]) == calculator["input"]
    page.goto(f"{server}{href}")
    wait_for(page, expected(ruleset, calculator["procedure"], calculator["input"]))
