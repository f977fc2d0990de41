"""The web app: the JSON API, the page's static files, and the API's own page at ``/docs``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from kessen import __version__
from kessen.core.errors import InputError
from kessen.web import ai_api, api, board_api, match_api, simulation_api
from kessen.web.advice import Advisor
from kessen.web.assets import Asset, load_assets
from kessen.web.errors import error_response, install_error_handlers
from kessen.web.guard import LOOPBACK, Hosts, RequestGuard
from kessen.web.limits import BODY_SECONDS, BodyLimit
from kessen.web.playing import Matches
from kessen.web.simulations import SIMULATION_SECONDS, SimulationRunner
from kessen.web.store import Store

PAGES = ("/", "/odds", "/viewer", "/play", "/simulate", "/build")  # the page's own addresses; each one's state is in the query string


def create_app(
    store: Store, *, workers: int = 0, hosts: Hosts = LOOPBACK, body_seconds: float = BODY_SECONDS,
    simulation_seconds: float = SIMULATION_SECONDS,
) -> FastAPI:
    """The app serving one store, answering to *hosts* (:mod:`kessen.web.guard`) and waiting at most *body_seconds*
    for a request's body; simulations are played by *workers* processes (0: on the runner's own thread), each for at
    most *simulation_seconds*.

    The store, the live matches, the simulation runner and the advisor are kept in ``app.state``. While the app runs (its
    lifespan), simulations a stopped server left unfinished go on from their finished chunks and its unplayed AI
    battles are played; stopping ends the workers.
    """
    runner = SimulationRunner(store, workers=workers, seconds=simulation_seconds)
    matches = Matches(store)
    advisor = Advisor(matches)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        runner.resume()
        matches.resume()
        yield
        advisor.stop()
        matches.stop()
        runner.stop()

    app = FastAPI(
        title="kessen",
        version=__version__,
        summary="Exact odds and scenarios of four miniature wargames; the API of kessen's web page.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.matches = matches
    app.state.simulations = runner
    app.state.advisor = advisor
    install_error_handlers(app)
    app.add_middleware(BodyLimit, seconds=body_seconds)
    app.add_middleware(RequestGuard, hosts=hosts)  # the outermost: a request not for this server reads nothing
    for module in (api, match_api, board_api, simulation_api, ai_api):
        app.include_router(module.router)
    assets = load_assets()

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/api/openapi.json",
            title="kessen API",
            swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},  # no call to the online validator
        )

    def page(request: Request) -> Response:
        return _serve(request, assets["index.html"], {"content-security-policy": _PAGE_POLICY})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @app.get("/static/{name:path}", include_in_schema=False)
    def static(name: str, request: Request) -> Response:
        asset = assets.get(name)
        if asset is None:
            return error_response(404, InputError("path", request.url.path, "no such file"))
        return _serve(request, asset)

    return app


_PAGE_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def _serve(request: Request, asset: Asset, extra: dict[str, str] | None = None) -> Response:
    headers = {"etag": asset.etag, "cache-control": "no-cache", "x-content-type-options": "nosniff", **(extra or {})}
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)
