"""Dice strings: the NdS+K grammar, its limits, round trips and the damage ceiling (AC-PROC-DICE, AC-PROC-CEIL)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.core.errors import InputError
from kessen.rulesets.armies_clash.rules.dice_strings import (
    Constant,
    DiceExpression,
    DiceStringError,
    DiceTerm,
    damage_ceiling,
    format_dice,
    parse_dice,
)

VALID = ["1d8+1", "2d6+3", "8d6", "1d10+1d6+2", "3", "1d4-1", "0", "1d4-0", "20d20", "10d2+10d2-100-100"]


@pytest.mark.parametrize("text", VALID)
def test_ac_proc_dice_valid_examples_round_trip(text: str) -> None:
    """AC-PROC-DICE: the spec's valid examples parse, and format back to the very same string."""
    assert format_dice(parse_dice(text)) == text
    assert str(parse_dice(text)) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("d6", "needs a count"),
        ("2D6", "unexpected character 'D'"),
        ("1d7", "die size d7 not allowed"),
        ("2d6 + 3", "unexpected character ' '"),
        ("-1d4", "no sign allowed before the first term"),
        ("21d6", "dice count 21 not allowed"),
        ("02d6", "leading zero"),
        ("1d6+101", "constant 101 above 100"),
        ("2d6-1d4", "dice may only be added"),
        ("11d6+10d4", "at most 20 dice in all"),
        ("", "empty dice string"),
        ("1d6+", "missing term"),
        ("0d6", "dice count 0 not allowed"),
        ("1d6d6", "unexpected character 'd'"),
        ("9" * 5000, "at most 120 characters"),
        ("99999d6", "too large"),
        ("+".join(["1"] * 41), "at most 40 terms"),
    ],
)
def test_ac_proc_dice_invalid_examples_name_field_and_string(text: str, reason: str) -> None:
    """AC-PROC-DICE, AC-PROC-2: a bad dice string is an InputError naming the field and quoting the string."""
    with pytest.raises(InputError) as caught:
        parse_dice(text, field="attacks[0].damage")
    message = str(caught.value)
    assert message.startswith("attacks[0].damage: ")
    assert reason in message
    assert caught.value.value == text


def test_ac_proc_2_dice_error_message_exactly_as_in_spec() -> None:
    """AC-PROC-2: the spec's own example line, `attacks[0].damage: die size d7 not allowed ("2d7+1")`."""
    with pytest.raises(DiceStringError) as caught:
        parse_dice("2d7+1", field="attacks[0].damage")
    assert str(caught.value) == 'attacks[0].damage: die size d7 not allowed ("2d7+1")'


@pytest.mark.parametrize(("text", "ceiling"), [("1d8+1", 17), ("2d6+4", 28), ("1d8+5d8+5", 101), ("1d4-2", 6), ("3", 3), ("1d4-100", 0)])
def test_ac_proc_ceil_spec_examples(text: str, ceiling: int) -> None:
    """AC-PROC-CEIL: the highest critical roll, dice doubled on top faces plus constants, floored at 0."""
    assert damage_ceiling([parse_dice(text)]) == ceiling


def test_ac_proc_ceil_sums_over_rolls() -> None:
    """AC-PROC-CEIL: a paladin smiting with three attacks has ceiling 3 × 101 = 303 (BAD-6)."""
    assert damage_ceiling([parse_dice("1d8+5d8+5")] * 3) == 303


_terms = st.lists(
    st.one_of(
        st.builds(DiceTerm, st.integers(1, 5), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20])),
        st.builds(Constant, st.integers(0, 100), st.booleans()),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=150)
@given(_terms)
def test_ac_proc_dice_format_then_parse_is_identity(terms: list[DiceTerm | Constant]) -> None:
    """AC-PROC-DICE: any expression the grammar allows formats to a string that parses back to it."""
    if isinstance(terms[0], Constant) and terms[0].negative:
        terms[0] = Constant(terms[0].value)  # no sign before the first term
    expression = DiceExpression(tuple(terms))
    assert parse_dice(format_dice(expression)) == expression


@settings(max_examples=200)
@given(st.text(alphabet="0123456789d+-D ", max_size=12))
def test_ac_proc_dice_any_text_parses_and_round_trips_or_is_rejected(text: str) -> None:
    """AC-PROC-DICE: arbitrary text either parses (and then round-trips exactly) or raises InputError."""
    try:
        expression = parse_dice(text)
    except InputError as error:
        assert error.field == "damage"
        return
    assert format_dice(expression) == text
    assert expression.dice_count <= 20
    assert all(t.sides in (2, 3, 4, 6, 8, 10, 12, 20) for t in expression.terms if isinstance(t, DiceTerm))
