"""Song of Blades' "open in the calculator" (issue 24 §4): an attack's option carries the ``melee`` input whose odds
are the ones shown beside it (SB-MELEE-4..6, §6.1)."""

from __future__ import annotations

import json
from pathlib import Path

from kessen.match import Match
from kessen.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[3]
KILLS = ("kill", "gruesome_kill")


def test_SB_MELEE_4_6_an_attacks_calculator_input_gives_the_odds_shown() -> None:
    """Both sides played by hand, attacking where they can: each attack's input, asked of ``melee`` as the odds
    API asks it, wins, kills and suffers with exactly the chances shown; an activation or a free hack opens none."""
    path = ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml"
    match = Match.open(path, seed=3, people=tuple(Match.open(path, seed=3).sides))
    procedure = get_ruleset("song-of-blades").procedure("melee")
    attacks = 0
    for _ in range(2000):
        match.run()
        d = match.decision
        if d is None:
            break
        for o in d.options:
            if o.odds and "win" in o.odds:
                assert o.calculator is not None and o.calculator[0] == "melee"
                dist = procedure.dist(procedure.input_model.model_validate_json(json.dumps(o.calculator[1])))
                assert dict(o.odds) == {
                    "win": dist.probability(lambda r: r.affected == "defender"),
                    "kill": dist.probability(lambda r: r.affected == "defender" and r.result in KILLS),
                    "suffer": dist.probability(lambda r: r.affected == "attacker"),
                }
                attacks += 1
            elif o.odds:
                assert o.calculator is None
        attack = [o for o in d.options if o.odds and "win" in o.odds]
        match.choose(attack[0] if attack else d.options[0])
    assert attacks > 0
