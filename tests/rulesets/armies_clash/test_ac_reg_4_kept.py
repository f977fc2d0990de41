"""armies-clash, issue 26: AC-REG-4's regiments kept from one state to the next (``regiment_moves._regiment``) and the
stand move searches asked with only what they read (``stand_search_reads``) answer as the plain rules do, on the
states of random games of every shipped scenario."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from armies_clash_engine_helpers import GAME

from kessen.core.engine import Chance, Decision, Terminal
from kessen.dice import draw, stream
from kessen.rulesets.armies_clash.referee import movement, regiment_moves
from kessen.rulesets.armies_clash.referee.movement import stand_destinations, stand_mover
from kessen.rulesets.armies_clash.referee.pieces import enemy_footprints, occupancy
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.movement import destinations, end_anchors, stand_search_reads

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "armies-clash").glob("*.toml"))


def _afresh(state: AcState) -> AcState:
    """*state* copied, every kept regiment and search let go: what it is asked is found anew by the plain rules."""
    regiment_moves._per_thread.regiments = {}
    regiment_moves._ends.cache_clear()
    movement.stand_destinations.cache_clear()
    copy: AcState = pickle.loads(pickle.dumps(state))
    return copy


def _states(path: Path, seed: int, steps: int) -> list[AcState]:
    """The states of a random-legal game of *path* where a decision waits, the first *steps* of them."""
    state, _ = GAME.start(GAME.load_scenario(path.read_text(encoding="utf-8"), str(path)))
    rng, pick = stream(seed), random.Random(seed)
    found: list[AcState] = []
    while len(found) < steps and not isinstance(node := GAME.node(state), Terminal):
        if isinstance(node, Chance):
            choice = draw(node.dist, rng)
        else:
            found.append(state)
            choice = node.options[pick.randrange(len(node.options))]
        state, _ = GAME.apply(state, choice)
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_ac_reg_4_issue_26_kept_regiments_suggest_what_fresh_ones_do(path: Path) -> None:
    """AC-REG-4, AC-MOVE-2 (issue 26): at every decision of random games, the options the referee suggests with the
    regiments and searches kept from every state before (a stand's ends, the stands it may activate) are those it
    finds for the same state with nothing kept, each end judged the same (the count, which stands, exact or not)."""
    judged = 0
    for seed in (1, 2):
        states = _states(path, seed, 160)
        for state in states:
            node = GAME.node(state)
            assert isinstance(node, Decision)
            warm = (node.options, regiment_moves._judged_moves(state), regiment_moves._judged_activations(state))
            fresh = _afresh(state)
            cold = GAME.node(fresh)
            assert isinstance(cold, Decision)
            assert warm == (cold.options, regiment_moves._judged_moves(fresh), regiment_moves._judged_activations(fresh))
            judged += len(warm[1]) + len(warm[2])
    assert judged > 100


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_ac_move_1_issue_26_a_stand_search_asked_with_what_it_reads_finds_every_end(path: Path) -> None:
    """AC-MOVE-1..7, AC-MORALE-4 (issue 26): a stand's move search asked with only the squares, enemy stands and
    enemies within its reach (``stand_search_reads``) finds the very ends the search with the whole battlefield finds,
    and ``end_anchors`` (what AC-REG-4 asks) the anchors of its moves, for every stand of random games' states, at
    random budgets, retreating or not."""
    rng = random.Random(26)
    compared = 0
    for state in _states(path, 3, 120)[::3]:
        occ = occupancy(state)
        for stand in state.stands:
            mover = stand_mover(state, stand, rng.randint(0, 12), retreat=rng.random() < 0.3, road_available=rng.random() < 0.8)
            taken = [item for item in occ.items() if item[1][2] != stand.id]
            enemy_stands = enemy_footprints(state, mover.side, stands_only=True)
            enemies = enemy_footprints(state, mover.side)
            plain = destinations(state.grid, dict(taken), mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=state.wrecked())
            near, locks, away = stand_search_reads(mover, taken, enemy_stands, enemies)
            assert sorted(plain, key=repr) == sorted(stand_destinations(state.grid, near, mover, locks, away, state.wrecked()), key=repr)
            anchors = end_anchors(state.grid, dict(near), mover, enemy_stands=locks, enemies=away, wrecked=state.wrecked())
            assert anchors == {(d.x, d.y) for d in plain if d.kind == "move"}
            compared += 1
    assert compared > 100
