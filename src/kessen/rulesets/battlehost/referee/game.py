"""The battlehost Game the drivers play (``kessen.core.engine.Game``): the step machine (machine.py) with the
scenario loading, notation, odds, words, drawing and AI of the ruleset, and the ENGINE the registry loads."""

from __future__ import annotations

from kessen.core.steps import StepGame
from kessen.rulesets import Engine
from kessen.rulesets.battlehost import text
from kessen.rulesets.battlehost.ai import BattlehostAI, BattlehostTactics
from kessen.rulesets.battlehost.board import board_data, draw
from kessen.rulesets.battlehost.referee import notation, odds
from kessen.rulesets.battlehost.referee.machine import MACHINE
from kessen.rulesets.battlehost.referee.moves import new_since_v1
from kessen.rulesets.battlehost.referee.setup import initial_state
from kessen.rulesets import odds_input_of
from kessen.rulesets.battlehost.procedures import PROCEDURES
from kessen.rulesets.battlehost.referee.state import BhState
from kessen.rulesets.battlehost.rules.sides import SIDES
from kessen.rulesets.battlehost.scenario import Scenario, load_scenario, swap_deployment


GAME: StepGame[BhState, Scenario] = StepGame(
    "battlehost", MACHINE, scenario=load_scenario, setup=initial_state, sides=lambda state: SIDES, ai=BattlehostAI,
    notation=lambda state, decision, choice: notation.decision_notation(decision, choice), parse=notation.parse,
    odds=odds.odds, odds_input=lambda state, decision, choice: odds_input_of(PROCEDURES, odds.odds_question(state, decision, choice)),
    describe=text.describe, prompt=lambda state, decision, lang: text.prompt(decision, lang), narrate=text.narrate,
    board=board_data, draw=draw, tactics=BattlehostTactics(),
)

ENGINE = Engine(GAME, swap_deployment, new_since_v1)
"""What the registry plays battlehost battles with (``Ruleset.of_package``)."""
