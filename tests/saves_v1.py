"""kessen-save/1 fixtures: saves written by the engine as it was before saves v2, which must keep loading.

For every shipped scenario two v1 saves are kept under ``tests/data/saves-v1/<ruleset>/``: an AI battle (seed 1)
and a random-legal one (seed 2), each with the sha256 of its events file and its winner. Made once with
``python -m tests.saves_v1 --write RULESET...`` on the engine of the day; never rewritten afterwards.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from kessen.core.engine import is_dice_field
from kessen.core.events import Event

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "saves-v1"


def digest(events: list[Event]) -> str:
    """The sha256 of the events file, as written before events showed their dice (issue 24 §3): the fixtures keep
    the digests of their day, and the dice are what was added since."""
    return hashlib.sha256("".join(without_dice(e) + "\n" for e in events).encode("utf-8")).hexdigest()


def file_digest(lines: str, ruleset: str) -> str:
    """:func:`digest` of an events file of *ruleset*: each line without the fields that show its event's dice."""
    import importlib

    module = importlib.import_module(f"kessen.rulesets.{ruleset.replace('-', '_')}.events")
    shown = {
        (cls.type, f.name)
        for cls in vars(module).values()
        if isinstance(cls, type) and issubclass(cls, Event) and dataclasses.is_dataclass(cls)
        for f in dataclasses.fields(cls)
        if is_dice_field(f)
    }
    out = []
    for line in lines.splitlines():
        data = json.loads(line)
        out.append(json.dumps({k: v for k, v in data.items() if (data["type"], k) not in shown}, ensure_ascii=False, separators=(",", ":")))
    return hashlib.sha256("".join(o + "\n" for o in out).encode("utf-8")).hexdigest()


def without_dice(event: Event) -> str:
    """*event*'s JSON line without the fields that show its dice (``dice_field``)."""
    shown = {f.name for f in dataclasses.fields(event) if is_dice_field(f)}
    return json.dumps({k: v for k, v in event.to_json_dict().items() if k not in shown}, ensure_ascii=False, separators=(",", ":"))


def v1_text(ruleset: str, scenario_source: str, scenario: str, seed: int, decisions: list[int]) -> str:
    """A save file as kessen wrote ``kessen-save/1`` (the decisions as option indices; no people, English), which
    kessen itself writes no more."""
    from kessen.core.saves import SAVE_V1, checksum

    body = {
        "format": SAVE_V1, "ruleset": ruleset, "scenario_source": scenario_source, "scenario": scenario, "seed": seed,
        "decisions": decisions, "people": [], "lang": "en",
    }
    return json.dumps({**body, "checksum": checksum(body)}, ensure_ascii=False, indent=1) + "\n"


def write(rulesets: list[str]) -> None:
    from kessen.core.decisions import RandomDecider
    from kessen.core.replay import play
    from kessen.dice import stream
    from kessen.io.scenarios import read_scenario, ruleset_for

    for path in sorted((ROOT / "examples").glob("*/*.toml")):
        source = str(path.relative_to(ROOT))
        ruleset = ruleset_for(source, None)
        if ruleset.id not in rulesets:
            continue
        game, text = ruleset.game, read_scenario(source)
        state = game.load_scenario(text, source)
        for seed, how in ((1, "ai"), (2, "random")):
            deciders: dict[str, Any] = {
                side: game.ai(side) if how == "ai" else RandomDecider(stream(100 + i)) for i, side in enumerate(game.sides(state))
            }
            played = play(game, state, deciders, seed)
            assert played.terminal is not None
            folder = FIXTURES / ruleset.id
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{path.stem}-{how}.save.json").write_text(v1_text(ruleset.id, source, text, seed, played.decisions), encoding="utf-8")
            expected = {"events": digest(played.events), "winner": played.terminal.winner}
            (folder / f"{path.stem}-{how}.expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"] or not sys.argv[2:]:
        sys.exit("usage: python -m tests.saves_v1 --write RULESET...")
    write(sys.argv[2:])
