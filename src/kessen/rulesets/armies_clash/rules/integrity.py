"""Unit integrity and isolation: who is too far from its allies (§5.7), and how few stands of a regiment must end its
turn alone (AC-REG-4)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass

from kessen.core.records import picklable
from kessen.rulesets.armies_clash.rules.grid import Footprint, Square, anchors_within, distance, square_distance

REGIMENT_SPACING = 1
"""A regiment stand must be next to another stand of its unit (AC-INTEG-2)."""
LOOSE_SPACING = 2
"""A skirmisher stand, and an unattached solo, must be within 2 squares of an ally (AC-INTEG-3, AC-INTEG-4)."""


def stand_isolated(stand: Footprint, mates: Iterable[Footprint], *, regiment: bool) -> bool:
    """Whether a stand is isolated (AC-INTEG-2, AC-INTEG-3, AC-INTEG-5): a regiment stand with no other stand of its
    unit adjacent, a skirmisher stand with none within 2 squares; never when it is its unit's only stand. *mates* are
    the footprints of the unit's other stands, casualties on the grid included (AC-INTEG-6).

    >>> stand_isolated(Footprint(3, 0), [Footprint(0, 0), Footprint(1, 0)], regiment=True)
    True
    >>> stand_isolated(Footprint(2, 0), [Footprint(0, 0)], regiment=False), stand_isolated(Footprint(0, 0), [], regiment=True)
    (False, False)
    """
    others = list(mates)
    if not others:
        return False
    reach = REGIMENT_SPACING if regiment else LOOSE_SPACING
    return all(distance(stand, other) > reach for other in others)


def solo_isolated(solo: Footprint, allied_stands: Iterable[Footprint]) -> bool:
    """An unattached solo is isolated when no allied stand of any unit is within 2 squares (AC-INTEG-4); a joined
    solo never is (the referee does not ask).

    >>> solo_isolated(Footprint(5, 5), [Footprint(5, 7)]), solo_isolated(Footprint(5, 5), [Footprint(6, 7)])
    (False, True)
    """
    return not any(distance(solo, stand) <= LOOSE_SPACING for stand in allied_stands)


# --- keeping a regiment together during its turn (AC-REG-4) ------------------------------------------------------

SEARCH_NODES = 400
"""How many arrangements :meth:`Regiment.alone` tries before it answers with the best found so far (not exact)."""
QUICK_NODES = 30
"""How many :meth:`Regiment.alone` tries first, looking for an arrangement that keeps every stand, before it counts
the stands no arrangement keeps and searches on."""


class ToMove:
    """A stand of the unit still to move this turn: its size, where it stands, and every anchor its move may end at
    (its own included: it may stay); *ends* may be given as a function, asked only when the search needs them, and
    *reach* bounds how far (in steps) an end may lie from where it stands. *key*, when given, names the question its
    ends answer: two stands with one key are the same to :class:`Regiment` (see :func:`regiment_key`)."""

    def __init__(
        self, size: int, at: Square, ends: frozenset[Square] | Callable[[], frozenset[Square]], *, reach: int | None = None,
        key: Hashable = None,
    ) -> None:
        self.size, self.at, self.reach, self.key = size, at, reach, key
        self.home = Footprint(at[0], at[1], size)  # where it stands, made once (issue 26)
        self._ends = ends
        self._found: frozenset[Square] | None = ends | {at} if isinstance(ends, frozenset) else None

    @property
    def ends(self) -> frozenset[Square]:
        if self._found is None:
            ends = self._ends
            assert not isinstance(ends, frozenset)
            self._found = ends() | {self.at}
        return self._found

    def far_from(self, other: Footprint, *, beyond: int = 0) -> bool:
        """Whether none of its ends can be next to *other* (nor to anything within *beyond* steps of it): it stands
        farther than its reach."""
        return self.reach is not None and distance(self.home, other) > self.reach + beyond + 1

    def may_end(self, anchor: Square) -> bool:
        """Whether its move may end at *anchor*."""
        found = self._found
        if found is not None:
            return anchor in found
        if anchor == self.at:
            return True
        if self.reach is not None and square_distance(anchor, self.at) > self.reach:
            return False
        return anchor in self.ends


@dataclass(frozen=True, slots=True)
class Alone:
    """The fewest stands left with no other stand of their unit next to them at the end of the turn (``count``),
    which ones in that arrangement (``stands``: indices, the placed first, then those still to move), where it puts
    the stands still to move that it moves next to another (``moves``: index and anchor; the others stay or go next
    to any placed stand), and whether the search tried every arrangement it had to (``exact``)."""

    count: int
    stands: tuple[int, ...]
    exact: bool
    moves: tuple[tuple[int, Square], ...] = ()


picklable(Alone)  # a native class of the compiled engine, pickled and copied through its init fields (issue 26, issue 22 §1)


@functools.lru_cache(maxsize=4096)
def _squares(anchor: Square, size: int) -> tuple[Square, ...]:
    return tuple(Footprint(anchor[0], anchor[1], size).squares())


@functools.lru_cache(maxsize=4096)
def _rim(anchor: Square, size: int) -> tuple[Square, ...]:
    """The squares sharing an edge with the footprint: a footprint with one of them is adjacent to it (§3)."""
    x, y = anchor
    return tuple(
        [(x + i, y - 1) for i in range(size)] + [(x + i, y + size) for i in range(size)]
        + [(x - 1, y + i) for i in range(size)] + [(x + size, y + i) for i in range(size)]
    )


@functools.lru_cache(maxsize=4096)
def _touching(anchor: Square, size: int, other: int) -> tuple[Square, ...]:
    """The anchors of a footprint of side *other* adjacent to the footprint of side *size* at *anchor*."""
    target = Footprint(anchor[0], anchor[1], size)
    return tuple(a for a in anchors_within(target, other, REGIMENT_SPACING) if distance(Footprint(a[0], a[1], other), target) == 1)


def _matched(choices: dict[int, list[Square]]) -> dict[int, Square]:
    """As many stands as can be, each given one of its anchors, no anchor twice (augmenting paths, Kuhn)."""
    owner: dict[Square, int] = {}
    for j in choices:
        _augment(j, choices, owner, set())
    return {j: a for a, j in owner.items()}


def _augment(j: int, choices: dict[int, list[Square]], owner: dict[Square, int], seen: set[Square]) -> bool:
    """Give stand *j* one of its anchors, moving the stands that hold them on to others where need be (``_matched``)."""
    for a in choices[j]:
        if a not in seen:
            seen.add(a)
            if a not in owner or _augment(owner[a], choices, owner, seen):
                owner[a] = j
                return True
    return False


def regiment_key(placed: tuple[Footprint, ...], to_move: tuple[ToMove, ...], size: int = 1) -> Hashable:
    """What :class:`Regiment` answers from, when every stand still to move names its question (``ToMove.key``): a
    regiment built for one key answers for every other of that key (None: the stands cannot be told apart so)."""
    keys = tuple(t.key for t in to_move)
    return None if None in keys else (placed, keys, size)


def fewest_alone(placed: tuple[Footprint, ...], to_move: tuple[ToMove, ...], *, nodes: int = SEARCH_NODES) -> Alone:
    """How few stands of a regiment must end its turn with no other stand of the unit next to them (AC-REG-4,
    AC-INTEG-2), when the *placed* stands stay where they are and each stand *to_move* ends at one of its ``ends``
    (:class:`Regiment` answers it for many places of one more stand).

    >>> apart = (Footprint(0, 0), Footprint(4, 0))       # two stands that moved apart; one more still to move
    >>> fewest_alone(apart, (ToMove(1, (2, 0), frozenset({(2, 0), (1, 0), (3, 0)})),))   # it joins one of them
    Alone(count=1, stands=(1,), exact=True, moves=((2, (1, 0)),))
    >>> fewest_alone(apart, (ToMove(1, (2, 2), frozenset({(2, 2), (1, 1), (3, 1)})),)).count  # it reaches neither
    3
    >>> fewest_alone((Footprint(0, 0),), (ToMove(1, (5, 5), frozenset({(5, 5), (1, 0)})),))
    Alone(count=0, stands=(), exact=True, moves=((1, (1, 0)),))
    """
    return Regiment(placed, to_move, nodes=nodes).alone()


class Regiment:
    """A regiment's stands during its turn: the *placed* stay where they are, each stand *to_move* ends at one of its
    ``ends``, and (asked of :meth:`alone`) one more stand of side *size* stands at a given anchor.

    :meth:`alone` is a branch-and-bound search. It serves, one at a time, a placed stand with no neighbour: a stand
    still to move ends next to it (each tried in turn, staying put first), or it is given up as alone. When every
    placed stand has a neighbour, a stand still to move that can end next to one is kept; one that cannot is placed
    where another stand still to move could join it, or given up. Two stands never end on the same squares. The
    paths of the stands still to move, which may block each other, are not followed, so it may count as kept what is
    not: it never answers more than the truth. After *nodes* arrangements it answers the best found, not exact. A
    unit of one stand is never alone (AC-INTEG-5). The stands are numbered the placed first, then those to move,
    then the one more.

    Most places of the one more stand are answered without a search, from the arrangement of the others without it
    (asked once): when that keeps every stand, a place next to one of its stands, or next to an end of a stand it
    can spare, keeps every stand too; a place no stand can come next to leaves the one more alone, and the others as
    they were.
    """

    def __init__(self, placed: tuple[Footprint, ...], to_move: tuple[ToMove, ...], *, size: int = 1, nodes: int = SEARCH_NODES) -> None:
        self.first = len(placed)
        self.extra = len(placed) + len(to_move)
        self.to_move = to_move
        self.sizes = [fp.size for fp in placed] + [t.size for t in to_move] + [size]
        self.at: list[Square | None] = [(fp.x, fp.y) for fp in placed] + [None] * (len(to_move) + 1)
        self.cells: dict[Square, int] = {}
        for i, fp in enumerate(placed):
            self._place(i, (fp.x, fp.y))
        self.nodes = nodes
        self.tried = 0
        self.best = Alone(0, (), True)
        self.meeting: dict[tuple[int, int], frozenset[Square]] = {}
        self.gone: set[int] = set()  # given up before being placed: alone wherever they end
        self.base: Alone | None = None
        self.least = 0  # the stands alone in every arrangement (:meth:`_hopeless`)
        self.near: frozenset[Square] | None = None
        self.kept: dict[Square, Alone] | None = None
        self.answers: dict[Square | None, Alone] = {}

    def alone(self, anchor: Square | None = None) -> Alone:
        """The fewest stands left alone with the one more stand at *anchor* (None: there is no more); each place
        answered once (a search's answer depends on nothing but its stands and the place)."""
        found = self.answers.get(anchor)
        if found is None:
            found = self.answers[anchor] = self._alone(anchor)
        return found

    def _alone(self, anchor: Square | None) -> Alone:
        total = self.extra + (anchor is not None)
        if total < 2:
            return Alone(0, (), True)
        if anchor is not None:
            without = self._without()
            kept = self._kept_near().get(anchor)
            if kept is not None:
                return kept
            here = Footprint(anchor[0], anchor[1], self.sizes[self.extra])
            placed_near = any(w is not None and distance(Footprint(w[0], w[1], self.sizes[i]), here) <= 1 for i, w in enumerate(self.at))
            far = not placed_near and all(t.far_from(here) for t in self.to_move)
            if far or anchor not in self._reachable():  # nobody can come next to it: alone, and the others as without it
                return Alone(without.count + 1, tuple(sorted((*without.stands, self.extra))), without.exact, without.moves)
            self._place(self.extra, anchor)
        found = self._search(total, (), QUICK_NODES)  # most often every stand is kept, and soon found so
        if found.count > 0 and not found.exact:
            hopeless = self._hopeless()
            self.gone = {j for j in hopeless if self.at[j] is None}
            found = self._search(total, hopeless, self.nodes)
            self.gone = set()
        if anchor is not None:
            self._lift(self.extra)
        return found

    def _search(self, total: int, hopeless: tuple[int, ...], nodes: int) -> Alone:
        """The best arrangement found within *nodes* tries, the *hopeless* stands given up from the start."""
        self.tried, self.best, self.least = 0, Alone(total + 1, (), True), len(hopeless)
        self.nodes, limit = nodes, self.nodes
        self._run(hopeless)
        self.nodes = limit
        return Alone(self.best.count, self.best.stands, self.tried <= nodes, self.best.moves)

    def _kept_near(self) -> dict[Square, Alone]:
        """Where the one more stand keeps every stand, found without a search when the others keep every stand
        without it: next to a stand of that arrangement, on squares none takes, or next to an end of a spare stand
        (one still to move that the arrangement moves nowhere), which comes to it instead (asked once)."""
        if self.kept is None:
            self.kept = {}
            without = self._without()
            if without.count > 0 or not without.exact:
                return self.kept
            size = self.sizes[self.extra]
            where = {i: w for i, w in enumerate(self.at) if w is not None and i != self.extra}
            where.update(without.moves)
            taken = [(a, self.sizes[i]) for i, a in where.items()]
            cells = {square for a, n in taken for square in _squares(a, n)}
            for j in self._spare(where):
                t = self.to_move[j - self.first]
                left = [(i, a) for i, a in without.moves if i != j]
                others = cells - set(_squares(where[j], t.size)) if j in where else cells
                for q in sorted(t.ends, key=lambda a: (square_distance(a, t.at), a), reverse=True):  # the nearest wins
                    if others.isdisjoint(_squares(q, t.size)):
                        places = [a for a in _touching(q, t.size, size) if cells.isdisjoint(_squares(a, size))]
                        if places:
                            spare = Alone(0, (), True, (*left, (j, q)))
                            self.kept.update((a, spare) for a in places)
            for a, n in taken:
                self.kept.update((b, without) for b in _touching(a, n, size) if cells.isdisjoint(_squares(b, size)))
        return self.kept

    def _spare(self, where: dict[int, Square]) -> list[int]:
        """The stands still to move that an arrangement (*where* each stand ends) can spare: placed nowhere, or every
        stand next to them has another neighbour."""
        def touching(i: int) -> list[int]:
            here = Footprint(where[i][0], where[i][1], self.sizes[i])
            return [k for k in where if k != i and distance(here, Footprint(where[k][0], where[k][1], self.sizes[k])) == 1]

        spare = [j for j in range(self.first, self.extra) if j not in where]
        for j in range(self.first, self.extra):
            if j in where and all(len(touching(k)) >= 2 for k in touching(j)):
                spare.append(j)
        return spare

    def _reachable(self) -> frozenset[Square]:
        """The anchors where the one more stand could have a neighbour: next to a placed stand, or to an end of a
        stand still to move (asked once)."""
        if self.near is None:
            size = self.sizes[self.extra]
            near = {a for i, w in enumerate(self.at) if w is not None and i != self.extra for a in _touching(w, self.sizes[i], size)}
            for t in self.to_move:
                near.update(a for q in t.ends for a in _touching(q, t.size, size))
            self.near = frozenset(near)
        return self.near

    def _hopeless(self) -> tuple[int, ...]:
        """The stands no arrangement puts next to another: a placed one with no neighbour that no stand still to move
        can join, and a stand still to move that can end next to no placed stand nor join any other still to move.
        Alone in every arrangement, they are given up at once (and bound the search from below)."""
        free = self._free()
        lost = [i for i, a in enumerate(self.at) if a is not None and self._lonely(i) and not self._helpers(i)]
        for j in free:
            t = self.to_move[j - self.first]
            here = t.home
            if self._joins_placed(j) or any(distance(self._footprint_at(k), here) == 1 for k in free if k != j):
                continue
            if not any(self._meeting_ends(j, k) for k in free if k != j):
                lost.append(j)
        return tuple(lost)

    def _without(self) -> Alone:
        """:meth:`alone` without the one more stand, asked once: a lone other stand counts as alone (its only mate
        would be the one more)."""
        if self.base is None:
            self.base = Alone(1, (0,), True) if self.extra == 1 else self.alone()
        return self.base

    def _place(self, i: int, anchor: Square) -> None:
        self.at[i] = anchor
        for square in _squares(anchor, self.sizes[i]):
            self.cells[square] = i

    def _lift(self, i: int) -> None:
        anchor = self.at[i]
        assert anchor is not None
        for square in _squares(anchor, self.sizes[i]):
            del self.cells[square]
        self.at[i] = None

    def _open(self, anchor: Square, size: int) -> bool:
        cells = self.cells
        for square in _squares(anchor, size):
            if square in cells:
                return False
        return True

    def _lonely(self, i: int) -> bool:
        anchor = self.at[i]
        assert anchor is not None
        cells = self.cells
        for square in _rim(anchor, self.sizes[i]):
            if cells.get(square, i) != i:
                return False
        return True

    def _free(self) -> list[int]:
        return [j for j in range(self.first, self.extra) if self.at[j] is None and j not in self.gone]

    def _helpers(self, i: int) -> list[tuple[int, Square]]:
        """The stands still to move that can end next to stand *i*, and where: staying put first, then the nearest."""
        anchor = self.at[i]
        assert anchor is not None
        found: list[tuple[int, Square]] = []
        for j in self._free():
            t = self.to_move[j - self.first]
            ends = [a for a in _touching(anchor, self.sizes[i], t.size) if t.may_end(a) and self._open(a, t.size)]
            ends.sort(key=lambda a: (a != t.at, square_distance(a, t.at), a))
            found += [(j, a) for a in ends]
        return found

    def _joins_placed(self, j: int) -> bool:
        return bool(self._join_spots(j))

    def _join_spots(self, j: int) -> list[Square]:
        """The anchors where stand *j*, still to move, may end next to a placed stand, on squares nobody has taken."""
        t = self.to_move[j - self.first]
        found = {
            a for i, anchor in enumerate(self.at) if anchor is not None
            for a in _touching(anchor, self.sizes[i], t.size) if t.may_end(a) and self._open(a, t.size)
        }
        return sorted(found, key=lambda a: (a != t.at, square_distance(a, t.at), a))

    def _meeting_ends(self, j: int, k: int) -> frozenset[Square]:
        """The ends of stand *j* next to some end of stand *k* (both still to move)."""
        key = (j, k)
        found = self.meeting.get(key)
        if found is None:
            tj, tk = self.to_move[j - self.first], self.to_move[k - self.first]
            if tk.reach is not None and tj.far_from(tk.home, beyond=tk.reach):
                found = frozenset()
            else:
                found = tj.ends & {a for q in tk.ends for a in _touching(q, tk.size, tj.size)}
            self.meeting[key] = found
        return found

    def _run(self, given_up: tuple[int, ...]) -> None:
        self.tried += 1
        if self.tried > self.nodes or len(given_up) >= self.best.count or self.best.count == self.least:
            return
        needy = [i for i, a in enumerate(self.at) if a is not None and i not in given_up and self._lonely(i)]
        if needy:
            choices = {i: self._helpers(i) for i in needy}
            forced = tuple(i for i in needy if not choices[i])
            if forced:  # nobody can join them: alone, without trying anything else first
                self._run(given_up + forced)
                return
            i = min(needy, key=lambda n: (len(choices[n]), n))
            self._branch(given_up, i, choices[i])
            return
        joins = {j: self._join_spots(j) for j in self._free()}
        hard = [j for j, spots in joins.items() if not spots]
        if not hard:
            joined = _matched(joins)  # each on squares of its own
            if len(joined) < len(joins):  # one left over: placed by hand, next to a placed stand or to another
                j = next(j for j in joins if j not in joined)
                meeting = ((j, a) for a in self._spots(j) if a not in joins[j])
                self._branch(given_up, j, itertools.chain(((j, a) for a in joins[j]), meeting), place=True)
                return
            moves = tuple((j, a) for j, a in enumerate(self.at) if self.first <= j < self.extra and a is not None)
            self.best = Alone(len(given_up), tuple(sorted(given_up)), True, moves + tuple(sorted(joined.items())))
            return
        staying = [j for j in hard if self._may_stay(j)]
        spots = {j: list(self._spots(j)) for j in hard if j not in staying}
        forced = tuple(j for j in spots if not spots[j])
        if forced:  # nobody can meet them: alone, without trying anything else first
            self.gone.update(forced)
            self._run(given_up + forced)
            self.gone.difference_update(forced)
            return
        if staying:  # it stays, next to another stand still to move: tried first, its ends found only if need be
            j = staying[0]
            later = ((j, a) for a in self._spots(j, but=self.to_move[j - self.first].at))
            self._branch(given_up, j, itertools.chain([(j, self.to_move[j - self.first].at)], later), place=True)
            return
        j = min(hard, key=lambda n: (len(spots[n]), n))
        self._branch(given_up, j, [(j, a) for a in spots[j]], place=True)

    def _may_stay(self, j: int) -> bool:
        """Whether stand *j*, still to move, stands next to another still to move, on squares nobody has taken."""
        t = self.to_move[j - self.first]
        here = t.home
        return self._open(t.at, t.size) and any(distance(self._footprint_at(k), here) == 1 for k in self._free() if k != j)

    def _spots(self, j: int, *, but: Square | None = None) -> Iterator[Square]:
        """Where a stand still to move that can join no placed stand may end next to another still to move (*but*
        one tried already): the nearest first (found only when asked)."""
        t = self.to_move[j - self.first]
        ends = {a for k in self._free() if k != j for a in self._meeting_ends(j, k)} - {but}
        yield from sorted((a for a in ends if self._open(a, t.size)), key=lambda a: (square_distance(a, t.at), a))

    def _footprint_at(self, k: int) -> Footprint:
        """Where stand *k*, still to move, stands now."""
        t = self.to_move[k - self.first]
        return t.home

    def _branch(self, given_up: tuple[int, ...], i: int, moves: Iterable[tuple[int, Square]], *, place: bool = False) -> None:
        """Try each move (a stand placed at an anchor); then give stand *i* up (left where it is, or, not yet placed,
        wherever it ends: alone either way)."""
        for j, anchor in moves:
            self._place(j, anchor)
            self._run(given_up)
            self._lift(j)
            if self.best.count in (len(given_up), self.least) or self.tried > self.nodes:
                return
        if place:
            self.gone.add(i)
            self._run(given_up + (i,))
            self.gone.discard(i)
        else:
            self._run(given_up + (i,))
