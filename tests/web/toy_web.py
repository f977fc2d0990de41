"""The toy race of tests/core/toy_game.py as the web tests play it: a TOML scenario, and catalogues in en and ja."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from typing import Any

import pytest

import kessen.rulesets
from kessen import i18n
from kessen.core.errors import InputError
from kessen.rulesets import Ruleset
from tests.core.toy_game import ToyGame, ToyState

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'

WORDS: dict[str, dict[str, Any]] = {
    "en": {"odds": {"made_it": "makes the dash"}, "summary": {"position": "squares reached"}},
    "ja": {"odds": {"made_it": "ダッシュ成功"}, "summary": {"position": "到達したマス"}},
}


class WebToy(ToyGame):
    """The toy race read from TOML (the web takes scenarios as TOML text)."""

    def load_scenario(self, text: str, source: str) -> ToyState:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            raise InputError(source, InputError.NOTHING, "not valid TOML") from None
        return super().load_scenario(json.dumps({"sides": data.get("sides")}), source)


TOY = Ruleset(id="toy", title="A toy race", prefix="TOY", procedures={}, game=WebToy())


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the toy a ruleset kessen knows, with its catalogues, for one test."""
    monkeypatch.setitem(kessen.rulesets._cache, "toy", TOY)
    monkeypatch.setitem(kessen.rulesets._PACKAGES, "toy", "tests.web.toy_web")
    real: Callable[[str, str], dict[str, Any]] = i18n.catalogue
    monkeypatch.setattr(i18n, "catalogue", lambda name, lang: WORDS[lang] if name == "toy" else real(name, lang))
