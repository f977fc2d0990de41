"""armies-clash engine: the grid, footprints, terrain costs, movement, ranges and areas (§3, §4.2, §5.2, §5.8,
§5.12, §5.15, §5.17; scenario behaviours SB-1..SB-11, SB-23..SB-25, SB-39)."""

from __future__ import annotations

from dataclasses import replace

from armies_clash_engine_helpers import at_piece, choose, scenario, start, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.rulesets.armies_clash.referee.attack import attack_options, attack_plan
from kessen.rulesets.armies_clash.referee.movement import move_options
from kessen.rulesets.armies_clash.referee.options import Stay
from kessen.rulesets.armies_clash.referee.spells import area_squares, cast_options
from kessen.rulesets.armies_clash.referee.state import AcState, Turn
from kessen.rulesets.armies_clash.referee.steps import PieceMove, ShiftGap
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion
from kessen.rulesets.armies_clash.rules.grid import (
    EAST,
    NORTH,
    Footprint,
    Grid,
    Terrain,
    adjacent,
    area_size,
    burst,
    cone,
    coverage,
    distance,
    line,
    reach_squares,
    step_cost,
)
from kessen.rulesets.armies_clash.rules.movement import Destination, movement_budget, speed_squares


def _moves(state: AcState) -> dict[tuple[int, int], Destination]:
    turn = state.turn
    assert turn is not None
    return {(d.x, d.y): d for d in move_options(state, turn) if isinstance(d, Destination) and d.kind == "move"}


def _one_stand(terrain: list[dict] = (), creature: str = "hob", at: tuple[int, int] = (3, 3), kind: str = "skirmisher", **extra):  # type: ignore[assignment]
    s = scenario(
        stands=[("s1", "u", creature, at), ("e1", "enemy", "hob", (19, 19))] + extra.pop("more", []),
        units=[unit("u", kind=kind, formation=extra.pop("formation", "march")), unit("enemy", "b", "skirmisher")],
        terrain=list(terrain), **extra,
    )
    return start(s)


def test_ac_grid_1_sb_1_diagonal_not_adjacent_distance_2() -> None:
    """SB-1 (AC-GRID-1): (3,3) and (4,4) touch only at a corner: not adjacent, distance 2."""
    a, b = Footprint(3, 3), Footprint(4, 4)
    assert not adjacent(a, b)
    assert distance(a, b) == 2
    assert adjacent(Footprint(3, 3), Footprint(4, 3))


def test_ac_grid_2_moves_are_orthogonal_steps() -> None:
    """AC-GRID-2: a stand with budget 1 on plain ground reaches exactly the four orthogonal neighbours."""
    state = at_piece(_one_stand(), "u", "s1")
    state = state.__class__(**{**{f: getattr(state, f) for f in state.__dataclass_fields__}, "turn": replace(state.turn, budget=1)})
    assert set(_moves(state)) == {(2, 3), (4, 3), (3, 2), (3, 4)}


def test_ac_stand_3_ac_move_1_sb_2_budgets() -> None:
    """SB-2 (AC-STAND-3, AC-MOVE-1, AC-DASH-1, AC-FORM-2, AC-FORM-3): a Hob (30 ft) skirmisher moves 6; support or
    defensive 3; a 25-ft creature defensive 2, Dashing 5; march or skirmisher Dashing 10 for a 5-square creature."""
    assert speed_squares(30) == 6 and speed_squares(25) == 5
    assert movement_budget(6, formation=None, dash=False) == 6
    assert movement_budget(6, formation="support", dash=False) == 3
    assert movement_budget(6, formation="defensive", dash=False) == 3
    assert movement_budget(5, formation="defensive", dash=False) == 2
    assert movement_budget(5, formation="defensive", dash=True) == 5
    assert movement_budget(5, formation="march", dash=True) == 10
    assert movement_budget(5, formation=None, dash=True) == 10


def test_ac_form_4_march_full_budget_in_engine() -> None:
    """AC-FORM-4: a march regiment stand gets its full speed as budget; AC-DASH-1 doubles it."""
    state = _one_stand(kind="regiment", formation="march")
    assert at_piece(state, "u", "s1").turn.budget == 6
    assert at_piece(state, "u", "s1", action="dash").turn.budget == 12


def test_ac_terr_7_sb_3_forest_costs_two() -> None:
    """SB-3 (AC-TERR-7, AC-TERR-3): (4,3) forest: (3,3)→(4,3)→(5,3) costs 2 + 1 = 3."""
    state = at_piece(_one_stand([{"at": [4, 3], "kind": "forest"}]), "u", "s1")
    assert _moves(state)[(4, 3)].cost == 2
    assert _moves(state)[(5, 3)].cost == 3


def test_ac_terr_5_sb_4_climbing() -> None:
    """SB-4 (AC-TERR-5): up two levels costs 1 + 2 = 3; into forest at level 2, 6; stepping down costs 1."""
    grid = Grid(10, 10, (((4, 3), Terrain(elevation=2)),))
    assert step_cost(grid, Footprint(3, 3), EAST, swimmer=False) == 3
    assert step_cost(grid, Footprint(4, 3), (-1, 0), swimmer=False) == 1
    forest = Grid(10, 10, (((4, 3), Terrain("forest", elevation=2)),))
    assert step_cost(forest, Footprint(3, 3), EAST, swimmer=False) == 6


def test_ac_terr_8_sb_5_big_footprint_pays_the_highest() -> None:
    """SB-5 (AC-TERR-8): an Ogre at (0,0) stepping east enters (2,0) and (2,1); (2,1) is rough, so the step costs 2."""
    grid = Grid(10, 10, (((2, 1), Terrain(rough=True)),))
    assert Footprint(0, 0, 2).entered(EAST) == ((2, 0), (2, 1))
    assert step_cost(grid, Footprint(0, 0, 2), EAST, swimmer=False) == 2


def test_ac_move_7_sb_6_road_bonus_step() -> None:
    """SB-6 (AC-MOVE-7, AC-TERR-2): road (1,0)…(6,0), forest (7,0): a Hob at (0,0) with budget 6 reaches (6,0) for 6
    and still makes one more step into the forest at (7,0); ending on plain gives no extra step."""
    terrain = [{"rect": [1, 0, 6, 0], "kind": "road"}, {"at": [7, 0], "kind": "forest"}]
    state = at_piece(_one_stand(terrain, at=(0, 0)), "u", "s1")
    moves = _moves(state)
    assert moves[(6, 0)].cost == 6 and not moves[(6, 0)].road
    assert moves[(7, 0)].road
    plain = at_piece(_one_stand(at=(0, 0)), "u", "s1")
    assert (7, 0) not in _moves(plain)


def test_ac_terr_4_sb_7_deep_water() -> None:
    """SB-7 (AC-TERR-4): a Hob may not enter deep water; a swimmer may, at cost 1 (not difficult for it)."""
    terrain = [{"at": [4, 3], "kind": "deep_water"}]
    assert (4, 3) not in _moves(at_piece(_one_stand(terrain), "u", "s1"))
    swimmers = [{"id": "hob", "size": "medium", "ac": 18, "hp": 11, "speed_ft": 30, "swim_ft": 30,
                 "abilities": {"str": 1, "dex": 1, "con": 1, "int": 0, "wis": 0, "cha": -1}}]
    state = at_piece(_one_stand(terrain, creatures=swimmers), "u", "s1")
    assert _moves(state)[(4, 3)].cost == 1


def test_ac_terr_1_rough_plain_is_difficult() -> None:
    """AC-TERR-1: a rough plain square costs 2 to enter, a plain one 1."""
    state = at_piece(_one_stand([{"at": [4, 3], "rough": True}]), "u", "s1")
    assert _moves(state)[(4, 3)].cost == 2 and _moves(state)[(2, 3)].cost == 1


def test_ac_move_3_sb_8_adjacency_lock() -> None:
    """SB-8 (AC-MOVE-3, AC-RETREAT-1): enemy stand at (6,3): a Hob moving east from (3,3) stops at (5,3); from there it
    cannot move unless its unit retreats."""
    state = _one_stand(more=[("e2", "enemy", "hob", (6, 3))])
    moves = _moves(at_piece(state, "u", "s1"))
    assert (5, 3) in moves and (7, 3) not in moves and (8, 3) not in moves  # no passing the lock
    locked = replace(state, stands=tuple(replace(s, x=5) if s.id == "s1" else s for s in state.stands))
    assert _moves(at_piece(locked, "u", "s1")) == {}
    assert _moves(at_piece(locked, "u", "s1", action="retreat"))


def test_ac_move_3_sb_9_solos_neither_lock_nor_are_locked() -> None:
    """SB-9 (AC-MOVE-3): an enemy solo at (6,3) does not lock a stand at (5,3); a solo next to enemy stands walks away."""
    s = scenario(
        stands=[("s1", "u", "hob", (5, 3)), ("e1", "enemy", "hob", (10, 10))],
        units=[unit("u", kind="skirmisher"), unit("enemy", "b", "skirmisher")],
        solos=[{"id": "hero", "side": "b", "creature": "hob", "at": [6, 3]}],
    )
    state = start(s)
    assert _moves(at_piece(state, "u", "s1"))
    solo_turn = replace(state, turn=Turn("hero", True, action="none", piece="hero", budget=6), pending=(PieceMove(),))
    near_stand = replace(solo_turn, stands=tuple(replace(x, x=7, y=3) if x.id == "e1" else x for x in state.stands))
    assert any(isinstance(o, Destination) for o in move_options(near_stand, near_stand.turn))


def test_ac_skirm_4_ac_reg_3_sb_10_passing_allies() -> None:
    """SB-10 (AC-SKIRM-4, AC-REG-3, AC-MOVE-4): through an allied skirmisher stand at (4,3) but not stopping there;
    never into an allied regiment stand."""
    s = scenario(
        stands=[("s1", "u", "hob", (3, 3)), ("f1", "friends", "hob", (4, 3)), ("e1", "enemy", "hob", (19, 19))],
        units=[unit("u", kind="skirmisher"), unit("friends", kind="skirmisher"), unit("enemy", "b", "skirmisher")],
    )
    state = at_piece(start(s), "u", "s1")
    assert (4, 3) not in _moves(state) and _moves(state)[(5, 3)].cost == 2
    s2 = scenario(
        stands=[("s1", "u", "hob", (3, 3)), ("f1", "friends", "hob", (4, 3)), ("e1", "enemy", "hob", (19, 19))],
        units=[unit("u", kind="skirmisher"), unit("friends"), unit("enemy", "b", "skirmisher")],
    )
    state = at_piece(start(s2), "u", "s1")
    assert (4, 3) not in _moves(state) and _moves(state)[(5, 3)].cost == 4  # around, not through


def test_ac_move_5_sb_11_leaving_the_grid() -> None:
    """SB-11 (AC-MOVE-5, AC-END-3): an Ogre at (8,0) on a 10-wide grid stepping east flees: removed at once, counts as
    lost, leaves no gap; its unit, with no stands left, is eliminated at that moment."""
    s = scenario(
        stands=[("o1", "u", "ogre", (8, 0)), ("e1", "enemy", "hob", (0, 9))],
        units=[unit("u", kind="skirmisher"), unit("enemy", "b", "skirmisher")],
        width=10, height=10,
    )
    state = at_piece(start(s), "u", "o1")
    flee = [d for d in move_options(state, state.turn) if isinstance(d, Destination) and d.kind == "flee"]
    assert any(d.x == 9 for d in flee)
    after = choose(state, next(d for d in flee if d.x == 9))
    assert after.stand("o1") is None and after.lost == (1, 0) and after.unit("u").eliminated
    assert not any(isinstance(p, ShiftGap) for p in after.pending)


def test_ac_range_1_ac_range_2_sb_39_ranges() -> None:
    """SB-39 (AC-RANGE-1, AC-RANGE-2): shortbow 80/320: 1–4 normal, 5–16 long (disadvantage), 17+ out; a 5-ft reach
    or a 15-ft spell range reaches adjacent targets."""
    assert reach_squares(80) == 4 and reach_squares(320) == 16
    assert reach_squares(5) == 1 and reach_squares(15) == 1
    s = scenario(
        stands=[("s1", "u", "hob", (0, 0)), ("e1", "enemy", "hob", (0, 4)), ("e2", "enemy", "hob", (0, 16)), ("e3", "enemy", "hob", (0, 17))],
        units=[unit("u", kind="skirmisher"), unit("enemy", "b", "skirmisher")], width=3, height=20,
    )
    state = at_piece(start(s), "u", "s1")
    targets = {o.target for o in attack_options(state, "s1") if o.using == "shortbow"}
    assert targets == {"e1", "e2"}
    near = attack_plan(state, "s1", "shortbow", "stand", "e1", supported=False)
    far = attack_plan(state, "s1", "shortbow", "stand", "e2", supported=False)
    assert isinstance(near, AttackQuestion) and isinstance(far, AttackQuestion)
    assert not near.rolls[0].long_range and far.rolls[0].long_range


def test_ac_aoe_1_sizes() -> None:
    """AC-AOE-1: n = max(1, (ft + 10) ÷ 20): 10 or 15 → 1, 20 → 1, 30 → 2, 60 → 3, 100 → 5."""
    assert [area_size(f) for f in (10, 15, 20, 30, 60, 100)] == [1, 1, 1, 2, 3, 5]


def test_ac_aoe_4_ac_aoe_7_sb_23_sphere_and_partial_cover() -> None:
    """SB-23 (AC-AOE-1, AC-AOE-4, AC-AOE-7): a 20-ft sphere at (5,5) covers (5,5) and its four neighbours; an Ogre
    at (6,5) is partly covered."""
    area = frozenset(burst((5, 5), area_size(20)))
    assert area == {(5, 5), (4, 5), (6, 5), (5, 4), (5, 6)}
    assert coverage(area, Footprint(6, 5, 2)) == "partial"
    assert coverage(area, Footprint(5, 5)) == "full"


def test_ac_aoe_3_sb_24_cone() -> None:
    """SB-24 (AC-AOE-3): a 60-ft cone north from a Hob at (5,5): (5,4); (5,3),(6,3); (4,2),(5,2),(6,2); mirrored
    (5,4); (4,3),(5,3); (4,2),(5,2),(6,2); n(n+1)/2 squares."""
    assert cone((5, 5), NORTH, 3) == ((5, 4), (5, 3), (6, 3), (4, 2), (5, 2), (6, 2))
    assert cone((5, 5), NORTH, 3, mirrored=True) == ((5, 4), (4, 3), (5, 3), (4, 2), (5, 2), (6, 2))
    assert len(cone((5, 5), EAST, 5)) == 15


def test_ac_aoe_5_sb_25_line() -> None:
    """SB-25 (AC-AOE-5): a 100-ft line cast east from (0,0) covers (1,0)…(5,0) by default."""
    assert line((1, 0), EAST, area_size(100)) == ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0))


def test_ac_aoe_2_ac_aoe_6_self_origin_and_clipping() -> None:
    """AC-AOE-2, AC-AOE-6: a self-range sphere's origin is outside the caster, whose squares are never part of the
    area; squares off the grid are dropped."""
    creatures = [
        {"id": "hob", "size": "medium", "ac": 18, "hp": 11, "speed_ft": 30,
         "abilities": {"str": 1, "dex": 1, "con": 1, "int": 0, "wis": 0, "cha": -1},
         "spells": [{"id": "burst", "range_ft": "self", "form": "area", "shape": "sphere", "size_ft": 30,
                     "resolution": "save", "save_ability": "dex", "dc": 12, "damage": "1d6"}]},
    ]
    s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("e1", "enemy", "hob", (9, 9))],
                 units=[unit("u", kind="skirmisher"), unit("enemy", "b", "skirmisher")], creatures=creatures, width=10, height=10)
    state = at_piece(start(s), "u", "s1", action="cast")
    options = [o for o in cast_options(state, "s1")]
    assert {(o.x, o.y) for o in options} == {(1, 0), (0, 1)}
    area = area_squares(state, "s1", options[0])
    assert (0, 0) not in area and all(0 <= x < 10 and 0 <= y < 10 for x, y in area)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.integers(0, 8), st.integers(1, 3), st.integers(0, 8), st.integers(0, 8), st.integers(1, 3))
def test_ac_grid_1_footprint_distance_matches_squares(ax: int, ay: int, asz: int, bx: int, by: int, bsz: int) -> None:
    """§3 / AC-GRID-1: the footprint distance equals the least orthogonal distance over all pairs of squares."""
    a, b = Footprint(ax, ay, asz), Footprint(bx, by, bsz)
    brute = min(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p in a.squares() for q in b.squares())
    assert distance(a, b) == brute


def test_ac_move_6_no_square_beyond_budget() -> None:
    """AC-MOVE-6: every destination costs at most the budget, except the road bonus step; staying is always offered."""
    state = at_piece(_one_stand([{"rect": [4, 0, 4, 19], "kind": "forest"}]), "u", "s1")
    options = move_options(state, state.turn)
    assert Stay() in options
    assert all(o.cost <= 6 for o in options if isinstance(o, Destination) and not o.road)
