"""The advisor on the web page (issue 23 §3): each option's chance to win and to draw at a person's pending
decision, worked out by :meth:`kessen.Match.advise` in the background, one request after another on one thread,
never inside the request that asked for it; its progress is counted in playouts, and it may be cancelled.

The advice is of the position where it was asked: the match's save at that moment is replayed on the advisor's
thread (the live match goes on meanwhile), so a decision the person makes meanwhile changes nothing of it.
[DECISION] Advice is kept in memory only (a restarted server has none: the page asks again), at most
:data:`ADVICE_KEPT` of them, and a new request for a match cancels the one it still has waiting or running: a page
asks about one position at a time.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from kessen.ai.advisor import Chances
from kessen.ai.levels import AI, DEFAULT, check_served, parse_ai
from kessen.core.errors import InputError, KessenError, error_line
from kessen.io.files import parse_json
from kessen.match import Match
from kessen.web.errors import NotFound
from kessen.web.playing import Matches

ADVICE_PLAYOUTS = 1_000
"""[DECISION] The most playouts per option one request may ask for: with 20-odd options, minutes of work for the
largest shipped scenarios on one core (the command line's ``advise`` takes up to 100,000)."""

DEFAULT_PLAYOUTS = 100
"""The playouts per option when a request names none (as ``advise`` at the ``kessen play`` prompt)."""

ADVICE_SECONDS = 300.0
"""[DECISION] The running time one request for advice may take: five minutes (its wait in the queue does not count).
The playouts bound the work, but a playout of ``search:20000`` on both sides is a whole battle of long decisions;
advice out of time ends as ``stopped``, with no chances (an option half played out says nothing), and the page says
to ask with fewer playouts."""

ADVICE_WAITING = 8
"""Requests for advice that may wait or be worked out at once; the next is refused (429) until one ends."""

ADVICE_KEPT = 64
"""Advice kept to be read; the oldest that has ended is dropped first."""

AdviceStatus = Literal["queued", "running", "done", "cancelled", "stopped", "failed"]
_ACTIVE = ("queued", "running")
_log = logging.getLogger("kessen.web")


class UnknownAdvice(NotFound):
    """An advice id this server does not hold for the match (never asked, dropped, or asked before a restart)."""

    def __init__(self, advice_id: str) -> None:
        super().__init__("advice", advice_id, "no such advice for this match (it may have been dropped: ask again)")


class NothingToAdvise(InputError):
    """A match whose next decision is no person's (it is over, or the AI plays every side): 409."""

    status = 409


class AdviceEnded(InputError):
    """Advice that has ended cannot be cancelled: 409."""

    status = 409


class TooMuchAdvice(KessenError):
    """As many requests for advice as may wait are waiting already: 429."""

    status = 429

    def __init__(self, limit: int) -> None:
        super().__init__(f"advice: the server works out at most {limit} at a time; try again once one has ended")


class _Halted(Exception):
    """The advice in work stops here: it was cancelled, or the server is stopping."""


class _OutOfTime(Exception):
    """The advice in work has run for :data:`ADVICE_SECONDS`."""


@dataclass
class Advice:
    """One request for advice and what has come of it so far (changed under the advisor's lock only)."""

    id: str
    match_id: str
    save: str
    playouts: int
    ai: str | dict[str, str]
    player: str
    prompt: str
    total: int
    status: AdviceStatus = "queued"
    done: int = 0
    chances: list[Chances] | None = None
    error: str | None = None


class Advisor:
    """The advice asked of one server's matches, worked out on one background thread."""

    def __init__(
        self, matches: Matches, *, waiting: int = ADVICE_WAITING, kept: int = ADVICE_KEPT, seconds: float = ADVICE_SECONDS
    ) -> None:
        self.matches, self.waiting, self.kept, self.seconds = matches, waiting, kept, seconds
        self._advice: OrderedDict[str, Advice] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def ask(self, match_id: str, *, playouts: int = DEFAULT_PLAYOUTS, ai: AI = None) -> Advice:
        """Advice on the pending decision of *match_id* with *playouts* per option and *ai* playing on (by default
        the level of the match's first AI side, as :meth:`kessen.Match.advise`); queued, its record returned."""
        if isinstance(playouts, bool) or not 1 <= playouts <= ADVICE_PLAYOUTS:
            raise InputError("playouts", playouts, f"must be a whole number from 1 to {ADVICE_PLAYOUTS:,}")
        check_served(ai)
        with self.matches.using(match_id) as match:
            pending = match.decision
            if pending is None or pending.player not in match.people:
                said = "the battle is over" if match.result is not None else "no person decides here: the AI plays every side"
                raise NothingToAdvise("match", match_id, f"{said}; there is nothing to advise")
            chosen = str(next(iter(match.ai.values()), DEFAULT)) if ai is None else ai if isinstance(ai, str) else dict(ai)
            parse_ai(chosen, match.sides)  # a side the scenario does not have is refused here, not in the background
            advice = Advice(
                secrets.token_urlsafe(9), match_id, match.dumps(), playouts, chosen, pending.player, pending.prompt,
                len(pending.options) * playouts,
            )
        with self._lock:
            active = [a for a in self._advice.values() if a.status in _ACTIVE]
            if sum(a.match_id != match_id for a in active) >= self.waiting:
                raise TooMuchAdvice(self.waiting)
            for earlier in active:
                if earlier.match_id == match_id:
                    earlier.status = "cancelled"
            self._advice[advice.id] = advice
            self._make_room()
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="kessen-advice", daemon=True)
                self._thread.start()
        self._queue.put(advice.id)
        return advice

    def view(self, match_id: str, advice_id: str) -> dict[str, Any]:
        """The advice as the page shows it, read under the lock."""
        with self._lock:
            return advice_view(self._find(match_id, advice_id))

    def cancel(self, match_id: str, advice_id: str) -> dict[str, Any]:
        """End waiting or running advice as cancelled (its thread stops at its next playout); its view."""
        with self._lock:
            advice = self._find(match_id, advice_id)
            if advice.status not in _ACTIVE:
                raise AdviceEnded("advice", advice_id, f"it has ended already ({advice.status}); there is nothing to cancel")
            advice.status = "cancelled"
            return advice_view(advice)

    def stop(self) -> None:
        """Work out no more advice; the advice in work stops at its next playout."""
        self._stopping.set()
        self._queue.put(None)

    def _find(self, match_id: str, advice_id: str) -> Advice:
        advice = self._advice.get(advice_id)
        if advice is None or advice.match_id != match_id:
            raise UnknownAdvice(advice_id)
        return advice

    def _make_room(self) -> None:
        ended = [a.id for a in self._advice.values() if a.status not in _ACTIVE]
        for advice_id in ended[: max(0, len(self._advice) - self.kept)]:
            del self._advice[advice_id]

    def _work(self) -> None:
        while (advice_id := self._queue.get()) is not None:
            with self._lock:
                advice = self._advice.get(advice_id)
                if advice is None or advice.status != "queued" or self._stopping.is_set():
                    continue
                advice.status = "running"
            self._run(advice)

    def _run(self, advice: Advice) -> None:
        deadline = time.monotonic() + self.seconds

        def progress(done: int, total: int) -> None:
            with self._lock:
                advice.done = done
                if advice.status != "running" or self._stopping.is_set():
                    raise _Halted
            if time.monotonic() >= deadline:
                raise _OutOfTime

        chances: list[Chances] | None = None
        ended: AdviceStatus = "done"
        error: str | None = None
        try:
            match = Match.loads(parse_json(advice.save, "match"), "match")
            match.run()
            chances = match.advise(playouts=advice.playouts, ai=advice.ai, on_progress=progress)
        except _Halted:
            return  # cancelled, which ended it already, or the server is stopping
        except _OutOfTime:
            ended, error = "stopped", error_line(
                f"advice: out of time after {advice.done:,} of {advice.total:,} playouts ({self.seconds:g} seconds); ask with fewer playouts"
            )
        except KessenError as refused:
            ended, error = "failed", error_line(refused)
        except Exception as fault:  # a fault of the engine: said on the page and in the log, the advisor goes on
            _log.exception("advice %s on match %s failed", advice.id, advice.match_id)
            ended, error = "failed", error_line(f"the advice stopped: {type(fault).__name__}: {fault}")
        with self._lock:
            if advice.status == "running":
                advice.status, advice.chances, advice.error = ended, chances, error
                if chances is not None:
                    advice.done = advice.total


def advice_view(advice: Advice) -> dict[str, Any]:
    """Advice as plain JSON: its request, progress (``done`` of ``total`` playouts), and once done each suggested
    option's chances, in the order of the options (:func:`chances_view`)."""
    return {
        "id": advice.id, "match": advice.match_id, "status": advice.status, "done": advice.done, "total": advice.total,
        "playouts": advice.playouts, "ai": advice.ai, "player": advice.player, "prompt": advice.prompt, "error": advice.error,
        "options": None if advice.chances is None else [chances_view(c) for c in advice.chances],
    }


def chances_view(chances: Chances) -> dict[str, Any]:
    """One option's chances: ``win`` and ``draw`` (each ``p``, and its reduced ``fraction`` where exact), and either
    ``exact`` with the worth under ``best`` play where the advisor solved it, or the ``playouts`` and the 95% interval
    ``low`` – ``high`` of the win chance."""
    return {
        "notation": chances.notation, "exact": chances.exact, "playouts": chances.playouts,
        "win": _share(chances.win), "draw": _share(chances.draw), "low": chances.low, "high": chances.high,
        "best": None if chances.best is None else _share(chances.best),
    }


def _share(value: Fraction | float) -> dict[str, Any]:
    fraction = f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else None
    return {"p": float(value), "fraction": fraction}
