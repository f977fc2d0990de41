"""AC-REG-4 (issue 22 §4): each stand of a regiment must end its unit's turn next to another stand of the unit. A move,
a stay at a stand's last chance to move, or an activation that leaves more stands unable to than another choice is
refused naming the rule; what nothing can keep together is only isolated (AC-INTEG-2); the suggestions, and so the
AI, obey it; random and AI games of the shipped scenarios never leave a stand alone where it could be kept."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from armies_clash_engine_helpers import GAME, choose, scenario, start, unit

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.errors import IllegalChoice
from kessen.dice import draw, stream
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee import rounds
from kessen.rulesets.armies_clash.referee.actions import activate_options
from kessen.rulesets.armies_clash.referee.movement import move_options
from kessen.rulesets.armies_clash.referee.options import Activate, Declare, Stay
from kessen.rulesets.armies_clash.referee.pieces import enemy_footprints
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.grid import Footprint, distance, lock_squares
from kessen.rulesets.armies_clash.rules.integrity import Regiment, ToMove
from kessen.rulesets.armies_clash.rules.movement import Destination

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "armies-clash").glob("*.toml"))
FAR_ENEMY = ("e1", "v", "hob", (18, 18))


def battle(*stands: tuple[str, str, str, tuple[int, int]], terrain: list[dict[str, Any]] = ()) -> AcState:  # type: ignore[assignment]
    """Regiment u (Hob stands in march: 6 squares a turn) against skirmisher v; u's turn, no action declared."""
    s = scenario(stands=list(stands), units=[unit("u"), unit("v", "b", "skirmisher")], terrain=list(terrain))
    return choose(start(s, ["u", "v"]), Declare("none"))


def decision(state: AcState) -> Decision:
    node = g.MACHINE.node(state)
    assert isinstance(node, Decision), node
    return node


def ends(state: AcState) -> set[tuple[int, int]]:
    """The suggested ends of the move on the grid (flights aside)."""
    return {(o.x, o.y) for o in decision(state).options if isinstance(o, Destination) and o.kind == "move"}


def activated(state: AcState, stand: str) -> AcState:
    """*state* with *stand* activated (by the general, or by itself when it is the only one left)."""
    if decision(state).kind == "activate":
        state = choose(state, Activate(stand))
    assert state.turn is not None and state.turn.piece == stand
    return state


def refused(state: AcState, text: str) -> IllegalChoice:
    with pytest.raises(IllegalChoice) as caught:
        GAME.parse(state, decision(state), text)
    return caught.value


def distance_to(state: AcState, end: tuple[int, int], *mates: str) -> int:
    """How far the one-square anchor *end* lies from the nearest of *mates*."""
    return min(distance(Footprint(*end), state.stand_named(m).footprint) for m in mates)


def move(state: AcState, text: str) -> AcState:
    return choose(state, GAME.parse(state, decision(state), text))


def test_ac_reg_4_a_stand_steps_ahead_of_its_line_when_the_others_can_follow() -> None:
    """AC-REG-4, AC-MOVE-2: s1 of the line s1 s2 s3 (3,5 4,5 5,5) may march 3 north to 3,2, next to nobody: s2 and s3,
    still to move, can follow. Then s2, at its last chance to move, may not stay behind at 4,5 (s3 could not join
    both it and s1), nor walk off south; it goes up to s1, and s3 follows: it may end only next to them (or flee the
    battlefield, which leaves nobody alone: AC-MOVE-5)."""
    state = battle(("s1", "u", "hob", (3, 5)), ("s2", "u", "hob", (4, 5)), ("s3", "u", "hob", (5, 5)), FAR_ENEMY)
    state = activated(state, "s1")
    assert (3, 2) in ends(state)
    state = move(state, "move s1 to 3,2")
    state = activated(state, "s2")
    assert Stay() in decision(state).options  # before its action it may wait: it still moves after it (AC-REG-5)
    state = move(state, "stay")
    assert decision(state).kind == "move"  # its move after its action (none)
    stay = refused(state, "stay")
    assert stay.rule == "AC-REG-4" and stay.reason.startswith("staying where it is, s2 leaves ")
    assert refused(state, "move s2 to 4,10").rule == "AC-REG-4"
    assert Stay() not in decision(state).options and (4, 10) not in ends(state)
    state = move(state, "move s2 to 3,3")
    state = activated(state, "s3")
    state = move(state, "stay")
    assert ends(state) and all(distance_to(state, e, "s1", "s2") == 1 for e in ends(state))
    assert Destination(-1, 5, 6, False, "flee") in decision(state).options  # a flight ends no turn on the grid
    state = move(state, "move s3 to 4,3")
    assert not any(s.isolated for s in state.unit_stands("u"))


def test_ac_reg_4_a_stand_may_not_walk_off_alone_and_the_refusal_names_why() -> None:
    """AC-REG-4: s1 has gone 3 north to 3,2; s2 (4,5), the last to move, may end only next to it: every suggested end
    touches 3,2, and ``move s2 to 9,5`` is refused naming the rule and the stand left alone."""
    state = battle(("s1", "u", "hob", (3, 5)), ("s2", "u", "hob", (4, 5)), FAR_ENEMY)
    state = move(activated(state, "s1"), "move s1 to 3,2")
    state = activated(state, "s2")
    unfiltered = {(o.x, o.y) for o in move_options(state, state.turn) if isinstance(o, Destination) and o.kind == "move"}
    assert ends(state) == {e for e in unfiltered if distance_to(state, e, "s1") == 1} == {(2, 2), (4, 2), (3, 3), (3, 1)}
    error = refused(state, "move s2 to 9,5")
    assert error.rule == "AC-REG-4"
    assert error.reason == (
        "ending at 9,5, s2 leaves itself and s1 unable to end the turn next to another stand of u; each stand of a"
        " regiment ends its unit's turn next to another, and another choice keeps more of them so"
    )


def test_ac_reg_4_a_stand_may_not_leave_a_mate_pinned_by_the_enemy() -> None:
    """AC-REG-4, AC-MOVE-3: s1 is next to the enemy stand e1 and cannot step; s2 beside it may move, but only to
    squares still next to s1."""
    state = battle(("s1", "u", "hob", (3, 5)), ("s2", "u", "hob", (4, 5)), ("e1", "v", "hob", (2, 5)))
    state = activated(state, "s2")
    assert refused(state, "move s2 to 4,1").rule == "AC-REG-4"
    assert ends(state) == {(3, 4), (3, 6)}


def test_ac_reg_4_where_nothing_keeps_a_stand_next_to_another_every_end_is_allowed_and_it_is_isolated() -> None:
    """AC-REG-4, AC-INTEG-2: s1 is pinned by e1 at 2,5 and s2 is 8 squares off: no end of s2's 6-square move reaches
    s1, so every legal end is suggested, and both end the turn isolated."""
    state = battle(("s1", "u", "hob", (3, 5)), ("s2", "u", "hob", (11, 5)), ("e1", "v", "hob", (2, 5)))
    state = activated(state, "s2")
    assert decision(state).options == move_options(state, state.turn)
    state = move(state, "move s2 to 14,5")
    while state.turn is not None and state.turn.actor == "u":  # s1, pinned, stays
        state = choose(state, decision(state).options[0])
    assert state.stand_named("s1").isolated and state.stand_named("s2").isolated


def test_ac_reg_4_ac_move_2_a_column_in_a_narrow_way_moves_head_first() -> None:
    """AC-REG-4, AC-MOVE-2: on a causeway one square wide (deep water north and south), the head s1 of the column
    s3 s2 s1 has gone 5 east to 10,5. The tail s3 may not be activated before s2, which stands in its way (s4 and s5,
    a pair south of the water, may): s2 follows first, then s3 closes up."""
    water = [{"rect": [0, 4, 19, 4], "kind": "deep_water"}, {"rect": [0, 6, 19, 6], "kind": "deep_water"}]
    state = battle(("s1", "u", "hob", (5, 5)), ("s2", "u", "hob", (4, 5)), ("s3", "u", "hob", (3, 5)),
                   ("s4", "u", "hob", (15, 8)), ("s5", "u", "hob", (16, 8)), FAR_ENEMY, terrain=water)
    state = move(activated(state, "s1"), "move s1 to 10,5")
    assert Activate("s3") in activate_options(state, state.turn)
    assert set(decision(state).options) == {Activate("s2"), Activate("s4"), Activate("s5")}
    error = refused(state, "activate s3")
    assert error.rule == "AC-REG-4" and error.reason.startswith("activated now, s3 leaves ")
    state = move(activated(state, "s2"), "move s2 to 9,5")
    state = move(activated(state, "s3"), "move s3 to 8,5")
    assert not any(s.isolated for s in state.unit_stands("u"))


def test_ac_reg_4_ac_integ_5_a_regiment_of_one_stand_and_skirmishers_move_freely() -> None:
    """AC-REG-4 binds regiments with a mate on the grid: a lone regiment stand (AC-INTEG-5) and a skirmisher stand
    (AC-SKIRM-6 only marks isolation) are offered every legal end."""
    lone = activated(battle(("s1", "u", "hob", (3, 5)), FAR_ENEMY), "s1")
    assert decision(lone).options == move_options(lone, lone.turn)
    s = scenario(stands=[("k1", "u", "hob", (3, 5)), ("k2", "u", "hob", (4, 5)), FAR_ENEMY],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")])
    loose = activated(choose(start(s, ["u", "v"]), Declare("none")), "k1")
    assert decision(loose).options == move_options(loose, loose.turn)


# --- every suggestion legal, every other legal end refused; games keep regiments together ---------------------------


class Watcher:
    """Plays a battle (random or AI) and checks AC-REG-4 at every regiment decision and at the end of every turn."""

    def __init__(self, path: Path, seed: int, *, ai: bool) -> None:
        self.path, self.seed, self.ai = path, seed, ai
        self.filtered = 0
        self.unexcused: list[tuple[Any, ...]] = []
        self.excused = 0

    def play(self, monkeypatch: pytest.MonkeyPatch) -> None:
        ended: list[tuple[AcState, Any]] = []
        end_turn = rounds.end_turn

        def hooked(state: AcState, turn: Any, out: Any) -> AcState:
            ended.append((state, turn))
            return end_turn(state, turn, out)

        monkeypatch.setattr(rounds, "end_turn", hooked)
        state, _ = GAME.start(GAME.load_scenario(self.path.read_text(encoding="utf-8"), str(self.path)))
        rng, pick = stream(self.seed), random.Random(self.seed)
        deciders = {side: GAME.ai(side) for side in GAME.sides(state)}
        starts: dict[str, AcState] = {}
        while not isinstance(node := GAME.node(state), Terminal):
            turn = state.turn
            if turn is not None and not turn.solo and (turn.actor not in starts or starts[turn.actor].round != state.round):
                starts[turn.actor] = state
            if isinstance(node, Chance):
                choice = draw(node.dist, rng)
            else:
                self._check(state, node)
                choice = deciders[node.player].decide(state, node) if self.ai else node.options[pick.randrange(len(node.options))]
            ended.clear()
            state, _ = GAME.apply(state, choice)
            for end, turn in ended:
                if not turn.solo and end.unit(turn.actor).type == "regiment":
                    self._judge(starts[turn.actor], end, turn.actor)

    def _check(self, state: AcState, node: Decision) -> None:
        """Each end of a regiment stand's move the movement rules allow (and each stand it may activate) is suggested
        exactly when it parses back, and refused with AC-REG-4 when it is not suggested."""
        turn = state.turn
        if turn is None or turn.solo or state.unit(turn.actor).type != "regiment" or node.kind not in ("move", "activate"):
            return
        if node.kind == "move" and state.stand(turn.piece) is None:
            return
        legal = move_options(state, turn) if node.kind == "move" else activate_options(state, turn)
        assert set(node.options) <= set(legal)
        self.filtered += len(legal) - len(node.options)
        for option in legal:
            text = GAME.notation(state, node, option)
            if option in node.options:
                assert GAME.parse(state, node, text) == option, text
            else:
                with pytest.raises(IllegalChoice) as caught:
                    GAME.parse(state, node, text)
                assert caught.value.rule == "AC-REG-4", (text, str(caught.value))

    def _judge(self, start: AcState, end: AcState, unit_id: str) -> None:
        """A stand that ends its unit's turn with no mate next to it is excused only when it already stood apart when
        the turn began, or a stand of its unit was pinned next to an enemy stand then (AC-MOVE-3)."""
        stands = end.unit_stands(unit_id)
        lock = lock_squares(enemy_footprints(start, start.unit(unit_id).side, stands_only=True))
        pinned = any(sq in lock for s in start.unit_stands(unit_id) for sq in s.footprint.squares())
        for s in stands:
            if len(stands) > 1 and not any(m.id != s.id and distance(m.footprint, s.footprint) == 1 for m in stands):
                was = start.stand(s.id)
                apart = was is not None and not any(
                    m.id != s.id and distance(m.footprint, was.footprint) == 1 for m in start.unit_stands(unit_id)
                )
                if apart or pinned:
                    self.excused += 1
                else:
                    self.unexcused.append((self.path.stem, self.seed, start.round, unit_id, s.id))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_ac_reg_4_random_and_ai_games_never_leave_a_stand_alone_that_could_be_kept(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """AC-REG-4, AC-INTEG-2: in random-legal and AI games of each shipped scenario, every suggested end of a regiment
    stand's move parses back, every other legal end is refused with AC-REG-4 (so the AI, which picks among the
    suggestions, obeys the rule), the rule does narrow the choices, and no stand that began its unit's turn next to a
    mate, no mate pinned, ends it alone."""
    filtered = 0
    for seed in range(4):
        for ai in (False, True):
            watcher = Watcher(path, seed, ai=ai)
            watcher.play(monkeypatch)
            assert not watcher.unexcused, watcher.unexcused
            filtered += watcher.filtered
    assert filtered > 0


# --- the count itself, against every arrangement tried one by one ------------------------------------------------


def brute_alone(placed: list[tuple[int, int]], ends: list[list[tuple[int, int]]]) -> int:
    """The fewest one-square stands left with no neighbour, over every choice of an end per stand still to move
    (no two on one square): the count ``Regiment`` must reach, found the slow way."""
    best = len(placed) + len(ends)
    for choice in product(*ends):
        where = placed + list(choice)
        if len(set(where)) < len(where):
            continue
        alone = sum(1 for i, a in enumerate(where) if not any(j != i and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for j, b in enumerate(where)))
        best = min(best, alone)
    return best if len(placed) + len(ends) > 1 else 0


@pytest.mark.parametrize("seed", range(200))
def test_ac_reg_4_the_count_of_stands_left_alone_is_the_fewest_over_every_arrangement(seed: int) -> None:
    """AC-REG-4: ``Regiment.alone`` gives the fewest stands left alone over every arrangement of the stands still to
    move (each at one of its ends, two never on one square), as a brute force over all of them finds, on random
    small regiments of one-square stands on a 6 × 6 patch (two to six stands, half of them still to move)."""
    rng = random.Random(seed)
    squares = [(x, y) for x in range(6) for y in range(6)]
    chosen = rng.sample(squares, rng.randint(2, 6))
    moving = chosen[len(chosen) // 2 :]
    placed = [a for a in chosen if a not in moving]
    ends = [sorted({at, *rng.sample([s for s in squares if s not in placed], rng.randint(0, 4))}) for at in moving]
    found = Regiment(tuple(Footprint(*a) for a in placed), tuple(ToMove(1, at, frozenset(e)) for at, e in zip(moving, ends))).alone()
    assert found.exact and found.count == brute_alone(placed, ends), (placed, moving, ends, found)
