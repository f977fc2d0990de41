"""What an Order, a move or an activation leads to, for the odds shown beside it (issue 24 §4): the attack the
Detachment could make (the best of the targets it could fire at, its volleys chained as one attack) and the combat a
charge starts (the ``combat`` procedure on the fights its models would be paired in).

[DECISION] An Order or an activation is rated by the Detachment's best attack from where it stands: an Advance
Detachment fires after it moves, but where it will move is not chosen yet; its moves are rated from where each move
puts it. The best attack is the one with the highest mean losses (Wounds and Void Shield levels), then the likeliest
Wound, the first declared on a tie. A charge is rated by the combat its Detachment would be in once it has moved, its
models paired off by default (LI-PAIR-3) and the fights fought in that order (§5.5); the player with Initiative is
side a, as in the Engagement stage.
"""

from __future__ import annotations

from fractions import Fraction

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.legions.referee.battlefield import combats, enemy_contacts
from kessen.rulesets.legions.referee.firing import AttackDamage, attack_damage
from kessen.rulesets.legions.referee.movement import MoveChoice, MoveModel, finish_move, move, refresh_engagement
from kessen.rulesets.legions.referee.state import Detachment, LiState, board_fact
from kessen.rulesets.legions.referee.steps import MoveDetachment
from kessen.rulesets.legions.referee.targeting import Fire, fire_options
from kessen.rulesets.legions.rules.close_combat import CombatModel, CombatQuestion, Side
from kessen.rulesets.legions.rules.pairing import default_pairing, ordered

FIRING_ORDERS = frozenset({"first_fire", "advance"})
"""The Orders whose Detachments activate to fire in the Combat phase (LI-STAGE-2, §3.6)."""


@record
class Prospect:
    """The attack a Detachment could make: the declared attack and what it does to its target."""

    attack: Fire
    damage: Dist[AttackDamage]


def _rating(damage: Dist[AttackDamage]) -> tuple[Fraction, Fraction]:
    return damage.map(lambda d: d.losses).mean(), damage.probability(lambda d: d.wounds > 0)


@board_fact
def best_attack(state: LiState, det: Detachment) -> Prospect | None:
    """The attack of *det* that does the most harm as the battlefield stands, or None when it has no target
    (LI-TGT-1..4, LI-FIRE-2; the ranking is the module's [DECISION])."""
    best: tuple[tuple[Fraction, Fraction], Prospect] | None = None
    for option in fire_options(state, det):
        if isinstance(option, Fire):
            damage = attack_damage(state, det, option)
            rating = _rating(damage)
            if best is None or rating > best[0]:
                best = (rating, Prospect(option, damage))
    return None if best is None else best[1]


def after_move(state: LiState, step: MoveDetachment, choice: MoveChoice) -> LiState | None:
    """The battlefield once the Detachment's move *choice* is made and the move is over; None for a model placed
    alone, after which the move goes on."""
    if isinstance(choice, MoveModel):
        return None
    moved = move(state, step.detachment, step.origins, choice)
    return finish_move(moved, step.detachment, step.origins)[0]


def charge_combat(state: LiState, det_id: str) -> tuple[CombatQuestion, Side] | None:
    """The ``combat`` question of the combat *det_id* is in once the Movement phase ends (LI-ENG-1, LI-ENG-2), its
    models paired off by default (LI-PAIR-3, LI-PAIR-4), and the side *det_id* fights on in it; None when it touches
    no enemy model."""
    engaged = refresh_engagement(state)
    found = next((c for c in combats(engaged) if det_id in c), None)
    if found is None:
        return None
    first = engaged.player_with_initiative()
    edges = tuple(
        (a, b) if engaged.owner_of_model(a).owner == first else (b, a) for a, b in enemy_contacts(engaged, found)
    )
    if not edges:
        return None
    fights = ordered(edges, default_pairing(edges))
    fighting = {m for fight in fights for m in fight}
    models = tuple(
        CombatModel(
            id=m.id, side="a" if d.owner == first else "b", caf=m.caf, wounds_remaining=m.wounds_remaining,
            charged=d.charged_and_moved,
        )
        for d in (engaged.detachment(i) for i in found)
        for m in d.live
        if m.id in fighting
    )
    others = {side: sum(1 for i in found for m in engaged.detachment(i).live if m.id not in fighting and
                        (engaged.detachment(i).owner == first) == (side == "a")) for side in ("a", "b")}
    side: Side = "a" if engaged.detachment(det_id).owner == first else "b"
    return CombatQuestion(models, fights, others["a"], others["b"]), side
