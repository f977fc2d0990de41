"""The Gymnasium single-agent environment: one side is the agent, the others are played by an AI level (``greedy``,
``search``, ``search:N``, ``random``, a plug-in path) or by any Decider given (issue 25 §1)."""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from kessen.ai.levels import decider, parse_level
from kessen.core.decisions import Decider
from kessen.core.errors import InputError
from kessen.envs.aec import observation_space
from kessen.envs.episode import Episode


MOST_SKIPPED = 100
"""[DECISION] A battle that ends before the agent's side decides anything (a hero that wins in the first turn) is no
episode for the agent: ``reset`` plays on to the next battle of the stream, at most this many times."""


class KessenGym(gymnasium.Env[dict[str, Any], np.int64]):
    """A battle of *scenario* played as *side* against *opponent* (see :func:`kessen.envs.gym_env`).

    [DECISION] An action outside the mask plays the decision's first suggested option (the ruleset's default
    policy's choice) and says so in the step's info (``illegal_action``), so that an algorithm that ignores the mask
    still plays whole legal battles; the PettingZoo environment refuses it with a ValueError instead."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenario: str | os.PathLike[str], *, side: str | None = None, opponent: str | Decider = "greedy",
                 seed: int = 0, points: bool = True, shaping: float = 0.0, max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        self.episode = Episode(scenario, seed=seed, points=points, shaping=shaping)
        sides = self.episode.sides
        self.side = sides[0] if side is None else side
        if self.side not in sides:
            raise InputError("side", side, f"not a side of this scenario (its sides are {', '.join(sides)})")
        if isinstance(opponent, str):
            parse_level(opponent, "opponent")
        elif not callable(getattr(opponent, "decide", None)):
            raise InputError("opponent", opponent, "must be an AI level or an object with decide(state, decision)")
        self.opponent = opponent
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = observation_space(self.episode.layout)
        self.action_space = spaces.Discrete(self.episode.layout.actions)
        self._deciders = self._make_deciders()

    def _make_deciders(self) -> dict[str, Decider]:
        game, sides = self.episode.game, self.episode.sides
        others = [s for s in sides if s != self.side]
        if not isinstance(self.opponent, str):
            return {s: self.opponent for s in others}
        level = parse_level(self.opponent, "opponent")
        return {s: decider(level, game, s, self.episode.seed, side_index=sides.index(s)) for s in others}

    def _play_others(self) -> None:
        """The opponents' decisions until the agent's or the end."""
        episode = self.episode
        while (decision := episode.decision) is not None and decision.player != self.side:
            episode.apply(self._deciders[decision.player].decide(episode.position.state, decision))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.episode.reset(seed)
        if seed is not None:
            self._deciders = self._make_deciders()
        self._play_others()
        for _ in range(MOST_SKIPPED):
            if self.episode.terminal is None:
                break
            self.episode.reset()
            self._play_others()
        else:
            raise ValueError(f"side: {self.side} never decided in {MOST_SKIPPED} battles: the opponent ends them first")
        self._worth = self.episode.worth()
        return self.episode.observe(self.side), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        episode = self.episode
        legal = episode.menu.is_legal(int(action))
        episode.act(int(action) if legal else 0)
        self._play_others()
        reward = 0.0
        worth = episode.worth()
        if worth:
            reward += episode.shaping * (worth[self.side] - self._worth[self.side])
            self._worth = worth
        terminated = episode.terminal is not None
        if terminated:
            reward += episode.outcome()[self.side]
        truncated = not terminated and self.max_steps is not None and episode.steps >= self.max_steps
        return episode.observe(self.side), reward, terminated, truncated, {} if legal else {"illegal_action": int(action)}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as sb3-contrib's MaskablePPO asks for them."""
        return self.episode.observe(self.side)["action_mask"].astype(bool)

    def notation(self, action: int) -> str:
        """The notation *action* stands for at the agent's current decision."""
        return self.episode.menu.notation(int(action))

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.episode.show()
        return None
