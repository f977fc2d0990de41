"""kessen.Match: one game played step by step, the API every driver plays through (the terminal, the web page,
scripts, an RL environment).

    m = kessen.Match.open("examples/song-of-blades/warband-skirmish.toml", seed=7, people={"Kingdom"})
    m.run()                          # chance nodes and the AI sides, until a person must decide or the end
    m.decision                       # the pending decision (player, kind, suggested options, notation, odds) or None
    m.choose("move k1 to 312,440")   # any legal notation or a suggested option; then runs on to the next one
    m.undo()                         # back to before the person's last decision
    m.board(), m.events, m.result, m.save("game.json"), kessen.Match.load("game.json")
    kessen.Match.open(path, ai={"Goblins": "search"})   # the AI level of each machine side (kessen.ai.levels)
    m.advise()                       # each option's chance to win (exact where the rest is small, else playouts)
    m.position()                     # the game tree here (kessen.ai.tree.Position): fork, node, apply, scores
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from kessen import i18n
from kessen.core.board import Board
from kessen.core.engine import Chance, Decision, Game, Node, Terminal
from kessen.core.errors import IllegalChoice, InputError, KessenError, SaveFileError
from kessen.core.events import Event
from kessen.core.records import record
from kessen.core.saves import SAVE_V1, Recorded, SaveFile, dumps, loads
from kessen.ai.advisor import Chances, advise
from kessen.ai.levels import AI, Level, deciders, parse_ai
from kessen.ai.tree import Position
from kessen.core.session import Session, Snapshot, encode_outcome, find_outcome
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets import Ruleset, get_ruleset


@record
class Option:
    """A suggested option of a pending decision: its notation, its words, and the exact odds of choosing it; with
    *calculator*, the procedure and JSON input that give those odds (``Game.odds_input``)."""

    notation: str
    text: str
    odds: Mapping[str, Fraction] | None
    choice: Any = field(repr=False, compare=False)
    calculator: tuple[str, dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def words(self) -> str:
        """The option's words without the odds a ruleset writes at their end (``attack h1  [win 58.3%, ...]``), for a
        driver that shows :attr:`odds` as numbers beside them: the odds shown once."""
        return ODDS_IN_WORDS.sub("", self.text) if self.odds else self.text


ODDS_IN_WORDS = re.compile(r"  \[[^\]]*\]$")
"""The odds a ruleset writes at the end of an option's words: two spaces and a bracket."""


@record
class PendingDecision:
    """The decision a person must make now: who decides, its documented *kind*, who acts, the question in the
    match's language, and the suggested options. A *free* decision accepts any other legal notation too."""

    player: str
    kind: str
    actor: str
    free: bool
    prompt: str
    options: tuple[Option, ...]


class Match:
    """One game of a scenario, from a seed, with the sides in *people* played by a person and the rest by the AI:
    *ai* is one level for every machine side or side → level (``greedy``, ``search``, ``search:N``, ``random``,
    ``package.module:Name``; a side not named plays greedy)."""

    def __init__(
        self, ruleset: Ruleset, text: str, source: str, *, seed: int, people: Iterable[str] = (), lang: str = "en",
        ai: AI = None,
    ) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InputError("seed", seed, "must be an integer from 0 to 2^64 - 1")
        if lang not in i18n.LANGUAGES:
            raise InputError("lang", lang, f"must be one of {', '.join(i18n.LANGUAGES)}")
        self.ruleset, self.scenario_text, self.source, self.seed, self.lang = ruleset, text, source, seed, lang
        game = ruleset.game
        state = _initial_state(ruleset, text, source)
        self.sides: tuple[str, ...] = tuple(game.sides(state))
        self.people: frozenset[str] = frozenset(people)
        strangers = sorted(self.people - set(self.sides))
        if strangers:
            raise InputError("people", strangers[0], f"not a side of this scenario (its sides are {', '.join(self.sides)})")
        machine = tuple(side for side in self.sides if side not in self.people)
        levels = parse_ai(ai, self.sides)
        self.ai: dict[str, Level] = {side: levels[side] for side in machine}
        """The AI level of each side the machine plays."""
        self._deciders = deciders(self.ai, game, self.sides, seed)
        self._session: Session[Any] = Session(game, state, seed)
        self._undo: list[Snapshot] = []

    # --- opening, loading, saving ------------------------------------------------------------------------

    @classmethod
    def open(
        cls, scenario: str | os.PathLike[str], *, seed: int = 1, people: Iterable[str] = (), ruleset: str | None = None, lang: str = "en",
        ai: AI = None,
    ) -> Match:
        """A new match of a scenario file (its ruleset from the file, or *ruleset*)."""
        path = os.fspath(scenario)
        return cls(ruleset_for(path, ruleset), read_scenario(path), path, seed=seed, people=people, lang=lang, ai=ai)

    @classmethod
    def from_text(
        cls, text: str, *, ruleset: str, seed: int = 1, people: Iterable[str] = (), lang: str = "en", source: str = "scenario",
        ai: AI = None,
    ) -> Match:
        """A new match of a scenario given as text (errors name *source*)."""
        return cls(get_ruleset(ruleset), text, source, seed=seed, people=people, lang=lang, ai=ai)

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, people: Iterable[str] | None = None, lang: str | None = None, ai: AI = None
    ) -> Match:
        """The match a save file holds, replayed to where it was saved (never half-loaded); it goes on with the
        people, the language and the AI levels the save recorded, or *people*, *lang* and *ai*."""
        from kessen.io.files import read_json

        where = os.fspath(path)
        return cls.loads(read_json(where), where, people=people, lang=lang, ai=ai)

    @classmethod
    def loads(
        cls,
        data: Any,
        source: str = "save",
        *,
        people: Iterable[str] | None = None,
        lang: str | None = None,
        ai: AI = None,
        on_step: Callable[[Match, tuple[Event, ...]], None] | None = None,
    ) -> Match:
        """The match of a save file's parsed JSON *data*; errors in the save name *source*. *people*, *lang* and *ai*
        override the recorded ones (an InputError naming ``people``, ``lang`` or ``ai`` if they do not fit). *on_step* sees
        the match after its start and after each replayed step, with the events of each (a replay draws
        ``board()`` there)."""
        save = loads(data, source)
        try:
            ruleset = get_ruleset(save.ruleset)
            recorded = dict(save.ai)
            match = cls(ruleset, save.scenario, save.scenario_source, seed=save.seed, people=save.people, lang=save.lang, ai=recorded)
        except InputError as error:
            if error.field in ("ruleset", "people", "lang") or error.field.startswith("ai"):
                raise SaveFileError(source, str(error)) from None
            inside = str(error).removeprefix(f"{save.scenario_source}: ")
            raise SaveFileError(source, f"the scenario inside this save is bad: {inside}") from None
        if people is not None or lang is not None or ai is not None:
            chosen = save.people if people is None else people
            levels = recorded if ai is None else ai
            match = cls(ruleset, save.scenario, save.scenario_source, seed=save.seed, people=chosen, lang=lang or save.lang, ai=levels)
        match._replay(save, source, on_step or (lambda _match, _events: None))
        return match

    def dumps(self) -> str:
        """The save file's text (``kessen-save/2``): every step taken, decisions in notation, outcomes as drawn."""
        from kessen.version import __version__

        game = self.ruleset.game
        steps = tuple(
            Recorded("d", game.notation(t.state, t.node, t.choice)) if isinstance(t.node, Decision) else Recorded("c", encode_outcome(t.choice))
            for t in self._session.taken
        )
        return dumps(
            SaveFile(
                format="", ruleset=self.ruleset.id, scenario_source=self.source, scenario=self.scenario_text, seed=self.seed,
                people=tuple(s for s in self.sides if s in self.people), lang=self.lang, kessen=__version__, steps=steps,
                ai=tuple((side, str(level)) for side, level in self.ai.items()),
            )
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the save file, whole or not at all."""
        from kessen.io.files import write_text

        write_text(os.fspath(path), self.dumps())

    # --- playing -------------------------------------------------------------------------------------------------

    def run(self, on_events: Callable[[tuple[Event, ...]], None] | None = None) -> None:
        """Roll the chance nodes and let the AI sides play, until a person must decide or the battle ends;
        *on_events* sees the events of each step as they happen (a narrating terminal)."""
        self._session.run(self._deciders, on_events=on_events)

    @property
    def decision(self) -> PendingDecision | None:
        """The decision a person must make now, or None (the battle is over, or :meth:`run` has not been called)."""
        node = self._session.node
        if not isinstance(node, Decision) or node.player not in self.people:
            return None
        game, state = self.ruleset.game, self._session.state
        options = tuple(
            Option(
                game.notation(state, node, o), game.describe(state, o, self.lang), odds, o,
                game.odds_input(state, node, o) if odds else None,
            )
            for o in node.options
            for odds in (game.odds(state, node, o),)
        )
        return PendingDecision(node.player, node.kind, node.actor, node.free, game.prompt(state, node, self.lang), options)

    def choose(self, choice: str | Option, on_events: Callable[[tuple[Event, ...]], None] | None = None) -> None:
        """Make a person's choice (any legal notation, or one of the suggested options), then run on to the next
        decision of a person or the end; *on_events* sees the events of the choice and of every step after it, as
        :meth:`run`. An illegal choice raises :class:`IllegalChoice` and changes nothing."""
        self._pending_person_node()
        snap = self._session.snapshot()
        if isinstance(choice, Option):
            events = self._session.choose(choice.choice)
        elif isinstance(choice, str):
            events = self._session.choose_notation(choice)
        else:
            raise IllegalChoice(None, f"a choice is its notation, a string (got {choice!r})")
        self._undo.append(snap)
        if on_events is not None and events:
            on_events(events)
        self.run(on_events)

    def odds(self, notation: str) -> Mapping[str, Fraction] | None:
        """The exact odds of a choice before making it (IllegalChoice if it is not legal now)."""
        node = self._pending_person_node()
        game: Game[Any] = self.ruleset.game
        state = self._session.state
        return game.odds(state, node, game.parse(state, node, notation))

    def position(self) -> Position[Any]:
        """The game tree where the match stands (:class:`kessen.ai.tree.Position`): fork it, read its node, apply
        choices and outcomes to it; the match itself does not move."""
        return Position(self.ruleset.game, self._session.state)

    def advise(
        self, *, playouts: int = 100, ai: AI = None, on_progress: Callable[[int, int], None] | None = None
    ) -> list[Chances]:
        """For each suggested option of the pending decision of a person: the chance to win and to draw if it is
        taken and every side then plays as *ai* (by default the level of the match's first AI side, else greedy).
        Exact (fractions) where the rest of the battle is small enough to walk, else from *playouts* seeded
        playouts with a 95% interval (:func:`kessen.ai.advisor.advise`)."""
        node = self._pending_person_node()
        if not isinstance(playouts, int) or isinstance(playouts, bool) or not 1 <= playouts <= 100_000:
            raise InputError("playouts", playouts, "must be a whole number from 1 to 100,000")
        default = next(iter(self.ai.values()), Level("greedy"))
        levels = {side: default for side in self.sides} if ai is None else parse_ai(ai, self.sides)
        seed = int(np.random.SeedSequence([self.seed, len(self._session.taken)]).generate_state(1, np.uint64)[0])
        return advise(self.ruleset.game, self._session.state, node, levels, seed=seed, playouts=playouts, on_progress=on_progress)

    def undo(self) -> None:
        """Back to before the person's last decision: the identical state, the stream where it was."""
        if not self._undo:
            raise IllegalChoice(None, "there is no decision of yours to undo")
        self._session.restore(self._undo.pop())

    # --- what there is to see ------------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The frozen game state (for tests and tools; drivers read :meth:`board`, :attr:`events` and :attr:`decision`)."""
        return self._session.state

    @property
    def events(self) -> list[Event]:
        """The events so far, a copy: what a caller does to it changes neither the match nor its undo."""
        return list(self._session.events)

    @property
    def result(self) -> Terminal | None:
        """The end of the battle (winner and summary), or None while it goes on."""
        node = self._session.node
        return node if isinstance(node, Terminal) else None

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def board(self) -> Board:
        """The battlefield as plain data: size, terrain and every model (see :mod:`kessen.core.board`)."""
        game: Game[Any] = self.ruleset.game
        return game.board(self._session.state)

    def narrate(self, event: Event, lang: str | None = None) -> str:
        return str(self.ruleset.game.narrate(event, lang or self.lang))

    def show(self, lang: str | None = None) -> str:
        """The board as text, for a person at the terminal."""
        return str(self.ruleset.game.show(self._session.state, lang or self.lang))

    def __reduce__(self) -> tuple[Callable[..., Match], tuple[Any, ...]]:
        """How ``pickle`` and ``copy`` make a match again: from its ruleset's id, scenario, seed, people and language,
        then set where it stood (the state, the stream, the events, the record of its steps, its undo points). The
        ruleset and the AI deciders are found again by id, not carried (issue 22 §1)."""
        session = self._session
        where = (session.state, session.rng.bit_generator.state, list(session.events), list(session.taken), list(self._undo))
        levels = {side: str(level) for side, level in self.ai.items()}
        made = (self.ruleset.id, self.scenario_text, self.source, self.seed, tuple(sorted(self.people)), self.lang, levels)
        return _restored, (made, where)

    # --- internals ------------------------------------------------------------------------------------------------

    def _pending_person_node(self) -> Decision:
        node = self._session.node
        if isinstance(node, Decision) and node.player in self.people:
            return node
        if isinstance(node, Terminal):
            raise IllegalChoice(None, "the battle is over")
        raise IllegalChoice(None, "no decision of yours is pending (call run() first)")

    def _replay(self, save: SaveFile, source: str, on_step: Callable[[Match, tuple[Event, ...]], None]) -> None:
        """Replay a loaded save's steps; an undo point is kept before each decision of a person."""
        session = self._session
        on_step(self, tuple(session.events))
        if save.format == SAVE_V1:
            self._replay_v1(save.decisions, source, on_step)
            return
        for k, rec in enumerate(save.steps, 1):
            node = session.node
            where = f"step {k}"
            if isinstance(node, Terminal):
                raise SaveFileError(source, f"{where}: the battle is already over, but the save has {len(save.steps) - k + 1} more steps")
            if rec.kind == "c":
                if not isinstance(node, Chance):
                    raise SaveFileError(source, f"{where}: the save has a roll, but {node.player} decides ({node.kind}) here")
                outcome = find_outcome(node.dist, rec.value)
                if outcome is None:
                    raise SaveFileError(source, f"{where} ({node.kind}): the recorded outcome cannot happen here (got {rec.value!r})")
                on_step(self, session.roll(outcome))
                continue
            if not isinstance(node, Decision):
                raise SaveFileError(source, f"{where}: the save has the decision {rec.value!r}, but the game rolls ({node.kind}) here")
            if node.player in self.people:
                self._undo.append(session.snapshot())
            try:
                events = session.choose_notation(rec.value)
            except KessenError as error:
                raise SaveFileError(source, f"{where} ({node.kind} by {node.player}): {rec.value!r} does not replay: {error}") from None
            on_step(self, events)

    def _replay_v1(self, decisions: tuple[int, ...], source: str, on_step: Callable[[Match, tuple[Event, ...]], None]) -> None:
        session = self._session
        for k, index in enumerate(decisions, 1):
            node = self._settle_v1(on_step)
            if not isinstance(node, Decision) or index >= len(node.options):
                raise SaveFileError(source, f"decision {k}: does not replay (option {index + 1} is not an option here)")
            if node.player in self.people:
                self._undo.append(session.snapshot())
            on_step(self, session.choose(node.options[index]))
        if decisions:
            self._settle_v1(on_step)

    def _settle_v1(self, on_step: Callable[[Match, tuple[Event, ...]], None]) -> Node:
        """The node of the next decision a kessen-save/1 file recorded (or the end): the rolls on the way, and the
        decisions the engine asks only since (``Ruleset.new_since_v1``) given their first option, as that engine did,
        also after the file's last decision: its battle went on that way."""
        session, since_v1 = self._session, self.ruleset.new_since_v1
        node = session.node
        while isinstance(node, Chance) or (isinstance(node, Decision) and since_v1(node)):
            on_step(self, session.roll() if isinstance(node, Chance) else session.choose(node.options[0]))
            node = session.node
        return node


def _restored(made: tuple[Any, ...], where: tuple[Any, ...]) -> Match:
    """The match :meth:`Match.__reduce__` describes."""
    ruleset_id, text, source, seed, people, lang, levels = made
    match = Match(get_ruleset(ruleset_id), text, source, seed=seed, people=people, lang=lang, ai=levels)
    session = match._session
    session.state, session.rng.bit_generator.state, session.events, session.taken, match._undo = where
    return match


_LOADED: dict[tuple[str, str, str], Any] = {}


def _initial_state(ruleset: Ruleset, text: str, source: str) -> Any:
    """A scenario loaded and validated once, however many matches start from it (states are frozen, so they share
    it); the last few scenarios are kept."""
    key = (ruleset.id, text, source)
    state = _LOADED.get(key)
    if state is None:
        state = ruleset.game.load_scenario(text, source)
        if len(_LOADED) >= 16:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = state
    return state
