"""Message catalogues (en, ja): event texts per ruleset, kept as data in ``<ruleset>.<lang>.toml`` here, or for a
ruleset registered from outside kessen (``kessen.rulesets.register``) in its own package's ``i18n/`` folder."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from kessen.core.errors import InputError
from kessen.core.events import Event

LANGUAGES = ("en", "ja")
_NAMES = frozenset({"model", "attacker", "defender", "toward", "side", "first"})  # ids and names: never translated


@functools.cache
def catalogue(ruleset: str, lang: str) -> dict[str, Any]:
    """The catalogue of a ruleset in a language: ``events`` (type → template) and ``values`` (word → text)."""
    if lang not in LANGUAGES:
        raise InputError("--lang", lang, f"must be one of {', '.join(LANGUAGES)}")
    name = f"{ruleset}.{lang}.toml"
    found = resources.files("kessen.i18n").joinpath(name)
    if not found.is_file():
        from kessen.rulesets import get_ruleset

        package = get_ruleset(ruleset).package
        if package is not None:
            found = resources.files(package).joinpath("i18n", name)
    return tomllib.loads(found.read_text(encoding="utf-8"))


def narrate(ruleset: str, event: Event, lang: str) -> str:
    """One event as a line of the battle report; values named in the catalogue are translated."""
    cat = catalogue(ruleset, lang)
    values = cat.get("values", {})
    fields = {k: v if k in _NAMES else _word(k, v, values) for k, v in event.fields().items()}
    template = cat["events"].get(event.type)
    if template is None:
        return f"{event.type}: " + ", ".join(f"{k}={v}" for k, v in fields.items())
    return str(template).format(**fields)


def faces_text(rolls: tuple[int, ...] | tuple[tuple[int, ...], ...], *, then: str = "→") -> str:
    """Natural dice as a player reads them: ``5 2 1``; a roll of two dice, the second rolled after the first (a 6/4
    To Wound roll), as ``6→4``.

    >>> faces_text((5, 2, 1)), faces_text(((3,), (6, 4)))
    ('5 2 1', '3 6→4')
    """
    return " ".join(then.join(str(f) for f in r) if isinstance(r, tuple) else str(r) for r in rolls)


def signed(n: int) -> str:
    """A modifier as a player writes it: ``+1``, ``−1`` (a minus sign), or nothing for 0.

    >>> signed(1), signed(-1), signed(0)
    ('+1', '−1', '')
    """
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else ""


def text(ruleset: str, key: str, lang: str, **fields: Any) -> str:
    """A fixed text of the catalogue (``texts`` table), formatted with *fields*."""
    cat = catalogue(ruleset, lang)
    values = cat.get("values", {})
    return str(cat["texts"][key]).format(**{k: _word(k, v, values) for k, v in fields.items()})


def _word(key: str, value: Any, values: dict[str, str]) -> Any:
    """A value as the catalogue words it; a flag reads ``<field>_yes`` / ``<field>_no`` (empty if absent)."""
    if isinstance(value, bool):
        return values.get(f"{key}_{'yes' if value else 'no'}", "")
    if isinstance(value, str):
        return values.get(value, value)
    return value


def option_text(ruleset: str, lang: str, key: str, **fields: object) -> str:
    """A text of the ruleset catalogue's ``options`` table, formatted with *fields* as they are (ids and names
    are never translated; translate a rules word with :func:`option_word` first)."""
    return str(catalogue(ruleset, lang)["options"][key]).format(**fields)


def option_word(ruleset: str, lang: str, word: str) -> str:
    """A rules word (a phase, an Order, a purpose, a status) as the catalogue's ``option_words`` table says it."""
    return str(catalogue(ruleset, lang).get("option_words", {}).get(word, word))


def summary_label(ruleset: str, lang: str, key: str) -> str:
    """The label of a key of a battle's summary: the ruleset catalogue's ``summary`` table (its own keys, saying
    whose numbers they are), else the ``cli`` catalogue's (the keys every ruleset shares), else the key itself."""
    for name in (ruleset, "cli"):
        label = catalogue(name, lang).get("summary", {}).get(key)
        if label is not None:
            return str(label)
    return key.replace("_", " ")


def summary_word(ruleset: str, lang: str, word: str) -> str:
    """A word among a summary's values (``decisive``, ``yes``) as the ruleset catalogue's ``values`` table says it,
    else the ``cli`` catalogue's, else the word itself."""
    for name in (ruleset, "cli"):
        said = catalogue(name, lang).get("values", {}).get(word)
        if said is not None:
            return str(said)
    return word
