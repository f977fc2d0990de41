"""A match as the page sees it: plain JSON of what :class:`kessen.Match` gives, in the match's language.

Nothing here decides anything about the game: the decision, its options, their notation and exact odds, the board,
the events and the result are the Match's own; this module only adds the catalogues' words for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from kessen import i18n
from kessen.core.board import BoardModel, TerrainPiece
from kessen.core.engine import Terminal
from kessen.core.events import Event
from kessen.match import Match, PendingDecision
from kessen.web.texts import page_status_words


def match_view(match_id: str, match: Match) -> dict[str, Any]:
    """Everything the play page shows of a match: who plays, the pending decision, the board, the events, the end;
    its ``status`` is ``waiting`` (for a person's decision) or ``done`` (a match the AI is still playing in the
    background shows ``playing`` and none of this yet: :meth:`kessen.web.playing.Matches.playing_view`)."""
    lang, rid = match.lang, match.ruleset.id
    pending = match.decision
    result = match.result
    board = match.board()
    return {
        "id": match_id,
        "status": "waiting" if result is None else "done",
        "ruleset": rid,
        "scenario": match.source,
        "seed": match.seed,
        "sides": list(match.sides),
        "people": [side for side in match.sides if side in match.people],
        "ai": {side: str(level) for side, level in match.ai.items()},
        "lang": lang,
        "decision": None if pending is None else decision_view(rid, lang, pending),
        "can_undo": match.can_undo,
        "board": board,
        "legend": legend(rid, lang, board["terrain"], board["models"]),
        "events": events_view(match, match.events),
        "result": None if result is None else result_view(rid, lang, result),
    }


def decision_view(ruleset: str, lang: str, pending: PendingDecision) -> dict[str, Any]:
    """The pending decision: who decides, its kind, who acts, the question, and each suggested option with its
    notation, words (without the odds they end with: the odds are shown once, as numbers) and exact odds, and where a procedure gives them, the odds calculator's input that does."""
    return {
        "player": pending.player,
        "kind": pending.kind,
        "actor": pending.actor,
        "free": pending.free,
        "prompt": pending.prompt,
        "options": [
            {
                "notation": o.notation, "text": o.words, "odds": odds_view(ruleset, lang, o.odds),
                "calculator": None if o.calculator is None else {"ruleset": ruleset, "procedure": o.calculator[0], "input": o.calculator[1]},
            }
            for o in pending.options
        ],
    }


def odds_view(ruleset: str, lang: str, odds: Mapping[str, Fraction] | None) -> list[dict[str, Any]]:
    """A choice's exact odds, each as ``"n/d"``, a float, the label of the ruleset catalogue's ``[odds]`` table, and
    its *kind*: a ``probability``, or a ``number`` (an expected count, shown as it is, never as a percentage)."""
    if not odds:
        return []
    labels = i18n.catalogue(ruleset, lang).get("odds", {})
    return [
        {
            "key": key, "label": str(labels.get(key, key.replace("_", " "))), "fraction": f"{p.numerator}/{p.denominator}",
            "p": float(p), "kind": odds_kind(key, p),
        }
        for key, p in odds.items()
    ]


def odds_kind(key: str, value: Fraction) -> str:
    """[DECISION] The Game protocol's odds are probabilities unless their key says otherwise: an expectation
    (``expected_actions``, ``mean_damage``) or any value outside 0 to 1 is a number.

    >>> odds_kind("win", Fraction(1, 3)), odds_kind("expected_actions", Fraction(2, 3)), odds_kind("hits", Fraction(5, 2))
    ('probability', 'number', 'number')
    """
    if key.startswith(("expected_", "mean_")) or not 0 <= value <= 1:
        return "number"
    return "probability"


def events_view(match: Match, events: Iterable[Event]) -> list[dict[str, str]]:
    """Events as their type and their line of the battle report in the match's language."""
    return [{"type": event.type, "text": match.narrate(event)} for event in events]


def result_view(ruleset: str, lang: str, result: Terminal) -> dict[str, Any]:
    """The end of the battle: the winner (None for a draw), the summary as the ruleset gives it, a label for each of
    its keys and the words for the words among its values."""
    words = {word: i18n.summary_word(ruleset, lang, word) for word in _words(result.summary.values())}
    return {
        "winner": result.winner,
        "summary": result.summary,
        "labels": {key: i18n.summary_label(ruleset, lang, key) for key in result.summary},
        "words": words,
    }


def legend(ruleset: str, lang: str, terrain: Iterable[TerrainPiece], models: Iterable[BoardModel]) -> dict[str, dict[str, str]]:
    """The words for the kinds of *terrain* and the statuses of *models*: the ruleset catalogue's ``terrain``
    table, and for statuses the page's ``[status]`` table (issue 24: never a raw id such as ``first_fire``), else
    the ruleset's option words."""
    words = i18n.catalogue(ruleset, lang).get("terrain", {})
    kinds = {piece["kind"]: str(words.get(piece["kind"], piece["kind"].replace("_", " "))) for piece in terrain}
    own = page_status_words(ruleset, lang)
    statuses = {word: own.get(word) or i18n.option_word(ruleset, lang, word).replace("_", " ") for model in models for word in model["status"]}
    return {"terrain": kinds, "status": statuses}


def _words(values: Iterable[Any]) -> set[str]:
    found: set[str] = set()
    for value in values:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list | tuple):
            found |= _words(value)
        elif isinstance(value, Mapping):
            found |= _words(value.values())
    return found
