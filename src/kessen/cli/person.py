"""The person at the terminal: the board when it changed, the question once, the suggested options numbered with
their notation and exact odds (:mod:`kessen.cli.menu`), and the answers a person may type.

An answer is a number (a suggested option), any notation the ruleset parses (a free move anywhere the rules
allow), a square ``x,y`` where the menu groups destinations, or a command: ``help``, ``board``, ``reach``, ``odds
NOTATION``, ``advise [N]``, ``undo``, ``save [FILE]``, ``q``. The match referees every choice: an illegal one is
refused with its rule and reason (and, on a near miss, what was probably meant), and the question is asked again.
Every word comes from the catalogues (``cli`` for the terminal's own, the ruleset's for the game's).

[DECISION] Commands come before notation (a ruleset has no notation ``undo`` or ``board``) and are read in any
case. Notation is tried as typed, then with every name written in the referee's case (:mod:`kessen.cli.names`).

[DECISION] The board is drawn again before a decision only when a model moved, came or left, or lost or got back
wounds, or the terrain changed (an objective destroyed), as :func:`board_signature` reads ``Match.board()``; an
order given or a model activated is in the narration, and ``board`` draws it any time (issue 24 §7). Its last line,
what is asked, is left out: the question is printed once, above the options.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable

from rich.console import Console
from rich.markup import escape

from kessen import i18n
from kessen.cli.menu import Menu, odds_text
from kessen.cli.names import Vocabulary
from kessen.cli.sitting import QuitGame, Sitting, save_now
from kessen.core.board import Board
from kessen.core.errors import IllegalChoice, InputError, KessenError, NotNotation, error_line
from kessen.core.events import Event
from kessen.match import Option, PendingDecision

__all__ = ["Person", "board_signature", "notation_forms", "odds_text"]

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_POINT = re.compile(rf"{_NUMBER.pattern},{_NUMBER.pattern}")
_FORMS_SHOWN = 8


def board_signature(board: Board) -> object:
    """What a drawn board shows that play changes: where each model stands, its wounds, and the terrain."""
    models = tuple((m["id"], m["x"], m["y"], m["wounds"]) for m in board["models"])
    return models, tuple((t["kind"], str(t["points"])) for t in board["terrain"])


class Person:
    """Asks the person at the terminal each decision of the sides they play, until a choice is made or undone."""

    def __init__(self, sitting: Sitting, out: Console, narrate: Callable[[tuple[Event, ...]], None]) -> None:
        self.sitting, self.match, self.out, self.narrate = sitting, sitting.match, out, narrate
        self.lang = self.match.lang
        self.drawn: object = None  # the signature of the board last drawn
        self.menu: Menu | None = None
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:  # undecodable bytes arrive as lone surrogates instead of an exception
            reconfigure(errors="surrogateescape")

    def decide(self, decision: PendingDecision) -> None:
        """Show the decision and read answers until one makes a choice (the match then runs on) or undoes one."""
        board = self.match.board()
        if board_signature(board) != self.drawn:
            self.draw(board)
        self.menu = Menu.of(decision, board)
        self.ask(decision)
        while not self.answer(self.read(), decision):
            pass

    def draw(self, board: Board) -> None:
        """The board as the ruleset draws it, without its last line (what is asked: :meth:`ask` says it)."""
        self.out.print(self.match.show().rsplit("\n", 1)[0])
        self.drawn = board_signature(board)

    def ask(self, decision: PendingDecision) -> None:
        assert self.menu is not None
        self.out.print(f"[bold]{escape(decision.prompt)}[/bold]")
        for line in self.menu.lines(self.match.ruleset.id, self.lang):
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
        assert self.menu is not None
        command, _, rest = text.partition(" ")
        command, rest = command.lower(), rest.strip()
        count = len(self.menu.entries)
        if any("\udc80" <= c <= "\udcff" for c in text):
            self.say("not_utf8", count=count)
        elif not text:
            pass
        elif command in ("q", "quit") and not rest:
            raise QuitGame
        elif command == "help" and not rest:
            self.help(decision)
        elif command == "board" and not rest:
            self.draw(self.match.board())
            self.ask(decision)
        elif command == "reach" and not rest:
            self.out.print("\n".join(self.menu.reach_lines(self.match.board(), self.lang)), markup=False)
        elif command == "odds":
            self.odds(rest, decision)
        elif command == "advise":
            self.advise(rest)
        elif command == "undo" and not rest:
            return self.undo()
        elif command == "save":
            self.save(rest or None)
        elif text.isascii() and text.isdigit():
            chosen = self.menu.numbered(int(text)) if len(text) <= 6 else None
            if chosen is not None:
                self.match.choose(chosen, on_events=self.narrate)
                return True
            self.say("retry", count=count, answer=escape(repr(text)))
        else:
            return self.choose(self.menu.destination(text) or text, decision)
        return False

    def choose(self, choice: Option | str, decision: PendingDecision) -> bool:
        """Make a choice typed as notation: as typed, else with its names in the referee's case; True once made."""
        if isinstance(choice, Option):
            self.match.choose(choice, on_events=self.narrate)
            return True
        try:
            self.match.choose(choice, on_events=self.narrate)
            return True
        except IllegalChoice as refusal:
            first = refusal
        vocabulary = self.vocabulary(decision)
        canonical = vocabulary.canonical(choice)
        if canonical != choice:
            try:
                self.match.choose(canonical, on_events=self.narrate)
                return True
            except IllegalChoice as refusal:
                first = refusal
        self.refuse(first, vocabulary.suggestion(choice, [o.notation for o in decision.options]))
        return False

    def vocabulary(self, decision: PendingDecision) -> Vocabulary:
        """The names of this decision: the words of its suggested notations first, then every model's id and name,
        its unit and side."""
        board = self.match.board()
        written = [word for option in decision.options for word in option.notation.split()]
        named = [m["id"] for m in board["models"]] + [m["name"] for m in board["models"]]
        named += [m["group"] for m in board["models"] if m["group"]] + list(self.match.sides)
        return Vocabulary(written, named)

    def help(self, decision: PendingDecision) -> None:
        """The commands, then this decision's notation forms and a few examples, and where every form is listed."""
        assert self.menu is not None
        ruleset = self.match.ruleset.id
        notations = [o.notation for o in decision.options]
        what = i18n.catalogue(ruleset, self.lang).get("decisions", {}).get(decision.kind, decision.kind)
        lines = [self.text("help", count=len(self.menu.entries), example=notations[0])]
        if self.menu.groups:
            lines.append(self.text("help_reach", verb=self.menu.groups[0].verb))
        lines.append(self.text("help_forms", kind=what))
        lines += [f"  {form}" for form in notation_forms(notations)]
        lines.append(self.text("help_examples", examples=" | ".join(notations[:3])))
        if decision.free:
            lines.append(self.text("help_free"))
        lines.append(self.text("help_table", rules=ruleset))
        self.out.print("\n".join(lines), markup=False)

    def odds(self, notation: str, decision: PendingDecision) -> None:
        """The exact odds of a choice (its notation, or its number in the menu) before making it, or the refusal if
        it is not a legal choice here."""
        if not notation:
            self.say("odds_usage", example=escape(decision.options[0].notation))
            return
        assert self.menu is not None
        numbered = self.menu.numbered(int(notation)) if notation.isascii() and notation.isdigit() and len(notation) <= 6 else None
        if numbered is not None:
            notation = numbered.notation
        vocabulary = self.vocabulary(decision)
        try:
            found = self.match.odds(vocabulary.canonical(notation))
        except IllegalChoice as refusal:
            self.refuse(refusal, vocabulary.suggestion(notation, [o.notation for o in decision.options]))
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

    def refuse(self, refusal: IllegalChoice, meant: str | None = None) -> None:
        """A refused choice: the rule and its reason, or, for text that is no notation at all, what may be typed,
        in the player's language; and what was probably meant, on a near miss."""
        if isinstance(refusal, NotNotation):
            shown = ", ".join(repr(e) for e in refusal.examples)
            examples = self.text("not_notation_examples", examples=escape(shown)) if shown else ""
            self.say("not_notation", answer=escape(repr(refusal.text)), examples=examples)
        else:
            self.say("refused", reason=escape(str(refusal)))
        if meant is not None:
            self.say("did_you_mean", meant=escape(meant))


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
