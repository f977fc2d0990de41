"""Setting up a battle: the scenario's models on the board, before the first priority roll (section 4)."""

from __future__ import annotations

from kessen.rulesets.battlehost.referee.battlefield import Model
from kessen.rulesets.battlehost.referee.state import BhState
from kessen.rulesets.battlehost.rules.sides import Side
from kessen.rulesets.battlehost.scenario import ModelEntry, Scenario, board_of


def initial_state(scenario: Scenario) -> BhState:
    """The board as the scenario sets it, before the first priority roll."""
    models = models_of(scenario)
    return BhState(
        name=scenario.name, board=board_of(scenario), turns=scenario.turns, models=models,
        start=(len(scenario.good), len(scenario.evil)), first_priority=scenario.first_priority,
    )


def model_ids(scenario: Scenario) -> list[str]:
    """Every model's id: given, or its name, numbered ("Orc 1", "Orc 2") when names repeat."""
    entries = [*scenario.good, *scenario.evil]
    taken = {e.id for e in entries if e.id is not None}
    counts: dict[str, int] = {}
    for e in entries:
        if e.id is None:
            counts[e.name] = counts.get(e.name, 0) + 1
    seen: dict[str, int] = {}
    out: list[str] = []
    for e in entries:
        if e.id is not None:
            out.append(e.id)
            continue
        if counts[e.name] == 1 and e.name not in taken:
            out.append(e.name)
            continue
        n = seen.get(e.name, 0)
        while True:
            n += 1
            candidate = f"{e.name} {n}"
            if candidate not in taken:
                break
        seen[e.name] = n
        taken.add(candidate)
        out.append(candidate)
    return out


def models_of(scenario: Scenario) -> tuple[Model, ...]:
    """The engine's models, Good first, in file order."""
    entries: list[tuple[Side, ModelEntry]] = [("good", e) for e in scenario.good] + [("evil", e) for e in scenario.evil]
    out = []
    for model_id, (side, e) in zip(model_ids(scenario), entries):
        fight, shoot = e.fight_and_shoot()
        out.append(
            Model(
                id=model_id, side=side, name=e.name, type=e.type, move=e.move, fight=fight, shoot_value=shoot,
                strength=e.strength, defence=e.defence, attacks=e.attacks, wounds=e.wounds,
                wounds_left=e.wounds - e.wounds_suffered, might_left=e.might if e.might_left is None else e.might_left,
                two_handed=e.two_handed, base_mm=e.base_mm, weapon=e.weapon(), x=e.x, y=e.y, prone=e.prone,
            )
        )
    return tuple(out)
