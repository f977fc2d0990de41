"""The errors kessen raises on purpose, and the one line each is shown as (the CLI's stderr, the web's answer)."""

from __future__ import annotations

import math
import reprlib


class KessenError(Exception):
    """Base of every error kessen raises on purpose."""


class InputError(KessenError, ValueError):
    """Input outside what the rules allow: names the field, the expectation and the value."""

    NOTHING: object = object()  # the value of a field that is missing

    def __init__(self, field: str, value: object, reason: str) -> None:
        shown = "" if value is InputError.NOTHING else f" (got {_show(value)})"
        super().__init__(f"{field}: {reason}{shown}")
        self.field, self.value, self.reason = field, value, reason


class UnknownRulesetError(InputError):
    """A ruleset id that is not registered; the message lists the known ids."""

    def __init__(self, value: str, known: tuple[str, ...]) -> None:
        super().__init__("ruleset", value, f"unknown ruleset, expected one of {', '.join(known)}")


class UnknownProcedureError(InputError):
    """A procedure name that the ruleset does not have; the message lists its procedures."""

    def __init__(self, ruleset: str, value: str, known: tuple[str, ...]) -> None:
        super().__init__("procedure", value, f"{ruleset} has no such procedure, expected one of {', '.join(known)}")


class IllegalDecisionError(KessenError, ValueError):
    """A decision that is not legal at this node of the game."""

    def __init__(self, decision: object, where: str) -> None:
        super().__init__(f"decision: not legal in {where} (got {_show(decision)})")
        self.decision, self.where = decision, where


class SaveFileError(KessenError, ValueError):
    """A saved game that is damaged, truncated or does not replay."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


class _Shown(reprlib.Repr):
    """A value as an error shows it: its repr cut short at every level, so that a huge or deeply nested value
    costs no more to show than a small one, and an integer too long for ``str`` is shown by its size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother = 4, 100, 100
        self.maxtuple = self.maxlist = self.maxarray = self.maxdict = self.maxset = self.maxfrozenset = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 96:
            return f"a {math.floor(x.bit_length() * math.log10(2)) + 1}-digit integer"
        return repr(x)


_SHOWN = _Shown()


def _show(value: object) -> str:
    text = _SHOWN.repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class IllegalChoice(KessenError, ValueError):
    """A proposed choice the rules forbid at this decision: the message names the rule and the reason
    (``SB-MOVE-2: the path crosses orc-1's base``); *rule* is None only where no rule says it: a text that is no
    notation of this decision at all (:class:`NotNotation`), or notation that names nothing there is (an unknown
    id, a malformed number), whose reason then says what to write."""

    def __init__(self, rule: str | None, reason: str) -> None:
        super().__init__(f"{rule}: {reason}" if rule else reason)
        self.rule, self.reason = rule, reason


class NotNotation(IllegalChoice):
    """Text that is no notation of the decision at all (no rule forbids it: it says nothing the decision reads);
    *examples* are a few of the decision's forms, for the person to see what may be typed."""

    def __init__(self, text: str, examples: tuple[str, ...]) -> None:
        hint = f"; for example {', '.join(repr(e) for e in examples)}" if examples else ""
        super().__init__(None, f"not a choice here (got {text!r}){hint}")
        self.text, self.examples = text, examples


def error_line(error: BaseException | str) -> str:
    """The one line an error kessen refuses with is shown as: ``kessen: error: <message>``, any line break inside
    the message written out as ``\\n`` so that it stays one line. The CLI prints it on stderr (exit 2); the web
    answers it as ``{"error": ...}``.

    >>> error_line(InputError("seed", -1, "must be from 0 to 2^64 - 1"))
    'kessen: error: seed: must be from 0 to 2^64 - 1 (got -1)'
    >>> error_line("two\\nlines")
    'kessen: error: two\\\\nlines'
    """
    return f"kessen: error: {error}".replace("\r", "\\r").replace("\n", "\\n")
