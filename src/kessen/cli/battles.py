"""``kessen battle``, ``kessen play`` and ``kessen resume``: whole battles at the terminal, each a
:class:`kessen.Match` played to its end by :func:`sit` (``battle --runs N``: many battles, simulated).

A person plays the sides given by ``--side``; ``kessen resume`` goes on with the sides and the language the save
recorded unless told otherwise. Everything saved is ``kessen-save/2``; ``kessen-save/1`` files still resume.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape

import kessen
from kessen import i18n
from kessen.ai.levels import AI, level_table
from kessen.core.names import find_side
from kessen.cli.person import Person
from kessen.cli.sitting import QuitGame, Sitting, keep, finish, narrator
from kessen.cli.stopping import like_ctrl_c
from kessen.cli.sweep import battle_table, progress_bar
from kessen.core.errors import InputError, KessenError
from kessen.core import saves
from kessen.io.files import check_output, read_json
from kessen.io.scenarios import ScenarioFile, open_scenario
from kessen.match import Match
from kessen.rulesets import Ruleset, get_ruleset
from kessen.sim.battles import BattleStats, Interrupted
from kessen.sim.chunks import chunk_plan
from kessen.sim.executors import make_executor


def run_battle(
    scenario: str, *, ruleset_id: str | None, seed: int, runs: int, events_path: str | None, lang: str,
    save_path: str | None, out: Console, err: Console, workers: int | None = None, ai: AI = None,
) -> None:
    """``kessen battle``: one battle between the AI sides, narrated as it is played (``--events``, ``--save``); or
    ``--runs N`` battles with win rates."""
    opened = open_scenario(scenario, ruleset_id)
    note_guess(opened, lang, err)
    ruleset, text = opened.ruleset, opened.text
    if runs > 1:
        for flag, value in (("--events", events_path), ("--save", save_path)):
            if value is not None:
                raise InputError(flag, value, "only for a single battle (without --runs)")
        run_many(ruleset, text, scenario, seed=seed, runs=runs, out=out, workers=workers, lang=lang, ai=_ai_sides(ai, _scenario_sides(opened)))
        return
    with _ai_as_option():
        match = Match(ruleset, text, scenario, seed=seed, lang=lang, ai=_ai_sides(ai, _scenario_sides(opened)))
    sit(Sitting(match, events_path, save_path).checked(), out)


def run_many(
    ruleset: Ruleset, text: str, source: str, *, seed: int, runs: int, out: Console, workers: int | None = None,
    lang: str = "en", ai: AI = None,
) -> None:
    """``kessen battle --runs N``: the battles on a process pool (``--workers``, default all cores) with a progress
    bar from the first chunk on; Ctrl-C, SIGTERM or SIGHUP stops the workers at once and prints the battles
    finished, then exits 130 (143, 129)."""
    i18n.catalogue("sim", lang)  # validates --lang before any battle
    state = ruleset.game.load_scenario(text, source)  # a bad scenario is reported before any worker starts
    with _ai_as_option():
        level_table(ai, tuple(ruleset.game.sides(state)))  # and a bad --ai
    chunks = len(chunk_plan(0, runs))
    with like_ctrl_c():
        executor = make_executor(workers=workers, jobs=chunks)  # started before the progress bar's thread
        try:
            with progress_bar(out) as bar:
                task = bar.add_task(i18n.text("sim", "battles", lang), total=runs)
                stats = kessen.simulate(
                    source, text=text, ruleset=ruleset.id, runs=runs, seed=seed, executor=executor,
                    progress=lambda n: bar.advance(task, n), ai=ai,
                )
        except Interrupted as stop:
            partial: BattleStats = stop.partial
            out.print(battle_table(partial, seed=seed, lang=lang))
            out.print(i18n.text("sim", "interrupted", lang, done=partial.runs, runs=runs))
            raise
        except KeyboardInterrupt:  # before the battles began: no worker is left either
            executor.close()
            raise
    out.print(battle_table(stats, seed=seed, lang=lang))


def play_interactive(
    scenario: str, *, ruleset_id: str | None, sides: tuple[str, ...], seed: int, save_path: str | None,
    events_path: str | None, lang: str, out: Console, err: Console, ai: AI = None,
) -> None:
    """``kessen play``: the person plays *sides* against the AI (*ai*: its level, for every side or per side)."""
    opened = open_scenario(scenario, ruleset_id)
    note_guess(opened, lang, err)
    all_sides = _scenario_sides(opened)
    if not sides:
        raise InputError("--side", InputError.NOTHING, f"give the side you play: one of {', '.join(all_sides)}")
    people = tuple(find_side(side, all_sides, "--side") for side in sides)
    with _ai_as_option():
        match = Match(opened.ruleset, opened.text, scenario, seed=seed, people=people, lang=lang, ai=_ai_sides(ai, all_sides))
    sit(Sitting(match, events_path, save_path).checked(), out)


def resume(
    path: str, *, events_path: str | None, lang: str | None, sides: tuple[str, ...], watch: bool, save_path: str | None,
    out: Console, ai: AI = None,
) -> None:
    """``kessen resume``: the save replayed exactly (v2: its recorded steps; v1: its decisions from the seed), then
    played on by the sides a person played (or *sides*, or none with *watch*) in the language it was played in (or
    *lang*), the machine's sides by the AI levels the save recorded (or *ai*). A save that is damaged or no longer replays is one line naming the step.

    [DECISION] Stopped again (q, the end of input, Ctrl-C, ``save`` without a name), the game goes back to the file it
    came from, replaced whole (issue 22 §1): that file, not a new one in the saved-games folder, takes the place of
    the default save, so resuming it again goes on from there. As with ``kessen play``, the end of the battle writes
    only ``--save`` (or a file named with ``save FILE``). A file that cannot be written (a read-only folder) leaves
    the default: a new file in the saved-games folder."""
    if sides and watch:
        raise InputError("--watch", InputError.NOTHING, "the AI plays every side: give --side or --watch, not both")
    data = read_json(path)
    all_sides = _save_sides(data, path) if sides or isinstance(ai, dict) else ()
    people = tuple(find_side(side, all_sides, "--side") if all_sides else side for side in sides) if sides else (() if watch else None)
    with _ai_as_option():
        match = Match.loads(data, path, people=people, lang=lang, ai=_ai_sides(ai, all_sides))
    sitting = Sitting(match, events_path, save_path, default_save=_kept_in(path)).checked()
    out.print(i18n.text("cli", "resumed", match.lang, path=escape(path)))
    sit(sitting, out)


def _kept_in(path: str) -> str | None:
    """The file a resumed game is saved back to when it stops: the one it came from, if it is a regular file that can
    be written (not ``/dev/stdin``, not in a read-only folder)."""
    if not os.path.isfile(path):
        return None
    try:
        check_output(path)
    except InputError:
        return None
    return path


@contextmanager
def _ai_as_option() -> Iterator[None]:
    """A bad AI level or side is the command line's ``--ai`` that is wrong."""
    try:
        yield
    except InputError as error:
        if error.field != "ai" and not error.field.startswith("ai."):
            raise
        raise InputError("--ai", error.value, error.reason) from None


def _scenario_sides(opened: ScenarioFile) -> tuple[str, ...]:
    game = opened.ruleset.game
    return tuple(game.sides(game.load_scenario(opened.text, opened.path)))


def _save_sides(data: object, path: str) -> tuple[str, ...]:
    """The sides of the scenario a save holds; none when the save is bad (Match.loads then says what is wrong)."""
    try:
        recorded = saves.loads(data, path)
        game = get_ruleset(recorded.ruleset).game
        return tuple(game.sides(game.load_scenario(recorded.scenario, recorded.scenario_source)))
    except KessenError:
        return ()


def _ai_sides(ai: AI, sides: tuple[str, ...]) -> AI:
    """``--ai SIDE=LEVEL`` with each side written as the scenario writes it (typed in any case)."""
    if isinstance(ai, dict) and sides:
        return {find_side(side, sides, "--ai"): level for side, level in ai.items()}
    return ai


def sit(sitting: Sitting, out: Console) -> None:
    """Play the sitting's match to its end, or keep it when the person stops (q, end of input) or presses Ctrl-C."""
    match = sitting.match
    narrate = narrator(match, out)
    person = Person(sitting, out, narrate) if match.people else None
    try:
        match.run(on_events=narrate)
        while match.result is None:
            decision = match.decision
            # Match.run stops only at the end or at a decision of a person
            assert person is not None and decision is not None
            person.decide(decision)
    except QuitGame as stop:
        keep(sitting, stop.why, out)
        return
    except KeyboardInterrupt:
        keep(sitting, "interrupted", out)
        raise
    finish(sitting, out)


def note_guess(opened: ScenarioFile, lang: str, err: Console) -> None:
    """Say on standard error when a scenario's ruleset was guessed from its folder."""
    if opened.guessed:
        err.print(i18n.text("cli", "guessed_ruleset", lang, path=opened.path, rules=opened.ruleset.id), markup=False)
