"""Issue 22 §4: a choice that reads like a legal one but that the rules forbid is refused naming the rule it breaks,
in every ruleset. Random games of every shipped scenario are stopped at each decision and offered texts made from
the legal ones: the same notation with another piece's id in it, and the options of earlier decisions of the same
kind. A refusal without a rule is left only to text that is no notation of the decision at all (``NotNotation``)
and to notation that names nothing, which then says what to write."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice, NotNotation
from kessen.core.replay import play
from kessen.dice import stream
from kessen.rulesets import get_ruleset, ruleset_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TRIED_PER_DECISION = 14
DECISIONS_PER_GAME = 150


def piece_ids(ruleset: str, state: Any) -> list[str]:
    """The ids a notation of *ruleset* may name: models, stands, solos, units, Detachments."""
    if ruleset == "battlehost":
        return [m.id for m in state.models]
    if ruleset == "armies-clash":
        return [s.id for s in state.stands] + [s.id for s in state.solos] + [u.id for u in state.units]
    if ruleset == "legions":
        return [d.id for d in state.detachments] + [m.id for d in state.detachments for m in d.models]
    assert ruleset == "song-of-blades"
    return [f.id for f in state.figures]


def swapped(text: str, ids: list[str], rng: random.Random) -> list[str]:
    """*text* with each id it names replaced by a few other ids."""
    out = []
    for named in ids:
        pattern = re.compile(rf"(?<![\w-]){re.escape(named)}(?![\w-])")
        if pattern.search(text):
            for other in rng.sample(ids, min(3, len(ids))):
                if other != named:
                    out.append(pattern.sub(other, text, count=1))
    return out


class Prober:
    """A random decider that first offers the game, at each decision, texts that read like its legal choices."""

    def __init__(self, ruleset: str, seed: int) -> None:
        self.ruleset, self.game = ruleset, get_ruleset(ruleset).game
        self.rng = random.Random(seed)
        self.choose = RandomDecider(stream(seed))
        self.seen: defaultdict[str, set[str]] = defaultdict(set)
        self.decisions = 0
        self.refusals: list[IllegalChoice] = []
        self.unnamed: list[tuple[str, str, str]] = []

    def decide(self, state: Any, decision: Decision) -> Any:
        self.decisions += 1
        if self.decisions <= DECISIONS_PER_GAME:
            self._probe(state, decision)
        return self.choose.decide(state, decision)

    def _probe(self, state: Any, decision: Decision) -> None:
        legal = [self.game.notation(state, decision, o) for o in decision.options]
        ids = piece_ids(self.ruleset, state)
        texts = {t for text in self.rng.sample(legal, min(4, len(legal))) for t in swapped(text, ids, self.rng)}
        texts |= set(self.rng.sample(sorted(self.seen[decision.kind]), min(6, len(self.seen[decision.kind]))))
        self.seen[decision.kind].update(legal)
        for text in sorted(texts - set(legal))[:TRIED_PER_DECISION]:
            try:
                self.game.parse(state, decision, text)
            except NotNotation:
                continue
            except IllegalChoice as refusal:
                self.refusals.append(refusal)
                if refusal.rule is None and ": write " not in refusal.reason:
                    self.unnamed.append((decision.kind, text, refusal.reason))


def _scenarios() -> list[Any]:
    return [
        pytest.param(rid, path, id=f"{rid}:{path.stem}")
        for rid in ruleset_ids()
        for path in sorted((EXAMPLES / rid).glob("*.toml"))
    ]


@pytest.mark.parametrize(("ruleset_id", "path"), _scenarios())
def test_every_refusal_of_a_legal_looking_choice_names_its_rule(ruleset_id: str, path: Path) -> None:
    """LI-ALLOC-2 (a hit allocated to a model of another Detachment), LI-MOVE-1, LI-MOVE-4 and every other rule: the
    ids of a legal choice swapped for others', and stale choices of earlier decisions, are refused with a rule ID,
    or, naming nothing at all, with what to write."""
    game = get_ruleset(ruleset_id).game
    text = path.read_text(encoding="utf-8")
    refusals = 0
    for seed in (3, 4):
        probers: dict[str, Prober] = {}
        state = game.load_scenario(text, str(path))
        probers = {side: Prober(ruleset_id, seed * 10 + i) for i, side in enumerate(game.sides(state))}
        play(game, state, probers, seed)
        for prober in probers.values():
            assert not prober.unnamed, prober.unnamed[:5]
            refusals += len(prober.refusals)
    assert refusals >= 40, f"only {refusals} refusals tried"
