"""Issue 24 §7, the terminal as a tabletop player wants it: the board drawn again only when it changed, each question
once, one odds text an option, coordinate ticks and north up on every ruleset's map, names in any case with "did you
mean", no Python None or types in messages and help, and armies-clash's destinations grouped."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import kessen
from kessen.cli.main import app
from kessen.cli.menu import Menu, odds_text
from kessen.match import ODDS_IN_WORDS
from kessen.cli.names import Vocabulary
from kessen.core.names import find_side
from kessen.core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
HORDE = str(ROOT / "tests" / "data" / "scenarios" / "goblin-horde-16-stands.toml")  # positions pinned below
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
MONSTER = str(ROOT / "examples" / "battlehost" / "monster.toml")
PROMPT = "your choice (a number, a notation, help, q): "
SCENARIOS = sorted(str(p) for p in (ROOT / "examples").glob("*/*.toml"))
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
RULER = re.compile(r"^ +0 +\d+( +\d+)*$")
ROW = re.compile(r"^ *(\d+) [|]?")


def kessen_cli(*args: str, stdin: str = "", tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"KESSEN_ENGINE": "pure", "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp or ROOT / "no-such-folder")}
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT, env=env)


def horde_move() -> kessen.Match:
    """goblin-horde, side a: the boss incites, the mob declares an attack, gob-m1 is activated: its move."""
    match = kessen.Match.open(HORDE, seed=1, people={"a"})
    match.run()
    for notation in ("incite", "attack", "activate gob-m1"):
        match.choose(notation)
        match.run()
    assert match.decision is not None and match.decision.kind == "move"
    return match


def test_i24_7_no_board_between_two_decisions_that_change_nothing_on_it(tmp_path: Path) -> None:
    """The board (43 lines of goblin-horde) is drawn before the first decision; the boss's Incite and the mob's
    declared attack move no model and cost no wounds, so the next decisions print their narration, the question
    and the options alone: 2 + 6 and 1 + 1 + 7 lines (the mob's six stands and the boss; issue 23 §4 gave it six)."""
    done = kessen_cli("play", HORDE, "--side", "a", "--save", str(tmp_path / "s.json"), stdin="1\n1\nq\n", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    chunks = done.stdout.split(PROMPT)
    assert "0    5    10   15" in chunks[0] and len(chunks[0].splitlines()) > 30
    assert chunks[1].splitlines() == [
        "boss tries to Incite horde-mob and fails. (d20 5 +2 = 7 vs DC 15)",
        "side a: horde-mob declares its battle action",
        "   1. attack", "   2. dash", "   3. configure support", "   4. configure defensive", "   5. retreat", "   6. no action",
    ]
    assert len(chunks[2].splitlines()) == 9 and "0    5    10" not in chunks[2]


def test_i24_7_board_command_draws_it_again_and_help_says_so(tmp_path: Path) -> None:
    done = kessen_cli("play", HORDE, "--side", "a", "--save", str(tmp_path / "s.json"), stdin="help\nboard\nq\n", tmp=tmp_path)
    chunks = done.stdout.split(PROMPT)
    assert "board            the board (drawn by itself only when it changed)" in chunks[1]
    assert "0    5    10   15" in chunks[2] and chunks[2].count("side a: boss, commander of horde-mob") == 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: Path(p).stem)
def test_i24_7_the_question_once_and_one_odds_text_an_option(scenario: str, tmp_path: Path) -> None:
    """At the first decision of every shipped scenario the question is printed once (the board's own last line, what
    is asked, is left out), and no option shows its odds twice: words that carry odds (``  [...]``) get no column."""
    match = kessen.Match.open(scenario, seed=1, people=())
    side = match.sides[0]
    done = kessen_cli("play", scenario, "--side", side, "--save", str(tmp_path / "s.json"), stdin="q\n", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    first = done.stdout.split(PROMPT)[0]
    played = kessen.Match.open(scenario, seed=1, people={side})
    played.run()
    assert played.decision is not None
    assert first.count(played.decision.prompt) == 1
    assert "▶" not in first and "Next: " not in first and "Now: " not in first
    decision = played.decision
    for option, line in zip(Menu.of(decision, played.board()).entries, [l for l in first.splitlines() if re.match(r" +\d+\. ", l)]):
        column = odds_text(played.ruleset.id, "en", option.odds) if option.odds else ""
        in_words = ODDS_IN_WORDS.search(option.text) is not None
        assert (column != "" and line.endswith(column)) == (option.odds is not None and not in_words), line
        assert line.count(option.text) == 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_i24_7_every_map_has_ticks_and_north_up(scenario: str, lang: str) -> None:
    """Every ruleset's map: each row labelled with its y, growing up the page to 0 on the bottom row, and a ruler of
    x under it from 0."""
    drawing = kessen.Match.open(scenario, seed=1, lang=lang).show().splitlines()
    rulers = [n for n, line in enumerate(drawing) if RULER.match(line)]
    assert rulers, drawing
    rows = [int(found.group(1)) for line in drawing[: rulers[0]] if (found := ROW.match(line))]
    assert rows[-1] == 0 and rows == sorted(rows, reverse=True) and len(set(rows)) == len(rows)


def test_i24_7_battlehost_y_grows_up_the_page() -> None:
    """monster: the Bowman (H) at y = 5 is on the row of y 4–6, below the riders at y 8–12 and the troll (a) at 22; the
    referee's coordinates are as the scenario gives them."""
    drawing = kessen.Match.open(MONSTER, seed=1).show().splitlines()
    row = {glyph: line.split("|")[0].strip() for line in drawing if "|" in line for glyph in line.split("|")[1]}
    assert (row["H"], row["F"], row["A"], row["a"]) == ("4", "8", "12", "22")
    assert "(18.00, 5.00)" in next(line for line in drawing if " H Bowman" in line)


def test_i24_7_sides_in_any_case_with_did_you_mean(tmp_path: Path) -> None:
    assert find_side("HERO", ("Hero", "Goblins"), "--side") == "Hero"
    with pytest.raises(InputError) as wrong:
        find_side("hreo", ("Hero", "Goblins"), "--side")
    assert str(wrong.value) == "--side: not a side of this scenario (its sides are Hero, Goblins); did you mean Hero? (got 'hreo')"
    done = kessen_cli("play", MOB, "--side", "hreo", tmp=tmp_path)
    assert done.returncode == 2 and "did you mean Hero?" in done.stderr
    done = kessen_cli("play", MOB, "--side", "HERO", "--ai", "goblins=random", "--save", str(tmp_path / "s.json"), stdin="q\n", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    done = kessen_cli("battle", MONSTER, "--ai", "EVIL=random", "--ai", "Good=greedy", "--events", str(tmp_path / "e.jsonl"), tmp=tmp_path)
    assert done.returncode == 0, done.stderr


def test_i24_7_names_at_the_prompt_in_any_case_with_did_you_mean(tmp_path: Path) -> None:
    """``activate HERO 2`` plays as ``activate hero 2``; ``activate hreo 2`` is refused with what was meant."""
    saves = [tmp_path / f"{n}.json" for n in range(2)]
    typed = kessen_cli("play", MOB, "--side", "Hero", "--save", str(saves[0]), stdin="ACTIVATE HERO 2\nq\n", tmp=tmp_path)
    plain = kessen_cli("play", MOB, "--side", "Hero", "--save", str(saves[1]), stdin="activate hero 2\nq\n", tmp=tmp_path)
    assert typed.returncode == plain.returncode == 0
    assert saves[0].read_text() == saves[1].read_text()
    done = kessen_cli("play", MOB, "--side", "Hero", "--save", str(saves[0]), stdin="activate hreo 2\nq\n", tmp=tmp_path)
    assert "did you mean: activate hero 2" in done.stdout
    words = Vocabulary(["move", "Captain", "of", "Minas", "Tirith", "to"], ["Captain of Minas Tirith", "good"])
    assert words.canonical("move captain of minas tirith to 3,4") == "move Captain of Minas Tirith to 3,4"
    assert words.suggestion("move captian of minas tirith to 3,4", []) == "move Captain of Minas Tirith to 3,4"
    assert words.suggestion("move captain of minas tirith to 99,4", []) is None  # every name right: the referee says why


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_i24_7_help_names_no_python_type(command: str | None) -> None:
    done = kessen_cli(*([command] if command else []), "--help")
    assert done.returncode == 0
    for python in ("<", "None", "list[", "str]", "{"):
        assert python not in done.stdout, (python, done.stdout)


@pytest.mark.parametrize("args", [["play", MOB], ["odds", "armies-clash", "attack"], ["resume", "x.json", "--side", "a", "--watch"]])
def test_i24_7_errors_print_no_python_none(args: list[str], tmp_path: Path) -> None:
    done = kessen_cli(*args, tmp=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "None" not in done.stderr and "True" not in done.stderr


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_i24_7_armies_clash_move_is_one_line_and_a_square(lang: str) -> None:
    """gob-m1's move: 34 destinations suggested (30 on the grid, 4 off it) and stay. The menu is one unnumbered line
    for the squares, one numbered line for each edge fled across (west, south) and stay; a typed square plays the
    event its listed option plays."""
    match = horde_move()
    decision = match.decision
    assert decision is not None and len(decision.options) == 35
    menu = Menu.of(decision, match.board())
    lines = menu.lines("armies-clash", lang)
    assert len(lines) == 4
    assert lines[0].strip() == ("move: a square within reach (30 of them), e.g. move 6,4; reach lists them" if lang == "en"
                                else "move: 届くマス(30 個)。例: move 6,4。reach で一覧")
    assert [o.notation for o in menu.entries] == ["move gob-m1 to -1,3", "move gob-m1 to 2,-1", "stay"]
    assert ("west edge (3 squares" if lang == "en" else "西端") in lines[1]
    listed = next(o for o in decision.options if o.notation == "move gob-m1 to 5,4")
    assert menu.destination("5,4") is listed and menu.destination("MOVE 5, 4") is listed
    assert menu.destination("move 0,9") == "move gob-m1 to 0,9"  # not suggested: the referee judges it
    assert menu.destination("attack 5,4") is None and menu.destination("stay") is None
    by_list, by_square = horde_move(), horde_move()
    by_list.choose("move gob-m1 to 5,4")
    chosen = Menu.of(by_square.decision, by_square.board()).destination("5,4")  # type: ignore[arg-type]
    assert chosen is not None
    by_square.choose(chosen)
    assert by_square.events == by_list.events and by_square.dumps() == by_list.dumps()


def test_i24_7_reach_shows_the_squares_on_a_grid() -> None:
    match = horde_move()
    menu = Menu.of(match.decision, match.board())  # type: ignore[arg-type]
    lines = menu.reach_lines(match.board(), "en")
    grid = [line for line in lines if re.match(r"^  \d ", line)]
    assert len(grid) == 10 and sum(line[4:].count("o") for line in grid) == 30
    assert grid[5][4:].startswith("xx@")  # row y = 4: gob-m6 at 0,4, gob-m3 at 1,4, gob-m1 (its boss joined to it) at 2,4
    assert "  off the west edge: -1,3 -1,2 -1,1" in lines and "  off the south edge: 2,-1" in lines
