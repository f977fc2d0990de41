"""The toy's Game (``kessen.core.engine.Game``): its step machine with its words, notation, odds, board and AI, and the
ENGINE the registry loads (``Ruleset.of_package``)."""

from __future__ import annotations

from kessen.core.steps import StepGame
from kessen.rulesets import Engine
from tests.toy import text
from tests.toy.ai import FirstOption
from tests.toy.board import board_data, draw
from tests.toy.referee.machine import MACHINE
from tests.toy.referee.notation import notation, parse
from tests.toy.referee.odds import choice_odds
from tests.toy.referee.setup import initial_state
from tests.toy.referee.state import ToyState
from tests.toy.scenario import Scenario, load_scenario, swap_deployment


GAME: StepGame[ToyState, Scenario] = StepGame(
    "toy", MACHINE, scenario=load_scenario, setup=initial_state, sides=lambda state: state.sides, ai=FirstOption,
    notation=notation, parse=parse, odds=choice_odds,
    describe=text.describe, prompt=text.prompt, narrate=text.narrate, board=board_data, draw=draw,
)

ENGINE = Engine(GAME, swap_deployment)
