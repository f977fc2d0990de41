"""Request limits: the body size is checked while the body arrives, so a huge upload is never buffered whole."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kessen.web.errors import error_response

MAX_BODY_BYTES = 1_000_000  # 1 MB: a scenario text or an odds input is a few kilobytes


class BodyTooLarge(HTTPException):
    """A request body over the limit: 413, answered as one error line like every refusal."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"body: larger than the limit of {limit:,} bytes")


class BodyLimit:
    """ASGI middleware refusing bodies over *max_bytes*: at once when Content-Length says so, else as soon as
    the received chunks pass the limit (the endpoint reading the body gets :class:`BodyTooLarge`)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _refuse(scope, receive, send, 413 if declared.isdigit() else 400, self.max_bytes)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, limited, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, limit: int) -> None:
    reason = str(BodyTooLarge(limit).detail) if status == 413 else "content-length: not a number of bytes"
    await error_response(status, reason, {"connection": "close"})(scope, receive, send)
