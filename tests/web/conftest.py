"""Fixtures of the web tests: a store in a temporary folder and FastAPI's TestClient on the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kessen.web.app import create_app
from kessen.web.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "kessen.sqlite3")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client
