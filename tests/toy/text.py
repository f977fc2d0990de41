"""The toy in words, from its catalogues (tests/toy/i18n/toy.<lang>.toml)."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.i18n import narrate as narrated
from kessen.i18n import option_text
from tests.toy.referee.notation import notation
from tests.toy.referee.state import ToyState


def narrate(event: Event, lang: str) -> str:
    return narrated("toy", event, lang)


def describe(state: ToyState, option: Any, lang: str) -> str:
    return notation(state, Decision("", "", (option,)), option)


def prompt(state: ToyState, decision: Decision, lang: str) -> str:
    return option_text("toy", lang, "prompt", player=decision.player, actor=decision.actor)
