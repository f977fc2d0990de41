"""Playing a game to its end, and saving it as scenario + seed + decisions; loading refuses damage."""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.core.decisions import Decider
from kessen.core.engine import Chance, Decision, Game, Terminal
from kessen.core.errors import IllegalDecisionError, SaveFileError
from kessen.core.events import Event
from kessen.dice import draw, stream

SAVE_FORMAT = "kessen-save/1"


@dataclass
class Played:
    """A game as played so far: its state, events, the decisions taken (option indices) and its end."""

    state: Any
    events: list[Event] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    terminal: Terminal | None = None


def play(
    game: Game[Any],
    state: Any,
    deciders: Mapping[str, Decider],
    seed: int,
    *,
    replay: Iterable[int] = (),
    on_events: Callable[[tuple[Event, ...]], None] | None = None,
    max_steps: int = 1_000_000,
    record: Played | None = None,
) -> Played:
    """Run the game loop from *state*: draw at chance nodes with the game's one seeded stream, ask the
    player's Decider at decision nodes (first consuming the recorded *replay* indices), apply, repeat."""
    rng = stream(seed)
    pending = deque(replay)
    played = record if record is not None else Played(state)
    played.state = state
    for _ in range(max_steps):
        node = game.node(played.state)
        if isinstance(node, Terminal):
            played.terminal = node
            return played
        if isinstance(node, Chance):
            choice = draw(node.dist, rng)
        else:
            assert isinstance(node, Decision)
            if pending:
                index = pending.popleft()
                if not isinstance(index, int) or not 0 <= index < len(node.options):
                    raise IllegalDecisionError(index, node.what)
                choice = node.options[index]
            else:
                choice = deciders[node.player].decide(played.state, node)
                if choice not in node.options:
                    raise IllegalDecisionError(choice, node.what)
                index = node.options.index(choice)
            played.decisions.append(index)
        played.state, events = game.apply(played.state, choice)
        played.events.extend(events)
        if on_events is not None and events:
            on_events(events)
    raise RuntimeError(f"the game did not end within {max_steps} steps")


def save_text(ruleset: str, scenario_source: str, scenario_text: str, seed: int, decisions: list[int]) -> str:
    """A saved game: scenario text, seed and decisions, sealed with a checksum."""
    body = {
        "format": SAVE_FORMAT,
        "ruleset": ruleset,
        "scenario_source": scenario_source,
        "scenario": scenario_text,
        "seed": seed,
        "decisions": decisions,
    }
    return json.dumps({**body, "checksum": _checksum(body)}, ensure_ascii=False, indent=1) + "\n"


@dataclass(frozen=True)
class SavedGame:
    ruleset: str
    scenario_source: str
    scenario: str
    seed: int
    decisions: tuple[int, ...]


def load_save(text: str, path: str) -> SavedGame:
    """Read a saved game, refusing anything damaged or truncated (never half-loaded)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError(path, f"damaged or truncated save file ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(path, f"not a kessen save file (format must be {SAVE_FORMAT})")
    body = {k: v for k, v in data.items() if k != "checksum"}
    if data.get("checksum") != _checksum(body):
        raise SaveFileError(path, "damaged save file (checksum does not match its contents)")
    try:
        saved = SavedGame(
            ruleset=_typed(data, "ruleset", str),
            scenario_source=_typed(data, "scenario_source", str),
            scenario=_typed(data, "scenario", str),
            seed=_typed(data, "seed", int),
            decisions=tuple(_typed_list(data, "decisions")),
        )
    except TypeError as error:
        raise SaveFileError(path, str(error)) from None
    return saved


def _typed(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"field {key} must be {kind.__name__}")
    return value


def _typed_list(data: dict[str, Any], key: str) -> list[int]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"field {key} must be a list of integers")
    return value


def _checksum(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
