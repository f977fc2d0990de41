"""The advisor at the terminal (issue 23 §3): ``advise [PLAYOUTS]`` at the ``kessen play`` prompt and ``kessen advise
SAVE``: each suggested option's chance to win and to draw, exact where the rest of the battle is small enough to walk
(with the worth under best play), else from playouts with a 95% interval."""

from __future__ import annotations

from rich.console import Console

from kessen import i18n
from kessen.ai.advisor import Chances
from kessen.core.errors import InputError
from kessen.match import Match

DEFAULT_PLAYOUTS = 100


def check_playouts(text: str, field: str = "advise") -> int:
    """The playouts a person typed (``advise 400``), or an InputError naming *field* and the value."""
    if not text:
        return DEFAULT_PLAYOUTS
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= 100_000):
        raise InputError(field, text, "give a number of playouts from 1 to 100,000")
    return int(text)


def percent(value: float) -> str:
    """A share as a percentage with one decimal (``37.5%``)."""
    return f"{100 * value:.1f}%"


def advice_lines(chances: list[Chances], lang: str) -> list[str]:
    """One line per option, in the order of the options: its number, notation, win and draw chances, and how they
    were found."""
    text = i18n.catalogue("cli", lang)["texts"]
    width = max(len(c.notation) for c in chances)
    lines = []
    for n, c in enumerate(chances, 1):
        if c.exact:
            how = text["advice_exact"].format(win=c.win, draw=c.draw)
            if c.best is not None:
                how += text["advice_best"].format(best=percent(float(c.best)), exact=c.best)
        else:
            how = text["advice_playouts"].format(low=percent(c.low), high=percent(c.high), playouts=c.playouts)
        lines.append(
            f"{n:>3}. {c.notation:<{width}}  " + text["advice_line"].format(win=percent(float(c.win)), draw=percent(float(c.draw))) + f"  ({how})"
        )
    return lines


def print_advice(match: Match, playouts: int, out: Console, lang: str) -> None:
    """Work out and print the advice for the person's pending decision, with a line on what plays after it."""
    chances = match.advise(playouts=playouts)
    level = next(iter(match.ai.values()), "greedy")
    text = i18n.catalogue("cli", lang)["texts"]
    out.print(text["advice_head"].format(level=level), markup=False)
    out.print("\n".join(advice_lines(chances, lang)), markup=False)


def advise_save(path: str, playouts: int, out: Console, lang: str | None = None) -> None:
    """``kessen advise SAVE``: the save replayed, then the advice for the next decision, whoever makes it."""
    sides = Match.load(path, people=()).sides
    match = Match.load(path, people=sides, lang=lang)
    match.run()
    if match.decision is None:
        raise InputError("SAVE", path, "the battle in this save is over: there is nothing to advise")
    print_advice(match, playouts, out, match.lang)
