"""The song-of-blades Game the drivers play (``kessen.core.engine.Game``): the step machine (machine.py) with the
scenario loading, notation, odds, words, drawing and AI of the ruleset, and the ENGINE the registry loads."""

from __future__ import annotations

from kessen.core.steps import StepGame
from kessen.i18n import narrate
from kessen.rulesets import Engine, odds_input_of
from kessen.rulesets.song_of_blades.ai import SobAI, SobTactics
from kessen.rulesets.song_of_blades.board import board_data, draw
from kessen.rulesets.song_of_blades.referee.machine import MACHINE
from kessen.rulesets.song_of_blades.referee.notation import notation, parse
from kessen.rulesets.song_of_blades.procedures import PROCEDURES
from kessen.rulesets.song_of_blades.referee.odds import choice_odds, odds_question
from kessen.rulesets.song_of_blades.referee.setup import initial_state
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.scenario import Scenario, load_scenario, swap_deployment
from kessen.rulesets.song_of_blades.text import describe, prompt

RULESET_ID = "song-of-blades"


GAME: StepGame[SobState, Scenario] = StepGame(
    RULESET_ID, MACHINE, scenario=load_scenario, setup=initial_state,
    sides=lambda state: state.skirmish.sides, ai=SobAI,
    notation=lambda state, decision, choice: notation(decision, choice), parse=parse, odds=choice_odds,
    odds_input=lambda state, decision, choice: odds_input_of(PROCEDURES, odds_question(state, decision, choice)),
    describe=describe, prompt=prompt, narrate=lambda event, lang: narrate(RULESET_ID, event, lang),
    board=board_data, draw=draw, tactics=SobTactics(),
)

ENGINE = Engine(GAME, swap_deployment)
"""What the registry plays song-of-blades battles with (``Ruleset.of_package``)."""
