"""``kessen battle``, ``kessen resume`` and ``kessen play``: whole battles at the terminal.

Nothing a person played is lost: ``q``, the end of input (Ctrl-D) and Ctrl-C each save the game first, to
``--save`` or to a new file in the saved-games folder (:mod:`kessen.cli.savefiles`), and say where. A save records
the sides a person plays and the language, and ``kessen resume`` goes on the same way. Output paths are checked
before a battle starts.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kessen import i18n
from kessen.cli.savefiles import default_save
from kessen.core.engine import Decision, Terminal
from kessen.core.errors import IllegalDecisionError, InputError, SaveFileError, UnknownRulesetError
from kessen.core.events import Event, to_json_line
from kessen.core.replay import Played, SavedGame, load_save, save_text
from kessen.io.files import SAVE, check_output, read_input, write_text
from kessen.io.scenarios import ScenarioFile, open_scenario
from kessen.rulesets import Ruleset, get_ruleset
from kessen.cli.sweep import battle_table, progress_bar
from kessen.sim.battles import BattleStats, Interrupted, simulate
from kessen.sim.play import play_battle
from kessen.sim.chunks import chunk_plan
from kessen.sim.executors import make_executor


def run_battle(
    scenario: str, *, ruleset_id: str | None, seed: int, runs: int, events_path: str | None, lang: str,
    save_path: str | None, out: Console, err: Console, workers: int | None = None,
) -> None:
    opened = open_scenario(scenario, ruleset_id)
    note_guess(opened, lang, err)
    ruleset, text = opened.ruleset, opened.text
    if runs > 1:
        for flag, value in (("--events", events_path), ("--save", save_path)):
            if value is not None:
                raise InputError(flag, value, "only for a single battle (without --runs)")
        run_many(ruleset, text, scenario, seed=seed, runs=runs, out=out, workers=workers, lang=lang)
        return
    sides = ruleset.game.sides(ruleset.game.load_scenario(text, scenario))
    play_sitting(Sitting(ruleset, scenario, text, seed, (), lang, events_path, save_path).checked(sides), out)


def run_many(
    ruleset: Ruleset, text: str, source: str, *, seed: int, runs: int, out: Console, workers: int | None = None,
    lang: str = "en",
) -> None:
    """``kessen battle --runs N``: the battles on a process pool (``--workers``, default all cores) with a progress
    bar from the first chunk on; Ctrl-C stops the workers at once and prints the battles finished, then exits 130."""
    i18n.catalogue("sim", lang)  # validates --lang before any battle
    ruleset.game.load_scenario(text, source)  # a bad scenario is reported before any worker starts
    chunks = len(chunk_plan(0, runs))
    executor = make_executor(workers=workers, jobs=chunks)  # started before the progress bar's thread
    try:
        with progress_bar(out) as bar:
            task = bar.add_task(i18n.text("sim", "battles", lang), total=runs)
            stats = simulate(ruleset, text, source, runs=runs, seed=seed, executor=executor, progress=lambda n: bar.advance(task, n))
    except Interrupted as stop:
        partial: BattleStats = stop.partial
        out.print(battle_table(partial, seed=seed, lang=lang))
        out.print(i18n.text("sim", "interrupted", lang, done=partial.runs, runs=runs))
        raise
    out.print(battle_table(stats, seed=seed, lang=lang))


def resume(
    path: str, *, events_path: str | None, lang: str | None, sides: tuple[str, ...], ai: bool, save_path: str | None,
    out: Console,
) -> None:
    """Replay a save exactly, then play on: the sides a person played (or *sides*, or none with *ai*) in the
    language it was played in (or *lang*)."""
    saved, ruleset, state = open_save(path)
    if sides and ai:
        raise InputError("--ai", True, "the AI plays every side: give --side or --ai, not both")
    people = sides if sides else (() if ai else saved.people)
    chosen = lang if lang is not None else saved.lang
    sitting = Sitting(
        ruleset, saved.scenario_source, saved.scenario, saved.seed, people, chosen, events_path, save_path,
        replay=saved.decisions, replayed_from=path,
    )
    play_sitting(sitting.checked(ruleset.game.sides(state)), out)


def open_save(path: str) -> tuple[SavedGame, Ruleset, Any]:
    """A save file read and checked, with its ruleset and the initial state of the scenario kept in it; every
    error names the save file (a bad scenario inside it says so)."""
    saved = load_save(read_input(path, SAVE), path)
    try:
        ruleset = get_ruleset(saved.ruleset)
    except UnknownRulesetError as error:
        raise SaveFileError(path, str(error)) from None
    if ruleset.game is None:
        raise SaveFileError(path, f"ruleset: {saved.ruleset} does not play whole battles yet")
    try:
        state = ruleset.game.load_scenario(saved.scenario, "scenario")
    except InputError as error:
        raise SaveFileError(path, f"the scenario inside this save is bad: {str(error).removeprefix('scenario: ')}") from None
    sides = ruleset.game.sides(state)
    strangers = [side for side in saved.people if side not in sides]
    if strangers:
        raise SaveFileError(path, f"people: {strangers[0]!r} is not a side of its scenario ({', '.join(sides)})")
    if saved.lang not in i18n.LANGUAGES:
        raise SaveFileError(path, f"lang: must be one of {', '.join(i18n.LANGUAGES)} (got {saved.lang!r})")
    return saved, ruleset, state


def play_interactive(
    scenario: str, *, ruleset_id: str | None, sides: tuple[str, ...], seed: int, save_path: str | None,
    events_path: str | None, lang: str, out: Console, err: Console,
) -> None:
    """Play *sides* yourself against the AI."""
    opened = open_scenario(scenario, ruleset_id)
    note_guess(opened, lang, err)
    state = opened.ruleset.game.load_scenario(opened.text, scenario)
    all_sides = opened.ruleset.game.sides(state)
    if not sides:
        raise InputError("--side", None, f"give the side you play: one of {', '.join(all_sides)}")
    sitting = Sitting(opened.ruleset, scenario, opened.text, seed, sides, lang, events_path, save_path)
    play_sitting(sitting.checked(all_sides), out)


def note_guess(opened: ScenarioFile, lang: str, err: Console) -> None:
    """Say on standard error when a scenario's ruleset was guessed from its folder."""
    if opened.guessed:
        err.print(i18n.text("cli", "guessed_ruleset", lang, path=opened.path, rules=opened.ruleset.id), markup=False)


@dataclass(frozen=True)
class Sitting:
    """One game at the terminal: what is played (the scenario's source as the save records it, its text, the
    seed), who plays (the sides a person plays), in which language, and where it is kept; for a resumed game the
    decisions to replay and the save file they came from."""

    ruleset: Ruleset
    source: str
    text: str
    seed: int
    people: tuple[str, ...]
    lang: str
    events_path: str | None
    save_path: str | None
    default_save: str | None = None
    replay: tuple[int, ...] = ()
    replayed_from: str | None = None

    def checked(self, sides: tuple[str, ...]) -> Sitting:
        """This sitting with its sides, language and output files checked, before any battle starts; with a
        default save file when a person plays without ``--save``."""
        for side in self.people:
            if side not in sides:
                raise InputError("--side", side, f"must be one of {', '.join(sides)}")
        i18n.catalogue("cli", self.lang)  # an unknown language is refused here, not at the first prompt
        for flag, path in (("--events", self.events_path), ("--save", self.save_path)):
            if path is not None:
                check_output(path, flag)
        if self.people and self.save_path is None:
            return replace(self, default_save=default_save(self.source))
        return self


def play_sitting(sitting: Sitting, out: Console) -> None:
    """Play a sitting to its end, or keep it when the person stops (q, end of input) or presses Ctrl-C."""
    ruleset = sitting.ruleset
    record = Played(None)
    deciders: dict[str, Any] = {side: PersonDecider(ruleset, sitting.lang, out) for side in sitting.people}
    try:
        play_battle(
            ruleset, sitting.text, sitting.source, sitting.seed,
            replay=sitting.replay, deciders=deciders, on_events=_narrator(ruleset, sitting.lang, out), record=record,
        )
    except IllegalDecisionError as error:
        if sitting.replayed_from is None:
            raise
        raise SaveFileError(sitting.replayed_from, f"does not replay: {error}") from None
    except QuitGame as stop:
        keep(sitting, record, stop.why, out)
        return
    except KeyboardInterrupt:
        keep(sitting, record, "interrupted", out)
        raise
    finish(sitting, record, out)


def keep(sitting: Sitting, record: Played, why: str | None, out: Console) -> None:
    """Save a stopped game (every decision so far, both sides', and the rest of a replay not reached yet) and
    write the events so far; say where it went and how to go on."""
    decisions = [*record.decisions, *sitting.replay[len(record.decisions):]]
    path = sitting.save_path or sitting.default_save
    with _no_interrupt():
        if sitting.events_path:
            write_text(sitting.events_path, _events_text(record.events), "--events")
        if path is None:
            return
        write_text(path, _save(sitting, decisions), "--save")
    lang = sitting.lang
    saved = escape(path)
    out.print(i18n.text("cli", "saved", lang, path=saved) if why is None else i18n.text("cli", "stopped", lang, why=i18n.text("cli", why, lang), path=saved))
    out.print(i18n.text("cli", "go_on", lang, path=saved))


def finish(sitting: Sitting, played: Played, out: Console) -> None:
    """A battle's end: its events and save written (when asked), its result printed."""
    with _no_interrupt():
        if sitting.events_path:
            write_text(sitting.events_path, _events_text(played.events), "--events")
        if sitting.save_path:
            write_text(sitting.save_path, _save(sitting, played.decisions), "--save")
    assert played.terminal is not None
    print_result(sitting.ruleset.id, played.terminal, sitting.lang, out)


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


def _save(sitting: Sitting, decisions: list[int]) -> str:
    return save_text(sitting.ruleset.id, sitting.source, sitting.text, sitting.seed, decisions, people=sitting.people, lang=sitting.lang)


def _events_text(events: list[Event]) -> str:
    return "".join(to_json_line(e) + "\n" for e in events)


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


class QuitGame(Exception):
    """The person at the terminal stopped: ``q`` (*why* None) or the end of input (``end_of_input``)."""

    def __init__(self, why: str | None = None) -> None:
        super().__init__(why or "quit")
        self.why = why


class PersonDecider:
    """A person at the terminal: the board, the numbered legal decisions (attacks with their exact odds), all in
    the chosen language (the ruleset's catalogue for the game's words, the ``cli`` catalogue for the prompts).
    An answer that is not UTF-8 text is asked again, like any answer that is not a number."""

    def __init__(self, ruleset: Ruleset, lang: str, out: Console) -> None:
        i18n.catalogue("cli", lang)  # validates the language before the game starts
        self.ruleset, self.lang, self.out = ruleset, lang, out
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:  # undecodable bytes arrive as lone surrogates instead of an exception
            reconfigure(errors="surrogateescape")

    def decide(self, state: Any, decision: Decision) -> Any:
        game, lang = self.ruleset.game, self.lang
        self.out.print(game.show(state, lang))
        what = i18n.catalogue(self.ruleset.id, lang).get("decisions", {}).get(decision.what, decision.what)
        self.out.print(i18n.text("cli", "decides", lang, player=escape(decision.player), what=escape(what)))
        for i, option in enumerate(decision.options, 1):
            # no markup: the odds are written in brackets, which rich would take for a style tag and drop
            self.out.print(f"  {i:2}. {game.describe(state, option, lang)}", markup=False)
        count = len(decision.options)
        while True:
            try:
                answer = self.out.input(i18n.text("cli", "choice", lang)).strip()
            except EOFError:
                self.out.print()
                raise QuitGame("end_of_input") from None
            if answer.lower() in ("q", "quit"):
                raise QuitGame
            if answer.isascii() and answer.isdigit() and len(answer) <= 6 and 1 <= int(answer) <= count:
                return decision.options[int(answer) - 1]
            if any("\udc80" <= c <= "\udcff" for c in answer):
                self.out.print(i18n.text("cli", "not_utf8", lang, count=count))
            else:
                self.out.print(i18n.text("cli", "retry", lang, count=count, answer=escape(repr(answer))))


def _narrator(ruleset: Ruleset, lang: str, out: Console) -> Any:
    ruleset.game.narrate  # noqa: B018 — fail early if the ruleset cannot narrate
    i18n.catalogue(ruleset.id, lang)  # validates --lang before the battle starts

    def narrate(events: tuple[Event, ...]) -> None:
        for event in events:
            out.print(ruleset.game.narrate(event, lang), markup=False)

    return narrate
