"""Only the server's own page may drive it: the Host a request names, the Origin of a request that changes
anything, and JSON bodies (issue 22 §3).

Any web page a person visits can send requests to ``http://127.0.0.1:8000``. Three checks keep such pages out:

- **Host** (every request, 421): the name must be one the server listens on. A page of ``evil.example`` whose name
  is made to point at 127.0.0.1 (DNS rebinding) sends ``Host: evil.example`` and is refused. Bound to loopback the
  server answers to ``localhost`` and the loopback addresses; bound to one address, to that address and this
  machine's names; bound to every interface (``--host 0.0.0.0``), to any IP address, ``localhost`` and this machine's
  names. An IP address can never be rebound, so it is always safe to answer to. [DECISION] The port of the Host is
  not compared: a forwarded port (``ssh -L 9000:localhost:8000``) changes it, and a rebinding page cannot be told
  by it.
- **Origin** (POST, PUT, PATCH, DELETE; 403): a browser names the page that sent the request; it must be this very
  server, scheme, name and port, as the Host gives them. A page of another local server (``http://localhost:3000``)
  is another origin. A request with no Origin (curl, a script) is not a browser's and is taken.
- **JSON bodies** (POST, PUT, PATCH; 415): the body must be ``application/json``. A page may send ``text/plain`` or
  a form to any address without asking, but JSON only after a CORS preflight, which this server never grants.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.web.errors import error_response

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


@record
class Hosts:
    """The names a server answers to (lower case, IP addresses in their short form) and whether it answers to any
    IP address (bound to every interface)."""

    names: frozenset[str]
    any_address: bool = False

    def accepts(self, name: str) -> bool:
        """Whether a request naming *name* (a Host's name, without its port) is meant for this server.

        >>> LOOPBACK.accepts("localhost"), LOOPBACK.accepts("127.0.0.1"), LOOPBACK.accepts("evil.example")
        (True, True, False)
        """
        address = _address(name)
        if address is not None:
            return self.any_address or str(address) in self.names or (address.is_loopback and "localhost" in self.names)
        return name.rstrip(".") in self.names

    def describe(self) -> str:
        shown = sorted(f"[{n}]" if ":" in n else n for n in self.names)
        return ", ".join(shown) + (" or any of its IP addresses" if self.any_address else "")


def hosts_for(given: str, address: str) -> Hosts:
    """The names of a server started with ``--host`` *given* and bound to *address* (what the socket says)."""
    bound = _address(address)
    names = {_canonical(given), _canonical(address)} - {"0.0.0.0", "::", ""}
    if bound is not None and bound.is_loopback:
        return Hosts(frozenset(names | {"localhost", "127.0.0.1", "::1"}))
    names |= _machine_names()
    if bound is not None and bound.is_unspecified:
        return Hosts(frozenset(names | {"localhost"}), any_address=True)
    return Hosts(frozenset(names))


def _canonical(name: str) -> str:
    address = _address(name)
    return str(address) if address is not None else name.lower().rstrip(".")


def _machine_names() -> set[str]:
    """This machine's own names (its host name, that name on the local network, its full name); ``localhost`` only
    where the server listens on loopback."""
    name = socket.gethostname().lower()
    return {name, f"{name}.local", socket.getfqdn().lower()} - {"", "localhost", "localhost.localdomain"}


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


LOOPBACK = hosts_for("127.0.0.1", "127.0.0.1")
"""A server on 127.0.0.1 (``kessen serve``'s default)."""


class RequestGuard:
    """ASGI middleware answering 421, 403 or 415 (see the module's docstring) before the app sees the request."""

    def __init__(self, app: ASGIApp, *, hosts: Hosts = LOOPBACK) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            status, error = refusal
            await error_response(status, error, {"connection": "close"})(scope, receive, send)  # its body is never read

    def refusal(self, scope: Scope) -> tuple[int, InputError] | None:
        """The status and error of a request that may not pass, or None."""
        headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        named = _split("//" + host)
        if named is None or not named.hostname or named.path or named.query or named.fragment or "@" in host or not self.hosts.accepts(named.hostname):
            return 421, InputError("host", host or InputError.NOTHING, f"this server answers only to {self.hosts.describe()}")
        method = scope["method"]
        origin = headers.get("origin")
        if method in CHANGING and origin is not None and not _same_origin(origin, scope["scheme"], named):
            return 403, InputError("origin", origin, "only the server's own page may change anything here")
        kind = headers.get("content-type")
        if method in WITH_BODY and (kind is None or kind.split(";")[0].strip().lower() != "application/json"):
            return 415, InputError("content-type", kind if kind is not None else InputError.NOTHING, "the body must be application/json")
        return None


def _split(url: str) -> SplitResult | None:
    """*url* in parts, its port checked (None when it is not one)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError:
        return None
    return parts


def _same_origin(origin: str, scheme: str, host: SplitResult) -> bool:
    """Whether the page at *origin* is this server as the request's Host names it (scheme, name and port)."""
    page = _split(origin)
    if page is None or page.scheme != scheme or page.hostname is None or page.path or page.query:
        return False
    default = _DEFAULT_PORTS.get(scheme)
    return page.hostname == host.hostname and (page.port or default) == (host.port or default)
