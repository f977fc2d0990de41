"""The app on a real uvicorn server in a thread of the test (bytes on a socket, uvicorn's own HTTP), for what the
TestClient cannot show: a body that never completes, a client that goes away."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from kessen.web.server import bind


@contextmanager
def serving(app: Any) -> Iterator[tuple[str, int]]:
    """Serve *app* on a free loopback port until the block ends; yields the address. uvicorn's log is left to the
    root logger (pytest's caplog sees it)."""
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield sock.getsockname()[:2]
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := conn.recv(65536):
        received += chunk
    return received
