"""Clients that are slow or go away, on a real uvicorn server (tests/web/live.py): a body that never completes is
answered 408 after the stated time and its connection closed; nothing is logged for either (issue 22 §3)."""

from __future__ import annotations

import json
import logging
import socket
import time
from pathlib import Path

import pytest

from kessen.web.app import create_app
from kessen.web.limits import BODY_SECONDS
from kessen.web.store import Store
from tests.web.live import answer, serving

HEAD = b"POST /api/odds/song-of-blades/melee HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


def test_the_readme_states_the_body_time() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"408 for a body not complete {BODY_SECONDS:g} seconds after its headers" in readme.replace("\n", " ")


@pytest.mark.parametrize("framing", [b"Content-Length: 100\r\n\r\n", b"Transfer-Encoding: chunked\r\n\r\n14\r\n"])
def test_a_body_that_never_completes_is_408_after_the_time_allowed(store: Store, caplog: pytest.LogCaptureFixture, framing: bytes) -> None:
    """A client that sends its headers and part of the body, then nothing more, is answered 408 once the body's time
    is up (here 0.5 s instead of 30), and the connection is closed."""
    with caplog.at_level(logging.INFO), serving(create_app(store, body_seconds=0.5)) as (host, port):
        with socket.create_connection((host, port), timeout=30) as conn:
            started = time.monotonic()
            conn.sendall(HEAD + framing + b'{"attacker_combat": ')
            received = answer(conn)
            waited = time.monotonic() - started
    status, _, body = received.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 408") and b"connection: close" in status.lower()
    assert json.loads(body) == {"error": "kessen: error: body: not complete after 0.5 seconds"}
    assert 0.5 <= waited < 10
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_slow_body_that_completes_in_time_is_answered(store: Store) -> None:
    """The time is for the whole body, not between its parts: a body sent in pieces within it is read."""
    body = b'{"attacker_combat": 3, "defender_combat": 2}'
    with serving(create_app(store, body_seconds=5)) as (host, port):
        with socket.create_connection((host, port), timeout=30) as conn:
            conn.sendall(HEAD + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
            for piece in (body[:10], body[10:30], body[30:]):
                time.sleep(0.2)
                conn.sendall(piece)
            received = answer(conn)
    assert received.startswith(b"HTTP/1.1 200")


def test_a_client_gone_in_the_middle_of_its_body_leaves_nothing_in_the_log(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """The app hears the client go away while it reads the body: no traceback, no error; the server serves on."""
    with caplog.at_level(logging.INFO), serving(create_app(store)) as (host, port):
        for _ in range(3):
            with socket.create_connection((host, port), timeout=30) as conn:
                conn.sendall(HEAD + b"Content-Length: 100\r\n\r\n" + b'{"attacker_combat": ')
                time.sleep(0.1)
        with socket.create_connection((host, port), timeout=30) as conn:
            conn.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert answer(conn).startswith(b"HTTP/1.1 200")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text
