"""Only the server's own page may drive it (issue 22 §3): a Host the server does not listen on is 421 (DNS rebinding),
a state-changing request from another origin 403, a body that is not JSON 415; and nothing is done or stored for a
refused request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen.web.app import create_app
from kessen.web.guard import LOOPBACK, hosts_for
from kessen.web.store import Store
from tests.web.clients import BASE, JSON, local

HERO = "song-of-blades/hero-against-mob"
MELEE = {"attacker_combat": 3, "defender_combat": 2}


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


def error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    line: str = response.json()["error"]
    assert line.startswith("kessen: error: ") and "\n" not in line
    return line


# --- Host --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "localhost.:9000", "[::1]:8000", "127.0.0.2", "127.0.0.1"])
def test_a_loopback_server_answers_to_its_loopback_names_on_any_port(client: TestClient, host: str) -> None:
    """[DECISION] the port is not compared: ``ssh -L 9000:localhost:8000`` makes the browser send port 9000."""
    assert client.get("/api/rulesets", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "localhost.evil.example", "192.168.1.20:8000", "[::2]", "", "localhost/x", "a@localhost", "localhost:99999"])
def test_a_foreign_host_is_421_on_every_route(client: TestClient, host: str) -> None:
    """A page whose name was made to point at 127.0.0.1 (DNS rebinding) names itself in the Host: refused before
    anything is read, the page and the API alike."""
    for method, path in (("GET", "/"), ("GET", "/api/scenarios"), ("POST", "/api/odds/song-of-blades/melee")):
        line = error(client.request(method, BASE + path, json=MELEE, headers={"host": host}), 421)
        assert line.startswith("kessen: error: host: this server answers only to 127.0.0.1, [::1], localhost")


def test_a_server_on_every_interface_answers_to_any_ip_address_and_its_own_names() -> None:
    """``--host 0.0.0.0``: reached by the machine's addresses (an IP address cannot be rebound) or its names."""
    every = hosts_for("0.0.0.0", "0.0.0.0")
    assert every.any_address
    for name in ("192.168.1.20", "10.0.0.1", "::1", "127.0.0.1", "localhost"):
        assert every.accepts(name), name
    assert not every.accepts("evil.example") and not every.accepts("0.0.0.0.evil.example")


def test_a_server_on_one_address_answers_to_that_address_only() -> None:
    one = hosts_for("192.0.2.5", "192.0.2.5")
    assert one.accepts("192.0.2.5") and not one.accepts("192.0.2.6") and not one.accepts("127.0.0.1") and not one.accepts("localhost")
    named = hosts_for("localhost", "127.0.0.1")  # --host localhost: the name given, and the loopback ones
    assert named == LOOPBACK


def test_a_server_answers_to_the_name_it_was_started_with() -> None:
    """``--host kessen.lan`` (bound to the address that name has): the name given is one of its own."""
    assert hosts_for("Kessen.LAN", "192.0.2.5").accepts("kessen.lan")


# --- Origin ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:3000", "http://localhost:8000", "https://127.0.0.1:8000", "null", "http://127.0.0.1:8000/page", ""])
def test_a_change_from_another_origin_is_403_and_does_nothing(client: TestClient, store: Store, origin: str) -> None:
    """Another site, another local server (another port), another scheme, a sandboxed page (``null``): refused, and
    no simulation is stored."""
    response = client.post("/api/simulations", json={"scenario": HERO, "runs": 1, "seed": 1}, headers={"origin": origin})
    assert error(response, 403) == f"kessen: error: origin: only the server's own page may change anything here (got {origin!r})"
    assert store.unfinished_simulations() == []


@pytest.mark.parametrize("origin", ["http://127.0.0.1:8000", "HTTP://127.0.0.1:8000", None])
def test_the_servers_own_page_and_a_request_without_origin_may_change_things(client: TestClient, origin: str | None) -> None:
    """The page's own origin (scheme, name and port of the Host), or none at all (curl, a script: not a browser)."""
    headers = {} if origin is None else {"origin": origin}
    assert client.post("/api/odds/song-of-blades/melee", json=MELEE, headers=headers).status_code == 200


def test_the_origin_must_match_the_host_it_came_by(client: TestClient) -> None:
    """A page opened as http://localhost:8000 sends that origin with Host localhost:8000: the same server."""
    headers = {"host": "localhost:8000", "origin": "http://localhost:8000"}
    assert client.post("/api/odds/song-of-blades/melee", json=MELEE, headers=headers).status_code == 200
    assert client.post("/api/odds/song-of-blades/melee", json=MELEE, headers={"host": "localhost", "origin": "http://localhost:80"}).status_code == 200


def test_reading_is_not_refused_for_its_origin(client: TestClient) -> None:
    """A GET changes nothing, and a browser keeps the answer from another site's page (no CORS headers are sent)."""
    response = client.get("/api/scenarios", headers={"origin": "http://evil.example"})
    assert response.status_code == 200 and "access-control-allow-origin" not in response.headers


# --- JSON bodies -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", None])
def test_a_body_that_is_not_json_is_415_and_does_nothing(client: TestClient, store: Store, kind: str | None) -> None:
    """What a page may send anywhere without a preflight (text, forms), or no type at all: refused unread."""
    headers = {"content-type": kind} if kind is not None else {}
    response = client.post("/api/simulations", content=b'{"scenario": "%s", "runs": 1, "seed": 1}' % HERO.encode(), headers=headers)
    line = error(response, 415)
    assert line.startswith("kessen: error: content-type: the body must be application/json")
    assert store.unfinished_simulations() == []


@pytest.mark.parametrize("kind", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_json_with_or_without_its_charset_is_taken(client: TestClient, kind: str) -> None:
    response = client.post("/api/odds/song-of-blades/melee", content=b'{"attacker_combat": 3, "defender_combat": 2}', headers={"content-type": kind})
    assert response.status_code == 200


def test_the_guard_runs_before_the_body_limit(client: TestClient) -> None:
    """A foreign request is refused for what it is, before its size is even looked at."""
    response = client.post("/api/odds/song-of-blades/melee", content=b" " * 2_000_000, headers={**JSON, "host": "evil.example"})
    assert response.status_code == 421
