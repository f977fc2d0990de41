"""SIGTERM and SIGHUP answered as Ctrl-C is, by the commands that play battles on worker processes (issue 22 §2).

``kessen battle --runs N`` and ``kessen sweep`` stop their workers on Ctrl-C, print the battles finished (a sweep
keeps its finished chunks in its store) and exit 130. A ``kill`` (SIGTERM) or a closed terminal (SIGHUP) does the
same, through the same path: the signal raises :class:`KeyboardInterrupt` in the main thread, the executor is closed
(every worker stopped), the partial result printed; the exit status is then 128 + the signal's number, as a shell
reports a process that a signal ended (143 for SIGTERM, 129 for SIGHUP).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals answered as Ctrl-C (Windows has no SIGHUP)."""

_received: list[int] = []


@contextmanager
def like_ctrl_c() -> Iterator[None]:
    """Within this block, SIGTERM and SIGHUP raise KeyboardInterrupt, as Ctrl-C does; the handlers before are put
    back after it. Outside the main thread (where no handler can be set) nothing changes."""
    def stop(signum: int, _frame: FrameType | None) -> None:
        _received.append(signum)
        raise KeyboardInterrupt

    try:
        previous = {s: signal.signal(s, stop) for s in SIGNALS}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def stopped_by() -> tuple[str, int]:
    """The signal that stopped the command, as (its name, the exit status): SIGINT (Ctrl-C, 130) unless SIGTERM or
    SIGHUP came."""
    signum = _received[-1] if _received else signal.SIGINT
    return signal.Signals(signum).name, 128 + signum
