"""The odds calculator in Debian's headless Chromium, driven by Playwright against a real ``kessen serve``
(the fixtures are in conftest.py). Every fraction read off the page is compared with ``kessen.odds`` for the same
input.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from kessen import get_ruleset, odds, ruleset_ids
from kessen.web.texts import starting_inputs

def address(server: str, *, lang: str, ruleset: str, procedure: str, a: Any = None, b: Any = None) -> str:
    query = f"lang={lang}&ruleset={ruleset}&procedure={procedure}"
    for name, value in (("a", a), ("b", b)):
        if value is not None:
            query += f"&{name}=" + quote(json.dumps(value, separators=(",", ":")))
    return f"{server}/?{query}"


def expected(ruleset: str, procedure: str, value: Any) -> dict[str, str]:
    """Outcome (as the page keys it: the JSON list of its field values) → exact probability, from kessen.odds."""
    return {json.dumps(list(o.values()), separators=(",", ":"), ensure_ascii=False): f"{p.numerator}/{p.denominator}" for o, p in odds(ruleset, procedure, value).outcomes}


def shown(page: Page, series: int = 0) -> dict[str, str]:
    """The outcome table as the page shows it: outcome key → the fraction in the column of input A (0) or B (1)."""
    rows: list[list[str]] = page.eval_on_selector_all(
        ".outcome-table tbody tr",
        "(rows, s) => rows.map(r => [r.dataset.outcome, (r.querySelectorAll('td.probability')[s].querySelector('.fraction') || {textContent: '–'}).textContent])",
        series,
    )
    return {key: fraction for key, fraction in rows if fraction != "–"}


def wait_for(page: Page, want: dict[str, str], series: int = 0, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while True:
        got = shown(page, series) if page.locator(".outcome-table").count() else {}
        if got == want:
            return
        if time.monotonic() > end:
            raise AssertionError(f"the page shows {got}, kessen.odds gives {want}")
        page.wait_for_timeout(100)


def field(page: Page, form: str, path: str) -> Any:
    return page.locator(f'[data-form="{form}"] [data-path="{path}"]').first


def test_browser_calculator_fill_a_form_and_read_the_exact_fractions(server: str, page: Page) -> None:
    """Battlehost wound roll: Strength 3 against Defence 5 wounds on 5+ (BH-WOUND-1, bh-ex-01: 1/3), then 6 (2/3)."""
    page.goto(f"{server}/?lang=en")
    page.locator('[data-ruleset="battlehost"]').click()
    page.locator('[data-procedure="wound_roll"]').click()
    field(page, "a", "strength").locator("input").fill("3")
    field(page, "a", "defence").locator("input").fill("5")
    wait_for(page, {"[false]": "2/3", "[true]": "1/3"})
    assert page.locator('.outcome-table tr[data-outcome="[true]"] td.probability .percent').first.text_content() == "33.33%"
    field(page, "a", "strength").locator("input").fill("6")
    wait_for(page, expected("battlehost", "wound_roll", {"strength": 6, "defence": 5}))
    assert "strength%22%3A6" in page.url or '"strength":6' in page.url.replace("%22", '"').replace("%3A", ":")


def test_browser_form_lists_add_and_remove_entries(server: str, page: Page) -> None:
    """Legions firing at a mixed target: a second group of target models added, changed, then removed."""
    page.goto(address(server, lang="en", ruleset="legions", procedure="fire", a={"firing_models": 4, "dice": 2, "to_hit": 4, "target_models": [{"count": 4, "armour_save": 5}]}))
    wait_for(page, expected("legions", "fire", {"firing_models": 4, "dice": 2, "to_hit": 4, "target_models": [{"count": 4, "armour_save": 5}]}))
    field(page, "a", "target_models").locator('button[data-action="add"]').last.click()
    field(page, "a", "target_models[1].armour_save").locator("input").fill("3")
    two = {"firing_models": 4, "dice": 2, "to_hit": 4, "target_models": [{"count": 4, "armour_save": 5}, {"count": 4, "armour_save": 3}]}
    wait_for(page, expected("legions", "fire", two))
    field(page, "a", "target_models[0]").locator('button[data-action="remove"]').click()
    wait_for(page, expected("legions", "fire", {**two, "target_models": [{"count": 4, "armour_save": 3}]}))
    assert field(page, "a", "target_models").locator(".entry").count() == 1
    assert field(page, "a", "target_models[0]").locator('button[data-action="remove"]').is_disabled()  # minItems 1


def test_browser_permalink_reproduces_the_result(server: str, page: Page, context: BrowserContext) -> None:
    """A link with the input in it opens the same form and the same fractions; an edited input is in the new link."""
    melee = {"attacker_combat": 4, "defender_combat": 3, "attacker_mounted": True, "defender_enemies_in_contact": 2}
    page.goto(address(server, lang="en", ruleset="song-of-blades", procedure="melee", a=melee))
    wait_for(page, expected("song-of-blades", "melee", melee))
    assert field(page, "a", "attacker_combat").locator("input").input_value() == "4"
    assert field(page, "a", "attacker_mounted").locator("input").is_checked()
    field(page, "a", "power_blow").locator("input").check()
    blow = {**melee, "power_blow": True}
    wait_for(page, expected("song-of-blades", "melee", blow))
    page.locator("#chart-field").select_option("result")
    link = page.url
    other = context.new_page()
    try:
        other.goto(link)
        wait_for(other, expected("song-of-blades", "melee", blow))
        assert other.locator("#chart-field").input_value() == "result"
        assert other.locator('.marginal-table[data-field="result"]').count() == 1
    finally:
        other.close()


def test_browser_compare_two_inputs_on_one_chart(server: str, page: Page) -> None:
    """Armies-clash: the same attack against AC 15 (A) and against AC 17 behind half cover's +2 (B), side by side."""
    attack = {"attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "1d8+3"}], "target_ac": 15, "target_hp": 11}
    page.goto(address(server, lang="en", ruleset="armies-clash", procedure="attack", a=attack))
    wait_for(page, expected("armies-clash", "attack", attack))
    page.locator('button[data-action="compare"]').click()
    field(page, "b", "target_cover").locator("select").select_option(label="half")
    covered = {**attack, "target_cover": "half"}
    wait_for(page, expected("armies-clash", "attack", covered), series=1)
    wait_for(page, expected("armies-clash", "attack", attack), series=0)
    page.locator("#chart-field").select_option("damage")
    assert page.locator(".chart rect.bar.series-a").count() > 5 and page.locator(".chart rect.bar.series-b").count() > 5
    assert page.locator(".chart .curve.series-a").count() == 1 and page.locator(".chart .curve.series-b").count() == 1
    summary = page.locator('.summary-table tr[data-field="hits"] td')
    assert summary.count() == 2
    assert '"target_cover":"half"' in page.url.replace("%22", '"').replace("%3A", ":").replace("%2C", ",")


def test_browser_japanese_page_reads_in_japanese(server: str, page: Page) -> None:
    """Switching to 日本語 keeps the input and the fractions and translates the page, the labels and the values."""
    fight = {"a": {"caf": 3, "charged": True}, "b": {"caf": 2}}
    page.goto(address(server, lang="en", ruleset="legions", procedure="fight", a=fight))
    wait_for(page, expected("legions", "fight", fight))
    page.locator('#lang-switch button[data-lang="ja"]').click()
    expect(page.locator('.outcome-table tr[data-outcome="[\\"draw\\"]"] td').first).to_have_text("引き分け")
    wait_for(page, expected("legions", "fight", fight))
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#page-title")).to_have_text("確率計算機")
    expect(page.locator('[data-ruleset="legions"]')).to_have_text("レギオン・インペリアリス: 戦闘フェーズ")
    expect(field(page, "a", "a.charged").locator("label")).to_have_text("チャージした")
    assert "lang=ja" in page.url
    page.reload()
    expect(page.locator("#page-title")).to_have_text("確率計算機")
    wait_for(page, expected("legions", "fight", fight))


def test_browser_a_refused_input_shows_the_error_line(server: str, page: Page) -> None:
    page.goto(address(server, lang="en", ruleset="song-of-blades", procedure="activation", a={"quality": 4}))
    wait_for(page, expected("song-of-blades", "activation", {"quality": 4}))
    field(page, "a", "quality").locator("input").fill("9")
    expect(page.locator('.error[data-series="a"] code')).to_have_text("kessen: error: quality: must be ≤ 6 (got 9)")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_browser_every_procedure_opens_with_its_exact_odds(server: str, page: Page, ruleset: str) -> None:
    """Each procedure's form opens with its starting input and shows exactly kessen.odds's fractions, in both languages."""
    for lang in ("en", "ja"):
        for name in get_ruleset(ruleset).procedures:
            page.goto(address(server, lang=lang, ruleset=ruleset, procedure=name))
            wait_for(page, expected(ruleset, name, starting_inputs()[ruleset][name]))
            assert page.locator(f'[data-procedure="{name}"]').get_attribute("aria-selected") == "true"
            assert page.locator("svg.chart rect.bar").count() >= 1
