"""The person at the terminal: the board, the question, the suggested options numbered with their notation and
exact odds, and the answers a person may type.

An answer is a number (a suggested option), any notation the ruleset parses (a free move anywhere the rules
allow), or a command: ``help``, ``board``, ``odds NOTATION``, ``advise [N]``, ``undo``, ``save [FILE]``, ``q``. The match referees
every choice: an illegal one is refused with its rule and reason, and the question is asked again. Every word
comes from the catalogues (``cli`` for the terminal's own, the ruleset's for the game's).

[DECISION] Commands come before notation (a ruleset has no notation ``undo`` or ``board``) and are read in any
case; notation keeps its case (ids are case-sensitive).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape

from kessen import i18n
from kessen.cli.sitting import QuitGame, Sitting, save_now
from kessen.core.errors import IllegalChoice, InputError, KessenError, NotNotation, error_line
from kessen.core.events import Event
from kessen.match import PendingDecision

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_POINT = re.compile(rf"{_NUMBER.pattern},{_NUMBER.pattern}")
_FORMS_SHOWN = 8


class Person:
    """Asks the person at the terminal each decision of the sides they play, until a choice is made or undone."""

    def __init__(self, sitting: Sitting, out: Console, narrate: Callable[[tuple[Event, ...]], None]) -> None:
        self.sitting, self.match, self.out, self.narrate = sitting, sitting.match, out, narrate
        self.lang = self.match.lang
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:  # undecodable bytes arrive as lone surrogates instead of an exception
            reconfigure(errors="surrogateescape")

    def decide(self, decision: PendingDecision) -> None:
        """Show the decision and read answers until one makes a choice (the match then runs on) or undoes one."""
        self.show(decision)
        while not self.answer(self.read(), decision):
            pass

    def show(self, decision: PendingDecision) -> None:
        board = self.match.show()
        self.out.print(board)
        if board.rstrip().rsplit("\n", 1)[-1].strip() != decision.prompt:  # a board may end with the question already
            self.out.print(f"[bold]{escape(decision.prompt)}[/bold]")
        for line in option_lines(self.match.ruleset.id, self.lang, decision):
            self.out.print(line, markup=False)

    def read(self) -> str:
        try:
            return self.out.input(self.text("choice")).strip()
        except EOFError:
            self.out.print()
            raise QuitGame("end_of_input") from None
        except KeyboardInterrupt:
            self.out.print()  # the notice that the game was saved goes on a line of its own
            raise

    def answer(self, text: str, decision: PendingDecision) -> bool:
        """Act on one answer; True once the decision is made or undone (the next one is to be shown)."""
        command, _, rest = text.partition(" ")
        command, rest = command.lower(), rest.strip()
        count = len(decision.options)
        if any("\udc80" <= c <= "\udcff" for c in text):
            self.say("not_utf8", count=count)
        elif not text:
            pass
        elif command in ("q", "quit") and not rest:
            raise QuitGame
        elif command == "help" and not rest:
            self.help(decision)
        elif command == "board" and not rest:
            self.out.print(self.match.show())
        elif command == "odds":
            self.odds(rest, decision)
        elif command == "advise":
            self.advise(rest)
        elif command == "undo" and not rest:
            return self.undo()
        elif command == "save":
            self.save(rest or None)
        elif text.isascii() and text.isdigit():
            if len(text) <= 6 and 1 <= int(text) <= count:
                self.match.choose(decision.options[int(text) - 1], on_events=self.narrate)
                return True
            self.say("retry", count=count, answer=escape(repr(text)))
        else:
            try:
                self.match.choose(text, on_events=self.narrate)
            except IllegalChoice as refusal:
                self.refuse(refusal)
                return False
            return True
        return False

    def help(self, decision: PendingDecision) -> None:
        """The commands, then this decision's notation forms and a few examples, and where every form is listed."""
        ruleset = self.match.ruleset.id
        notations = [o.notation for o in decision.options]
        what = i18n.catalogue(ruleset, self.lang).get("decisions", {}).get(decision.kind, decision.kind)
        lines = [self.text("help", count=len(decision.options), example=notations[0])]
        lines.append(self.text("help_forms", kind=what))
        lines += [f"  {form}" for form in notation_forms(notations)]
        lines.append(self.text("help_examples", examples=" | ".join(notations[:3])))
        if decision.free:
            lines.append(self.text("help_free"))
        lines.append(self.text("help_table", rules=ruleset))
        self.out.print("\n".join(lines), markup=False)

    def odds(self, notation: str, decision: PendingDecision) -> None:
        """The exact odds of a choice before making it (or the refusal, if it is not a legal choice here)."""
        if not notation:
            self.say("odds_usage", example=escape(decision.options[0].notation))
            return
        try:
            found = self.match.odds(notation)
        except IllegalChoice as refusal:
            self.refuse(refusal)
            return
        if not found:
            self.say("no_odds", choice=escape(notation))
            return
        shown = odds_text(self.match.ruleset.id, self.lang, found, exact=True)
        self.out.print(self.text("odds", choice=notation, odds=shown), markup=False)

    def advise(self, playouts: str) -> None:
        """Each option's chance to win (``kessen.cli.advice``); a bad number of playouts is refused."""
        from kessen.cli.advice import check_playouts, print_advice

        try:
            count = check_playouts(playouts)
        except InputError as error:
            self.out.print(self.text("refused", reason=escape(error.reason)))
            return
        print_advice(self.match, count, self.out, self.lang)

    def undo(self) -> bool:
        if not self.match.can_undo:
            self.say("nothing_to_undo")
            return False
        self.match.undo()
        self.say("undone")
        return True

    def save(self, path: str | None) -> None:
        """Save now, to *path* (which keeps the game from then on) or where stopping would save it."""
        where = path or self.sitting.keeps_to
        assert where is not None  # a person always has a default save file (Sitting.checked)
        try:
            save_now(self.sitting, where, None)
        except KessenError as error:
            self.out.print(error_line(error), markup=False)
            return
        # [DECISION] once saved, the game is kept in that file: q, the end of input and the end of the battle
        # write it again (a default file holds this game alone, so it is never another game's file overwritten)
        self.sitting.save_path = where
        self.say("saved", path=escape(where))

    def text(self, key: str, **fields: object) -> str:
        return i18n.text("cli", key, self.lang, **fields)

    def say(self, key: str, **fields: object) -> None:
        self.out.print(self.text(key, **fields))

    def refuse(self, refusal: IllegalChoice) -> None:
        """A refused choice: the rule and its reason, or, for text that is no notation at all, what may be typed,
        in the player's language."""
        if isinstance(refusal, NotNotation):
            shown = ", ".join(repr(e) for e in refusal.examples)
            examples = self.text("not_notation_examples", examples=escape(shown)) if shown else ""
            self.say("not_notation", answer=escape(repr(refusal.text)), examples=examples)
        else:
            self.say("refused", reason=escape(str(refusal)))


def option_lines(ruleset: str, lang: str, decision: PendingDecision) -> list[str]:
    """The suggested options, numbered: the words, the notation (when it says something the words do not) and the
    exact odds, in aligned columns."""
    rows = [
        (option.text, "" if option.notation == option.text else f"[{option.notation}]", odds_text(ruleset, lang, option.odds) if option.odds else "")
        for option in decision.options
    ]
    words = max(cell_len(r[0]) for r in rows)
    notations = max(cell_len(r[1]) for r in rows)
    lines = []
    for n, (text, notation, odds) in enumerate(rows, 1):
        cells = [text + " " * (words - cell_len(text))]
        if notations:
            cells.append(notation + " " * (notations - cell_len(notation)))
        if odds:
            cells.append(odds)
        lines.append(f"{n:4}. " + "  ".join(cells).rstrip())
    return lines


def odds_text(ruleset: str, lang: str, odds: Mapping[str, Fraction], *, exact: bool = False) -> str:
    """The odds of a choice as a player reads them, each labelled from the ruleset catalogue's ``[odds]`` table.

    [DECISION] A number whose key starts with ``expected_`` or ``mean_`` is an expectation (a count, damage),
    shown as its exact fraction and its decimal; every other is a probability, shown as a percentage beside its
    exact fraction (the menu rounds to one decimal, ``odds NOTATION`` to two).

    >>> odds_text("song-of-blades", "en", {"made_it": Fraction(5, 6), "expected_hits": Fraction(2, 3)})
    'made it 83.3% (5/6), expected hits 2/3 = 0.667'
    >>> odds_text("song-of-blades", "en", {"mean_wounds": Fraction(7), "sure": Fraction(1)}, exact=True)
    'mean wounds 7, sure 100.00% (1)'
    """
    labels = i18n.catalogue(ruleset, lang).get("odds", {})
    return ", ".join(f"{labels.get(key, key.replace('_', ' '))} {_number(key, Fraction(value), exact)}" for key, value in odds.items())


def _number(key: str, value: Fraction, exact: bool) -> str:
    fraction = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    if key.startswith(("expected_", "mean_")):
        return fraction if value.denominator == 1 else f"{fraction} = {float(value):.3g}"
    return f"{float(value) * 100:.{2 if exact else 1}f}% ({fraction})"


def notation_forms(notations: Iterable[str]) -> list[str]:
    """The forms a decision's suggested notations take: every point written ``x,y``, every other number ``N``, each
    form once, in order; the list cut short after a few.

    >>> notation_forms(["activate k1 1", "activate k1 2", "move k1 to 312,440.5", "move k1 to 3,4", "end"])
    ['activate k1 N', 'move k1 to x,y', 'end']
    """
    forms: list[str] = []
    for notation in notations:
        words = ["x,y" if _POINT.fullmatch(w) else "N" if _NUMBER.fullmatch(w) else w for w in notation.split()]
        form = " ".join(words)
        if form not in forms:
            forms.append(form)
    return forms if len(forms) <= _FORMS_SHOWN else [*forms[: _FORMS_SHOWN - 1], "…"]
