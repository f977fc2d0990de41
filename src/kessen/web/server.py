"""``kessen serve``: the web app on uvicorn, bound to the address asked for (loopback unless told)."""

from __future__ import annotations

import errno
import socket
import sys
from typing import TextIO

import uvicorn

from kessen.core.errors import InputError
from kessen.web.app import create_app
from kessen.web.guard import hosts_for
from kessen.web.simulations import default_workers
from kessen.web.store import Store
from kessen.web.texts import page_words


def serve(*, host: str = "127.0.0.1", port: int = 8000, db: str | None = None, out: TextIO | None = None) -> None:
    """Open the store, bind the socket, print the address to open, and serve until interrupted.

    The socket is bound here, before uvicorn starts, so that a taken port or a bad host is one error line, and
    ``--port 0`` (any free port) prints the port the system chose.
    """
    store = Store.open(db)
    sock = bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(page_words("en")["serving"].format(url=f"http://{shown}:{bound_port}/", db=store.path), file=out or sys.stdout, flush=True)
    app = create_app(store, workers=default_workers(), hosts=hosts_for(host, bound_host))
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on *host*:*port*; an address that cannot be had is an :class:`InputError`."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise InputError("--host", host, f"not an address of this machine ({error})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        field, value = ("--port", port) if error.errno in (errno.EADDRINUSE, errno.EACCES) else ("--host", host)
        raise InputError(field, value, f"cannot listen there ({error.strerror})") from None
    return sock
