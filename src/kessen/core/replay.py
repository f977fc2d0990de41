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
from kessen.core.errors import IllegalDecisionError, InputError, SaveFileError
from kessen.core.events import Event
from kessen.dice import draw, stream
from kessen.io.files import parse_json  # every file kind is read the same bounded way

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


def save_text(
    ruleset: str, scenario_source: str, scenario_text: str, seed: int, decisions: list[int], *,
    people: tuple[str, ...] = (), lang: str = "en",
) -> str:
    """A saved game: scenario text, seed, decisions, the sides a person plays and the language, sealed with a
    checksum."""
    body = {
        "format": SAVE_FORMAT,
        "ruleset": ruleset,
        "scenario_source": scenario_source,
        "scenario": scenario_text,
        "seed": seed,
        "decisions": decisions,
        "people": list(people),
        "lang": lang,
    }
    return seal(body)


def seal(body: dict[str, Any]) -> str:
    """A save file's text: *body* with its checksum (anything else in the body is what the checksum covers)."""
    body = {k: v for k, v in body.items() if k != "checksum"}
    return json.dumps({**body, "checksum": _checksum(body)}, ensure_ascii=False, indent=1) + "\n"


@dataclass(frozen=True)
class SavedGame:
    """A save file's contents. ``people`` (the sides a person plays) and ``lang`` default to none and ``en`` for
    the saves written before they were recorded (still ``kessen-save/1``)."""

    ruleset: str
    scenario_source: str
    scenario: str
    seed: int
    decisions: tuple[int, ...]
    people: tuple[str, ...] = ()
    lang: str = "en"


MAX_SEED = 2**64 - 1


def load_save(text: str | bytes, path: str) -> SavedGame:
    """Read a saved game, refusing anything damaged, truncated or out of bounds with :class:`SaveFileError`
    naming *path* (never half-loaded)."""
    try:
        data = parse_json(text, path)
    except InputError as error:
        found = str(error).removeprefix(f"{path}: ")
        raise SaveFileError(path, f"damaged or truncated save file ({found})" if error.field == path else found) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(path, f"not a kessen save file (format must be {SAVE_FORMAT})")
    if data.get("checksum") != _checksum({k: v for k, v in data.items() if k != "checksum"}):
        raise SaveFileError(path, "damaged save file (checksum does not match its contents)")
    seed = _typed(data, "seed", int, path)
    if not 0 <= seed <= MAX_SEED:
        raise SaveFileError(path, f"seed: must be from 0 to {MAX_SEED} (got {seed})")
    decisions = _typed(data, "decisions", list, path)
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in decisions):
        raise SaveFileError(path, "decisions: must be a list of option numbers (integers ≥ 0)")
    people = _typed(data, "people", list, path, default=[])
    if not all(isinstance(side, str) for side in people):
        raise SaveFileError(path, "people: must be a list of side names")
    return SavedGame(
        ruleset=_typed(data, "ruleset", str, path),
        scenario_source=_typed(data, "scenario_source", str, path),
        scenario=_typed(data, "scenario", str, path),
        seed=seed,
        decisions=tuple(decisions),
        people=tuple(people),
        lang=_typed(data, "lang", str, path, default="en"),
    )


_MISSING: Any = object()
_KINDS = {str: "a string", int: "an integer", list: "a list"}


def _typed(data: dict[str, Any], key: str, kind: type, path: str, default: Any = _MISSING) -> Any:
    if key not in data and default is not _MISSING:
        return default
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveFileError(path, f"{key}: must be {_KINDS[kind]}")
    return value


def _checksum(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
