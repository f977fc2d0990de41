"""The web tests' client: FastAPI's TestClient on the server's own address (its Host is one the app answers to)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

BASE = "http://127.0.0.1:8000"

JSON = {"content-type": "application/json"}
"""What the page sends with every body (without it a POST is 415)."""


def local(app: Any, **options: Any) -> TestClient:
    """A TestClient sending ``Host: 127.0.0.1:8000``, as a browser on this machine does."""
    return TestClient(app, base_url=BASE, **options)


def played(client: TestClient, match_id: str, timeout: float = 60) -> dict[str, Any]:
    """The match once the AI no longer plays it in the background."""
    end = time.monotonic() + timeout
    while (state := client.get(f"/api/matches/{match_id}").json())["status"] == "playing":
        assert time.monotonic() < end, state
        time.sleep(0.02)
    return state
