"""What a legions position is worth to a player, for the search AI: the losses that decide the battle, and what
the coming rounds may still change."""

from __future__ import annotations

import math

from kessen.rulesets.legions.ai.greedy import expected_damage
from kessen.rulesets.legions.referee.rounds import side_losses
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire, fire_options

BROKEN_WORTH = 0.05
"""A Broken Formation (LI-BREAK-5: -1 to its Morale checks, only Advance or Charge orders) counts as this share of
its side's starting size lost as well."""

THREAT_WORTH = 0.5
"""What the damage a side's Detachments could do from where they stand (each its best attack on a target in sight
and range, expected from the exact odds) counts for, as a share of the enemy's starting size lost: who can shoot
whom next round, which the losses so far do not show."""

FALL_BACK_WORTH = 0.03
"""A Detachment holding a Fall Back order (LI-MORALE-5: it fires at nothing this round) counts as this share lost."""


def loss_shares(state: LiState) -> dict[str, float]:
    """Each player's losses as a share of its starting size, counted as for Break Points (LI-BREAK-1, LI-BREAK-3):
    the smaller share wins the battle (``rounds.winner``)."""
    return {p: lost / size if size else 0.0 for p, (lost, size) in side_losses(state).items()}


def worth(state: LiState, player: str) -> float:
    """The position's worth to *player*, -1 .. 1, zero-sum: the other player's share of its starting size lost less
    *player*'s, with Broken Formations and Fall Back orders as a little more lost and, while the battle goes on,
    the damage each side could do from where it stands (``threat``) as a share of the other's lost, sharpened as the
    last round nears (when a lead can no longer be turned)."""
    losses = side_losses(state)
    shares = {p: lost / size if size else 0.0 for p, (lost, size) in losses.items()}  # ``loss_shares``
    for f in state.formations:
        if f.broken:
            shares[f.owner] += BROKEN_WORTH
    for d in state.detachments:
        if d.order == "fall_back" and d.on_battlefield:
            shares[d.owner] += FALL_BACK_WORTH
    other = state.other(player)
    lead = shares[other] - shares[player]
    if not state.ended:
        sizes = {p: size for p, (_, size) in losses.items()}
        lead += THREAT_WORTH * (threat(state, player) / max(1, sizes[other]) - threat(state, other) / max(1, sizes[player]))
    sharpness = 2.0 + 6.0 * min(state.round, state.rounds) / max(1, state.rounds)
    return math.tanh(sharpness * lead)


def threat(state: LiState, player: str) -> float:
    """The damage *player*'s Detachments could do from where they stand: each one's best attack (expected Wounds and
    models destroyed, ``expected_damage``) on a target in sight and range, summed."""
    total = 0.0
    for det in state.detachments_of(player):
        if not det.on_battlefield or det.order == "fall_back" or not det.live:
            continue
        total += max((expected_damage(state, det, o) for o in fire_options(state, det) if isinstance(o, Fire)), default=0.0)
    return total
