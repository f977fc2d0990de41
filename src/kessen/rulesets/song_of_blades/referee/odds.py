"""The exact numbers shown beside a choice (``Game.odds``; their labels are the catalogue's ``[odds]`` table).

Each comes from the rules/ procedure the choice leads to, read off the table as the engine will roll it.
"""

from __future__ import annotations

from fractions import Fraction

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import RecoilOption, enemies_in_contact
from kessen.rulesets.song_of_blades.referee.disengaging import disengage_setup, disengaging
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, Hacker, Move
from kessen.rulesets.song_of_blades.referee.state import SobState, replace_figure
from kessen.rulesets.song_of_blades.rules.disengaging import disengage, free_hack
from kessen.rulesets.song_of_blades.rules.melee import Melee, melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

Odds = dict[str, Fraction]
KILLS = ("kill", "gruesome_kill")


def attack_question(state: SobState, attacker: str, attack: Attack) -> Melee:
    """An attack's combat roll as the ``melee`` procedure asks it (SB-MELEE-1..6)."""
    return attack_roll(state, state.get(attacker), state.get(attack.target), power_blow=attack.power_blow)


def attack_odds(state: SobState, attacker: str, attack: Attack) -> Odds:
    """An attack's chances: the attacker wins (the defender suffers a result), kills, or suffers a result itself
    (SB-MELEE-4..6)."""
    dist = melee(attack_question(state, attacker, attack))
    return {
        "win": dist.probability(lambda o: o.affected == "defender"),
        "kill": dist.probability(lambda o: o.affected == "defender" and o.result in KILLS),
        "suffer": dist.probability(lambda o: o.affected == "attacker"),
    }


def activation_numbers(state: SobState, activate: Activate) -> Odds:
    """An activation's expected actions and chance of a turnover (SB-ACT-1, SB-ACT-2)."""
    expected, turnover = activation_odds(state.get(activate.model).quality, activate.dice)
    return {"expected_actions": expected, "turnover": turnover}


def hack_odds(roll: Melee) -> Odds:
    """One free hack on the model of the decision: it has an effect on it, it kills it (SB-DIS-3, SB-RECOIL-3)."""
    dist = melee(roll)
    return {"hit": dist.probability(lambda o: o.result != "nothing"), "killed": dist.probability(lambda o: o.result in KILLS)}


def choice_odds(state: SobState, decision: Decision, choice: object) -> Odds | None:
    """The numbers of *choice* at *decision*, or None for a choice that rolls nothing."""
    if isinstance(choice, Attack):
        return attack_odds(state, decision.actor, choice)
    if isinstance(choice, Activate):
        return activation_numbers(state, choice)
    if isinstance(choice, Move):
        return _leaving(state, decision.actor)
    if isinstance(choice, Hacker):
        return _hacker(state, choice.model)
    if isinstance(choice, RecoilOption):
        return _recoil(state, choice)
    return None


def odds_question(state: SobState, decision: Decision, choice: object) -> tuple[str, Melee] | None:
    """The procedure and its rule's question whose odds :func:`choice_odds` shows beside an attack: its ``melee``
    combat roll; None for the other choices, whose numbers no one procedure asks as they are shown."""
    return ("melee", attack_question(state, decision.actor, choice)) if isinstance(choice, Attack) else None


def _leaving(state: SobState, model: str) -> Odds | None:
    """A move out of contact: the chance it gets away, and of being killed on the way, with the enemies hacking
    in the order they stand in now (its player may order them, SB-DIS-5: P(disengaged) is the same in any order);
    None when it leaves freely or is in contact with no one (SB-DIS-1, SB-DIS-4)."""
    f = state.get(model)
    setup = disengage_setup(state, f, failed_morale=False)
    if setup is None or disengaging(state, f, setup, then=None) is None:
        return None
    dist = disengage(setup)
    return {"disengaged": dist.probability(lambda o: o.result == "disengaged"), "killed": dist.probability(lambda o: o.result in KILLS)}


def _hacker(state: SobState, hacker: str) -> Odds:
    """The hack of the enemy chosen to hack next (SB-DIS-5) or to hack the recoiled model (SB-RECOIL-3)."""
    step = state.pending[0]
    if isinstance(step, sp.Disengaging):
        return hack_odds(free_hack(step.setup, step.setup.enemies[step.positions.index(hacker)]))
    assert isinstance(step, sp.ChooseRecoilHacker)
    return hack_odds(attack_roll(state, state.get(hacker), state.get(step.loser), free_hack=True))


def _recoil(state: SobState, option: RecoilOption) -> Odds:
    """Where a recoil leads: over a drop of at least Short it kills (SB-FALL-1); into active enemies newly in
    contact it draws one free hack (SB-RECOIL-3), whose chance of killing is shown for the hacker its player would
    pick (the least deadly, when several could hack)."""
    step = state.pending[0]
    assert isinstance(step, sp.ChooseRecoil)
    loser = state.get(step.loser)
    if option.kind == "drop":
        return {"hacked": Fraction(0), "killed": Fraction(int(option.drop_mm >= state.table.stick("short")))}
    before = {e.id for e in state.here.contacts(loser)}
    there = replace_figure(state, loser.at(option.destination))
    moved = there.get(loser.id)
    new = [e for e in enemies_in_contact(there.figures, moved) if e.is_active and e.id not in before]
    if not new:
        return {"hacked": Fraction(0), "killed": Fraction(0)}
    killed = min(hack_odds(attack_roll(there, e, moved, free_hack=True))["killed"] for e in new)
    return {"hacked": Fraction(1), "killed": killed}
