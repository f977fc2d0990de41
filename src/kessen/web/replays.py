"""A battle to watch again: its save replayed step by step through :meth:`kessen.Match.loads`, the board drawn
after every step that had events, and an AI battle checked against an events file.

The board after each step is the Match's own ``board()``; nothing here moves a model. The page gets the board at
the start in full and then, per step, only the models that changed, so a battle of thousands of steps stays small.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from kessen.core.board import Board, BoardModel
from kessen.core.errors import InputError
from kessen.core.events import Event, to_json_line
from kessen.io.files import parse_json
from kessen.match import Match
from kessen.web.views import events_view, legend, result_view


@dataclass
class _Frames:
    """Boards as a replay goes: the first in full, then the changes of each step that had events, at the index of
    its first event (the page shows a frame once that event is shown)."""

    start: Board | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    shown: dict[str, BoardModel] = field(default_factory=dict)

    def step(self, match: Match, events: tuple[Event, ...]) -> None:
        if self.start is None:
            self.start = match.board()
            self.shown = {m["id"]: m for m in self.start["models"]}
        elif events:
            self._frame(match.board(), len(self.events))
        self.events.extend(events)

    def finish(self, match: Match) -> None:
        """What steps after the last event changed (a step that settles silently) comes with the last event."""
        self._frame(match.board(), len(self.events) - 1)

    def _frame(self, board: Board, at: int) -> None:
        models = {m["id"]: m for m in board["models"]}
        changed = [m for model_id, m in models.items() if self.shown.get(model_id) != m]
        gone = [model_id for model_id in self.shown if model_id not in models]
        if changed or gone:
            self.frames.append({"at": at, "models": changed, "gone": gone})
        self.shown = models


@functools.lru_cache(maxsize=16)
def replay_view(save_text: str) -> dict[str, Any]:
    """A match's save replayed: the board at the start, a frame per step with events, the narrated events and the
    result. Replays are kept for the last few saves asked for (a save replays to the same frames every time)."""
    kept = _Frames()
    match = Match.loads(parse_json(save_text, "save"), "save", on_step=kept.step)
    kept.finish(match)
    assert kept.start is not None
    result = match.result
    rid, lang = match.ruleset.id, match.lang
    return {
        "ruleset": rid,
        "scenario": match.source,
        "seed": match.seed,
        "sides": list(match.sides),
        "lang": lang,
        "start": kept.start,
        "frames": kept.frames,
        "legend": legend(rid, lang, kept.start["terrain"], [*kept.start["models"], *(m for f in kept.frames for m in f["models"])]),
        "events": events_view(match, kept.events),
        "result": None if result is None else result_view(rid, lang, result),
    }


def check_events(match: Match, text: str, *, field: str = "events") -> None:
    """Refuse an events file (JSON lines, as ``kessen battle --events`` writes) that is not the battle *match*
    played, naming the first line that differs."""
    theirs = [line.strip() for line in text.removeprefix("\ufeff").splitlines() if line.strip()]
    ours = [to_json_line(event) for event in match.events]
    if not theirs:
        raise InputError(field, InputError.NOTHING, "the events file is empty")
    for number, (mine, given) in enumerate(zip(ours, theirs), 1):
        if mine != given:
            raise InputError(f"{field}: line {number}", _short(given), f"not the event this scenario and seed give here ({_short(mine)})")
    if len(theirs) > len(ours):
        raise InputError(f"{field}: line {len(ours) + 1}", _short(theirs[len(ours)]), f"the battle of this scenario and seed ends after {len(ours)} events")
    if len(theirs) < len(ours):
        raise InputError(
            field, InputError.NOTHING,
            f"the file stops after {len(theirs)} of the battle's {len(ours)} events (an unfinished battle replays from its save file)",
        )


def _short(line: str) -> str:
    return line if len(line) <= 120 else line[:117] + "..."
