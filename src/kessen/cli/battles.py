"""``kessen battle``, ``kessen resume`` and ``kessen play``: whole battles at the terminal."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kessen import i18n
from kessen.core.engine import Decision
from kessen.core.errors import IllegalDecisionError, InputError, SaveFileError
from kessen.core.events import Event, to_json_line
from kessen.core.replay import Played, load_save, save_text
from kessen.rulesets import Ruleset, get_ruleset
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.cli.sweep import battle_table, progress_bar
from kessen.sim.battles import BattleStats, Interrupted, play_battle, simulate
from kessen.sim.chunks import chunk_plan
from kessen.sim.executors import make_executor


def run_battle(
    scenario: str, *, ruleset_id: str | None, seed: int, runs: int, events_path: str | None, lang: str,
    save_path: str | None, out: Console, workers: int | None = None,
) -> None:
    ruleset = ruleset_for(scenario, ruleset_id)
    text = read_scenario(scenario)
    if runs > 1:
        for flag, value in (("--events", events_path), ("--save", save_path)):
            if value is not None:
                raise InputError(flag, value, "only for a single battle (without --runs)")
        run_many(ruleset, text, scenario, seed=seed, runs=runs, out=out, workers=workers, lang=lang)
        return
    narrate = _narrator(ruleset, lang, out)
    played = play_battle(ruleset, text, scenario, seed, on_events=narrate)
    finish(ruleset, played, scenario, text, seed, events_path=events_path, save_path=save_path, lang=lang, out=out)


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


def resume(path: str, *, events_path: str | None, lang: str, out: Console, side: str | None = None, save_path: str | None = None) -> None:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("save file", path, "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError("save file", path, f"cannot read the file ({error.__class__.__name__})") from None
    saved = load_save(text, path)
    ruleset = get_ruleset(saved.ruleset)
    if ruleset.game is None:
        raise InputError("ruleset", saved.ruleset, "this ruleset does not play whole battles yet")
    narrate = _narrator(ruleset, lang, out)
    record = Played(None)
    deciders: dict[str, Any] = {}
    if side is not None:
        sides = ruleset.game.sides(ruleset.game.load_scenario(saved.scenario, saved.scenario_source))
        if side not in sides:
            raise InputError("--side", side, f"must be one of {', '.join(sides)}")
        deciders[side] = PersonDecider(ruleset, lang, out)
    try:
        play_battle(
            ruleset, saved.scenario, saved.scenario_source, saved.seed,
            replay=saved.decisions, deciders=deciders, on_events=narrate, record=record,
        )
    except IllegalDecisionError as error:
        raise SaveFileError(path, f"does not replay: {error}") from None
    except QuitGame:
        if save_path:
            write_atomic(save_path, save_text(ruleset.id, saved.scenario_source, saved.scenario, saved.seed, record.decisions))
            out.print(i18n.text("cli", "saved", lang, path=save_path))
        return
    finish(ruleset, record, saved.scenario_source, saved.scenario, saved.seed, events_path=events_path, save_path=save_path, lang=lang, out=out)


def play_interactive(scenario: str, *, ruleset_id: str | None, side: str, seed: int, save_path: str | None, lang: str, out: Console) -> None:
    ruleset = ruleset_for(scenario, ruleset_id)
    text = read_scenario(scenario)
    state = ruleset.game.load_scenario(text, scenario)
    sides = ruleset.game.sides(state)
    if side not in sides:
        raise InputError("--side", side, f"must be one of {', '.join(sides)}")
    record = Played(state)
    person = PersonDecider(ruleset, lang, out)
    try:
        play_battle(ruleset, text, scenario, seed, deciders={side: person}, on_events=_narrator(ruleset, lang, out), record=record)
    except QuitGame:
        if save_path:  # every decision so far, both sides', so that resume replays this exact game
            write_atomic(save_path, save_text(ruleset.id, scenario, text, seed, record.decisions))
            out.print(i18n.text("cli", "saved", lang, path=save_path))
        return
    finish(ruleset, record, scenario, text, seed, events_path=None, save_path=save_path, lang=lang, out=out)


class QuitGame(Exception):
    """The person at the terminal chose to stop."""


class PersonDecider:
    """A person at the terminal: the board, the numbered legal decisions (attacks with their exact odds), all in
    the chosen language (the ruleset's catalogue for the game's words, the ``cli`` catalogue for the prompts)."""

    def __init__(self, ruleset: Ruleset, lang: str, out: Console) -> None:
        i18n.catalogue("cli", lang)  # validates the language before the game starts
        self.ruleset, self.lang, self.out = ruleset, lang, out

    def decide(self, state: Any, decision: Decision) -> Any:
        game, lang = self.ruleset.game, self.lang
        self.out.print(game.show(state, lang))
        what = i18n.catalogue(self.ruleset.id, lang).get("decisions", {}).get(decision.what, decision.what)
        self.out.print(i18n.text("cli", "decides", lang, player=escape(decision.player), what=escape(what)))
        for i, option in enumerate(decision.options, 1):
            # no markup: the odds are written in brackets, which rich would take for a style tag and drop
            self.out.print(f"  {i:2}. {game.describe(state, option, lang)}", markup=False)
        while True:
            answer = self.out.input(i18n.text("cli", "choice", lang)).strip()
            if answer.lower() in ("q", "quit"):
                raise QuitGame
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return decision.options[int(answer) - 1]
            self.out.print(i18n.text("cli", "retry", lang, count=len(decision.options), answer=escape(repr(answer))))


def finish(ruleset: Ruleset, played: Played, source: str, text: str, seed: int, *, events_path: str | None, save_path: str | None, lang: str, out: Console) -> None:
    if events_path:
        write_atomic(events_path, "".join(to_json_line(e) + "\n" for e in played.events))
    if save_path:
        write_atomic(save_path, save_text(ruleset.id, source, text, seed, played.decisions))
    terminal = played.terminal
    assert terminal is not None
    out.print(i18n.text("cli", "winner", lang, winner=escape(terminal.winner or i18n.text("cli", "draw", lang))))
    for key, value in terminal.summary.items():
        shown = ", ".join(f"{k} {v}" for k, v in value.items()) if isinstance(value, dict) else value
        out.print(i18n.text("cli", "summary", lang, name=key.replace("_", " "), value=shown), markup=False)


def write_atomic(path: str, content: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, renamed over it."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=".kessen-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(content)
        os.replace(tmp, target)
    except OSError as error:
        raise InputError("output", path, f"cannot write the file ({error.strerror})") from None


def _narrator(ruleset: Ruleset, lang: str, out: Console) -> Any:
    ruleset.game.narrate  # noqa: B018 — fail early if the ruleset cannot narrate
    i18n.catalogue(ruleset.id, lang)  # validates --lang before the battle starts

    def narrate(events: tuple[Event, ...]) -> None:
        for event in events:
            out.print(ruleset.game.narrate(event, lang), markup=False)

    return narrate
