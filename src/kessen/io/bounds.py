"""The bounds every input file is held to before it is parsed deeper: nesting depth, number size, finite numbers,
and for TOML the number of lines and of entries (what parsing costs).

A parser that recurses (``tomllib``, ``json``) is never handed text nested deeper than :data:`MAX_DEPTH`: the text
is scanned first (outside strings and comments), so a hostile file is refused in linear time with one line
instead of a ``RecursionError``. A TOML text is refused too when it has more lines (:data:`MAX_TOML_LINES`) or
entries (:data:`MAX_TOML_ENTRIES`) than any scenario needs: ``tomllib`` takes about 15 µs a table, so 60,000 empty
tables would hold a request for a second or more; they are counted in milliseconds. The scan runs at the speed of
the regular-expression engine, and only a file that may break a bound is scanned again token by token to name where. After parsing, :func:`check_tree` walks the
data without recursion, when the scan or the JSON parser saw something that may break a bound (an integer beyond
:data:`MAX_INTEGER`, NaN, an infinity, a key given twice, nesting built from TOML's dotted keys), and names the
field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from kessen.core.errors import InputError

MAX_DEPTH = 32
"""The deepest nesting of lists and tables any kessen file needs (the shipped ones reach 8)."""

MAX_INTEGER = 2**64 - 1
"""The largest integer magnitude in any input (a 64-bit seed); every field narrows it further."""

MAX_DIGITS = 30
"""The longest run of digits a number in a file may have (a larger one cannot be a sane value)."""

MAX_TOML_ENTRIES = 50_000
"""[DECISION] The most keys, tables, lists and list entries a TOML text may have, counted as its ``=``, ``[``, ``{`` and
``,`` outside strings and comments (a comma between two keys of an inline table counts beside their ``=``). The
largest scenario the rulesets' limits allow has about 30,000 (50 legions profiles of 8 weapons of 4 profiles each,
2,000 blocked lines of sight); the shipped ones have under 500. Reading 50,000 empty tables takes ``tomllib`` about
0.4 s on one core."""

MAX_TOML_LINES = 100_000
"""[DECISION] The most lines a TOML text may have: twice the entries, for comments and blank lines (100,000 comment
lines take ``tomllib`` about 0.1 s)."""

_TOML_MARKS = "=[{,"


class Described:
    """A value shown in an error by a description, for values too large to print (``a 5000-digit integer``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class HugeInteger(Described):
    """An integer literal of JSON text with more digits than :data:`MAX_DIGITS`, kept unconverted."""


class NotFinite(Described):
    """``NaN``, ``Infinity`` or ``-Infinity`` in JSON text."""


class DuplicateKey:
    """A JSON object that gives one key twice (*key*); the walk reports it at the object's path."""

    def __init__(self, key: str) -> None:
        self.key = key


def field_path(loc: tuple[int | str, ...]) -> str:
    """``('enemies', 0, 'combat')`` → ``enemies[0].combat``; the empty path is ``input``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "input"


def too_deep(field: str) -> InputError:
    return InputError(field, InputError.NOTHING, f"nested more than {MAX_DEPTH} levels deep")


_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _deepest(text: str) -> int:
    """The deepest bracket nesting of *text* (strings already taken out)."""
    return max(accumulate(map(_STEP.__getitem__, _NOT_BRACKET.sub("", text))), default=0)


# --- JSON ------------------------------------------------------------------------------------

_JSON_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?'
_JSON_STRINGS = re.compile(_JSON_STRING, re.S)
_JSON_TOKEN = re.compile(rf"{_JSON_STRING}|[\[\]{{}},:]", re.S)


def scan_json(text: str, source: str | None) -> None:
    """Refuse JSON text nested deeper than :data:`MAX_DEPTH`, naming the field where it gets too deep."""
    if _deepest(_JSON_STRINGS.sub("", text)) <= MAX_DEPTH:
        return
    stack: list[list[Any]] = []  # per open container: [is it an object, its current key or index]
    last_string: str | None = None
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            last_string = token
            continue
        if token in "[{":
            stack.append([token == "{", 0])
            if len(stack) > MAX_DEPTH:
                raise too_deep(prefixed(source, short_path(tuple(entry[1] for entry in stack[:-1]))))
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ":" and stack and stack[-1][0] and last_string is not None:
            stack[-1][1] = last_string[1:-1]
        elif token == "," and stack and not stack[-1][0]:
            stack[-1][1] += 1
        last_string = None


class JsonHooks:
    """The ``json.loads`` hooks that keep what must be refused (an integer too long to convert, NaN, a key given
    twice) as markers, and note in ``suspect`` whether :func:`check_tree` must walk the data to find them."""

    def __init__(self) -> None:
        self.suspect = False

    def keywords(self) -> dict[str, Any]:
        return {"parse_int": self.integer, "parse_float": self.number, "parse_constant": self.constant, "object_pairs_hook": self.object}

    def integer(self, digits: str) -> int | HugeInteger:
        size = len(digits.lstrip("-"))
        self.suspect = self.suspect or size > 19
        return HugeInteger(f"a {size}-digit integer") if size > MAX_DIGITS else int(digits)

    def number(self, digits: str) -> float:
        value = float(digits)
        self.suspect = self.suspect or not math.isfinite(value)
        return value

    def constant(self, name: str) -> NotFinite:
        self.suspect = True
        return NotFinite(name)

    def object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any] | DuplicateKey:
        found = dict(pairs)
        if len(found) == len(pairs):
            return found
        self.suspect = True
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                return DuplicateKey(key)
            seen.add(key)
        raise AssertionError("a shorter dict has a repeated key")


# --- TOML ------------------------------------------------------------------------------------

_TOML_SKIPPED = (
    r'"""(?:[^"\\]++|\\.|"{1,2}+(?!"))*+(?:"{3,5})?'  # multi-line basic string (up to two quotes before its end)
    r"|'''(?:[^']++|'{1,2}+(?!'))*+(?:'{3,5})?"  # multi-line literal string
    r'|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?'  # basic string
    r"|'[^'\n]*+'?"  # literal string
    r"|#[^\n]*+"  # comment
)
_TOML_STRINGS = re.compile(_TOML_SKIPPED, re.S)
_TOML_TOKEN = re.compile(rf"{_TOML_SKIPPED}|[0-9_]{{{MAX_DIGITS + 1},}}|[\[\]{{}}.=,\n]", re.S)
_TOML_SUSPECT_NUMBER = re.compile(r"[0-9_]{20,}|0[xob][0-9A-Fa-f_]{17,}|(?<![\w-])[+-]?(?:nan|inf)(?![\w-])")


def scan_toml(text: str, source: str) -> bool:
    """Refuse TOML text of more lines or entries than :data:`MAX_TOML_LINES` and :data:`MAX_TOML_ENTRIES`, nested
    deeper than :data:`MAX_DEPTH` (brackets, braces and dotted keys) or holding a number longer than
    :data:`MAX_DIGITS` digits, naming the line; return whether the parsed data must be walked by :func:`check_tree`
    (numbers that may be out of bounds, or keys dotted deep enough to nest too far).

    >>> scan_toml("[t]\\n" * 60_000, "big.toml")
    Traceback (most recent call last):
    kessen.core.errors.InputError: big.toml: more than 50,000 keys, tables and list entries (60,000 of =, [, { and , outside strings and comments)
    """
    _check_toml_size(text, source)
    bare = _TOML_STRINGS.sub(" ", text)
    entries = sum(map(bare.count, _TOML_MARKS))
    if entries > MAX_TOML_ENTRIES:
        reason = f"more than {MAX_TOML_ENTRIES:,} keys, tables and list entries ({entries:,} of =, [, {{ and , outside strings and comments)"
        raise InputError(source, InputError.NOTHING, reason)
    deepest = _deepest(bare)
    # a value sits under keys (a table header's, its own, one per inline table around it), each of at most
    # *dots* + 1 dotted parts, and inside at most *deepest* brackets: then it is nested at most MAX_DEPTH deep
    dots = (MAX_DEPTH - 2 - deepest) // (deepest + 2) - 1
    if dots < 0 or re.search(rf"(?:\.[^=,\n\[\]{{}}.]*+){{{dots + 1}}}", bare) or _TOML_SUSPECT_NUMBER.search(bare):
        _scan_toml_tokens(text, source)
        return True
    return False


def _check_toml_size(text: str, source: str) -> None:
    lines = text.count("\n") + 1
    if lines > MAX_TOML_LINES:
        raise InputError(source, InputError.NOTHING, f"more than {MAX_TOML_LINES:,} lines ({lines:,})")


def _scan_toml_tokens(text: str, source: str) -> None:
    depth = dots = 0
    for match in _TOML_TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "[{":
            depth += 1
            dots = 0
        elif first in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif first == ".":
            dots += 1
        elif first in "=,\n":
            dots = 0
            continue
        elif first in "0123456789_":
            raise InputError(_line(source, text, match.start()), InputError.NOTHING, f"a number of more than {MAX_DIGITS} digits")
        else:
            continue
        if depth + dots > MAX_DEPTH:
            raise too_deep(_line(source, text, match.start()))


def _line(source: str, text: str, at: int) -> str:
    return f"{source}: line {text.count(chr(10), 0, at) + 1}"


# --- the parsed data -------------------------------------------------------------------------


def check_tree(data: Any, source: str | None) -> None:
    """Walk parsed data (no recursion): refuse nesting beyond :data:`MAX_DEPTH`, integers beyond
    :data:`MAX_INTEGER`, NaN and infinities, and keys given twice; the error names the field."""
    for value, path, depth in _nodes(data):
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise too_deep(prefixed(source, short_path(path)))
        elif isinstance(value, bool | str) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                raise InputError(prefixed(source, field_path(path)), value, "integer too large (more than 64 bits)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise InputError(prefixed(source, field_path(path)), value, "must be a finite number")
        elif isinstance(value, HugeInteger):
            raise InputError(prefixed(source, field_path(path)), value, "integer too large (more than 64 bits)")
        elif isinstance(value, NotFinite):
            raise InputError(prefixed(source, field_path(path)), value, "must be a finite number")
        elif isinstance(value, DuplicateKey):
            raise InputError(prefixed(source, field_path((*path, value.key))), InputError.NOTHING, "the key is given twice")


def _nodes(data: Any) -> Iterator[tuple[Any, tuple[int | str, ...], int]]:
    """Every value inside *data* in document order, with its path and its depth (the root is at depth 1)."""
    stack: list[tuple[Any, tuple[int | str, ...], int]] = [(data, (), 1)]
    while stack:
        value, path, depth = stack.pop()
        yield value, path, depth
        if isinstance(value, dict):
            stack.extend((inner, (*path, str(key)), depth + 1) for key, inner in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((inner, (*path, i), depth + 1) for i, inner in reversed(list(enumerate(value))))


def short_path(path: tuple[int | str, ...]) -> str:
    """The first two steps of a deep field's path (``quality[0]...``): enough to find it, short enough to read."""
    return field_path(path[:2]) + ("..." if len(path) > 2 else "") if path else ""


def prefixed(source: str | None, field: str) -> str:
    """*field* of the file *source* (``game.json: seed``); the file alone for its root; ``input`` for neither."""
    if source is None:
        return field or "input"
    return f"{source}: {field}" if field else source
