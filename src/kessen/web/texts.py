"""The page's words: its own catalogue, and per ruleset the labels and descriptions of every input field,
outcome field and value, in English and Japanese (``text/<name>.<lang>.toml``).

A ruleset catalogue holds ``title``, ``[procedures]`` (name → ``[title, summary]``), ``[fields]`` (a field path or a bare field
name → its label in English, whose description is the input model's own; ``[label, description]`` in any other
language), ``[procedure_fields.<procedure>]`` (the same, for one procedure only),
``[outcomes]`` (outcome field → label; ``name_#`` stands for ``name_1``, ``name_2``, ... with ``{n}`` in the label),
``[procedure_outcomes.<procedure>]`` (the same, for one procedure only) and ``[words]`` (an enum or outcome value →
its word; ``field=value`` for a word that depends on the field). ``text/starting-inputs.toml`` holds the input each
procedure's form opens with.
A field path names list entries with ``[]`` and nested objects with ``.``: ``enemies[].combat``, ``a.caf``.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from kessen.core.errors import InputError
from kessen.i18n import LANGUAGES
from kessen.rulesets import get_ruleset


def check_language(lang: str) -> str:
    """*lang* if the page speaks it, else an :class:`InputError` on ``lang``."""
    if lang not in LANGUAGES:
        raise InputError("lang", lang, f"must be one of {', '.join(LANGUAGES)}")
    return lang


@functools.cache
def catalogue(name: str, lang: str) -> dict[str, Any]:
    """The catalogue ``text/<name>.<lang>.toml`` (``page`` or a ruleset id)."""
    text = resources.files("kessen.web").joinpath("text", f"{name}.{check_language(lang)}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def page_words(lang: str) -> dict[str, Any]:
    """The page's own words (buttons, headings, messages) in *lang*."""
    return catalogue("page", lang)


def field_paths(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every field of an input schema as ``(path, schema)``, parents before their children, ``$ref`` resolved.

    >>> [p for p, _ in field_paths({"properties": {"a": {"type": "integer"}, "l": {"type": "array", "items":
    ...     {"$ref": "#/$defs/E"}}}, "$defs": {"E": {"properties": {"x": {"type": "boolean"}}}}})]
    ['a', 'l', 'l[].x']
    """
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        return resolve(defs[ref.rsplit("/", 1)[1]]) if isinstance(ref, str) else node

    def walk(node: dict[str, Any], prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
        for name, child in resolve(node).get("properties", {}).items():
            path = f"{prefix}{name}"
            child = resolve(child)
            yield path, child
            if "properties" in child:
                yield from walk(child, f"{path}.")
            items = child.get("items")
            if isinstance(items, dict) and "properties" in resolve(items):
                yield from walk(items, f"{path}[].")

    yield from walk(schema, "")


def ruleset_texts(ruleset_id: str, lang: str) -> dict[str, Any]:
    """Everything the page shows about a ruleset in *lang*: title, and per procedure its summary, the label and
    description of each input field path, the outcome labels and the value words.

    Each English description is written once, in the input model (the schema's, shown with a capital letter). A text
    missing from the catalogue, or a ruleset without one, falls back to the schema's title (or the bare name) and
    description, and the registry's title and summaries; the tests hold the shipped catalogues complete.
    """
    ruleset = get_ruleset(ruleset_id)
    cat = _catalogue_if_any(ruleset.id, lang)
    procedures: dict[str, Any] = {}
    for name, procedure in ruleset.procedures.items():
        own = cat.get("procedure_fields", {}).get(name, {})
        fields: dict[str, dict[str, str]] = {}
        for path, schema in field_paths(procedure.input_model.model_json_schema()):
            bare = path.rsplit(".", 1)[-1].removesuffix("[]")
            entry = own.get(path) or cat.get("fields", {}).get(path) or cat.get("fields", {}).get(bare) or schema.get("title", bare)
            label, description = (entry, _sentence(schema.get("description", ""))) if isinstance(entry, str) else entry
            fields[path] = {"label": label, "description": description}
        title, summary = cat.get("procedures", {}).get(name) or (name, procedure.summary)
        procedures[name] = {
            "title": title,
            "summary": summary,
            "fields": fields,
            "outcomes": {**cat.get("outcomes", {}), **cat.get("procedure_outcomes", {}).get(name, {})},
            "start": starting_inputs().get(ruleset.id, {}).get(name, {}),
        }
    return {"title": cat.get("title", ruleset.title), "procedures": procedures, "words": dict(cat.get("words", {}))}


def page_status_words(ruleset_id: str, lang: str) -> dict[str, str]:
    """The words the board's legend gives the ruleset's status ids (its catalogue's ``[status]`` table)."""
    return {str(k): str(v) for k, v in _catalogue_if_any(ruleset_id, lang).get("status", {}).items()}


def _catalogue_if_any(ruleset_id: str, lang: str) -> dict[str, Any]:
    """The ruleset's catalogue in *lang*, or nothing when it has none (a ruleset added without its page texts)."""
    try:
        return catalogue(ruleset_id, lang)
    except FileNotFoundError:
        return {}


def _sentence(text: str) -> str:
    """A schema's description as the page shows it: from a capital letter."""
    return text[:1].upper() + text[1:]


@functools.cache
def starting_inputs() -> dict[str, dict[str, dict[str, Any]]]:
    """Ruleset → procedure → the input its form opens with (``text/starting-inputs.toml``)."""
    text = resources.files("kessen.web").joinpath("text", "starting-inputs.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)
