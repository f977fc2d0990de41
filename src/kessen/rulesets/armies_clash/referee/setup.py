"""Setting up: the grid and its terrain, units in formation, solos placed or joined, commanders named (§5.9)."""

from __future__ import annotations

from kessen.rulesets.armies_clash.referee.integrity import isolation
from kessen.rulesets.armies_clash.referee.state import AcState, Solo, Stand, Static, Unit
from kessen.rulesets.armies_clash.referee.steps import InitRoll
from kessen.rulesets.armies_clash.rules.grid import FOOTPRINT, Grid, Square, Terrain
from kessen.rulesets.armies_clash.scenario import Scenario


def initial_state(scenario: Scenario) -> AcState:
    """The battle as set up (§5.9): units, formations, solos placed or joined, commanders named;
    starting stands recorded (AC-SETUP-3); then everyone rolls initiative (AC-INIT-1)."""
    terrain: dict[Square, Terrain] = {}
    for entry in scenario.grid.terrain:
        for square in entry.squares():
            terrain[square] = Terrain(entry.kind, entry.rough, entry.elevation, entry.obscured)
    grid = Grid(scenario.grid.width, scenario.grid.height, tuple(sorted(terrain.items())))
    creatures = {c.id: c for c in scenario.creatures}
    static = Static(
        name=scenario.name, grid=grid, creatures=creatures, objectives=scenario.objectives,
        max_rounds=scenario.max_rounds, extra_round_on_tie=scenario.extra_round_on_tie,
        surprised=frozenset(scenario.surprised),
    )
    stands = tuple(
        Stand(s.id, s.unit, s.creature, s.at[0], s.at[1], FOOTPRINT[creatures[s.creature].size], s.hp or creatures[s.creature].hp)
        for s in scenario.stands
    )
    units = tuple(
        Unit(u.id, u.side, u.type, u.formation, u.commander, u.attrition_vp, sum(1 for s in stands if s.unit == u.id))
        for u in scenario.units
    )
    solos = tuple(
        Solo(
            s.id, s.side, s.creature, FOOTPRINT[creatures[s.creature].size],
            s.at[0] if s.at else 0, s.at[1] if s.at else 0, s.joined_to,
            s.hp or creatures[s.creature].hp, s.pc, s.commands,
        )
        for s in scenario.solos
    )
    objective_hp = tuple((o.id, o.hp) for o in scenario.objectives if o.kind == "destroy" and o.hp is not None)
    pending = tuple(InitRoll(u.id) for u in units) + tuple(InitRoll(s.id) for s in solos)
    state = AcState(static, stands, units, solos, objective_hp=objective_hp, pending=pending)
    return isolation(state, [])
