"""What many battles came to, as plain JSON: each side's win rate with its 95% Wilson interval, the draws, and the
distribution and mean of every summary number, with the labels of the ruleset's catalogues (the web page's
simulations and the MCP server's ``simulate`` show it)."""

from __future__ import annotations

from typing import Any

from kessen import i18n
from kessen.sim.battles import wilson
from kessen.sim.tally import Tally, distribution, mean


def result_view(ruleset: str, lang: str, sides: list[str], tally: Tally) -> dict[str, Any]:
    """What many battles came to, from their tally (the same numbers as a sweep's row)."""

    def rate(count: int) -> dict[str, float | int]:
        p, low, high = wilson(count, tally.battles)
        return {"count": count, "rate": p, "low": low, "high": high}

    return {
        "battles": tally.battles,
        "wins": [{"side": side, **rate(tally.wins[side])} for side in sides],
        "draws": rate(tally.draws),
        "per_side": {
            key: {side: {"mean": mean(counts), "counts": distribution(counts)} for side, counts in by_side.items()}
            for key, by_side in sorted(tally.per_side.items())
        },
        "numbers": {key: {"mean": mean(counts), "counts": distribution(counts)} for key, counts in sorted(tally.numbers.items())},
        "words": {key: distribution(counts) for key, counts in sorted(tally.words.items())},
        "labels": {key: i18n.summary_label(ruleset, lang, key) for key in [*tally.per_side, *tally.numbers, *tally.words]},
    }
