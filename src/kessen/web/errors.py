"""Errors as the web app answers them: a 4xx status with ``{"error": "<one line>"}``, never a traceback.

A refused choice (:class:`IllegalChoice`) also gives its ``rule`` (None where no single rule says it) and its
``reason``; an error of the web layer may carry its own ``status`` (404 for an unknown match, 429 for a full store).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from kessen.core.errors import IllegalChoice, InputError, KessenError, UnknownProcedureError, UnknownRulesetError, error_line


class NotFound(InputError):
    """A thing a path names that the server does not have (a match, a simulation, a shipped scenario): 404."""

    status = 404


def error_response(status: int, error: BaseException | str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The JSON answer to a refused request."""
    body: dict[str, str | None] = {"error": error_line(error)}
    if isinstance(error, IllegalChoice):
        body |= {"rule": error.rule, "reason": error.reason}
    return JSONResponse(body, status_code=status, headers=headers)


def status_of(error: KessenError) -> int:
    """The error's own ``status`` if it has one; 404 for a ruleset or procedure that does not exist; 422 for every
    other refused input."""
    own = getattr(error, "status", None)
    if isinstance(own, int):
        return own
    return 404 if isinstance(error, UnknownRulesetError | UnknownProcedureError) else 422


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal, ours or the framework's (unknown route, wrong method, bad path parameter), as one line."""

    async def on_kessen_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, KessenError)
        return error_response(status_of(error), error)

    async def on_http_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HTTPException)
        reason = {404: "no such page or API route", 405: "method not allowed on this route"}.get(error.status_code)
        shown: BaseException | str = InputError("path", request.url.path, reason) if reason else str(error.detail)
        return error_response(error.status_code, shown, dict(error.headers or {}))

    async def on_validation_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ("request",)))
        return error_response(422, InputError(where, InputError.NOTHING if first.get("input") is None else first["input"], str(first.get("msg", "invalid")).lower()))

    async def on_client_gone(request: Request, error: Exception) -> JSONResponse:
        # the client closed the connection before its body was in: nobody is left to answer, nothing to log
        return error_response(400, InputError("body", InputError.NOTHING, "the client went away before sending it whole"))

    app.add_exception_handler(KessenError, on_kessen_error)
    app.add_exception_handler(ClientDisconnect, on_client_gone)
    app.add_exception_handler(HTTPException, on_http_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
