"""One battle played action by action, the core of every environment (issue 25 §1): the scenario's game tree
(:class:`kessen.ai.tree.Position`), chance drawn inside from a seeded stream, the observation of any side, the
reward of the end (and optional shaping from the ruleset's own evaluation).

The same scenario, seed and actions give the same episode in any process: the draws come from one
:func:`kessen.dice.stream` seeded at ``reset``, and the game is pure.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from typing import Any

import numpy as np

from kessen.ai.levels import tactics_of
from kessen.ai.tree import Position
from kessen.core.board import Board
from kessen.core.engine import Chance, Decision, Game, Node, Terminal
from kessen.core.errors import InputError
from kessen.dice import Stream, draw, stream
from kessen.envs.layout import Encoder, Layout
from kessen.envs.menu import Menu
from kessen.io.scenarios import open_scenario
from kessen.rulesets import get_ruleset
from kessen.sim.play import initial_state

LAYOUTS = {
    "song-of-blades": "kessen.envs.song_of_blades",
    "battlehost": "kessen.envs.battlehost",
    "legions": "kessen.envs.legions",
    "armies-clash": "kessen.envs.armies_clash",
}


def layout_of(ruleset: str, *, points: bool = True) -> Layout:
    """The ruleset's layout; without *points*, its suggested options alone are the actions."""
    module = LAYOUTS.get(ruleset)
    if module is None:
        raise InputError("ruleset", ruleset, f"has no environment layout (the layouts are {', '.join(LAYOUTS)})")
    found: Layout = importlib.import_module(module).LAYOUT
    return found if points else dataclasses.replace(found, points=0)



class Episode:
    """A scenario's battle, one decision at a time. *scenario* is a scenario file's path; *points* offers the
    candidate points at free moves; *shaping* adds that weight times the change of the ruleset's evaluation
    (:meth:`kessen.core.tactics.Tactics.evaluate`, from -1 to 1) to each side's reward at every step."""

    def __init__(self, scenario: str | os.PathLike[str], *, seed: int = 0, points: bool = True, shaping: float = 0.0) -> None:
        found = open_scenario(os.fspath(scenario))
        self.scenario = os.fspath(scenario)
        self.ruleset = found.ruleset.id
        self._text = found.text
        self.points = points
        self.shaping = float(shaping)
        self.layout = layout_of(self.ruleset, points=points)
        self.game: Game[Any] = found.ruleset.game
        self._start = initial_state(self.game, found.text, self.scenario)
        self.sides: tuple[str, ...] = tuple(self.game.sides(self._start))
        self.seed = seed
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new battle; with a *seed*, the stream starts again from it, else it goes on (a new battle each time)."""
        if seed is not None:
            self.seed = seed
            self.rng: Stream = stream(seed)
        self.steps = 0
        self._settle(Position.start(self.game, self._start).state)
        kept: Encoder | None = getattr(self, "encoder", None)  # none yet on the first reset
        self.encoder = Encoder(self.layout, self.board) if kept is None else kept.again(self.board)

    def _settle(self, state: Any) -> None:
        """Draw every chance outcome from the stream, from *state* until a decision or the end: the position there
        and its node (what ``Position.apply`` and ``Position.node`` give, without a position at each chance)."""
        game = self.game
        node = game.node(state)
        while isinstance(node, Chance):
            state, _events = game.apply(state, draw(node.dist, self.rng))
            node = game.node(state)
        self.position: Position[Any] = Position(game, state)
        self._node: Node = node
        self._decision: Decision | None = node if isinstance(node, Decision) else None
        self._board: Board | None = None
        self._menu: Menu | None = None

    @property
    def node(self) -> Node:
        return self._node

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = self.game.board(self.position.state)
        return self._board

    @property
    def decision(self) -> Decision | None:
        return self._decision

    @property
    def terminal(self) -> Terminal | None:
        node = self.node
        return node if isinstance(node, Terminal) else None

    @property
    def menu(self) -> Menu:
        """The actions of the pending decision; a ValueError at the end."""
        if self._menu is None:
            decision = self.decision
            if decision is None:
                raise ValueError("the battle is over: no action is legal")
            self._menu = Menu(self.layout, self.position, decision, lambda: self.board)
        return self._menu

    def act(self, action: int) -> None:
        """Apply *action* at the pending decision, then draw the chance that follows."""
        menu = self._menu
        choice = (self.menu if menu is None else menu).choice(int(action))
        state, _events = self.game.apply(self.position.state, choice)
        self.steps += 1
        self._settle(state)

    def apply(self, choice: Any) -> None:
        """Apply a choice that is not an action (an AI's, a notation's), then draw the chance that follows."""
        self._settle(self.game.apply(self.position.state, choice)[0])

    def worth(self) -> dict[str, float]:
        """Each side's worth by the ruleset's own evaluation (shaping's measure), or nothing without shaping."""
        if not self.shaping:
            return {}
        tactics = tactics_of(self.game)
        return {side: tactics.evaluate(self.position.state, side) for side in self.sides}

    def outcome(self) -> dict[str, float]:
        """At the end: 1 a win, 0 a draw, -1 a loss."""
        return {side: float(2 * score - 1) for side, score in self.position.scores().items()}

    def observe(self, side: str) -> dict[str, np.ndarray]:
        """What *side* sees now (see :mod:`kessen.envs.layout`)."""
        decision = self.decision
        encoder, board = self.encoder, self.board
        if decision is None:
            mask = np.zeros(self.layout.actions, np.int8)
            models, layers = encoder.encode(board, side, "", ())
        else:
            menu = self.menu
            mask = menu.mask if decision.player == side else np.zeros(self.layout.actions, np.int8)
            models, layers = encoder.encode(board, side, decision.actor, menu.reach())
        return {
            "models": models,
            "board": layers,
            "decision": encoder.decision(decision, side),
            "action_mask": mask,
        }

    def show(self) -> str:
        """The board as text (the environments' ``render`` in ``ansi`` mode)."""
        return self.game.show(self.position.state, "en")

    def __getstate__(self) -> dict[str, Any]:
        kept = {k: v for k, v in self.__dict__.items() if k not in ("game", "position", "_start", "_node", "_decision", "_board", "_menu", "layout", "encoder")}
        return kept | {"state": self.position.state, "rows": self.encoder.rows}

    def __setstate__(self, kept: dict[str, Any]) -> None:
        state, rows = kept.pop("state"), kept.pop("rows")
        self.__dict__.update(kept)
        self.game = get_ruleset(self.ruleset).game
        self.layout = layout_of(self.ruleset, points=self.points)
        self._start = initial_state(self.game, self._text, self.scenario)
        self._settle(state)  # a settled state: no chance is drawn
        self.encoder = Encoder(self.layout, self.board, rows)
