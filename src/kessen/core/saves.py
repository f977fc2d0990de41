"""Save files: a game as its scenario, its seed, and every step taken, with a checksum against damage.

``kessen-save/2`` writes each decision in its notation and each chance outcome as it was drawn, with the kessen
version, the sides a person plays and the language, so a save replays after any refactor that keeps the rules:
resuming replays the recorded outcomes and checks each recorded decision is still legal. ``kessen-save/1`` (the
decisions as option indices, chance drawn again from the seed) still loads.

A save is the record of a game, as a chess PGN is: anyone may read it, and anyone may write one. Its checksum is a
plain SHA-256 of its canonical body, a guard against damage (a truncated copy, a stray edit, a disk error), not a
seal: whoever edits a save can compute the checksum again. Nothing needs a seal, since resuming replays every step
through the referee: a save that was edited is refused like any other whose steps break the rules, and one whose
steps are all legal is simply another game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Literal

from kessen.core.errors import SaveFileError
from kessen.core.records import record

SAVE_V1 = "kessen-save/1"
SAVE_V2 = "kessen-save/2"


@record
class Recorded:
    """One recorded step: a decision's notation (``"d"``) or a chance outcome as drawn (``"c"``)."""

    kind: Literal["d", "c"]
    value: Any

    def to_json(self) -> list[Any]:
        return [self.kind, self.value]


@record
class SaveFile:
    """A loaded save. Version 2 has ``steps``; version 1 has ``decisions`` (option indices) instead."""

    format: str
    ruleset: str
    scenario_source: str
    scenario: str
    seed: int
    people: tuple[str, ...] = ()
    lang: str = "en"
    kessen: str = ""
    steps: tuple[Recorded, ...] = ()
    decisions: tuple[int, ...] = ()
    ai: tuple[tuple[str, str], ...] = ()
    """The AI level of each side the machine played (a save before issue 23 has none: they played greedy)."""


def dumps(save: SaveFile) -> str:
    """The text of a version 2 save file (JSON, one step a line, a checksum over the canonical body)."""
    body = {
        "format": SAVE_V2,
        "kessen": save.kessen,
        "ruleset": save.ruleset,
        "scenario_source": save.scenario_source,
        "scenario": save.scenario,
        "seed": save.seed,
        "people": list(save.people),
        "lang": save.lang,
        **({"ai": dict(save.ai)} if save.ai else {}),
        "steps": [s.to_json() for s in save.steps],
    }
    head = {k: v for k, v in body.items() if k != "steps"}
    text = json.dumps({**head, "checksum": checksum(body)}, ensure_ascii=False, indent=1)
    # the steps go last, one a line, so that a long game stays readable and diffs well
    steps = ",\n".join("  " + json.dumps(s.to_json(), ensure_ascii=False, separators=(",", ":")) for s in save.steps)
    listed = f"[\n{steps}\n ]" if steps else "[]"
    return text.removesuffix("\n}") + f',\n "steps": {listed}\n}}\n'


def loads(data: Any, path: str) -> SaveFile:
    """A save read from its parsed JSON *data*, refusing one that is not a save, is damaged (its checksum does not
    match: cut short, or edited without writing the checksum again) or has a field of the wrong kind. Whether its
    steps are a legal game is the referee's to say, when it is replayed."""
    if not isinstance(data, dict) or data.get("format") not in (SAVE_V1, SAVE_V2):
        raise SaveFileError(path, f"not a kessen save file (format must be {SAVE_V2} or {SAVE_V1})")
    body = {k: v for k, v in data.items() if k != "checksum"}
    if data.get("checksum") != checksum(body):
        raise SaveFileError(path, "damaged save file (checksum does not match its contents)")
    common = dict(
        format=data["format"],
        ruleset=_field(data, "ruleset", str, path),
        scenario_source=_field(data, "scenario_source", str, path),
        scenario=_field(data, "scenario", str, path),
        seed=_seed(data, path),
        people=tuple(_strings(data.get("people", []), "people", path)),
        lang=_field(data, "lang", str, path) if "lang" in data else "en",
        ai=_levels(data.get("ai", {}), path),
    )
    if data["format"] == SAVE_V1:
        decisions = data.get("decisions")
        if not isinstance(decisions, list) or not all(_is_int(d) and d >= 0 for d in decisions):
            raise SaveFileError(path, "field decisions must be a list of option numbers")
        return SaveFile(**common, decisions=tuple(decisions))
    return SaveFile(**common, kessen=_field(data, "kessen", str, path), steps=_steps(data.get("steps"), path))


def checksum(body: dict[str, Any]) -> str:
    """The SHA-256 of a save's body as canonical JSON: it finds damage, and proves nothing about who wrote it."""
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _steps(value: Any, path: str) -> tuple[Recorded, ...]:
    if not isinstance(value, list):
        raise SaveFileError(path, "field steps must be a list")
    steps = []
    for i, entry in enumerate(value):
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in ("d", "c")):
            raise SaveFileError(path, f"steps[{i}] must be [\"d\", notation] or [\"c\", outcome]")
        if entry[0] == "d" and not isinstance(entry[1], str):
            raise SaveFileError(path, f"steps[{i}]: a decision's notation must be a string")
        steps.append(Recorded(entry[0], entry[1]))
    return tuple(steps)


def _levels(value: Any, path: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise SaveFileError(path, "field ai must be a table of side name to AI level")
    return tuple(value.items())


def _field(data: dict[str, Any], key: str, kind: type, path: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveFileError(path, f"field {key} must be a {kind.__name__}")
    return value


def _seed(data: dict[str, Any], path: str) -> int:
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise SaveFileError(path, "field seed must be an integer from 0 to 2^64 - 1")
    return seed


def _strings(value: Any, key: str, path: str) -> Sequence[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SaveFileError(path, f"field {key} must be a list of side names")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
