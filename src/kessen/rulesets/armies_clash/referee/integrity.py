"""Unit integrity on the battlefield: who is isolated, recomputed at the end of every turn and after the end-of-round
steps that move or remove stands (§5.7, AC-INTEG-6)."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState, Solo, Stand
from kessen.rulesets.armies_clash.rules.integrity import solo_isolated, stand_isolated

P = TypeVar("P", Stand, Solo)


def isolation(state: AcState, out: list[Event]) -> AcState:
    """Recompute who is isolated (AC-INTEG-2..6): each stand against the other stands of its unit, casualties
    included; each unattached solo against its side's stands. No event (*out* keeps the shape of the other steps)."""
    regiments = {u.id for u in state.units if u.type == "regiment"}
    by_unit: dict[str, list[Stand]] = {}
    for s in state.stands:
        by_unit.setdefault(s.unit, []).append(s)
    stands = tuple(
        _isolated(s, stand_isolated(s.footprint, [m.footprint for m in by_unit[s.unit] if m.id != s.id], regiment=s.unit in regiments))
        for s in state.stands
    )
    state = evolve(state, stands=stands)
    allies = {side: [s.footprint for s in state.side_stands(side)] for side in SIDES}
    solos = tuple(_isolated(s, s.on_grid and solo_isolated(s.footprint, allies[s.side])) for s in state.solos)
    return evolve(state, solos=solos)


def _isolated(piece: P, isolated: bool) -> P:
    return piece if piece.isolated == isolated else replace(piece, isolated=isolated)
