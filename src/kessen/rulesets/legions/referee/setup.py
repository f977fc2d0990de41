"""Setting up the battle: the battlefield, Formations, Detachments and models as the scenario places them (§3)."""

from __future__ import annotations

from kessen.rulesets.legions.profiles import SCALE, Profile, Weapon
from kessen.rulesets.legions.referee.battlefield import EDGE_FACING
from kessen.rulesets.legions.referee.phases import Phase
from kessen.rulesets.legions.referee.state import Battle, Course, Detachment, Formation, LiState, Model
from kessen.rulesets.legions.referee.steps import (
    BeginRound,
    CombatPhase,
    EndPhase,
    RollInitiative,
    Step,
)
from kessen.rulesets.legions.rules.broken import FormationModels, starting_size
from kessen.rulesets.legions.scenario import Scenario, model_ids


def initial_state(scenario: Scenario) -> LiState:
    """The battlefield as the scenario sets it (§3)."""
    players = (scenario.players[0].name, scenario.players[1].name)
    edges = (scenario.players[0].edge, scenario.players[1].edge)
    formations: list[Formation] = []
    detachments: list[Detachment] = []
    for f in scenario.formations:
        entries: list[FormationModels] = []
        edge = edges[players.index(f.player)]
        for d in f.detachments:
            ids = iter(model_ids(d.id, d.models))
            models: list[Model] = []
            for entry in d.models:
                p = scenario.profiles[entry.profile]
                weapons = tuple(
                    Weapon(w.name, tuple(Profile(x.range, x.dice, x.to_hit, x.ap, "light_at" in x.traits) for x in w.profiles))
                    for w in p.weapons
                )
                for k in range(entry.count):
                    wounds_left = p.wounds if entry.wounds_remaining is None else entry.wounds_remaining
                    models.append(Model(
                        id=next(ids), type=p.type, scale=p.scale or _scale(p.type), movement=p.movement,
                        armour_save=p.armour_save, special_save=p.special_save, cover_save=entry.cover_save,
                        wounds=p.wounds, wounds_remaining=wounds_left, caf=p.caf, morale=p.morale,
                        void_shields=(p.void_shields if entry.void_shields is None else entry.void_shields) if wounds_left else 0,
                        void_shields_max=p.void_shields,
                        x=float(entry.x + k * entry.dx), y=float(entry.y + k * entry.dy), base_radius=float(p.base_radius),
                        facing=float(EDGE_FACING[edge] if entry.facing is None else entry.facing),
                        obscured=entry.obscured, weapons=weapons,
                    ))
                    entries.append(FormationModels(type=p.type, wounds=p.wounds))
            detachments.append(Detachment(
                id=d.id, owner=f.player, formation=f.id, models=tuple(models), order=d.order, engaged=d.engaged,
                pinned=d.pinned, in_reserve=d.in_reserve, charged_and_moved=d.charged_and_moved,
                withdrew_this_round=d.withdrew_this_round,
            ))
        formations.append(Formation(f.id, f.player, starting_size(tuple(entries)), f.broken))
    pending: tuple[Step, ...]
    phase: Phase
    if scenario.start == "combat":
        pending = (CombatPhase(), EndPhase())
        if scenario.initiative is None:
            pending = (RollInitiative(),) + pending
        phase = "combat"
    else:
        pending, phase = (BeginRound(),), "orders"
    battle = Battle(
        name=scenario.name, width=scenario.battlefield.width, height=scenario.battlefield.height, players=players,
        edges=edges, rounds=scenario.rounds, no_sight=frozenset(frozenset(p) for p in scenario.no_line_of_sight),
    )
    return LiState(
        battle=battle, formations=tuple(formations), detachments=tuple(detachments), pending=pending,
        course=Course(phase=phase, initiative=scenario.initiative),
    )


def _scale(model_type: str) -> int:
    """The Scale of a model type whose profile gives none (§3.1)."""
    return SCALE[model_type]
