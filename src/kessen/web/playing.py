"""Matches in play on the server: each kept in the store as its save file, and the last few in use kept as live
:class:`kessen.Match` objects, so a decision costs one step, not a replay of the whole battle.

The store is the truth: a match not held live (a restarted server, one evicted from memory) is replayed from its
save, to the same state, the same stream and the same undo points. Requests on one match are taken one at a time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from kessen.core.errors import KessenError, SaveFileError
from kessen.io.files import parse_json
from kessen.match import Match
from kessen.web.errors import NotFound
from kessen.web.scenarios import Chosen
from kessen.web.store import Room, Store

MATCH_ROOM = Room(limit=1_000, idle=7 * 24 * 3600.0)
"""[DECISION] The store keeps 1,000 matches. A new one first drops the finished match least recently touched, then an
unfinished one nobody has touched for a week; when all 1,000 are unfinished and in use, a new match is refused (429)."""

LIVE_MATCHES = 32
"""How many matches are held live in memory (the ones played most recently)."""


class UnknownMatch(NotFound):
    """A match id the store does not hold (never made, or dropped to make room)."""

    def __init__(self, match_id: str) -> None:
        super().__init__("match", match_id, "no such match (it may have been finished long ago and dropped)")


class Matches:
    """The matches of one store."""

    def __init__(self, store: Store, *, room: Room = MATCH_ROOM, live: int = LIVE_MATCHES) -> None:
        self.store, self.room, self.live = store, room, live
        self._live: OrderedDict[str, Match] = OrderedDict()
        self._guard = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]

    def start(self, chosen: Chosen, *, seed: int, people: Iterable[str], lang: str) -> str:
        """A new match: the AI sides play until a person must decide (or the battle ends); its id."""
        match = Match(chosen.ruleset, chosen.text, chosen.source, seed=seed, people=people, lang=lang)
        match.run()
        return self.keep_new(match)

    def load(self, text: str, source: str = "save") -> str:
        """A new match from a save file's text, replayed to where it was saved; its id."""
        match = Match.loads(parse_json(text, source), source)
        match.run()
        return self.keep_new(match)

    def keep_new(self, match: Match) -> str:
        """Keep a match that was made here, the store first; its id."""
        record = self.store.add_match(
            ruleset=match.ruleset.id, scenario=match.scenario_text, seed=match.seed,
            people=tuple(s for s in match.sides if s in match.people), save=match.dumps(), finished=match.result is not None,
            room=self.room,
        )
        self._hold(record.id, match)
        return record.id

    @contextmanager
    def using(self, match_id: str, *, change: bool = False) -> Iterator[Match]:
        """The live match *match_id*, for one request at a time. With *change*, what the request did is written to
        the store when it ends well; when it fails with anything but a refusal (which changes nothing), the live
        match is forgotten, to be replayed from the store next time."""
        with self._locks[hash(match_id) % len(self._locks)]:
            match = self._open(match_id)
            try:
                yield match
            except KessenError:
                raise
            except BaseException:
                self._forget(match_id)
                raise
            if change and not self.store.update_match(match_id, save=match.dumps(), finished=match.result is not None):
                self._forget(match_id)
                raise UnknownMatch(match_id)

    def save_text(self, match_id: str) -> str:
        """The match's save file as kept in the store."""
        record = self.store.match(match_id)
        if record is None:
            raise UnknownMatch(match_id)
        return record.save

    def _open(self, match_id: str) -> Match:
        with self._guard:
            match = self._live.get(match_id)
            if match is not None:
                self._live.move_to_end(match_id)
                return match
        record = self.store.match(match_id)
        if record is None:
            raise UnknownMatch(match_id)
        try:
            match = Match.loads(parse_json(record.save, "match"), "match")
        except SaveFileError as error:
            raise SaveFileError("match", f"the kept match {match_id} no longer replays with this kessen: {error.reason}") from None
        match.run()
        self._hold(match_id, match)
        return match

    def _hold(self, match_id: str, match: Match) -> None:
        with self._guard:
            self._live[match_id] = match
            self._live.move_to_end(match_id)
            while len(self._live) > self.live:
                self._live.popitem(last=False)

    def _forget(self, match_id: str) -> None:
        with self._guard:
            self._live.pop(match_id, None)
