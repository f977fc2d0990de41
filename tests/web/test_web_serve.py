"""``kessen serve`` as a real process: it prints the address, binds to loopback by default, serves the page and the
API, refuses a bad --db, --host or --port with one line and exit 2, and refuses a streamed body at the limit."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

KESSEN = Path(sys.executable).parent / "kessen"


class Server:
    """A ``kessen serve --port 0`` subprocess and the address it printed."""

    def __init__(self, db: Path, *args: str) -> None:
        self.process = subprocess.Popen([str(KESSEN), "serve", "--port", "0", "--db", str(db), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.line = self.process.stdout.readline().strip()
        self.url = self.line.split("open ", 1)[1].split(" ", 1)[0]

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        return self.request("GET", path, headers=headers)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """The status and body of a request (a refusal too), to 127.0.0.1 whatever address the server printed."""
        url = self.url.replace("0.0.0.0", "127.0.0.1").rstrip("/") + path
        try:
            with urllib.request.urlopen(urllib.request.Request(url, body, headers or {}, method=method), timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "k.sqlite3")
    yield running
    running.stop()


def test_serve_prints_the_loopback_address_and_serves_the_page_and_api(server: Server, tmp_path: Path) -> None:
    assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/")
    assert str(tmp_path / "k.sqlite3") in server.line
    status, page = server.get("/")
    assert status == 200 and b"/static/js/main.js" in page
    status, body = server.get("/api/rulesets")
    assert status == 200 and json.loads(body)["rulesets"]


def test_serve_refuses_a_streamed_body_once_it_passes_the_limit(server: Server) -> None:
    """A chunked upload is answered 413 after about 1 MB; the rest is never read."""
    host, port = server.url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(b"POST /api/odds/song-of-blades/melee HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n" % f"{host}:{port}".encode())
        chunk = b" " * 65536
        answer = b""
        sent = 0
        try:
            for _ in range(200):  # 13 MB offered
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                conn.settimeout(0.001)
                try:
                    answer += conn.recv(65536)
                except TimeoutError:
                    pass
                conn.settimeout(30)
                if answer:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        conn.settimeout(30)
        while b"\r\n\r\n" not in answer:
            answer += conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413")
    assert sent < 4_000_000


def test_serve_refuses_a_rebound_host_and_a_cross_site_post(server: Server) -> None:
    """Issue 22 §3 on the real server: a page of evil.example whose name points at 127.0.0.1 gets 421; the text/plain
    POST any page may send to any address gets 415, one from another origin 403."""
    status, body = server.get("/api/scenarios", {"host": "evil.example:8000"})
    assert status == 421 and json.loads(body)["error"].startswith("kessen: error: host: this server answers only to 127.0.0.1")
    melee = b'{"attacker_combat": 3, "defender_combat": 2}'
    assert server.request("POST", "/api/odds/song-of-blades/melee", melee, {"content-type": "text/plain"})[0] == 415
    assert server.request("POST", "/api/odds/song-of-blades/melee", melee, {"content-type": "application/json", "origin": "http://evil.example"})[0] == 403
    assert server.request("POST", "/api/odds/song-of-blades/melee", melee, {"content-type": "application/json", "origin": server.url.rstrip("/")})[0] == 200


def test_serve_on_every_interface_answers_to_its_addresses_not_to_other_names(tmp_path: Path) -> None:
    """``--host 0.0.0.0``: reached at 127.0.0.1 (any address of the machine); a foreign name is still 421."""
    every = Server(tmp_path / "k.sqlite3", "--host", "0.0.0.0")
    try:
        assert every.url.startswith("http://0.0.0.0:")
        assert every.get("/api/rulesets")[0] == 200
        assert every.get("/api/rulesets", {"host": "evil.example"})[0] == 421
    finally:
        every.stop()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(KESSEN), "serve", *args], capture_output=True, text=True, timeout=60)


def test_serve_refuses_a_bad_db_with_one_line(tmp_path: Path) -> None:
    result = run("--port", "0", "--db", str(tmp_path / "missing" / "k.sqlite3"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("kessen: error: --db: its folder does not exist (got '") and result.stderr.count("\n") == 1


def test_serve_refuses_a_taken_port_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("--port", str(port), "--db", str(tmp_path / "k.sqlite3"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"kessen: error: --port: cannot listen there") and result.stderr.count("\n") == 1


def test_serve_refuses_an_unknown_host_with_one_line(tmp_path: Path) -> None:
    result = run("--host", "no such host", "--port", "0", "--db", str(tmp_path / "k.sqlite3"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("kessen: error: --host: not an address of this machine") and result.stderr.count("\n") == 1


def test_serve_refuses_a_port_out_of_range(tmp_path: Path) -> None:
    result = run("--port", "70000", "--db", str(tmp_path / "k.sqlite3"))
    assert result.returncode == 2 and result.stdout == ""


def hostile(server: Server) -> None:
    """The requests of issue 22 §3 against a real server, each answered below 500: foreign hosts and origins, bodies
    that are not JSON, a scenario too costly to parse, cancels, AI battles in the background, many at once."""
    json_body = {"content-type": "application/json"}
    hero = {"scenario": "song-of-blades/hero-against-mob", "seed": 1}
    costly = json.dumps({"text": "".join(f"[t{i}]\n" for i in range(60_000))}).encode()
    asked = [
        ("GET", "/", None, {"host": "evil.example"}, 421),
        # refused unread and the connection closed: a large body would still be on its way, so a small one here
        ("POST", "/api/scenarios/check", b'{"text": ""}', {"content-type": "text/plain"}, 415),
        ("POST", "/api/scenarios/check", b'{"text": ""}', {**json_body, "origin": "http://evil.example"}, 403),
        ("POST", "/api/scenarios/check", costly, json_body, 422),
        ("DELETE", "/api/simulations/nothing", None, {}, 404),
        ("POST", "/api/matches", json.dumps({**hero, "people": []}).encode(), json_body, 201),
    ]
    for method, path, body, headers, status in asked:
        assert server.request(method, path, body, headers)[0] == status, (method, path, headers)
    made = json.loads(server.request("POST", "/api/simulations", json.dumps({**hero, "runs": 10_000}).encode(), json_body)[1])["id"]
    assert server.request("DELETE", f"/api/simulations/{made}", None, {})[0] == 200
    assert server.request("DELETE", f"/api/simulations/{made}", None, {})[0] == 409
    with ThreadPoolExecutor(16) as pool:  # many at once, some of them too many
        statuses = list(pool.map(lambda _: server.request("POST", "/api/simulations", json.dumps({**hero, "runs": 10_000}).encode(), json_body)[0], range(32)))
    assert set(statuses) <= {201, 429} and statuses.count(201) <= 16


def test_serve_logs_nothing_under_hostile_clients(server: Server) -> None:
    """Issue 22 §3: clients that close the connection halfway (after the headers, in the middle of the body, while
    their answer is being worked out), and the hostile requests of :func:`hostile`, leave nothing in the server's
    log: no traceback, no error line; no answer is a 5xx."""
    host, port = server.url.split("//")[1].rstrip("/").split(":")
    head = b"POST %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
    melee = b'{"attacker_combat": 3, "defender_combat": 2}'
    partings = [
        head % (b"/api/odds/song-of-blades/melee", host.encode(), port.encode(), 100),  # headers only
        head % (b"/api/odds/song-of-blades/melee", host.encode(), port.encode(), 100) + melee[:20],  # half a body
        head % (b"/api/odds/song-of-blades/melee", host.encode(), port.encode(), len(melee)) + melee,  # the whole request
        head % (b"/api/scenarios/check", host.encode(), port.encode(), 10_000) + b'{"text": "' + b"x" * 5000,
        b"GET /api/rulesets HTTP/1.1\r\nHost: %s:%s\r\n\r\n" % (host.encode(), port.encode()),
    ]
    for request in partings:
        with socket.create_connection((host, int(port)), timeout=30) as conn:
            conn.sendall(request)
            time.sleep(0.2)
    hostile(server)
    assert server.get("/api/rulesets")[0] == 200  # still serving
    server.stop()
    assert server.process.stderr is not None
    log = server.process.stderr.read()
    assert log == "", log
