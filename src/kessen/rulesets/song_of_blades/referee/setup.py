"""Setting up a game: the table, its terrain and the two warbands as the scenario places them (§3.4)."""

from __future__ import annotations

from kessen.core.geometry import Point, Rect
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, Table
from kessen.rulesets.song_of_blades.referee.state import Skirmish, SobState
from kessen.rulesets.song_of_blades.scenario import Scenario, base_mm, move_length


def initial_state(scenario: Scenario) -> SobState:
    """The table as the scenario sets it, before the roll-off."""
    o = scenario.options
    table = Table(
        width=o.table_width_mm,
        depth=o.table_depth_mm,
        scale=o.scale,
        impassable=tuple(Rect(*r) for r in scenario.impassable),
        drops=tuple((Rect(*a.rect), a.drop_mm) for a in scenario.drop_areas),
        high_ground=tuple((Rect(*h.rect), h.height_mm) for h in scenario.high_ground),
        cover=tuple(Rect(*r) for r in scenario.cover),
        obstacles=tuple((Point(s[0], s[1]), Point(s[2], s[3])) for s in scenario.obstacles),
    )
    figures = tuple(
        Figure(
            id=m.id, side=s.side, name=m.name, points=m.points, quality=m.quality, combat=m.combat,
            size=m.size, mounted=m.mounted, flying=m.flying, move=move_length(m),
            special_rules=m.special_rules, base_mm=base_mm(m), x=m.x, y=m.y, state=m.state,
        )
        for s in scenario.sides
        for m in s.models
    )
    sides = (scenario.sides[0].side, scenario.sides[1].side)
    points = tuple(sum(m.points for m in s.models) for s in scenario.sides)
    skirmish = Skirmish(name=scenario.name, options=(o.follow_up, o.melee_priority), turns=scenario.turns, sides=sides,
                        start_points=(points[0], points[1]))
    return SobState(skirmish=skirmish, table=table, figures=figures)
