"""The page's catalogues are complete in English and Japanese: every input field path of every procedure has a
label and a description (in English the input model's own), every enum and outcome value a word, every outcome field a label, every word the page's
JavaScript asks for exists; and no catalogue entry names a field that no procedure has."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kessen import get_ruleset, odds, ruleset_ids
from kessen.web.texts import catalogue, field_paths, page_words, ruleset_texts, starting_inputs

LANGS = ("en", "ja")
DATA = Path(__file__).resolve().parents[1] / "data"
STATIC = Path(__file__).resolve().parents[2] / "src" / "kessen" / "web" / "static"
NAMES_ONLY = {("armies-clash", "initiative")}  # its outcomes are the units' own ids, never translated
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _enum_values(schema: dict[str, Any]) -> list[tuple[str, Any]]:
    found = []
    for path, node in field_paths(schema):
        for part in [node, *node.get("anyOf", []), node.get("items") if isinstance(node.get("items"), dict) else {}]:
            for value in part.get("enum", []):
                found.append((path.rsplit(".", 1)[-1].removesuffix("[]"), value))
    return found


def _word(words: dict[str, str], field: str, value: Any) -> str | None:
    return words.get(f"{field}={value}") or words.get(str(value))


def _outcomes(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """Outcome objects per procedure over every public example and every starting input."""
    inputs = [(c["procedure"], c["input"]) for c in json.loads((DATA / f"{ruleset}.examples.json").read_text(encoding="utf-8")) if not c.get("error")]
    inputs += list(starting_inputs()[ruleset].items())
    found: dict[str, list[dict[str, Any]]] = {}
    for procedure, value in inputs:
        found.setdefault(procedure, []).extend(o for o, _ in odds(ruleset, procedure, value).outcomes)
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_input_field_has_a_label_and_a_description(ruleset: str, lang: str) -> None:
    texts = ruleset_texts(ruleset, lang)
    cat = catalogue(ruleset, lang)
    assert texts["title"] == cat["title"]
    for name, procedure in get_ruleset(ruleset).procedures.items():
        title, summary = cat["procedures"][name]
        assert title and summary
        for path, schema in field_paths(procedure.input_model.model_json_schema()):
            words = texts["procedures"][name]["fields"][path]
            assert words["label"] and words["description"], f"{ruleset} {name} {path} ({lang})"
            if lang == "ja":
                assert JAPANESE.search(words["description"]), f"{ruleset} {name} {path}: {words['description']}"


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_each_english_field_description_is_written_once_in_the_input_model(ruleset: str) -> None:
    """Issue 27 §7: the English catalogue gives each input field its label only; the page's English description is
    the input model's own (the schema ``kessen odds --schema`` prints), shown from a capital letter. Only the Japanese
    catalogue writes descriptions of its own."""
    cat = catalogue(ruleset, "en")
    tables = [cat["fields"], *cat.get("procedure_fields", {}).values()]
    assert all(isinstance(label, str) for table in tables for label in table.values())
    assert all(isinstance(pair, list) and len(pair) == 2 for pair in catalogue(ruleset, "ja")["fields"].values())
    texts = ruleset_texts(ruleset, "en")
    for name, procedure in get_ruleset(ruleset).procedures.items():
        for path, schema in field_paths(procedure.input_model.model_json_schema()):
            described = schema["description"]
            assert texts["procedures"][name]["fields"][path]["description"] == described[:1].upper() + described[1:]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_enum_value_has_a_word(ruleset: str, lang: str) -> None:
    words = ruleset_texts(ruleset, lang)["words"]
    for procedure in get_ruleset(ruleset).procedures.values():
        for field, value in _enum_values(procedure.input_model.model_json_schema()):
            if isinstance(value, str):
                assert _word(words, field, value), f"{ruleset} {field}={value} ({lang})"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_outcome_field_has_a_label_and_every_value_a_word(ruleset: str, lang: str) -> None:
    texts = ruleset_texts(ruleset, lang)
    for procedure, outcomes in _outcomes(ruleset).items():
        labels = texts["procedures"][procedure]["outcomes"]
        for outcome in outcomes:
            for field, value in outcome.items():
                numbered = re.sub(r"_\d+$", "_#", field)
                assert field in labels or numbered in labels, f"{ruleset} {procedure} {field} ({lang})"
                if isinstance(value, str) and (ruleset, procedure) not in NAMES_ONLY:
                    assert _word(texts["words"], field, value), f"{ruleset} {procedure} {field}={value} ({lang})"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_no_catalogue_entry_names_a_field_no_procedure_has(ruleset: str, lang: str) -> None:
    cat = catalogue(ruleset, lang)
    procedures = get_ruleset(ruleset).procedures
    paths = {name: {p for p, _ in field_paths(proc.input_model.model_json_schema())} for name, proc in procedures.items()}
    every = set().union(*paths.values())
    bare = {p.rsplit(".", 1)[-1].removesuffix("[]") for p in every}
    assert set(cat["fields"]) <= every | bare, set(cat["fields"]) - every - bare
    for name, own in cat.get("procedure_fields", {}).items():
        assert set(own) <= paths[name], (name, set(own) - paths[name])
    assert set(cat["procedures"]) == set(procedures)
    assert set(cat.get("procedure_outcomes", {})) <= set(procedures)


def test_both_catalogues_of_a_ruleset_have_the_same_entries() -> None:
    for ruleset in ruleset_ids():
        en, ja = catalogue(ruleset, "en"), catalogue(ruleset, "ja")
        for table in ("procedures", "fields", "outcomes", "words"):
            assert set(en[table]) == set(ja[table]), (ruleset, table, set(en[table]) ^ set(ja[table]))
        assert {k: set(v) for k, v in en.get("procedure_fields", {}).items()} == {k: set(v) for k, v in ja.get("procedure_fields", {}).items()}
        assert {k: set(v) for k, v in en.get("procedure_outcomes", {}).items()} == {k: set(v) for k, v in ja.get("procedure_outcomes", {}).items()}


def test_every_word_the_page_asks_for_is_in_both_page_catalogues() -> None:
    en, ja = page_words("en"), page_words("ja")
    assert set(en) == set(ja)
    asked: set[str] = set()
    for script in STATIC.glob("js/*.js"):
        asked |= set(re.findall(r"\bt\(\s*\"(\w+)\"", script.read_text(encoding="utf-8")))
        asked |= {f"input_{name}" for name in ("a", "b")} if "t(`input_${" in script.read_text(encoding="utf-8") else set()
    # the keys the page makes from a name: each page's title and footer, a simulation's status, a board's units
    asked |= {f"{page}_{part}" for page in ("odds", "viewer", "play", "simulate") for part in ("title", "footer")}
    asked |= {f"sim_{status}" for status in ("queued", "running", "done", "failed")} | {f"units_{units}" for units in ("mm", "inch", "square")}
    asked |= {f"ai_{level}" for level in ("greedy", "search", "random")}  # the levels GET /api/ai offers (issue 23)
    asked |= {f"advice_{status}" for status in ("queued", "running", "done", "cancelled", "stopped", "failed")}
    assert asked and asked <= set(en), asked - set(en)
    for key in en:
        assert en[key] != ja[key] or key in {"api_docs", "p_exactly", "p_at_least", "legend_bars", "legend_curve", "none_value"}, key


def test_every_procedure_has_a_valid_starting_input() -> None:
    starts = starting_inputs()
    assert set(starts) == set(ruleset_ids())
    for ruleset in ruleset_ids():
        assert set(starts[ruleset]) == set(get_ruleset(ruleset).procedures)
        for name, value in starts[ruleset].items():
            assert sum(p for _, p in odds(ruleset, name, value).outcomes) == 1
