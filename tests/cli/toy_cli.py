"""The ``kessen`` console script with the toy race of ``tests/core/toy_game.py`` registered as ruleset ``toy``, for
CLI tests that must not depend on any real ruleset's notation: ``python -m tests.cli.toy_cli play race.toml ...``.

The toy's scenario file is TOML here (``ruleset = "toy"``, ``sides = ["Red", "Blue"]``), and its catalogue (the
decision names and the odds labels) is the small one below.
"""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import replace
from typing import Any

from kessen import i18n, rulesets
from tests.core.toy_game import TOY, ToyGame, ToyState

SCENARIO = 'ruleset = "toy"\nname = "A race"\nsides = ["Red", "Blue"]\n'
CATALOGUES: dict[str, dict[str, Any]] = {
    "en": {"decisions": {"dash": "a dash"}, "odds": {"made_it": "made it"}, "summary": {"position": "squares run by each side"}},
    "ja": {"decisions": {"dash": "ダッシュ"}, "odds": {"made_it": "成功"}, "summary": {"position": "各陣営の進んだマス"}},
}


class TomlToy(ToyGame):
    """The toy race reading its scenario from TOML, as every scenario file is."""

    def load_scenario(self, text: str, source: str) -> ToyState:
        data = tomllib.loads(text)
        return super().load_scenario(json.dumps({"sides": data.get("sides")}), source)

    def prompt(self, state: ToyState, decision: Any, lang: str) -> str:
        return f"{decision.player}: {'the dash of' if lang == 'en' else 'ダッシュ:'} {decision.actor}"


def register() -> None:
    """Make ``toy`` a ruleset of this process, with its catalogue."""
    rulesets._PACKAGES["toy"] = __name__
    rulesets._cache["toy"] = replace(TOY, game=TomlToy())
    real = i18n.catalogue

    def catalogue(ruleset: str, lang: str) -> dict[str, Any]:
        if ruleset == "toy":
            real("cli", lang)  # the language checked as for every ruleset
            return CATALOGUES[lang]
        return real(ruleset, lang)

    i18n.catalogue = catalogue  # type: ignore[assignment]


if __name__ == "__main__":
    register()
    from kessen.cli.main import main

    sys.argv[0] = "kessen"
    main()
