"""``kessen.core.records``: ``evolve`` and ``evolver`` give what ``dataclasses.replace`` gives, memo slots kept only
while the fields they come from are unchanged (issue 13 §2)."""

from __future__ import annotations

import dataclasses
from dataclasses import field
import pytest

from kessen.core.records import evolve, evolver, memo, record


@record
class Piece:
    name: str
    x: int
    y: int
    wounds: int = 1
    _centre: tuple[int, int] | None = memo("x", "y")
    _label: str | None = memo()


@record
class Square:
    side: int
    area: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "area", self.side * self.side)


def _with_memos(piece: Piece) -> Piece:
    object.__setattr__(piece, "_centre", (piece.x, piece.y))
    object.__setattr__(piece, "_label", piece.name)
    return piece


def test_evolve_is_dataclasses_replace_for_every_field() -> None:
    piece = Piece("a", 1, 2, 3)
    assert evolve(piece) == piece and evolve(piece) is not piece
    for name, value in (("name", "b"), ("x", 7), ("y", 8), ("wounds", 0)):
        assert evolve(piece, **{name: value}) == dataclasses.replace(piece, **{name: value})


def test_a_memo_slot_is_kept_while_its_fields_are_unchanged_and_reset_when_one_changes() -> None:
    piece = _with_memos(Piece("a", 1, 2))
    hurt = evolve(piece, wounds=0)
    assert hurt._centre == (1, 2)  # worked out from x and y only
    assert hurt._label is None  # memo() with no fields: worked out from every field
    moved = evolve(piece, x=5)
    assert moved._centre is None and moved._label is None
    assert evolver(Piece, "wounds")(piece, 0)._centre == (1, 2)
    assert evolver(Piece, "y")(piece, 9)._centre is None


def test_post_init_fills_what_is_no_init_field_again() -> None:
    assert evolve(Square(3), side=4).area == 16
    assert evolver(Square, "side")(Square(3), 5).area == 25


def test_evolver_sets_the_named_fields_in_order() -> None:
    move = evolver(Piece, "x", "y")
    assert move(Piece("a", 1, 2, 3), 7, 8) == Piece("a", 7, 8, 3)


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(TypeError, match="colour"):
        evolve(Piece("a", 1, 2), colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no init field '_centre'"):
        evolver(Piece, "_centre")
    with pytest.raises(TypeError, match="no init field 'area'"):
        evolver(Square, "area")
