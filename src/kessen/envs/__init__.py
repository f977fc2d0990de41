"""Environments for game-AI research over the public game tree (issue 25 §1): PettingZoo, Gymnasium, OpenSpiel.

    from kessen.envs import aec_env, gym_env, openspiel_game
    env = aec_env("examples/song-of-blades/hero-against-mob.toml", seed=7)            # PettingZoo AEC: the sides
    env = gym_env("examples/song-of-blades/hero-against-mob.toml", side="Goblins", opponent="greedy")
    game = openspiel_game("examples/song-of-blades/hero-against-mob.toml")             # pyspiel.Game

``pip install 'kessen[rl]'`` brings PettingZoo, Gymnasium and OpenSpiel. The modules:

    layout.py      the observation arrays and the action space of a ruleset (Layout, Encoder)
    menu.py        the actions of one decision: option or candidate point → choice and notation, the mask
    episode.py     one battle action by action: chance drawn from the seeded stream, observations, rewards
    aec.py         the PettingZoo AEC environment        gym.py   the Gymnasium single-agent wrapper
    openspiel.py   the OpenSpiel Python game (python_kessen)
    song_of_blades.py, battlehost.py, legions.py, armies_clash.py   each ruleset's Layout

Nothing here holds a rule: the game tree (:class:`kessen.ai.tree.Position`) plays, the board data
(``Game.board``) is observed, and every action is a suggested option or a notation the ruleset's ``parse`` accepted.
docs/envs.md gives the layouts.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kessen.core.decisions import Decider
    from kessen.envs.aec import KessenAEC
    from kessen.envs.gym import KessenGym
    from kessen.envs.openspiel import KessenGame

__all__ = ["aec_env", "gym_env", "openspiel_game"]


def aec_env(scenario: str | os.PathLike[str], *, seed: int = 0, points: bool = True, shaping: float = 0.0,
            max_steps: int | None = None, render_mode: str | None = None) -> KessenAEC:
    """A PettingZoo AEC environment of *scenario*'s battle: the agents are its sides. *points* offers the grid of
    candidate points at free moves beside the suggested options; *shaping* weighs the change of the ruleset's own
    evaluation added to the win (1) / draw (0) / loss (-1) at the end; *max_steps* truncates."""
    from kessen.envs.aec import KessenAEC

    return KessenAEC(scenario, seed=seed, points=points, shaping=shaping, max_steps=max_steps, render_mode=render_mode)


def gym_env(scenario: str | os.PathLike[str], *, side: str | None = None, opponent: str | Decider = "greedy",
            seed: int = 0, points: bool = True, shaping: float = 0.0, max_steps: int | None = None,
            render_mode: str | None = None) -> KessenGym:
    """A Gymnasium environment of *scenario*'s battle played as *side* (the first side by default) against
    *opponent*: an AI level (``greedy``, ``search``, ``search:N``, ``random``, ``package.module:Name``) or a Decider."""
    from kessen.envs.gym import KessenGym

    return KessenGym(scenario, side=side, opponent=opponent, seed=seed, points=points, shaping=shaping,
                     max_steps=max_steps, render_mode=render_mode)


def openspiel_game(scenario: str | os.PathLike[str], *, points: bool = True) -> KessenGame:
    """*scenario*'s battle as an OpenSpiel game (see :mod:`kessen.envs.openspiel`)."""
    from kessen.envs.openspiel import openspiel_game as made

    return made(scenario, points=points)
