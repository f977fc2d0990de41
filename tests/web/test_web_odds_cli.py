"""POST /api/odds answers exactly what ``kessen odds`` prints: the same JSON object for every public example case,
and the same one error line (422) for every refused input."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kessen import get_ruleset, ruleset_ids
from kessen.cli.main import main
from tests.web.clients import JSON, local
from kessen.web.app import create_app
from kessen.web.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the whole module: the odds route keeps nothing between requests, and building the app for each of
    the few hundred cases took two thirds of the module's time."""
    store = Store.open(tmp_path_factory.mktemp("odds") / "kessen.sqlite3")
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


def _example_cases() -> list[Any]:
    return [
        pytest.param(rid, case["procedure"], json.dumps(case["input"]), id=f"{rid}:{case['id']}")
        for rid in ruleset_ids()
        for case in json.loads((DATA / f"{rid}.examples.json").read_text(encoding="utf-8"))
    ]


def _bad_inputs() -> list[Any]:
    """For every procedure: not an object, not JSON, empty, an unknown field, a missing field, a wrong type."""
    cases = []
    for rid in ruleset_ids():
        for name, procedure in get_ruleset(rid).procedures.items():
            schema = procedure.input_model.model_json_schema()
            first = next(iter(schema["properties"]))
            for label, text in {
                "list": "[]",
                "text": '"melee"',
                "broken": '{"a": ',
                "empty": "",
                "unknown": '{"no_such_field": 1}',
                "missing": "{}",
                "wrong-type": json.dumps({first: True if schema["properties"][first].get("type") != "boolean" else 3}),
                "deep": "[" * 3000 + "]" * 3000,
            }.items():
                cases.append(pytest.param(rid, name, text, id=f"{rid}:{name}:{label}"))
    return cases


def cli_odds(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ruleset: str, procedure: str, text: str) -> tuple[int, str, str]:
    """``kessen odds RULESET PROCEDURE --input -`` in-process through the console script's entry point."""
    monkeypatch.setattr(sys, "argv", ["kessen", "odds", ruleset, procedure, "--input", "-"])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    code = 0
    try:
        main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    out, err = capsys.readouterr()
    return code, out, err


def _same_answer(client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ruleset: str, procedure: str, text: str) -> int:
    code, out, err = cli_odds(monkeypatch, capsys, ruleset, procedure, text)
    response = client.post(f"/api/odds/{ruleset}/{procedure}", content=text.encode("utf-8"), headers=JSON)
    if code == 0:
        assert response.status_code == 200
        assert response.json() == json.loads(out)
    else:
        assert code == 2 and out == ""
        assert response.status_code == 422
        assert response.json() == {"error": err.rstrip("\n")}
    return code


@pytest.mark.parametrize(("ruleset", "procedure", "text"), _example_cases())
def test_odds_endpoint_equals_the_cli_on_every_public_example(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ruleset: str, procedure: str, text: str
) -> None:
    _same_answer(client, monkeypatch, capsys, ruleset, procedure, text)


@pytest.mark.parametrize(("ruleset", "procedure", "text"), _bad_inputs())
def test_odds_endpoint_refuses_with_the_cli_error_line(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ruleset: str, procedure: str, text: str
) -> None:
    assert _same_answer(client, monkeypatch, capsys, ruleset, procedure, text) == 2 or text == "{}"
