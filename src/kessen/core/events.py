"""Typed game events: frozen values with a ``type``, written as JSON lines and narrated from catalogues."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar

from kessen.core.records import record


@record
class Event:
    """Base of every event; subclasses set ``type`` and hold only JSON scalars and tuples of them."""

    type: ClassVar[str] = "event"

    def fields(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.fields()}


def to_json_line(event: Event) -> str:
    """One event as one JSON line, keys in a fixed order (byte-identical on replay)."""
    return json.dumps(event.to_json_dict(), ensure_ascii=False, separators=(",", ":"))


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 3)
    return value
