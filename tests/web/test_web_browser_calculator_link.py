"""An option's "open in the calculator" link (issue 24 §4), in Debian's headless Chromium against a real ``kessen
serve``: the odds page opens on the option's procedure and input, its outcomes are ``kessen.odds``' for that input,
and the chance the option shows is the one the calculator reads."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, expect
from test_web_browser import expected, wait_for
from test_web_browser_battles import SHIPPED, api_state, wait_for_change

# the chance an option shows, as the field and value of its procedure's outcome the calculator reads it from
CHANCE_FIELDS = {"duel": "winner", "hit": "hit", "wound": "wounded", "slay": "slain"}


def test_browser_BH_PROC_4_an_options_calculator_link_opens_the_odds_page_on_its_numbers(server: str, page: Page) -> None:
    """battlehost line-fight played as good until an option shows a duel's, a shot's or a strike's odds: its link
    opens the calculator with that option's input, and the calculator's chance is the option's percentage."""
    name = "battlehost/line-fight"
    page.goto(f"{server}/play?lang=en&scenario={name}")
    expect(page.locator('[data-action="start-match"]')).to_be_enabled()
    page.locator("#play-side").select_option(SHIPPED[name].sides[0])
    page.locator("#play-seed").fill("2")
    page.locator('[data-action="start-match"]').click()
    expect(page.locator("#prompt")).to_be_visible()
    state = api_state(page, server)
    for _ in range(60):
        decision = state["decision"]
        assert decision is not None, state["result"]
        linked = [o for o in decision["options"] if o["calculator"]]
        if linked:
            break
        page.locator("button.option").first.click()
        state = wait_for_change(page, server, state)
    else:
        raise AssertionError("no option with a calculator link in 60 decisions")
    option = linked[0]
    row = page.locator(f'.option-row[data-notation="{option["notation"]}"]')
    key = next(o["key"] for o in option["odds"] if o["key"] in CHANCE_FIELDS)
    chip = row.locator(f'.odds[data-key="{key}"] b').inner_text()
    href = row.locator("a.calculator-link").get_attribute("href")
    assert href is not None and row.locator("a.calculator-link").inner_text() == "Open in the calculator"
    query = parse_qs(urlparse(href).query)
    calculator = option["calculator"]
    assert (query["ruleset"], query["procedure"]) == (["battlehost"], [calculator["procedure"]])
    assert json.loads(query["a"][0]) == calculator["input"]

    page.goto(f"{server}{href}")
    wait_for(page, expected("battlehost", calculator["procedure"], calculator["input"]))
    field = CHANCE_FIELDS[key]
    value = json.dumps(decision["player"] if key == "duel" else True)
    page.locator("#chart-field").select_option(field)
    cell = page.locator(f'.marginal-table[data-field="{field}"] tr[data-value=\'{value}\'] td.probability .percent').first
    expect(cell).to_have_text(chip)
