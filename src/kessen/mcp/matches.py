"""The matches one ``kessen mcp`` server holds, by id, in memory: a bounded number, the least recently used dropped
first. They end with the server (a match to keep is saved from Python or played with ``kessen play``)."""

from __future__ import annotations

import itertools
from collections import OrderedDict

from kessen.core.errors import InputError
from kessen.match import Match

MAX_MATCHES = 32
"""[DECISION] The matches a server holds at once: an assistant plays one or a few; opening the 33rd drops the one
used least recently, whose id then answers "no such match"."""


class Matches:
    """Matches by id (``m1``, ``m2``, ...: never reused while the server runs)."""

    def __init__(self, limit: int = MAX_MATCHES) -> None:
        self.limit = limit
        self._held: OrderedDict[str, Match] = OrderedDict()
        self._ids = itertools.count(1)

    def add(self, match: Match) -> str:
        match_id = f"m{next(self._ids)}"
        self._held[match_id] = match
        while len(self._held) > self.limit:
            self._held.popitem(last=False)
        return match_id

    def get(self, match_id: str) -> Match:
        match = self._held.get(match_id)
        if match is None:
            raise InputError("match", match_id, f"no such match (open_match opens one; the server holds the {self.limit} used most recently)")
        self._held.move_to_end(match_id)
        return match
