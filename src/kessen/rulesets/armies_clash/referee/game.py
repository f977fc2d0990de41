"""The armies-clash Game the drivers play (``kessen.core.engine.Game``): the step machine (machine.py) with the
scenario loading, notation, odds, words, drawing and AI of the ruleset, and the ENGINE the registry loads."""

from __future__ import annotations

from kessen.core.steps import StepGame
from kessen.rulesets import Engine
from kessen.rulesets.armies_clash import text
from kessen.rulesets.armies_clash.ai import AcAI, AcTactics
from kessen.rulesets.armies_clash.board import board_data, draw
from kessen.rulesets.armies_clash.referee import notation
from kessen.rulesets.armies_clash.referee.machine import MACHINE
from kessen.rulesets.armies_clash.referee.odds import choice_odds, odds_input
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState
from kessen.rulesets.armies_clash.scenario import Scenario, load_scenario, swap_deployment


GAME: StepGame[AcState, Scenario] = StepGame(
    "armies-clash", MACHINE, scenario=load_scenario, setup=initial_state, sides=lambda state: SIDES, ai=AcAI,
    notation=notation.notation, parse=notation.parse, odds=choice_odds, odds_input=odds_input,
    describe=text.describe, prompt=text.prompt, narrate=text.narrate, board=board_data, draw=draw, tactics=AcTactics(),
)

ENGINE = Engine(GAME, swap_deployment)
"""What the registry plays armies-clash battles with (``Ruleset.of_package``)."""
