"""Playing one battle: the ruleset's AI for every side no other decider plays, from a seed."""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import Any

from kessen.core.engine import Game
from kessen.core.replay import Played, play
from kessen.rulesets import Ruleset


def play_battle(
    ruleset: Ruleset, text: str, source: str, seed: int, *, replay: tuple[int, ...] = (),
    deciders: dict[str, Any] | None = None, on_events: Callable[..., None] | None = None,
) -> Played:
    """One battle between the ruleset's AI sides (or the given deciders), from a seed."""
    state = initial_state(ruleset.game, text, source)
    return play_from(ruleset.game, state, seed, replay=replay, deciders=deciders, on_events=on_events)


def play_from(
    game: Game[Any], state: Any, seed: int, *, replay: tuple[int, ...] = (), deciders: dict[str, Any] | None = None,
    on_events: Callable[..., None] | None = None,
) -> Played:
    """One battle from an initial *state*: the ruleset's AI for every side that *deciders* does not name."""
    chosen = {side: game.ai(side) for side in game.sides(state)}
    chosen.update(deciders or {})
    return play(game, state, chosen, seed, replay=replay, on_events=on_events)


@functools.lru_cache(maxsize=8)
def initial_state(game: Game[Any], text: str, source: str) -> Any:
    """A scenario's initial state in *game*, read and validated once however many battles a process plays from it
    (issue 13 §1): states are frozen, so the battles share it, and what it works out on the way (a grid's move costs)
    too. A bad scenario raises each time (an error is not kept). The first one a process reads freezes what is alive
    then (:func:`freeze_what_lasts`)."""
    state = game.load_scenario(text, source)
    freeze_what_lasts()
    return state


@functools.cache
def freeze_what_lasts() -> None:
    """Once per process: every object alive now (the imported modules, the rule tables, the scenario read) is moved out
    of the garbage collector's generations (``gc.freeze``), so that a full collection walks only what the battles
    made since, not the 50,000-odd objects of the imports. Such a collection fell every 10–15 battles and took 20–30
    ms, a tenth of the time of a short battle (issue 13). Once only: what a process has alive later (a request being
    served, a battle's own values) stays collectable."""
    gc.freeze()
