"""One game at the terminal, from its first step to its end or to the moment it is stopped: a thin loop over
:class:`kessen.Match`.

:func:`kessen.cli.battles.sit` lets the match roll the dice and play the AI sides (:meth:`Match.run`), its
narration streaming as it happens, and when a person must decide, :class:`kessen.cli.person.Person` asks. Nothing a
person played is lost: ``q``, the end of input (Ctrl-D) and Ctrl-C each save the game first, to ``--save``, or to the
file a resumed game came from, or to a new file in the saved-games folder (:mod:`kessen.cli.savefiles`), and say
where; the events so far go to ``--events``. A battle that ends writes its events and, when asked, its save, then its
result. Output paths are checked before the battle starts.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from kessen import i18n
from kessen.cli.results import print_result
from kessen.cli.savefiles import default_save
from kessen.core.events import Event, to_json_line
from kessen.io.files import check_output, write_text
from kessen.match import Match


class QuitGame(Exception):
    """The person at the terminal stopped: ``q`` (*why* None) or the end of input (``end_of_input``)."""

    def __init__(self, why: str | None = None) -> None:
        super().__init__(why or "quit")
        self.why = why


@dataclass
class Sitting:
    """A match at the terminal and where it is kept: ``--events``, ``--save`` (or a file the person named with
    ``save FILE``), and the default file a stopped game goes to when there is neither: the file a resumed game came
    from, else a new file in the saved-games folder."""

    match: Match
    events_path: str | None = None
    save_path: str | None = None
    default_save: str | None = None

    def checked(self) -> Sitting:
        """This sitting with its output files checked, before any battle starts; with a default save file when a
        person plays without ``--save``."""
        i18n.catalogue("cli", self.match.lang)  # an unknown language is refused here, not at the first prompt
        for flag, path in (("--events", self.events_path), ("--save", self.save_path)):
            if path is not None:
                check_output(path, flag)
        if self.match.people and self.save_path is None and self.default_save is None:
            self.default_save = default_save(self.match.source)
        return self

    @property
    def keeps_to(self) -> str | None:
        """Where the game is saved when it stops: the file given or named, else the default one."""
        return self.save_path or self.default_save


def narrator(match: Match, out: Console) -> Callable[[tuple[Event, ...]], None]:
    """The battle report, one line per event, printed as the events happen (no markup: narration is plain text)."""

    def narrate(events: tuple[Event, ...]) -> None:
        for event in events:
            out.print(match.narrate(event), markup=False)

    return narrate


def save_now(sitting: Sitting, path: str, field: str | None = "--save") -> None:
    """Write the match's save file (``kessen-save/2``) to *path*, whole or not at all; Ctrl-C waits meanwhile."""
    with _no_interrupt():
        write_text(path, sitting.match.dumps(), field)


def keep(sitting: Sitting, why: str | None, out: Console) -> None:
    """Save a stopped game (every step so far) and write its events so far; say where it went and how to go on.
    A battle without a person and without ``--save`` is not saved (there is nothing a person would lose)."""
    path = sitting.keeps_to
    with _no_interrupt():
        _write_events(sitting)
        if path is None:
            return
        save_now(sitting, path)
    lang, shown = sitting.match.lang, escape(path)
    if why is None:
        out.print(i18n.text("cli", "saved", lang, path=shown))
    else:
        out.print(i18n.text("cli", "stopped", lang, why=i18n.text("cli", why, lang), path=shown))
    out.print(i18n.text("cli", "go_on", lang, path=shown))


def finish(sitting: Sitting, out: Console) -> None:
    """A battle's end: its events and save written (when asked), its result printed."""
    with _no_interrupt():
        _write_events(sitting)
        if sitting.save_path:
            save_now(sitting, sitting.save_path)
    result = sitting.match.result
    assert result is not None
    print_result(sitting.match.ruleset.id, result, sitting.match.lang, out)


def events_text(events: list[Event]) -> str:
    """An events file: one JSON line per event (byte-identical for the same seed and decisions)."""
    return "".join(to_json_line(e) + "\n" for e in events)


def _write_events(sitting: Sitting) -> None:
    if sitting.events_path:
        write_text(sitting.events_path, events_text(sitting.match.events), "--events")


@contextmanager
def _no_interrupt() -> Iterator[None]:
    """Ctrl-C waits while a file is written, so that a second one cannot lose the save the first one asked for."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: no signals here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
