"""Measures in refusals: a distance and the limit it breaks, written so that the numbers shown break it too."""

from __future__ import annotations

MOST_DECIMALS = 12
"""Past this a float's own noise shows; two values closer than this are written alike."""


def decimal(value: float, decimals: int) -> str:
    """*value* rounded to *decimals* places, trailing zeros and a bare point dropped.

    >>> decimal(6.0004, 3), decimal(130.25, 1), decimal(-0.0001, 2)
    ('6', '130.2', '0')
    """
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"
    return "0" if text in ("-0", "") else text


def apart(value: float, limit: float, *, decimals: int = 3) -> tuple[str, str]:
    """*value* and *limit* written with the fewest decimals, at least *decimals*, at which the written numbers stand
    in the same order as the true ones: a refusal that says "6.0004 inches, more than 6" never says "6, more than 6".

    >>> apart(6.0004, 6)
    ('6.0004', '6')
    >>> apart(120.0000001, 120, decimals=1), apart(7.25, 6), apart(119.96, 120, decimals=1)
    (('120.0000001', '120'), ('7.25', '6'), ('119.96', '120'))
    """
    for places in range(decimals, MOST_DECIMALS + 1):
        shown, bound = round(value, places), round(limit, places)
        if (shown > bound) == (value > limit) and (shown < bound) == (value < limit):
            return decimal(value, places), decimal(limit, places)
    return decimal(value, MOST_DECIMALS), decimal(limit, MOST_DECIMALS)
