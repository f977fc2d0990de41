"""The legions game as the engine drives it: scenario loading, nodes, apply, AI, narration (kessen.core.engine.Game)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate, option_text, option_word
from kessen.rulesets.legions import game as g
from kessen.rulesets.legions.ai import LiAI
from kessen.rulesets.legions.board import render
from kessen.rulesets.legions.deployment import initial_state
from kessen.rulesets.legions.scenario import load_scenario
from kessen.rulesets.legions.shooting import (
    Fire,
    HoldFire,
    attack_damage,
    volley_dist,
    volley_question,
    volleys,
    weapon_profiles,
)
from kessen.rulesets.legions.state import LiState
from kessen.rulesets.legions.steps import (
    ChooseActivation,
    ChooseAllocation,
    ChooseCombat,
    ChooseFight,
    ChooseMover,
    ChoosePairing,
    ChooseTarget,
    ChooseWithdrawer,
    IssueOrder,
)

RULESET_ID = "legions"


class LegionsGame:
    """legions for the engine."""

    ruleset = RULESET_ID

    def node(self, state: LiState) -> Node:
        return g.node(state)

    def apply(self, state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> LiState:
        """The battle's initial state, settled up to its first chance or decision."""
        return g.opened(initial_state(load_scenario(text, source)))

    def sides(self, state: LiState) -> tuple[str, ...]:
        return state.players

    def ai(self, side: str) -> LiAI:
        return LiAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: LiState, option: Any, lang: str) -> str:
        """An option in the words of the *lang* catalogue; an attack shows its expected Wounds from the exact odds."""
        step = state.pending[0] if state.pending else None
        if isinstance(option, HoldFire):
            return _say(lang, "hold_fire")
        if isinstance(option, Fire):
            assert isinstance(step, ChooseTarget)
            return _fire(state, step, option, lang)
        if isinstance(step, IssueOrder) and isinstance(option, str):
            return _say(lang, "order", order=option, word=_word(lang, option))
        if isinstance(step, ChooseMover):
            return _say(lang, "mover", detachment=option)
        if isinstance(step, ChooseActivation):
            return _say(lang, "activation", detachment=option)
        if isinstance(step, ChooseWithdrawer):
            return _say(lang, "withdrawer", model=option)
        if isinstance(step, ChooseCombat):
            return _say(lang, "combat", detachments=_say(lang, "separator").join(option))
        if isinstance(step, ChoosePairing):
            fights = _say(lang, "separator").join(_say(lang, "pair", a=a, b=b) for a, b in option)
            return _say(lang, "pairing", fights=fights)
        if isinstance(step, ChooseFight):
            a, b = option
            return _say(lang, "fight", a=a, b=b)
        if isinstance(step, ChooseAllocation):
            weapon, index = option
            attacker = state.detachment(step.volleys[0].attacker)
            named = _say(lang, "profile", weapon=weapon, number=index + 1) if len(weapon_profiles(attacker, weapon)) > 1 else weapon
            return _say(lang, "allocation", weapon=named)
        return str(option)

    def show(self, state: LiState, lang: str) -> str:
        """The board: Detachments and models, the battlefield to scale with its terrain, and who decides next."""
        return render(state, lang)


def _fire(state: LiState, step: ChooseTarget, option: Fire, lang: str) -> str:
    """A declared attack: its weapon profiles, its obscuration penalty, and its exact odds (§5.2): the mean damage of
    the whole attack (Wounds and Void Shield levels lost, volleys in the declared order) and the best chance of one
    volley to cause at least one Wound."""
    profiles = _say(lang, "separator").join(_say(lang, "profile", weapon=w, number=i + 1) for w, i in option.profiles)
    text = _say(lang, "fire", target=option.target)
    if profiles:
        text += _say(lang, "fire_profiles", profiles=profiles)
    if option.penalty:
        text += _say(lang, "fire_penalty", penalty=option.penalty)
    det = state.detachment(step.detachment)
    chance = Fraction(0)
    for v in volleys(state, det, option):
        question = volley_question(state, v)
        if question is not None:
            chance = max(chance, volley_dist(question).probability(lambda o: o.wounds > 0))
    damage = attack_damage(state, det, option).map(lambda d: d.losses).mean()
    return text + _say(lang, "fire_odds", damage=f"{float(damage):.2f}", chance=f"{float(chance) * 100:.0f}%")


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)
