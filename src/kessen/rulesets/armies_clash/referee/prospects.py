"""What an activation or a move leads to, for the odds shown beside it (issue 24 §4): the attack the piece would make
in its unit's Attack action, against the target it would reach (AC-ATTACK-1, AC-ATTACK-2, AC-MOVE-2).

[DECISION] A move is rated by the piece's best attack from the square it ends on; an activated stand by its best
attack from any square it may move to this turn (staying put included), since it moves before it attacks. The best
attack is the one with the highest mean damage, then the likeliest decisive effect (casualty, falls, killed or
destroyed), the first offered on a tie. Only the Attack action leads to an attack: Dash, Configure, Cast a Spell
and the rest show no such odds.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from kessen.core.records import record
from kessen.rulesets.armies_clash.referee.attack import AttackOdds, attack_odds, attack_options
from kessen.rulesets.armies_clash.referee.actions import activate
from kessen.rulesets.armies_clash.referee.movement import move_options
from kessen.rulesets.armies_clash.referee.options import Activate, AttackWith, Destination, Stay
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, replace_solo, replace_stand


@record
class Prospect:
    """An attack a piece could make, from the battlefield *at*, and its odds."""

    at: AcState
    attack: AttackWith
    odds: AttackOdds


def _rating(odds: AttackOdds) -> tuple[Fraction, Fraction]:
    return odds.mean_damage, odds.chance or Fraction(0)


def best_attack(state: AcState, piece: str) -> Prospect | None:
    """The attack of *piece* that does the most harm from where it stands, or None when none reaches (the
    ranking is the module's [DECISION])."""
    return best_of([Prospect(state, option, attack_odds(state, piece, option)) for option in attack_options(state, piece)])


def moved_to(state: AcState, piece: str, dest: Destination | Stay) -> AcState | None:
    """The battlefield with *piece* on the destination's square (as it is for Stay); None for a flight or a join."""
    if isinstance(dest, Stay):
        return state
    if dest.kind != "move":
        return None
    stand = state.stand(piece)
    if stand is not None:
        return replace_stand(state, replace(stand, x=dest.x, y=dest.y))
    return replace_solo(state, replace(state.solo_named(piece), x=dest.x, y=dest.y))


def attacking(turn: Turn | None) -> bool:
    """Whether the piece whose turn it is takes the Attack action (AC-ACT-1)."""
    return turn is not None and turn.doing == "attack"


def after_activation(state: AcState, choice: Activate) -> AcState:
    """The battlefield once *choice* is activated: its turn begun, with its move's budget (AC-MOVE-2)."""
    return activate(state, choice, [])


def reach_attack(state: AcState, choice: Activate) -> Prospect | None:
    """The best attack of the activated stand from any square it may move to, or from where it stands."""
    active = after_activation(state, choice)
    turn = active.turn
    assert turn is not None
    return best_of([
        best_attack(at, choice.stand)
        for dest in move_options(active, turn)
        for at in (moved_to(active, choice.stand, dest),)
        if at is not None
    ])


def best_of(prospects: list[Prospect | None]) -> Prospect | None:
    """The best of several prospects, the first on a tie."""
    best: Prospect | None = None
    for p in prospects:
        if p is not None and (best is None or _rating(p.odds) > _rating(best.odds)):
            best = p
    return best
