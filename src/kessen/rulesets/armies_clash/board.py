"""The battlefield drawn in the terminal: terrain, elevation, objective squares, stands and solos (rich markup)."""

from __future__ import annotations

import string

from rich.markup import escape

from kessen.i18n import text
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.text import prompt

RULESET_ID = "armies-clash"
TERRAIN_GLYPH = {"plain": ".", "road": "=", "forest": "f", "shallow_water": "~", "deep_water": "w"}
SIDE_STYLE = {"a": "bold red", "b": "bold blue"}


def render_board(state: AcState, lang: str) -> str:
    """The grid with its terrain and every piece, then a legend of units, stands, solos and objectives.

    Each unit gets a letter (upper case for side a, lower case for side b); a casualty is shown dim; an
    unattached solo is ``@``; a destroy objective's square ``*``. Empty squares show their terrain
    (``.`` plain, ``,`` rough, ``=`` road, ``f`` forest, ``~`` shallow water, ``w`` deep water, ``o`` obscured)
    or, on raised ground, the level digit.
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
        side = state.unit(s.unit).side
        style = "dim" if s.hp == 0 else SIDE_STYLE[side]
        for sq in s.footprint.squares():
            cells[sq] = f"[{style}]{letters[s.unit]}[/]"
    for solo in state.solos:
        if solo.on_grid:
            for sq in solo.footprint.squares():
                cells[sq] = f"[{SIDE_STYLE[solo.side]}]@[/]"
    for o in state.static.objectives:
        if o.kind == "destroy" and o.square is not None and tuple(o.square) not in cells:
            cells[tuple(o.square)] = "[bold yellow]*[/]" if state.hp_of(o.id) > 0 else "[dim]*[/]"  # type: ignore[index]
    lines = [f"[bold]{escape(state.static.name)}[/bold]  " + text(RULESET_ID, "status", lang, round=state.round, vp_a=state.vp[0], vp_b=state.vp[1])]
    header = "    " + "".join(str(x % 10) for x in range(grid.width))
    lines.append(header)
    for y in range(grid.height):
        row = []
        for x in range(grid.width):
            if (x, y) in cells:
                row.append(cells[(x, y)])
                continue
            t = grid.at((x, y))
            glyph = "," if t.kind == "plain" and t.rough else TERRAIN_GLYPH[t.kind]
            if t.kind == "plain" and t.obscured:
                glyph = "o"
            if t.elevation and t.kind == "plain" and not t.rough:
                glyph = str(t.elevation)
            row.append(f"[green]{glyph}[/]" if t.kind == "forest" else f"[cyan]{glyph}[/]" if "water" in t.kind else glyph)
        lines.append(f"{y:3} " + "".join(row))
    lines.append(text(RULESET_ID, "board_legend", lang))
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
            parts.append(f"{escape(s.id)}@{s.x},{s.y} {s.hp}hp{flag}")
        if parts:
            lines.append("    " + "; ".join(parts))
    for solo in state.solos:
        where = f"→ {solo.joined_to}" if solo.joined_to else f"@{solo.x},{solo.y}"
        lines.append(f"[{SIDE_STYLE[solo.side]}]@[/] {escape(solo.id)} ({solo.side}) {escape(where)} {solo.hp}hp {text(RULESET_ID, solo.status, lang)}")
    for o in state.static.objectives:
        extra = f" {state.hp_of(o.id)}hp" if o.kind == "destroy" else ""
        lines.append(f"[yellow]*[/] {escape(o.id)}: {text(RULESET_ID, o.kind, lang)} ({o.side}){extra}")
    who = prompt(state, lang)
    if who:
        lines.append(f"[bold]▶ {escape(who)}[/bold]")
    return "\n".join(lines)
