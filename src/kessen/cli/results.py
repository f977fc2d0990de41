"""The result of a battle as the terminal prints it: the winner (or that no side won) and the summary, every key
labelled by the catalogues and every value as a player reads it."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape

from kessen import i18n
from kessen.core.engine import Terminal


def print_result(ruleset: str, terminal: Terminal, lang: str, out: Console) -> None:
    """The winner (or that no side won) and every key of the summary, labelled by the catalogues."""
    if terminal.winner is None:
        out.print(i18n.text("cli", "drawn", lang))
    else:
        out.print(i18n.text("cli", "winner", lang, winner=escape(terminal.winner)))
    for key, value in terminal.summary.items():
        line = i18n.text("cli", "summary", lang, name=i18n.summary_label(ruleset, lang, key), value=summary_value(ruleset, lang, value))
        out.print(line, markup=False)


def summary_value(ruleset: str, lang: str, value: Any) -> str:
    """A summary's value as a player reads it: ``side n, side n`` for a dict, a list joined, a word translated;
    never a Python repr.

    >>> summary_value("legions", "en", {"Auxilia": 4, "Traitors": 13})
    'Auxilia 4, Traitors 13'
    >>> summary_value("legions", "en", ["legion-line", "auxilia-cohort"])
    'legion-line, auxilia-cohort'
    """
    if isinstance(value, bool):
        return i18n.summary_word(ruleset, lang, "yes" if value else "no")
    if isinstance(value, dict):
        return ", ".join(f"{side} {summary_value(ruleset, lang, n)}" for side, n in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(summary_value(ruleset, lang, v) for v in value) or "-"
    if isinstance(value, str):
        return i18n.summary_word(ruleset, lang, value)
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)
