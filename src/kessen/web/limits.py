"""Request limits: the body's size and the time it may take to arrive, checked while it arrives, so a huge upload is
never buffered whole and a body that never completes does not hold the request for good."""

from __future__ import annotations

import anyio
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kessen.web.errors import error_response

MAX_BODY_BYTES = 1_000_000  # 1 MB: a scenario text or an odds input is a few kilobytes

BODY_SECONDS = 30.0
"""[DECISION] The time a request's body may take to arrive, from its headers to its last byte: 1 MB in 30 s is a
link of 270 kbit/s, slower than any the page is used over. A body still incomplete then is answered 408 and its
connection closed. (uvicorn bounds the wait between requests, not the body's.)"""


class BodyTooLarge(HTTPException):
    """A request body over the limit: 413, answered as one error line like every refusal."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"body: larger than the limit of {limit:,} bytes")


class BodyTooSlow(HTTPException):
    """A request body not complete within the time allowed: 408, and the connection is closed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(408, f"body: not complete after {seconds:g} seconds", headers={"connection": "close"})


class BodyLimit:
    """ASGI middleware refusing bodies over *max_bytes*: at once when Content-Length says so, else as soon as
    the received chunks pass the limit (the endpoint reading the body gets :class:`BodyTooLarge`); and bodies still
    incomplete *seconds* after the request began (:class:`BodyTooSlow`)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _refuse(scope, receive, send, 413 if declared.isdigit() else 400, self.max_bytes)
            return
        received = 0
        complete = False
        deadline = anyio.current_time() + self.seconds

        async def limited() -> Message:
            nonlocal received, complete
            if complete:  # the body is in: what is left to hear is the client going away, whenever it does
                return await receive()
            with anyio.move_on_after(deadline - anyio.current_time()):
                message = await receive()
                if message["type"] == "http.request":
                    received += len(message.get("body", b""))
                    complete = not message.get("more_body", False)
                    if received > self.max_bytes:
                        raise BodyTooLarge(self.max_bytes)
                return message
            raise BodyTooSlow(self.seconds)

        await self.app(scope, limited, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, limit: int) -> None:
    reason = str(BodyTooLarge(limit).detail) if status == 413 else "content-length: not a number of bytes"
    await error_response(status, reason, {"connection": "close"})(scope, receive, send)
