"""Matches in play on the server: each kept in the store as its save file, and the last few in use kept as live
:class:`kessen.Match` objects, so a decision costs one step, not a replay of the whole battle.

The store is the truth: a match not held live (a restarted server, one evicted from memory) is replayed from its
save, to the same state, the same stream and the same undo points. Requests on one match are taken one at a time.

A match nobody plays (an AI battle) is played in the background, one after another on one thread, not inside the
request that asked for it (a large battle takes seconds): the request answers with its id at once, and the match is
``playing`` until the AI has played it to its end. One a stopped server left playing is played when it starts again
(to the same battle: it is seeded).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from kessen.ai.levels import AI, check_served
from kessen.core.errors import InputError, KessenError, SaveFileError
from kessen.io.files import parse_json
from kessen.match import Match
from kessen.web.errors import NotFound
from kessen.web.scenarios import Chosen
from kessen.web.store import MatchRecord, Room, Store

MATCH_ROOM = Room(limit=1_000, idle=7 * 24 * 3600.0)
"""[DECISION] The store keeps 1,000 matches. A new one first drops the finished match least recently touched, then an
unfinished one nobody has touched for a week; when all 1,000 are unfinished and in use, a new match is refused (429)."""

LIVE_MATCHES = 32
"""How many matches are held live in memory (the ones played most recently)."""

AI_PLAYING = 16
"""[DECISION] AI battles that may wait or be played in the background at once; the next is refused (429) until one
ends (as simulations: :data:`kessen.web.simulations.WAITING`)."""

_log = logging.getLogger("kessen.web")


class UnknownMatch(NotFound):
    """A match id the store does not hold (never made, or dropped to make room)."""

    def __init__(self, match_id: str) -> None:
        super().__init__("match", match_id, "no such match (it may have been finished long ago and dropped)")


class StillPlaying(InputError):
    """A match the AI is still playing in the background: it cannot be changed or replayed yet (409)."""

    status = 409

    def __init__(self, match_id: str) -> None:
        super().__init__("match", match_id, "the AI is still playing this battle; ask again once its status is no longer playing")


class Matches:
    """The matches of one store, and the thread that plays AI battles in the background."""

    def __init__(self, store: Store, *, room: Room = MATCH_ROOM, live: int = LIVE_MATCHES) -> None:
        self.store, self.room, self.live = store, room, live
        self._live: OrderedDict[str, Match] = OrderedDict()
        self._guard = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._player: threading.Thread | None = None

    def start(self, chosen: Chosen, *, seed: int, people: Iterable[str], lang: str, ai: AI = None) -> str:
        """A new match; its id. With people, the AI sides play here until a person must decide (or the battle ends);
        without, the whole battle is played in the background."""
        return self._go_on(Match(chosen.ruleset, chosen.text, chosen.source, seed=seed, people=people, lang=lang, ai=ai))

    def resume(self) -> None:
        """Play the AI battles a stopped server left unplayed."""
        for match_id in self.store.playing_matches():
            self._play(match_id)

    def stop(self) -> None:
        """Play no more AI battles (one in play is left to the next start)."""
        self._queue.put(None)

    def _play(self, match_id: str) -> None:
        with self._guard:
            if self._player is None:
                self._player = threading.Thread(target=self._work, name="kessen-ai-battles", daemon=True)
                self._player.start()
        self._queue.put(match_id)

    def _work(self) -> None:
        while (match_id := self._queue.get()) is not None:
            record = self.store.match(match_id)
            if record is None or not record.playing:
                continue
            try:
                match = Match.loads(parse_json(record.save, "match"), "match")
                match.run()
            except Exception:  # a fault of the engine: in the log; the match stays playing until a kessen that plays it
                _log.exception("AI battle %s failed", match_id)
                continue
            if self.store.update_match(match_id, save=match.dumps(), finished=match.result is not None):
                self._hold(match_id, match)

    def playing_view(self, match_id: str) -> dict[str, Any] | None:
        """What a match the AI is still playing shows (its request, status ``playing``), or None when it is not."""
        record = self.store.match(match_id)
        if record is None:
            raise UnknownMatch(match_id)
        if not record.playing:
            return None
        match = Match.loads(parse_json(record.save, "match"), "match")  # the start: nothing is played here
        return {
            "id": match_id, "status": "playing", "ruleset": record.ruleset, "scenario": match.source, "seed": record.seed,
            "sides": list(match.sides), "people": [], "lang": match.lang, "ai": {side: str(level) for side, level in match.ai.items()},
        }

    def load(self, text: str, source: str = "save") -> str:
        """A new match from a save file's text, replayed to where it was saved; its id. It goes on as :meth:`start`'s
        do: an AI battle not over yet is played to its end in the background."""
        data = parse_json(text, source)
        if isinstance(data, dict):
            try:
                check_served(data.get("ai"))
            except InputError as error:
                raise SaveFileError(source, f"{error.field}: {error.reason} (got {error.value!r})") from None
        return self._go_on(Match.loads(data, source))

    def _go_on(self, match: Match) -> str:
        if match.people or match.result is not None:
            match.run()
            return self.keep_new(match)
        record = self.store.add_match(
            ruleset=match.ruleset.id, scenario=match.scenario_text, seed=match.seed, people=(), save=match.dumps(),
            room=self.room, playing=AI_PLAYING,
        )
        self._play(record.id)
        return record.id

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
        """The match's save file as kept in the store (once the AI has played it, for an AI battle)."""
        return self._record(match_id).save

    def _record(self, match_id: str) -> MatchRecord:
        record = self.store.match(match_id)
        if record is None:
            raise UnknownMatch(match_id)
        if record.playing:
            raise StillPlaying(match_id)
        return record

    def _open(self, match_id: str) -> Match:
        with self._guard:
            match = self._live.get(match_id)
            if match is not None:
                self._live.move_to_end(match_id)
                return match
        record = self._record(match_id)
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
