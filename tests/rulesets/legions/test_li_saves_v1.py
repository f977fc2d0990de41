"""kessen-save/1 files of legions battles and the decisions issue 10 added (where models go, how hits are allocated,
where a withdrawing model ends)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kessen.core.engine import Decision
from kessen.match import Match
from kessen.rulesets.legions import RULESET
from kessen.rulesets.legions.referee.steps import KINDS_SINCE_V1
from tests.saves_v1 import FIXTURES, digest

SAVES = sorted((FIXTURES / "legions").glob("*.save.json"))


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.name.removesuffix(".save.json"))
def test_li_v1_saves_replay_when_the_decisions_added_since_take_their_default(path: Path) -> None:
    """LI-MOVE-1, LI-ALLOC-1, LI-WD-2 (issue 10 §1): the new decisions' first options are what the engine did before
    without asking (the move as ordered, hits in the default order, withdrawal straight toward the edge): a v1 save's
    option indices, given to the decisions of the older kinds while each decision of a kind added since takes its
    first option (Ruleset.new_since_v1, which kessen.Match's v1 replay uses), replay to exactly the recorded events and winner."""
    assert KINDS_SINCE_V1 == {"move", "allocation"}
    assert all(RULESET.new_since_v1(Decision("Attacker", kind, ("a",))) == (kind in KINDS_SINCE_V1) for kind in ("move", "allocation", "order"))
    match = Match.load(path)
    match.run()
    expected = json.loads(path.with_name(path.name.replace(".save.json", ".expected.json")).read_text(encoding="utf-8"))
    assert match.result is not None
    assert digest(match.events) == expected["events"] and match.result.winner == expected["winner"]
