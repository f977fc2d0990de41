"""The board as ``kessen board`` and ``kessen play`` print it: each player's Detachments and models, the battlefield
drawn to scale, its terrain (cover, hidden Knights and Titans, blocked lines of sight, §3.7), a legend, and the
decision the game waits for, with who makes it.

The text goes through rich, so every id and name from the scenario is escaped.
"""

from __future__ import annotations

import math
import string

from rich.markup import escape

from kessen.core.board import Board, BoardModel
from kessen.core.engine import Node
from kessen.core.textmap import row_labels, row_of, ruler
from kessen.rulesets.legions.profiles import ARMOURED
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.state import LiState, Model
from kessen.rulesets.legions.rules.pairing import next_to_pair
from kessen.rulesets.legions.text import say as _say
from kessen.rulesets.legions.text import weapon_name
from kessen.rulesets.legions.text import word as _word

MAP_COLUMNS = 72
"""The map is at most this many characters wide: a column is 1 inch, or more on a wide battlefield."""
SHARED = "*"
"""A map square holding models of more than one Detachment."""


def draw(state: LiState, node: Node, lang: str) -> str:
    """The whole board in *lang*: Detachments and models, the battlefield to scale with its terrain, and who decides
    next (read off the state's first step, :func:`awaiting`, which *node* stands at)."""
    symbols = detachment_symbols(state)
    lines = [
        _say(
            lang, "show_header", name=escape(state.name), round=state.round, rounds=state.rounds,
            phase=_word(lang, f"phase_{state.phase}"), initiative=escape(state.initiative or "-"),
        )
    ]
    for p in state.players:
        lines.append(_say(lang, "show_player", player=escape(p), edge=_word(lang, state.edge_of(p))))
        for d in state.detachments_of(p):
            flags = [_word(lang, x) for x, on in (("engaged", d.engaged), ("pinned", d.pinned), ("reserve", d.in_reserve)) if on]
            broken = _say(lang, "show_broken") if state.formation(d.formation).broken else ""
            order = _word(lang, f"order_{d.order}") if d.order else "-"
            lines.append(
                _say(lang, "show_detachment", symbol=symbols[d.id], id=escape(d.id), live=len(d.live), total=len(d.models),
                     order=order, flags=" ".join(flags)).rstrip()
                + broken
            )
            lines += [_model_line(m, lang) for m in d.live]
    lines += _map(state, symbols, lang)
    lines += _terrain(state, lang)
    waiting = awaiting(state, lang)
    if waiting:
        lines.append(_say(lang, "show_awaiting", what=waiting))
    return "\n".join(lines)


def detachment_symbols(state: LiState) -> dict[str, str]:
    """A letter per Detachment on the map: upper case for the first player's, lower case for the second's, in
    scenario order (a player has at most 26 Detachments, see the scenario limits)."""
    symbols: dict[str, str] = {}
    for letters, player in zip((string.ascii_uppercase, string.ascii_lowercase), state.players, strict=True):
        for k, d in enumerate(state.detachments_of(player)):
            symbols[d.id] = letters[k] if k < len(letters) else "?"
    return symbols


def _model_line(m: Model, lang: str) -> str:
    parts = [_say(lang, "show_model", id=escape(m.id), x=f"{m.x:.1f}", y=f"{m.y:.1f}", left=m.wounds_remaining, wounds=m.wounds)]
    if m.void_shields_max:
        parts.append(_say(lang, "show_shields", left=m.void_shields, shields=m.void_shields_max))
    if m.type in ARMOURED:
        parts.append(_say(lang, "show_facing", facing=f"{m.facing:g}"))
    if m.cover_save is not None:
        parts.append(_say(lang, "show_cover", save=m.cover_save))
    if m.obscured:
        parts.append(_say(lang, "show_hidden_all") if m.obscured == 100 else _say(lang, "show_hidden", percent=m.obscured))
    return "  ".join(parts)


def _map(state: LiState, symbols: dict[str, str], lang: str) -> list[str]:
    """The battlefield to scale, north at the top: a column is *c* inches, a row 2*c* (characters are about twice as
    tall as they are wide), rows counted from the southern edge (y = 0), each labelled with the y of its southern
    edge, the x of every 12 columns under the map; each model is its Detachment's letter."""
    inches = max(1, math.ceil(state.width / MAP_COLUMNS))
    down = 2 * inches
    columns, rows = math.ceil(state.width / inches), math.ceil(state.height / down)
    cells: dict[tuple[int, int], str] = {}

    def square(x: float, y: float) -> tuple[int, int]:
        return row_of(y, rows, down), min(columns - 1, max(0, int(x / inches)))

    for d, m in state.live_models():
        covered = {square(m.x, m.y)}  # the square of its centre, and every square whose centre its base covers
        (top, left), (bottom, right) = square(m.x - m.base_radius, m.y + m.base_radius), square(m.x + m.base_radius, m.y - m.base_radius)
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                if math.hypot((c + 0.5) * inches - m.x, (rows - 1 - r + 0.5) * down - m.y) <= m.base_radius:
                    covered.add((r, c))
        for cell in covered:
            found = cells.get(cell)
            cells[cell] = symbols[d.id] if found in (None, symbols[d.id]) else SHARED
    north, south = (_edge_owner(state, edge, lang) for edge in ("north", "south"))
    labels = row_labels(rows, down)
    margin = " " * len(labels[0])
    lines = [_say(lang, "map_header", column=inches, row=down), f"{margin}  " + _word(lang, "north") + north]
    lines.append(f"{margin} +" + "-" * columns + "+")
    lines += [f"{labels[r]} |" + "".join(cells.get((r, c), " ") for c in range(columns)) + "|" for r in range(rows)]
    lines.append(f"{margin} +" + "-" * columns + "+")
    lines.append(ruler(columns, inches, max(1, 12 // inches), len(margin) + 2))
    lines.append(f"{margin}  " + _word(lang, "south") + south)
    legend = [
        _say(lang, "legend_item", symbol=symbols[d.id], id=escape(d.id), player=escape(d.owner))
        for p in state.players for d in state.detachments_of(p) if d.on_battlefield
    ]
    lines.append(_say(lang, "legend", items=_say(lang, "separator").join(legend), shared=SHARED))
    return lines


def _edge_owner(state: LiState, edge: str, lang: str) -> str:
    owners = [escape(p) for p in state.players if state.edge_of(p) == edge]
    return _say(lang, "map_edge_of", player=owners[0]) if owners else ""


def _terrain(state: LiState, lang: str) -> list[str]:
    """The terrain a legions scenario gives: Cover Saves, hidden Knights and Titans, blocked lines of sight."""
    live = [m for _, m in state.live_models()]
    sep = _say(lang, "separator")
    cover = [_say(lang, "terrain_cover_item", id=escape(m.id), save=m.cover_save) for m in live if m.cover_save is not None]
    hidden = [
        _say(lang, "terrain_hidden_all_item" if m.obscured == 100 else "terrain_hidden_item", id=escape(m.id), percent=m.obscured)
        for m in live if m.obscured
    ]
    sight = [_say(lang, "sight_pair", a=escape(a), b=escape(b)) for a, b in sorted(tuple(sorted(p)) for p in state.no_sight)]
    lines = []
    if cover:
        lines.append(_say(lang, "terrain_cover", models=sep.join(cover)))
    if hidden:
        lines.append(_say(lang, "terrain_hidden", models=sep.join(hidden)))
    if sight:
        lines.append(_say(lang, "terrain_no_sight", pairs=sep.join(sight)))
    return lines or [_say(lang, "terrain_none")]


def awaiting(state: LiState, lang: str) -> str:
    """The decision the game waits for, naming who acts (the Detachment, the model); empty at a roll or the end."""
    step = state.pending[0] if state.pending and not state.ended else None
    if isinstance(step, st.IssueOrder):
        return _say(lang, "awaiting_order", detachment=escape(step.detachment))
    if isinstance(step, st.ChooseMover):
        return _say(lang, "awaiting_mover", player=escape(step.player))
    if isinstance(step, st.ChooseActivation):
        return _say(lang, "awaiting_activation", player=escape(step.player), stage=_word(lang, f"stage_{step.stage}"))
    if isinstance(step, st.ChooseTarget):
        return _say(lang, "awaiting_target", detachment=escape(step.detachment))
    if isinstance(step, st.ChooseAllocation):
        v = step.volleys[0]
        return _say(lang, "awaiting_allocation", target=escape(v.target), attacker=escape(v.attacker))
    if isinstance(step, st.MoveDetachment):
        return _say(lang, "awaiting_move", detachment=escape(step.detachment))
    if isinstance(step, st.VolleyAllocation | st.AllocateHit):
        v = step.volley
        weapon = escape(weapon_name(state, v.attacker, v.weapon, v.profile_index, lang))
        if isinstance(step, st.AllocateHit):
            return _say(lang, "awaiting_hit", target=escape(v.target), weapon=weapon, left=step.left, hits=step.hits)
        return _say(lang, "awaiting_volley", target=escape(v.target), weapon=weapon, attacker=escape(v.attacker))
    initiative = escape(state.initiative or "")  # the player with Initiative picks combats, pairs and fights
    if isinstance(step, st.ChooseCombat):
        return _say(lang, "awaiting_combat", player=initiative)
    if isinstance(step, st.ChoosePairing):
        model = next_to_pair(step.contacts, step.chosen)
        return _say(lang, "awaiting_pairing", model=escape(model or ""), player=initiative)
    if isinstance(step, st.ChooseFight):
        return _say(lang, "awaiting_fight", player=initiative)
    if isinstance(step, st.ChooseWithdrawer):
        return _say(lang, "awaiting_withdrawer", detachment=escape(step.detachment))
    return ""


def board_data(state: LiState) -> Board:
    """The battlefield as plain data (``Game.board``), in inches: every model left on the battlefield or in Reserve
    with its round base (diameter), Wounds, statuses and Detachment. [DECISION] legions terrain is state of the
    models (Cover Saves, hidden Knights and Titans, blocked lines of sight, §3.7), not pieces with a shape: the
    terrain list is empty and a model's statuses carry it (``cover``, ``hidden``)."""
    models: list[BoardModel] = []
    for d in state.detachments:
        flags = [w for w, on in (("engaged", d.engaged), ("pinned", d.pinned), ("reserve", d.in_reserve)) if on]
        if state.formation(d.formation).broken:
            flags.append("broken")
        if d.order:
            flags.append(d.order)
        for m in d.live:
            own = [w for w, on in (("cover", m.cover_save is not None), ("hidden", bool(m.obscured))) if on]
            models.append({
                "id": m.id, "name": m.type, "side": d.owner, "x": m.x, "y": m.y, "base": 2 * m.base_radius, "footprint": None,
                "wounds": m.wounds_remaining, "wounds_max": m.wounds, "status": flags + own, "group": d.id,
            })
    return {
        "ruleset": "legions", "units": "inch", "width": float(state.width), "height": float(state.height),
        "sides": list(state.players), "terrain": [], "models": models,
    }
