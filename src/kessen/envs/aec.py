"""The PettingZoo AEC environment: the agents are the scenario's sides, each acting at its own decisions; chance is
drawn inside ``step`` from the seeded stream (issue 25 §1)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kessen.envs.episode import Episode
from kessen.envs.layout import Layout


def observation_space(layout: Layout) -> spaces.Dict:
    """The observation space of a ruleset's layout (every scenario of it)."""
    shapes = layout.shapes()
    return spaces.Dict({
        "models": spaces.Box(-np.inf, np.inf, shapes["models"], np.float32),
        "board": spaces.Box(0.0, 1.0, shapes["board"], np.float32),
        "decision": spaces.Box(0.0, 1.0, shapes["decision"], np.float32),
        "action_mask": spaces.Box(0, 1, shapes["action_mask"], np.int8),
    })


class KessenAEC(AECEnv):  # type: ignore[misc]
    """A battle of *scenario* as a PettingZoo AEC environment (see :func:`kessen.envs.aec_env`)."""

    metadata = {"name": "kessen_v0", "render_modes": ["ansi"], "is_parallelizable": False}
    agent_selection: str

    def __init__(self, scenario: str | os.PathLike[str], *, seed: int = 0, points: bool = True, shaping: float = 0.0,
                 max_steps: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.episode = Episode(scenario, seed=seed, points=points, shaping=shaping)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = list(self.episode.sides)
        layout = self.episode.layout
        self._observation_space = observation_space(layout)
        self._action_space = spaces.Discrete(layout.actions)
        self._begin()

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def _begin(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._worth = self.episode.worth()
        self._after_step()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new battle: from *seed*'s stream, or the stream going on."""
        self.episode.reset(seed)
        self._begin()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.episode.observe(agent)

    def step(self, action: Any) -> None:
        """The current agent's *action* (an index of the action space; None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        episode = self.episode
        episode.act(int(action))
        self.rewards = rewards = dict.fromkeys(self.agents, 0.0)
        if episode.shaping:
            worth = episode.worth()
            for side, value in worth.items():
                rewards[side] += episode.shaping * (value - self._worth[side])
            self._worth = worth
        decision = episode.decision
        if decision is None:  # the end: the node is terminal
            for side, value in episode.outcome().items():
                rewards[side] += value
            self.terminations = {a: True for a in self.agents}
        elif self.max_steps is not None and episode.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
            decision = None
        for side, value in rewards.items():  # AECEnv._accumulate_rewards
            cumulative[side] += value
        if decision is not None:  # _after_step, the battle going on
            self.agent_selection = decision.player
        else:
            self._after_step()

    def _after_step(self) -> None:
        decision = self.episode.decision
        if decision is not None and not any(self.terminations.values()) and not any(self.truncations.values()):
            self.agent_selection = decision.player
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def notation(self, action: int) -> str:
        """The notation *action* stands for at the current decision (``kessen.Match.choose`` takes it)."""
        return self.episode.menu.notation(int(action))

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.episode.show()
        return None

    def close(self) -> None:
        pass
