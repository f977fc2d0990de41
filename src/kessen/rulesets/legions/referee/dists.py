"""The one cache of the distributions the engine draws from: each question of a ``rules`` procedure (a volley's
``fire``, a fight, a charge's combat, a Morale check, a withdrawing model's saves) answered once, in memory bounded by size.

A battle asks the same questions over and over (the same volley at a Detachment as it stood, the same fight), and
one question's distribution can hold a few entries or nearly two thousand, so the cache is bounded by the bytes
its entries hold (``kessen.dice.cache``), not by how many it keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.dice import Dist
from kessen.dice.cache import BoundedCache, deep_bytes, dist_bytes
from kessen.rulesets.legions.rules.close_combat import CombatQuestion, FightQuestion, combat, fight
from kessen.rulesets.legions.rules.firing import FireQuestion, HitsQuestion, fire, resolve_hits
from kessen.rulesets.legions.rules.morale import MoraleCheckQuestion, morale_check
from kessen.rulesets.legions.rules.withdrawal import WithdrawalSaveQuestion, withdrawal_save

CACHE_BYTES = 64 * 2**20
"""The memory the engine's distributions may keep: the largest volley's holds about 200 kB."""

_PROCEDURES: dict[type, Callable[[Any], Dist[Any]]] = {
    FireQuestion: fire,
    HitsQuestion: resolve_hits,
    FightQuestion: fight,
    CombatQuestion: combat,
    MoraleCheckQuestion: morale_check,
    WithdrawalSaveQuestion: withdrawal_save,
}

_cache: BoundedCache[Any, Dist[Any]] = BoundedCache(CACHE_BYTES, lambda key, dist: deep_bytes(key) + dist_bytes(dist))


def answer(question: Any) -> Dist[Any]:
    """The exact distribution of a procedure's *question*, computed by its ``rules`` function the first time."""
    compute = _PROCEDURES[type(question)]
    return _cache.get(question, lambda: compute(question))
