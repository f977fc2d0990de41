"""`kessen board`: the map of the table draws every kind of terrain and every model, with a legend, in English and
Japanese (issue 8 §4; SB-GEO-1, SB-GEO-4, SB-TERR-1..3)."""

from __future__ import annotations

from sb_engine_support import model, state_of

from kessen.rulesets.song_of_blades.referee.game import GAME



def grid(board: str) -> dict[int, str]:
    """The map's rows by their label (mm from the south edge to the row's southern border)."""
    rows = {}
    for line in board.splitlines():
        label, _, cells = line.strip().partition(" ")
        if label.isdigit() and cells and set(cells) <= set(".#:^%=*ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@&"):
            rows[int(label)] = cells
    return rows


def test_sb_geo_4_sb_terr_board_draws_every_terrain_and_model() -> None:
    """SB-GEO-4, SB-TERR-1, SB-TERR-2, SB-TERR-3: on a 900 mm table (20 × 40 mm a character, 45 × 23) impassable
    ground is #, a drop area :, cover %, high ground ^, an obstacle =; Red's models A, B, Blue's a; two models in one
    cell show *; the legend names both sides."""
    state = state_of(
        [model("R1", 110, 850), model("R2", 500, 100)],
        [model("B1", 805, 405), model("B2", 815, 435)],
        impassable=[[0.0, 0.0, 100.0, 100.0]],
        drop_areas=[{"rect": [800.0, 0.0, 900.0, 100.0], "drop_mm": 100}],
        cover=[[0.0, 800.0, 100.0, 900.0]],
        high_ground=[{"rect": [400.0, 400.0, 500.0, 500.0], "height_mm": 30}],
        obstacles=[[200.0, 600.0, 700.0, 600.0]],
    )
    board = GAME.show(state, "en")
    rows = grid(board)
    assert len(rows) == 23 and all(len(cells) == 45 for cells in rows.values())
    assert rows[880][:6] == "%%%%%." and rows[840][:6] == "%%%%%A"  # cover in the north-west corner, R1 (110, 850)
    assert rows[80][:5] == "#####" and rows[80][-5:] == ":::::"  # impassable south-west, the drop south-east
    assert rows[480][19:26] == rows[400][19:26] == ".^^^^^."  # high ground 400-500 mm, both ways
    assert rows[600][9:37] == "." + "=" * 26 + "."  # the hedge along y = 600 from x = 200 to 700
    assert rows[80][25] == "B"  # R2 at (500, 100)
    assert rows[400][40] == "*"  # B1 (805, 405) and B2 (815, 435) share a cell
    assert min(rows) == 0 and max(rows) == 880  # rows labelled by their southern edge, north up (issue 24 §7)
    assert "A-Z (then @) Red  a-z (then &) Blue" in board
    assert ". open ground  # impassable  : drop  ^ high ground  % cover  = obstacle  * several models" in board
    ja = GAME.show(state, "ja")
    assert grid(ja) == rows
    assert "# 通行不可のテレイン" in ja and "^ 高所" in ja and "= 障害物" in ja and "A-Z（27体目から @）Red" in ja


def test_sb_geo_1_board_of_a_large_table_keeps_its_width() -> None:
    """SB-GEO-1: a 3000 × 1500 mm table is drawn 45 characters wide (67 mm each) and 12 rows deep; models near the
    edges stay on the map."""
    state = state_of([model("R1", 20, 20)], [model("B1", 2980, 1480)], options={"table_width_mm": 3000, "table_depth_mm": 1500})
    rows = grid(GAME.show(state, "en"))
    assert len(rows) == 12 and all(len(cells) == 45 for cells in rows.values())
    assert rows[0][0] == "A" and rows[max(rows)][-1] == "a"
