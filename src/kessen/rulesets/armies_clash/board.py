"""The battlefield drawn in the terminal (rich markup), and as plain data for pictures (``Game.board``): terrain,
elevation, objective squares, stands and solos."""

from __future__ import annotations

import string
from collections.abc import Callable

from rich.markup import escape

from kessen.core.board import Board, BoardModel, TerrainPiece
from kessen.core.engine import Decision, Node
from kessen.core.textmap import row_labels, ruler
from kessen.i18n import text
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState, Solo, Stand
from kessen.rulesets.armies_clash.rules.grid import Footprint, Terrain
from kessen.rulesets.armies_clash.text import prompt

RULESET_ID = "armies-clash"
TERRAIN_GLYPH = {"plain": ".", "road": "=", "forest": "f", "shallow_water": "~", "deep_water": "w"}
ROUGH_GLYPH = ","
OBSCURED_GLYPH = {".": "o", ",": "%", "=": "#", "f": "F", "~": "≈", "w": "W"}
"""The same terrain when it is also obscured (fog, darkness, AC-HIDE-2)."""
TERRAIN_STYLE = {"forest": "green", "shallow_water": "cyan", "deep_water": "cyan"}
SIDE_STYLE = {"a": "bold red", "b": "bold blue"}


def terrain_glyph(terrain: Terrain) -> str:
    """A square's terrain in one character: its kind (rough ground has its own), obscured in a second set; level
    plain ground above level 0 shows its height (1–9, + for 10)."""
    glyph = ROUGH_GLYPH if terrain.kind == "plain" and terrain.rough else TERRAIN_GLYPH[terrain.kind]
    if terrain.obscured:
        return OBSCURED_GLYPH[glyph]
    return level_glyph(terrain.elevation) if glyph == TERRAIN_GLYPH["plain"] and terrain.elevation else glyph


def level_glyph(elevation: int) -> str:
    """A square's elevation in one character: . at level 0, 1–9, + for 10."""
    return "." if elevation == 0 else "+" if elevation >= 10 else str(elevation)


def draw(state: AcState, node: Node, lang: str) -> str:
    """The grid with its terrain and every piece, a legend, the heights of the ground when it is not all level,
    then the units and their stands (with the terrain each stands on), the solos and objectives.

    Each unit gets a letter (upper case for side a, lower case for side b); a casualty is shown dim; an unattached
    solo is ``@``; a destroy objective's square ``*``. Empty squares show their terrain. The last line names who
    decides now (*node*, the node the state stands at).
    """
    grid = state.grid
    letters: dict[str, str] = {}
    counts = {"a": 0, "b": 0}
    for u in state.units:
        pool = string.ascii_uppercase if u.side == "a" else string.ascii_lowercase
        letters[u.id] = pool[counts[u.side] % 26]
        counts[u.side] += 1
    cells: dict[tuple[int, int], str] = {}
    for s in state.stands:
        style = "dim" if s.hp == 0 else SIDE_STYLE[state.unit(s.unit).side]
        for sq in s.footprint.squares():
            cells[sq] = f"[{style}]{letters[s.unit]}[/]"
    for solo in state.solos:
        if solo.on_grid:
            for sq in solo.footprint.squares():
                cells[sq] = f"[{SIDE_STYLE[solo.side]}]@[/]"
    for o in state.static.objectives:
        if o.kind == "destroy" and o.square is not None and tuple(o.square) not in cells:
            cells[(o.square[0], o.square[1])] = "[bold yellow]*[/]" if state.hp_of(o.id) > 0 else "[dim]*[/]"
    lines = [f"[bold]{escape(state.static.name)}[/bold]  " + text(RULESET_ID, "status", lang, round=state.round, vp_a=state.vp[0], vp_b=state.vp[1])]

    def square(x: int, y: int) -> str:
        if (x, y) in cells:
            return cells[(x, y)]
        t = grid.at((x, y))
        glyph = escape(terrain_glyph(t))
        shade = TERRAIN_STYLE.get(t.kind)
        return f"[{shade}]{glyph}[/]" if shade else glyph

    lines += grid_map(grid.width, grid.height, square)
    lines.append(text(RULESET_ID, "board_legend", lang))
    if any(t.elevation for _, t in grid.terrain):  # heights everywhere, also under pieces, woods and water
        lines.append(text(RULESET_ID, "heights", lang))
        lines += grid_map(grid.width, grid.height, lambda x, y: level_glyph(grid.at((x, y)).elevation))
    lines.append("")
    for u in state.units:
        stands = state.unit_stands(u.id)
        status = []
        if u.formation:
            status.append(text(RULESET_ID, u.formation, lang))
        if u.routed:
            status.append(text(RULESET_ID, "routed", lang))
        if u.eliminated:
            status.append(text(RULESET_ID, "eliminated", lang))
        head = f"[{SIDE_STYLE[u.side]}]{letters[u.id]}[/] {escape(u.id)} ({u.side}, {text(RULESET_ID, u.type, lang)}{', ' + ', '.join(status) if status else ''})"
        if u.commander:
            head += f" ⚑ {escape(u.commander)}"
        lines.append(head)
        parts = []
        for s in stands:
            flag = "!" if s.isolated else ""
            ground = _ground(state, s.footprint, lang)
            parts.append(f"{escape(s.id)}@{s.x},{s.y} {s.hp}hp{flag}{ground}")
        if parts:
            lines.append("    " + "; ".join(parts))
    for solo in state.solos:
        where = f"→ {solo.joined_to}" if solo.joined_to else f"@{solo.x},{solo.y}"
        lines.append(f"[{SIDE_STYLE[solo.side]}]@[/] {escape(solo.id)} ({solo.side}) {escape(where)} {solo.hp}hp {text(RULESET_ID, solo.status, lang)}")
    for o in state.static.objectives:
        extra = f" {state.hp_of(o.id)}hp" if o.kind == "destroy" else ""
        lines.append(f"[yellow]*[/] {escape(o.id)}: {text(RULESET_ID, o.kind, lang)} ({o.side}){extra}")
    if isinstance(node, Decision):
        lines.append(f"[bold]▶ {escape(prompt(state, node, lang))}[/bold]")
    return "\n".join(lines)


def grid_map(width: int, height: int, square: Callable[[int, int], str]) -> list[str]:
    """The grid north up (row y = height - 1 at the top, as on the web board), each row labelled with its y, the x of
    every fifth column under it; *square* draws one square."""
    labels = row_labels(height, 1)
    rows = [f"{labels[r]} " + "".join(square(x, height - 1 - r) for x in range(width)) for r in range(height)]
    return [*rows, ruler(width, 1, 5, len(labels[0]) + 1)]


def _ground(state: AcState, footprint: Footprint, lang: str) -> str:
    """The terrain under a stand, when it is not all plain level ground: " (forest, road)"."""
    seen: list[str] = []
    for square in footprint.squares():
        t = state.grid.at(square)
        kinds: list[str] = [t.kind] if t.kind != "plain" else []
        kinds += ["rough"] * t.rough + ["obscured"] * t.obscured
        for kind in kinds:
            word = text(RULESET_ID, f"ground_{kind}", lang)
            if word not in seen:
                seen.append(word)
    return f" ({', '.join(seen)})" if seen else ""


def board_data(state: AcState) -> Board:
    """The battlefield as plain data, in squares (``kessen.core.board``): every square that is not plain level
    ground as terrain pieces (its kind, ``rough``, ``obscured``, and ``high_ground`` with its elevation as the
    height), the destroy objectives' squares, every stand (its unit as the group, HP as wounds) and every solo
    still in the battle (a joined solo at its stand's anchor, ``joined``)."""
    terrain: list[TerrainPiece] = []
    for (x, y), t in state.grid.terrain:
        kinds: list[str] = [t.kind] if t.kind != "plain" else []
        kinds += ["rough"] * t.rough + ["obscured"] * t.obscured
        terrain += [{"kind": kind, "shape": "square", "points": [[x, y]], "height": None} for kind in kinds]
        if t.elevation:
            terrain.append({"kind": "high_ground", "shape": "square", "points": [[x, y]], "height": float(t.elevation)})
    for o in state.static.objectives:
        if o.kind == "destroy" and o.square is not None:
            kind = "objective" if state.hp_of(o.id) > 0 else "objective_destroyed"
            terrain.append({"kind": kind, "shape": "square", "points": [[o.square[0], o.square[1]]], "height": None})
    models = [_stand_model(state, s) for s in state.stands]
    models += [m for solo in state.solos if (m := _solo_model(state, solo)) is not None]
    return {
        "ruleset": RULESET_ID, "units": "square", "width": state.grid.width, "height": state.grid.height,
        "sides": list(SIDES), "terrain": terrain, "models": models,
    }


def _stand_model(state: AcState, stand: Stand) -> BoardModel:
    unit = state.unit(stand.unit)
    status = ["casualty"] * stand.casualty + ["isolated"] * stand.isolated + ["hidden"] * stand.hidden
    status += ["routed"] * unit.routed
    return {
        "id": stand.id, "name": stand.creature, "side": unit.side, "x": stand.x, "y": stand.y, "base": None,
        "footprint": [stand.size, stand.size], "wounds": stand.hp, "wounds_max": state.creature(stand.creature).hp,
        "status": status, "group": unit.id,
    }


def _solo_model(state: AcState, solo: Solo) -> BoardModel | None:
    if solo.status in ("dead", "gone"):
        return None
    x, y, group = solo.x, solo.y, None
    status: list[str] = [solo.status] if solo.status != "up" else []
    if solo.joined_to is not None:
        host = state.stand(solo.joined_to)
        if host is None:
            return None
        x, y, group = host.x, host.y, host.unit
        status.append("joined")
    status += ["isolated"] * (solo.isolated and solo.joined_to is None) + ["hidden"] * solo.hidden
    status += ["commander"] * any(u.commander == solo.id for u in state.units)
    return {
        "id": solo.id, "name": solo.creature, "side": solo.side, "x": x, "y": y, "base": None,
        "footprint": [solo.size, solo.size], "wounds": solo.hp, "wounds_max": state.creature(solo.creature).hp,
        "status": status, "group": group,
    }
