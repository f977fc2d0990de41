"""Every die shown in the web's battle report (issue 24 §3): an AI battle's events as the match API narrates them carry
their dice, in the match's language (the narration is the ruleset's own, so the terminal reads the same)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.clients import played

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("scenario", "event", "en", "ja"),
    [
        ("legions/hold-the-line.toml", "volley", "(hit dice ", "（ヒットダイス "),
        ("armies-clash/goblin-horde.toml", "spell_result", " vs DC ", " 対 DC "),
        ("battlehost/line-fight.toml", "duel_rolled", "(Good: ", "（グッド: "),
    ],
)
def test_the_web_report_shows_the_dice_in_the_matchs_language(client: TestClient, scenario: str, event: str, en: str, ja: str) -> None:
    source = (ROOT / "examples" / scenario).read_text(encoding="utf-8")
    for lang, shown in (("en", en), ("ja", ja)):
        made = client.post("/api/matches", json={"scenario": source, "seed": 1, "people": [], "lang": lang})
        assert made.status_code == 201, made.text
        events = played(client, made.json()["id"], timeout=120)["events"]
        texts = [e["text"] for e in events if e["type"] == event]
        assert any(shown in t for t in texts), (lang, texts[:2])


def test_the_web_report_shows_the_d20s_of_every_attack_on_a_solo_too(client: TestClient) -> None:
    """AC-DMG-5, AC-SOLO-5: in goblin-horde with 16 goblin stands (seed 6) the goblins shoot at the captain, a PC solo, three times; every
    attack in the report, on a stand or on a solo, shows its d20s against the AC, in English and in Japanese."""
    source = (ROOT / "tests" / "data" / "scenarios" / "goblin-horde-16-stands.toml").read_text(encoding="utf-8")
    for lang, shown, solo in (("en", " vs AC ", " attacks captain "), ("ja", " 対 AC ", "captain")):
        made = client.post("/api/matches", json={"scenario": source, "seed": 6, "people": [], "lang": lang})
        assert made.status_code == 201, made.text
        texts = [e["text"] for e in played(client, made.json()["id"], timeout=120)["events"] if e["type"] == "attacked"]
        assert any(solo in t for t in texts) and all(shown in t for t in texts), (lang, [t for t in texts if shown not in t][:2])
