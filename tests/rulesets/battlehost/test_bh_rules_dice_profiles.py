"""Dice conventions (BH-DICE-*) and profiles (section 4, BH-SHOOT-10)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kessen.core.errors import InputError
from kessen.io.validation import validate_data
from kessen.rulesets.battlehost.profiles import (
    MISSILE_WEAPONS,
    Profile,
    format_fight,
    missile_weapon,
    parse_fight,
)
from kessen.rulesets.battlehost.rules.dice import raise_with_might, score, score_die, useful_might
from kessen.rulesets.battlehost.scenario import ModelEntry


def test_bh_dice_1_a_die_has_six_faces() -> None:
    """BH-DICE-1: every die is a D6; a natural roll is the face shown, 1 to 6."""
    assert score_die(0).probabilities() == {f: Fraction(1, 6) for f in range(1, 7)}
    with pytest.raises(ValueError):
        score(7)
    with pytest.raises(ValueError):
        score(0)


@given(natural=st.integers(1, 6), modifier=st.integers(-6, 6))
def test_bh_dice_2_score_is_natural_plus_modifiers_clamped(natural: int, modifier: int) -> None:
    """BH-DICE-2: a score is natural roll plus modifiers, clamped to 1–6."""
    assert score(natural, modifier) == max(1, min(6, natural + modifier))


def test_bh_dice_2_clamping_examples() -> None:
    """BH-DICE-2: a penalised 1 scores 1 (not 0); nothing scores above 6."""
    assert score(1, -1) == 1
    assert score(6, 2) == 6
    assert score(6, -1) == 5


def test_bh_dice_4_might_raises_one_point_a_time_never_above_six() -> None:
    """BH-DICE-4: each point of Might raises a die's score by 1, never above 6."""
    assert [raise_with_might(3, k) for k in range(5)] == [3, 4, 5, 6, 6]
    assert useful_might(3, 5) == 3  # only three points can still change a 3
    assert useful_might(6, 4) == 0
    with pytest.raises(ValueError):
        raise_with_might(3, -1)


@pytest.mark.parametrize(
    ("text", "fight", "shoot"), [("4/4+", 4, 4), ("4/-", 4, None), ("10/2+", 10, 2), ("1/6+", 1, 6)]
)
def test_bh_shoot_5_f_notation_gives_fight_and_shoot_value(text: str, fight: int, shoot: int | None) -> None:
    """BH-SHOOT-5 (section 4): F is "Fight/Shoot+", the Shoot value being the number with the "+"; "-" means none."""
    assert parse_fight(text) == (fight, shoot)
    assert format_fight(fight, shoot) == text


@given(fight=st.integers(1, 10), shoot=st.one_of(st.none(), st.integers(2, 6)))
def test_bh_duel_8_f_notation_round_trips(fight: int, shoot: int | None) -> None:
    """BH-DUEL-8 (section 4): the Fight value is the number left of the slash; format and parse round-trip."""
    assert parse_fight(format_fight(fight, shoot)) == (fight, shoot)


@pytest.mark.parametrize("text", ["4", "4/7+", "11/4+", "0/4+", "4/1+", "a/b"])
def test_bh_duel_8_bad_f_notation_is_rejected(text: str) -> None:
    """BH-DUEL-8 (section 4): an F outside Fight 1–10 and Shoot 2+–6+ is an InputError naming the field."""
    with pytest.raises(InputError, match="^fight: "):
        parse_fight(text)


def test_bh_shoot_10_missile_weapon_chart() -> None:
    """BH-SHOOT-10: the rules manual's missile weapon chart, range and Strength of each weapon."""
    expected = {
        "bow": (24, 2),
        "elf bow": (24, 3),
        "orc bow": (18, 2),
        "short bow": (18, 2),
        "uruk-hai bow": (18, 3),
        "dwarf bow": (18, 3),
        "crossbow": (24, 4),
        "throwing spears": (8, 3),
        "throwing daggers": (6, 3),
        "throwing axe": (6, 3),
    }
    assert {n: (w.range_inches, w.strength) for n, w in MISSILE_WEAPONS.items()} == expected
    with pytest.raises(InputError, match="^missile_weapon: unknown weapon"):
        missile_weapon("longbow")


def test_bh_dice_4_only_heroes_have_might() -> None:
    """BH-DICE-4 (section 4): Might belongs to Heroes; a warrior with Might is rejected naming the field."""
    warrior = {"name": "orc", "move": 6, "fight": 3, "shoot_value": 5, "strength": 3, "defence": 4,
               "attacks": 1, "wounds": 1, "courage": 2}
    assert validate_data(Profile, warrior).f == "3/5+"
    with pytest.raises(InputError, match="^might: "):
        validate_data(Profile, {**warrior, "might": 1})
    hero = validate_data(Profile, {**warrior, "type": "hero", "might": 3, "fight": 6, "shoot_value": None})
    assert (hero.might, hero.f) == (3, "6/-")


@pytest.mark.parametrize("model", [Profile, ModelEntry])
@pytest.mark.parametrize("points", ["might", "will", "fate"])
def test_bh_dice_4_a_warrior_has_no_might_will_or_fate(model: type[Profile] | type[ModelEntry], points: str) -> None:
    """BH-DICE-4 (section 4): only Heroes have Might, Will and Fate; a warrior with any of them, in a profile or
    in a scenario's model, is rejected naming that field and its value; a Hero keeps them."""
    warrior = {"name": "orc", "move": 6, "fight": 3, "strength": 3, "defence": 4, "x": 10.0, "y": 10.0}
    if model is Profile:
        warrior = {k: v for k, v in warrior.items() if k not in ("x", "y")} | {"attacks": 1, "wounds": 1, "courage": 2}
    with pytest.raises(InputError, match=rf"^{points}: must be 0 for a warrior .*\(got 2\)"):
        validate_data(model, {**warrior, points: 2})
    assert getattr(validate_data(model, {**warrior, "type": "hero", points: 2}), points) == 2

