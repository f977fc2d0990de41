"""Names at the ``kessen play`` prompt (issue 24 §7): models, units and sides matched without regard to case, and "did
you mean" on a near miss (sides on the command line: :mod:`kessen.core.names`).

[DECISION] Case never decides between two names: where a scenario has two names that differ only in case, neither is
matched without its own case. At the prompt, a name that a suggested notation writes wins over a model's id of the
same letters, which wins over its name, its unit and its side (the notation's case is the one the referee parses).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kessen.core.names import did_you_mean

_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?(?:,-?\d+(?:\.\d+)?)?")


class Vocabulary:
    """The names a person may type at a decision, each in the case the referee reads: *first* (the words of the
    suggested notations) before *rest* (ids, names, units, sides)."""

    def __init__(self, first: Iterable[str], rest: Iterable[str]) -> None:
        self.known: dict[str, str] = {}
        taken: set[str] = set()
        for names in (first, rest):
            level: dict[str, set[str]] = {}
            for name in names:
                if name and not _NUMBERS.fullmatch(name):
                    level.setdefault(name.casefold(), set()).add(name)
            for folded, spelt in level.items():
                if folded not in taken and len(spelt) == 1:
                    self.known[folded] = next(iter(spelt))
                taken.add(folded)
        longest_first = sorted(self.known, key=len, reverse=True)
        alternatives = "|".join(re.escape(name) for name in longest_first)
        self._pattern = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE) if alternatives else None

    def canonical(self, text: str) -> str:
        """*text* with every known name written in the referee's case (``activate HERO 1`` → ``activate hero 1``)."""
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda found: self.known.get(found.group(0).casefold(), found.group(0)), text)

    def suggestion(self, text: str, notations: Iterable[str]) -> str | None:
        """What *text* probably meant when it has a word that is no known name (nor a number or point): the closest
        suggested notation, else *text* with each such word replaced by the closest name; None when every word is
        known or nothing is close."""
        typed = self.canonical(text)
        words = {word for name in self.known.values() for word in name.split() if not _NUMBERS.fullmatch(word)}
        folded = {word.casefold() for word in words}
        if all(word.casefold() in folded or _NUMBERS.fullmatch(word) for word in typed.split()):
            return None  # every name is right: the referee's reason says what is wrong
        close = did_you_mean(typed, notations)
        if close is not None:
            return close
        fixed = [
            word if word.casefold() in folded or _NUMBERS.fullmatch(word) else (did_you_mean(word, words) or word)
            for word in typed.split()
        ]
        guess = self.canonical(" ".join(fixed))
        return guess if guess != typed else None
