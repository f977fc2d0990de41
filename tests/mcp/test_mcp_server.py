"""Issue 25 §4: ``kessen mcp`` driven by the official SDK's client over stdio (one server process for the module):
the tools and their schemas, the odds, the schemas, a scenario checked, a match opened, chosen, undone and advised,
a simulation, and bad input answered as one-line tool errors while the server goes on. Every number is compared
with what the Python API gives for the same question."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult

import kessen
from kessen.core.errors import InputError, error_line
from kessen.io.scenarios import scenario_model
from kessen.mcp.tools import Toolbox
from kessen.rulesets import get_ruleset, ruleset_ids

ROOT = Path(__file__).resolve().parents[2]
KESSEN = Path(sys.executable).parent / "kessen"
HERO = "song-of-blades/hero-against-mob"
HERO_FILE = ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml"
DUEL = """ruleset = "song-of-blades"
name = "Duel"
turns = 1

[[sides]]
side = "North"
models = [{ id = "n", name = "Hero", points = 60, quality = 3, combat = 4, x = 100.0, y = 100.0 }]

[[sides]]
side = "South"
models = [{ id = "s", name = "Goblin", points = 20, quality = 4, combat = 2, x = 160.0, y = 100.0 }]
"""
"""A hero and a goblin 60 mm apart for one turn: small enough for the advisor to walk exactly."""
STARTING = tomllib.loads((ROOT / "src" / "kessen" / "web" / "text" / "starting-inputs.toml").read_text(encoding="utf-8"))


class Session:
    """The SDK's client on a ``kessen mcp`` process, called from synchronous tests through an anyio portal."""

    def __init__(self, portal: Any, client: Client) -> None:
        self.portal, self.client = portal, client

    def result(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        found: CallToolResult = self.portal.call(self.client.call_tool, tool, arguments)
        return found

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        found = self.result(tool, arguments)
        assert not found.is_error, found.content
        text = found.content[0].text
        assert json.loads(text) == found.structured_content
        data: dict[str, Any] = found.structured_content
        return data

    def error(self, tool: str, arguments: dict[str, Any]) -> str:
        found = self.result(tool, arguments)
        assert found.is_error and found.structured_content is None and len(found.content) == 1
        line: str = found.content[0].text
        assert "\n" not in line and "Traceback" not in line
        return line


@pytest.fixture(scope="module")
def mcp() -> Iterator[Session]:
    server = StdioServerParameters(command=str(KESSEN), args=["mcp"], cwd=str(ROOT))
    with anyio.from_thread.start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(server, read_timeout_seconds=120)) as client:
            yield Session(portal, client)


def test_issue_25_4_every_tool_is_listed_with_its_models_schema_and_description(mcp: Session) -> None:
    listed = {tool.name: tool for tool in mcp.portal.call(mcp.client.list_tools).tools}
    box = Toolbox()
    assert list(listed) == list(box.tools) == [
        "rulesets", "scenarios", "procedure_schema", "odds", "scenario_schema", "check_scenario", "open_match", "match",
        "board", "choose", "undo", "advise", "simulate",
    ]
    for name, tool in box.tools.items():
        assert listed[name].input_schema == tool.model.model_json_schema()
        assert listed[name].description == " ".join((tool.model.__doc__ or "").split()) != ""
    # the web's own models: a match's fields and their limits are the web API's
    assert {"seed", "people", "lang", "ai", "ruleset", "scenario"} <= set(listed["open_match"].input_schema["properties"])
    assert listed["choose"].input_schema["properties"]["notation"]["maxLength"] == 10_000


def test_issue_25_4_rulesets_and_scenarios_are_the_registrys(mcp: Session) -> None:
    rulesets = mcp.call("rulesets", {})["rulesets"]
    assert [r["id"] for r in rulesets] == list(ruleset_ids())
    for listed in rulesets:
        assert [p["name"] for p in listed["procedures"]] == list(get_ruleset(listed["id"]).procedures)
    shipped = {s["name"]: s for s in mcp.call("scenarios", {})["scenarios"]}
    assert shipped[HERO]["sides"] == ["Hero", "Goblins"] and shipped[HERO]["ruleset"] == "song-of-blades"


@pytest.mark.parametrize("ruleset", ["song-of-blades", "battlehost", "legions", "armies-clash"])
def test_issue_25_4_odds_are_the_json_of_kessen_odds_for_every_procedure(mcp: Session, ruleset: str) -> None:
    for procedure, question in STARTING[ruleset].items():
        answered = mcp.call("odds", {"ruleset": ruleset, "procedure": procedure, "input": question})
        assert answered == json.loads(kessen.odds(ruleset, procedure, question).to_json())


def test_issue_25_4_an_odds_probability_is_the_exact_one(mcp: Session) -> None:
    """SB activation at Quality 4 with one die: one action on 4+, exactly 1/2 (the odds API's doctest)."""
    answered = mcp.call("odds", {"ruleset": "song-of-blades", "procedure": "activation", "input": {"quality": 4}})
    one = [o for o in answered["outcomes"] if o["outcome"]["actions"] == 1]
    assert [(o["probability"], o["p"]) for o in one] == [("1/2", 0.5)]
    assert kessen.odds("song-of-blades", "activation", {"quality": 4}).probability(actions=1) == 1 / 2


def test_issue_25_4_the_schemas_are_the_cli_s(mcp: Session) -> None:
    melee = get_ruleset("song-of-blades").procedure("melee").input_model
    assert mcp.call("procedure_schema", {"ruleset": "song-of-blades", "procedure": "melee"}) == melee.model_json_schema()
    assert mcp.call("scenario_schema", {"ruleset": "legions"}) == scenario_model("legions").model_json_schema()


def test_issue_25_4_a_scenario_is_checked_by_name_path_or_text(mcp: Session) -> None:
    text = HERO_FILE.read_text(encoding="utf-8")
    for scenario in (HERO, str(HERO_FILE), text):
        checked = mcp.call("check_scenario", {"scenario": scenario})
        assert checked["ok"] and checked["ruleset"] == "song-of-blades" and checked["sides"] == ["Hero", "Goblins"]
    broken = text.replace("quality = ", "quality = -", 1)
    assert mcp.error("check_scenario", {"scenario": broken}).startswith("kessen: error: scenario")


def test_issue_25_4_a_match_is_opened_chosen_undone_and_advised_as_the_python_api_plays_it(mcp: Session) -> None:
    opened = mcp.call("open_match", {"scenario": DUEL, "seed": 3, "people": ["North"]})
    same = kessen.Match.from_text(DUEL, ruleset="song-of-blades", seed=3, people={"North"})
    same.run()
    pending = same.decision
    assert pending is not None and opened["status"] == "waiting" and opened["people"] == ["North"]
    assert [e["text"] for e in opened["events"]] == [same.narrate(e) for e in same.events]
    first = opened["decision"]
    assert first["player"] == "North" and [o["notation"] for o in first["options"]] == [o.notation for o in pending.options]
    for shown, option in zip(first["options"], pending.options):
        assert {k["key"]: k["fraction"] for k in shown["odds"]} == {k: f"{v.numerator}/{v.denominator}" for k, v in (option.odds or {}).items()}
    assert mcp.call("match", {"match": opened["id"]})["decision"] == first

    board = mcp.call("board", {"match": opened["id"]})
    assert board["board"] == json.loads(json.dumps(same.board())) and board["drawing"] == same.show()

    advice = mcp.call("advise", {"match": opened["id"], "playouts": 4})["options"]
    expected = same.advise(playouts=4)
    assert all(c.exact for c in expected)  # the rest of a one-turn duel is walked exactly
    assert [(o["notation"], o["win_fraction"], o["draw_fraction"], o["best"]) for o in advice] == [
        (c.notation, *(f"{f.numerator}/{f.denominator}" for f in (Fraction(c.win), Fraction(c.draw), c.best or Fraction(-1)))) for c in expected
    ]
    assert advice[0]["win_fraction"] == "1/6" and advice[-1]["win_fraction"] == "0/1"  # ending the turn wins nothing

    notation = pending.options[0].notation
    chosen = mcp.call("choose", {"match": opened["id"], "notation": notation})
    before = len(same.events)
    same.choose(notation)
    assert [e["text"] for e in chosen["events"]] == [same.narrate(e) for e in same.events[before:]]
    assert chosen["can_undo"] and chosen["decision"]["prompt"] == (same.decision.prompt if same.decision else None)

    undone = mcp.call("undo", {"match": opened["id"]})
    assert undone["decision"] == first and not undone["can_undo"]
    refused = mcp.error("choose", {"match": opened["id"], "notation": "fly to the moon"})
    assert refused.startswith("kessen: error: not a choice here (got 'fly to the moon')")
    assert mcp.error("undo", {"match": opened["id"]}) == "kessen: error: there is no decision of yours to undo"


def test_issue_25_4_a_simulation_is_kessen_simulate_s(mcp: Session) -> None:
    simulated = mcp.call("simulate", {"scenario": HERO, "runs": 6, "seed": 7})
    stats = kessen.simulate(str(HERO_FILE), runs=6, seed=7, workers=1)
    assert simulated["battles"] == 6 and [w["count"] for w in simulated["wins"]] == [stats.wins[s] for s in stats.sides]
    assert simulated["draws"]["count"] == stats.draws and simulated["ai"] == {"Hero": "greedy", "Goblins": "greedy"}


@pytest.mark.parametrize(
    ("tool", "arguments", "line"),
    [
        ("odds", {"ruleset": "song-of-blades", "procedure": "activation", "input": {"quality": 9}}, "kessen: error: quality: must be ≤ 6 (got 9)"),
        ("odds", {"ruleset": "song-of-blades", "procedure": "activation"}, "kessen: error: input: required field is missing"),
        ("odds", {"ruleset": "song-of-blades", "procedure": "activation", "input": {}, "extra": 1}, "kessen: error: extra: unknown field (got 1)"),
        ("open_match", {"scenario": HERO, "seed": -1}, "kessen: error: seed: must be an integer from 0 to 2^64 - 1 (got -1)"),
        ("open_match", {"scenario": HERO, "seed": "1"}, "kessen: error: seed: must be an integer (got '1')"),
        ("open_match", {"scenario": HERO, "seed": 1, "ai": "os:system"}, None),
        ("open_match", {"scenario": HERO, "seed": 1, "people": ["Orcs"]}, "kessen: error: people: not a side of this scenario (its sides are Hero, Goblins) (got 'Orcs')"),
        ("open_match", {"scenario": "no/such-file.toml", "seed": 1}, None),
        ("match", {"match": "m999"}, None),
        ("simulate", {"scenario": HERO, "runs": 5000, "seed": 1}, "kessen: error: runs: must be ≤ 1000 (got 5000)"),
        ("advise", {"match": "m999", "playouts": 0}, "kessen: error: playouts: must be ≥ 1 (got 0)"),
        ("no_such_tool", {}, None),
    ],
)
def test_issue_25_4_bad_input_is_one_line_tool_error_and_the_server_goes_on(mcp: Session, tool: str, arguments: dict[str, Any], line: str | None) -> None:
    refused = mcp.error(tool, arguments)
    assert refused.startswith("kessen: error: ")
    if line is not None:
        assert refused == line
    assert mcp.call("rulesets", {})["rulesets"]


def test_issue_25_4_the_refusals_name_what_was_wrong(mcp: Session) -> None:
    assert "a plug-in AI plays only from the command line or Python" in mcp.error("open_match", {"scenario": HERO, "seed": 1, "ai": "os:system"})
    assert mcp.error("open_match", {"scenario": "no/such-file.toml", "seed": 1}).startswith("kessen: error: no/such-file.toml")
    assert mcp.error("no_such_tool", {}).startswith("kessen: error: tool: no such tool")


def test_issue_25_4_the_server_holds_a_bounded_number_of_matches() -> None:
    """In process: with room for two, a third match drops the one used least recently."""
    box = Toolbox(matches=2)
    ids = []
    for seed in (1, 2):
        reply = box.call("open_match", {"scenario": HERO, "seed": seed, "people": ["Hero"]})
        assert reply.data is not None
        ids.append(reply.data["id"])
    assert box.call("match", {"match": ids[0]}).data is not None  # m1 is now the most recently used
    third = box.call("open_match", {"scenario": HERO, "seed": 3, "people": ["Hero"]}).data
    assert third is not None and third["id"] == "m3"
    assert box.call("match", {"match": ids[0]}).data is not None
    assert box.call("match", {"match": ids[1]}).error == error_line(
        InputError("match", "m2", "no such match (open_match opens one; the server holds the 2 used most recently)")
    )


def test_issue_25_4_without_the_sdk_kessen_mcp_says_which_extra_to_install() -> None:
    script = "import sys; sys.modules['mcp'] = None; sys.argv = ['kessen', 'mcp']; from kessen.cli.main import main; main()"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == "kessen: error: mcp: the mcp extra is not installed (mcp.server); install kessen[mcp]"
