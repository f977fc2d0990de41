"""Measures in refusals (issue 22 §4): a distance and the limit it breaks are written so that the numbers shown
break the limit too, with no more decimals than that takes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kessen.core.measures import MOST_DECIMALS, apart, decimal

LIMITS = st.integers(0, 2000).map(lambda n: n / 4)
EXCESS = st.floats(min_value=1e-9, max_value=50, allow_nan=False)


def test_just_over_a_limit_is_written_over_it() -> None:
    """The refusals of issue 22: a true 6.0004" beside a Move of 6", a true 120.0004 mm beside 120 mm."""
    assert apart(6.0004, 6) == ("6.0004", "6")
    assert apart(120.0004, 120, decimals=1) == ("120.0004", "120")
    assert apart(6 + 2e-9, 6) == ("6.000000002", "6")
    assert apart(7.25, 6) == ("7.25", "6")  # far enough: the usual three decimals, trailing zeros dropped
    assert apart(121.0, 120, decimals=1) == ("121", "120")


@given(limit=LIMITS, excess=EXCESS, decimals=st.integers(0, 3), over=st.booleans())
def test_the_numbers_shown_stand_in_the_true_order_with_the_fewest_decimals(
    limit: float, excess: float, decimals: int, over: bool
) -> None:
    """Read back, the written value is beyond the written limit on the same side as the true value; one decimal fewer
    (but not fewer than asked) would not show it."""
    value = limit + excess if over else limit - excess
    shown, bound = apart(value, limit, decimals=decimals)
    assert (float(shown) > float(bound)) if over else (float(shown) < float(bound))
    places = max(len(shown.partition(".")[2]), len(bound.partition(".")[2]))
    if places > decimals:
        fewer = round(value, places - 1), round(limit, places - 1)
        assert not ((fewer[0] > fewer[1]) if over else (fewer[0] < fewer[1]))


def test_equal_values_and_noise_are_written_alike() -> None:
    """A value equal to its limit, or within a float's noise of it, is written as the limit is."""
    assert apart(5.0, 5) == ("5", "5")
    assert apart(5 + 1e-15, 5) == (decimal(5, MOST_DECIMALS), "5")
    assert decimal(-0.0004, 3) == "0"
