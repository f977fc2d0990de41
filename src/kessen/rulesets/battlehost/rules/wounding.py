"""The To Wound roll and the wound chart (BH-WOUND-1..4)."""

from __future__ import annotations

from fractions import Fraction
from math import prod

from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw, uniform_face, weighted
from kessen.rulesets.battlehost.rules.dice import FACES, HIGHEST_SCORE, faces_scoring, raise_with_might, score

# BH-STRIKE-6: a striker using a two-handed weapon adds +1 to each die of its To Wound rolls.
TWO_HANDED_TO_WOUND = 1


@record
class WoundEntry:
    """One entry of the wound chart: "N", "6/N" or "-" (BH-WOUND-1).

    *needed* is the score needed on the first die (None for "-"); *then* is the score needed on
    the second die of a 6/N entry (None otherwise).
    """

    needed: int | None
    then: int | None = None

    @property
    def impossible(self) -> bool:
        """Whether this is the "-" entry, which never wounds."""
        return self.needed is None

    def __str__(self) -> str:
        return format_entry(self)

    def __repr__(self) -> str:
        return f"WoundEntry({format_entry(self)!r})"


IMPOSSIBLE = WoundEntry(None)


def parse_entry(text: str) -> WoundEntry:
    """A chart entry from its printed form; the inverse of :func:`format_entry` (BH-WOUND-1).

    >>> parse_entry("5"), parse_entry("6/4"), parse_entry("-")
    (WoundEntry('5'), WoundEntry('6/4'), WoundEntry('-'))
    """
    text = text.strip()
    if text == "-":
        return IMPOSSIBLE
    first, slash, second = text.partition("/")
    if not first.isdigit() or (slash and not second.isdigit()):
        raise ValueError(f'a wound chart entry is "N", "6/N" or "-" (got {text!r})')
    if slash:
        if int(first) != 6 or not 4 <= int(second) <= 6:
            raise ValueError(f"a two-dice entry is 6/4, 6/5 or 6/6 (got {text!r})")
        return WoundEntry(6, int(second))
    if not 3 <= int(first) <= 6:
        raise ValueError(f"a one-die entry is 3 to 6 (got {text!r})")
    return WoundEntry(int(first))


def format_entry(entry: WoundEntry) -> str:
    """The printed form of a chart entry: "4", "6/5" or "-".

    >>> format_entry(WoundEntry(6, 5))
    '6/5'
    """
    if entry.needed is None:
        return "-"
    return f"{entry.needed}/{entry.then}" if entry.then is not None else str(entry.needed)


def wound_chart(strength: int, defence: int) -> WoundEntry:
    """The wound chart entry for *strength* against *defence* (BH-WOUND-2).

    With k = Defence − Strength: k ≤ −2 → 3; −1..0 → 4; 1..2 → 5; 3..4 → 6; 5 → 6/4; 6 → 6/5;
    7 → 6/6; k ≥ 8 → "-".

    >>> str(wound_chart(3, 5)), str(wound_chart(2, 8)), str(wound_chart(2, 10))
    ('5', '6/5', '-')
    """
    if not (1 <= strength <= 10 and 1 <= defence <= 10):
        raise ValueError(f"Strength and Defence are 1 to 10 (got S{strength}, D{defence})")
    k = defence - strength
    if k <= -2:
        return WoundEntry(3)
    if k <= 0:
        return WoundEntry(4)
    if k <= 2:
        return WoundEntry(5)
    if k <= 4:
        return WoundEntry(6)
    if k <= 7:
        return WoundEntry(6, k - 1)  # 5 → 6/4, 6 → 6/5, 7 → 6/6
    return IMPOSSIBLE


# A score no die reaches (scores are clamped to 1–6): the need of the "-" entry's die (BH-WOUND-1, BH-DICE-2).
NO_SCORE = HIGHEST_SCORE + 1


def wound_dice(entry: WoundEntry) -> tuple[int, ...]:
    """The score each die of a To Wound roll needs, in the order they are rolled: one die for "N"; two for "6/N",
    the second rolled only after the first scores 6; for "-" one die that can never succeed (BH-WOUND-1).

    >>> wound_dice(WoundEntry(5)), wound_dice(WoundEntry(6, 4)), wound_dice(IMPOSSIBLE)
    ((5,), (6, 4), (7,))
    """
    if entry.needed is None:
        return (NO_SCORE,)
    return (entry.needed,) if entry.then is None else (entry.needed, entry.then)


def wound_die_scores(face: int, *, needed: int, modifier: int = 0, might: int = 0) -> bool:
    """Whether one die of a To Wound roll succeeds: its natural *face* plus *modifier*, clamped to 1–6, raised by
    *might* points but never above 6, reaches *needed* (BH-WOUND-1, BH-WOUND-3, BH-DICE-2, BH-DICE-4).

    >>> wound_die_scores(4, needed=6, modifier=1), wound_die_scores(4, needed=6, might=2), wound_die_scores(6, needed=7, might=3)
    (False, True, False)
    """
    return raise_with_might(score(face, modifier), might) >= needed


def needs_second_die(entry: WoundEntry, first: int, *, modifier: int = 0) -> bool:
    """Whether a 6/N entry goes on to its second die: only after the first die scores 6 (BH-WOUND-1, BH-WOUND-3).

    >>> needs_second_die(WoundEntry(6, 4), 5), needs_second_die(WoundEntry(6, 4), 5, modifier=1)
    (False, True)
    """
    dice = wound_dice(entry)
    return len(dice) > 1 and wound_die_scores(first, needed=dice[0], modifier=modifier)


def wound_roll_succeeds(entry: WoundEntry, first: int, second: int | None = None, *, modifier: int = 0) -> bool:
    """Whether a To Wound roll with natural dice *first* (and *second*, for a 6/N entry) wounds (BH-WOUND-1, BH-WOUND-3).

    The modifier is added to each die and the score clamped to 1–6; "-" never wounds. A 6/N entry
    whose first die scores 6 needs *second*.

    >>> wound_roll_succeeds(WoundEntry(5), 5)
    True
    >>> wound_roll_succeeds(WoundEntry(6, 4), 5, 3, modifier=1)   # 6/4 with +1 is "5+ then 3+"
    True
    >>> wound_roll_succeeds(WoundEntry(3), 1, modifier=1)         # 3+ with +1 is 2+: a 1 still fails
    False
    >>> wound_roll_succeeds(IMPOSSIBLE, 6, 6, modifier=3)
    False
    """
    dice = wound_dice(entry)
    if not wound_die_scores(first, needed=dice[0], modifier=modifier):
        return False
    if len(dice) == 1:
        return True
    if second is None:
        raise ValueError(f"a {format_entry(entry)} roll whose first die scores 6 needs the second die")
    return wound_die_scores(second, needed=dice[1], modifier=modifier)


def wound_roll_weights(entry: WoundEntry, modifier: int = 0) -> tuple[int, int]:
    """One To Wound roll counted over its natural dice: (wounding rolls, all rolls), out of 6 for one die
    and 36 for a 6/N entry, whose second die only matters after the first scores 6 (BH-WOUND-1..3).

    >>> wound_roll_weights(WoundEntry(5)), wound_roll_weights(WoundEntry(6, 5), 1), wound_roll_weights(IMPOSSIBLE, 3)
    ((2, 6), (6, 36), (0, 6))
    """
    dice = wound_dice(entry)
    return prod(faces_scoring(needed, modifier) for needed in dice), 6 ** len(dice)


def wound_roll_faces(draw: Draw, entry: WoundEntry, wounded: bool, modifier: int = 0) -> tuple[int, ...]:
    """The natural dice of one To Wound roll known to have wounded or not: one die, or for a 6/N entry the second
    die too after a first that scores 6; each face as likely as the rules make it (BH-WOUND-1..3)."""
    needs = wound_dice(entry)
    passing = [tuple(f for f in FACES if wound_die_scores(f, needed=n, modifier=modifier) == ok) for n in needs for ok in (True, False)]
    if len(needs) == 1:
        return (uniform_face(draw, passing[0] if wounded else passing[1]),)
    first_ok, first_failed, second_ok, second_failed = passing
    if wounded:
        return uniform_face(draw, first_ok), uniform_face(draw, second_ok)
    if weighted(draw, {False: len(first_failed) * 6, True: len(first_ok) * len(second_failed)}):
        return uniform_face(draw, first_ok), uniform_face(draw, second_failed)
    return (uniform_face(draw, first_failed),)


def wound_roll_dist(entry: WoundEntry, modifier: int = 0) -> Dist[bool]:
    """Whether one To Wound roll wounds, exactly (BH-WOUND-1..3).

    >>> wound_roll_dist(WoundEntry(6, 5), 1).probability(True)
    Fraction(1, 6)
    """
    wounding, rolls = wound_roll_weights(entry, modifier)
    return Dist({True: wounding, False: rolls - wounding})


def wound_chance(entry: WoundEntry, modifier: int = 0) -> Fraction:
    """The chance that one To Wound roll wounds (BH-WOUND-4).

    >>> wound_chance(WoundEntry(6, 4)), wound_chance(WoundEntry(6, 4), 1)
    (Fraction(1, 12), Fraction(2, 9))
    """
    wounding, rolls = wound_roll_weights(entry, modifier)
    return Fraction(wounding, rolls)


def to_wound_modifier(*, two_handed: bool) -> int:
    """The modifier to each die of a striker's To Wound rolls: +1 with a two-handed weapon (BH-STRIKE-6, BH-WOUND-3)."""
    return TWO_HANDED_TO_WOUND if two_handed else 0


@record
class WoundRoll:
    """One To Wound roll of Strength against Defence, +1 with a two-handed weapon (BH-PROC-1)."""

    strength: int
    defence: int
    two_handed: bool = False


@record
class WoundRollOutcome:
    """Whether the roll wounded (BH-PROC-1)."""

    wounded: bool


def wound_roll(roll: WoundRoll) -> Dist[WoundRollOutcome]:
    """One To Wound roll of Strength against Defence, with +1 for a two-handed weapon (BH-PROC-1)."""
    entry = wound_chart(roll.strength, roll.defence)
    wounding, rolls = wound_roll_weights(entry, to_wound_modifier(two_handed=roll.two_handed))
    return Dist({WoundRollOutcome(True): wounding, WoundRollOutcome(False): rolls - wounding})
