"""A scenario as an OpenSpiel Python game (issue 25 §1): explicit chance nodes with their exact probabilities, the
ruleset's fixed action space with its legal actions, an observation tensor, serialize and deserialize; so OpenSpiel's
own algorithms (MCTS, expectiminimax, random rollouts) play it.

    game = kessen.envs.openspiel_game("examples/song-of-blades/hero-against-mob.toml")
    state = game.new_initial_state()      # also pyspiel.load_game("python_kessen", {"scenario": path})

Players are the scenario's sides in its order (0, 1). A chance action is the index of an outcome in the node's
exact distribution (:meth:`KessenState.chance_fractions` gives the probabilities as fractions; OpenSpiel's own
``chance_outcomes`` the same as floats). A decision's actions are those of the ruleset's layout
(:mod:`kessen.envs.layout`); the observation tensor is the layout's ``models``, ``board`` and ``decision`` arrays,
flattened in that order. Returns: 1 a win, -1 a loss, 0 a draw. Serialization is OpenSpiel's: the game string (the
scenario's path) and the actions played, replayed on load.
"""

from __future__ import annotations

import functools
import os
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from kessen.ai.tree import Position
from kessen.core.board import Board
from kessen.core.engine import Chance, Decision, Game, Node, Terminal
from kessen.core.errors import InputError
from kessen.envs.episode import layout_of
from kessen.envs.layout import Encoder, Layout
from kessen.envs.menu import Menu
from kessen.io.scenarios import open_scenario
from kessen.rulesets import get_ruleset
from kessen.sim.play import initial_state

SHORT_NAME = "python_kessen"
MAX_GAME_LENGTH = 100_000
"""[DECISION] A bound on a battle's length in OpenSpiel actions (chance and decisions): every ruleset ends its
battles after a fixed number of rounds, far below it."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="kessen wargame scenario",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"scenario": "", "points": True},
)


@functools.lru_cache(maxsize=16)
def _scenario(path: str, points: bool) -> tuple[Game[Any], Any, Layout]:
    found = open_scenario(path)
    game = found.ruleset.game
    return game, initial_state(game, found.text, path), layout_of(found.ruleset.id, points=points)


class KessenGame(pyspiel.Game):  # type: ignore[misc]
    """A scenario file's battle as an OpenSpiel game; *params* ``{"scenario": path}``, and ``"points": False`` for
    the suggested options alone as the actions."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        path = str((params or {}).get("scenario", ""))
        points = bool((params or {}).get("points", True))
        if not path:
            raise InputError("scenario", path, "give the path of a scenario file: {\"scenario\": path}")
        game, start, layout = _scenario(path, points)
        self.path, self.kessen_game, self.layout = path, game, layout
        self.start = Position.start(game, start)
        self.sides = self.start.sides
        if len(self.sides) != 2:
            raise InputError("scenario", path, f"has {len(self.sides)} sides: the OpenSpiel game takes two")
        self.encoder = Encoder(layout, game.board(self.start.state))
        shapes = layout.shapes()
        self.tensor_size = sum(int(np.prod(shapes[k])) for k in ("models", "board", "decision"))
        info = pyspiel.GameInfo(
            num_distinct_actions=layout.actions, max_chance_outcomes=layout.max_chance_outcomes, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {"scenario": path, "points": points})

    def new_initial_state(self) -> KessenState:
        return KessenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KessenObserver:
        return KessenObserver(self)


class _Here:
    """A state's position with what is worked out from it; immutable once made, so a clone shares it (OpenSpiel
    clones a Python state by deep-copying its attributes)."""

    __slots__ = ("position", "_board", "_menu", "layout")

    def __init__(self, position: Position[Any], layout: Layout) -> None:
        self.position, self.layout = position, layout
        self._board: Board | None = None
        self._menu: Menu | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Here:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, Any, bool]]:
        # OpenSpiel serializes a Python state by pickling its attributes: the game is found again by its ruleset.
        return _here, (self.position.game.ruleset, self.position.state, self.layout.points > 0)

    def board(self) -> Board:
        if self._board is None:
            self._board = self.position.game.board(self.position.state)
        return self._board

    def menu(self) -> Menu:
        if self._menu is None:
            decision = self.position.decision
            assert decision is not None
            self._menu = Menu(self.layout, self.position, decision, self.board)
        return self._menu


def _here(ruleset: str, state: Any, points: bool) -> _Here:
    return _Here(Position(get_ruleset(ruleset).game, state), layout_of(ruleset, points=points))


class KessenState(pyspiel.State):  # type: ignore[misc]
    """A position of the battle; it keeps the kessen state (a frozen value), so cloning it costs nothing."""

    def __init__(self, game: KessenGame) -> None:
        super().__init__(game)
        self.here = _Here(game.start, game.layout)
        self.sides = game.sides

    @property
    def position(self) -> Position[Any]:
        return self.here.position

    @property
    def node(self) -> Node:
        return self.here.position.node

    def board(self) -> Board:
        return self.here.board()

    def menu(self) -> Menu:
        return self.here.menu()

    def current_player(self) -> int:
        node = self.node
        if isinstance(node, Terminal):
            return int(pyspiel.PlayerId.TERMINAL)
        if isinstance(node, Chance):
            return int(pyspiel.PlayerId.CHANCE)
        return self.sides.index(node.player)

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.menu().mask)]

    def chance_fractions(self) -> list[tuple[int, Fraction]]:
        """Each chance action with its exact probability."""
        outcomes = self.position.outcomes()
        most = self.here.layout.max_chance_outcomes
        if len(outcomes) > most:
            raise ValueError(f"a chance node of {len(outcomes)} outcomes: the game declares at most {most}")
        return [(i, p) for i, (_outcome, p) in enumerate(outcomes)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, float(p)) for i, p in self.chance_fractions()]

    def _apply_action(self, action: int) -> None:
        if isinstance(self.node, Chance):
            choice = self.position.outcomes()[action][0]
        else:
            choice = self.menu().choice(action)
        self.here = _Here(self.position.apply(choice), self.here.layout)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{self.node.kind if isinstance(self.node, Chance) else 'chance'} #{action}"
        return self.menu().notation(action)

    def is_terminal(self) -> bool:
        return isinstance(self.node, Terminal)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        scores = self.position.scores()
        return [float(2 * scores[side] - 1) for side in self.sides]

    def __str__(self) -> str:
        return self.position.game.show(self.position.state, "en")


class KessenObserver:
    """The observation tensor of :class:`KessenState` (see the module's docstring); ``dict`` holds its views."""

    def __init__(self, game: KessenGame) -> None:
        self.game = game
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        shapes, at = game.layout.shapes(), 0
        for key in ("models", "board", "decision"):
            size = int(np.prod(shapes[key]))
            self.dict[key] = self.tensor[at : at + size].reshape(shapes[key])
            at += size

    def set_from(self, state: KessenState, player: int) -> None:
        encoder, side = self.game.encoder, self.game.sides[player]
        node, board = state.node, state.board()
        decision = node if isinstance(node, Decision) else None
        models, layers = encoder.encode(board, side, decision.actor if decision else "", state.menu().reach() if decision else ())
        self.dict["models"][...] = models
        self.dict["board"][...] = layers
        self.dict["decision"][...] = encoder.decision(decision, side)

    def string_from(self, state: KessenState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, KessenGame)


def openspiel_game(scenario: str | os.PathLike[str], *, points: bool = True) -> KessenGame:
    """The scenario file's battle as an OpenSpiel game (``pyspiel.load_game("python_kessen", {"scenario": ...})``)."""
    game: KessenGame = pyspiel.load_game(SHORT_NAME, {"scenario": os.fspath(scenario), "points": points})
    return game
