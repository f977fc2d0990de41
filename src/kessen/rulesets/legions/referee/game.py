"""The legions Game the drivers play (``kessen.core.engine.Game``): the step machine (machine.py) with the scenario
loading, notation, odds, words, drawing and AI of the ruleset, and the ENGINE the registry loads."""

from __future__ import annotations

from kessen.core.engine import Decision
from kessen.core.steps import StepGame
from kessen.rulesets import Engine
from kessen.rulesets.legions import text
from kessen.rulesets.legions.ai import LiAI, LiTactics
from kessen.rulesets.legions.board import awaiting, board_data, draw
from kessen.rulesets.legions.referee import notation, odds
from kessen.rulesets.legions.referee.machine import MACHINE
from kessen.rulesets.legions.referee.setup import initial_state
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.steps import new_since_v1
from kessen.rulesets.legions.scenario import Scenario, load_scenario, swap_deployment


def _prompt(state: LiState, decision: Decision, lang: str) -> str:
    """The question a decision asks: the player who decides, then what is decided and who acts."""
    return text.say(lang, "prompt", player=decision.player, what=awaiting(state, lang))


GAME: StepGame[LiState, Scenario] = StepGame(
    "legions", MACHINE, scenario=load_scenario, setup=initial_state, sides=lambda state: state.players, ai=LiAI,
    notation=notation.notation, parse=notation.parse,
    odds=lambda state, decision, choice: odds.choice_odds(state, choice),
    odds_input=lambda state, decision, choice: odds.odds_input(state, choice),
    describe=text.describe, prompt=_prompt, narrate=text.narrate, board=board_data, draw=draw, tactics=LiTactics(),
)

ENGINE = Engine(GAME, swap_deployment, new_since_v1)
"""What the registry plays legions battles with (``Ruleset.of_package``)."""
