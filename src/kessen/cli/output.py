"""Readable output of odds: a rich table with percentages, and per numeric field its statistics."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from kessen.odds import OddsResult


def print_odds_table(result: OddsResult, console: Console) -> None:
    """The outcomes with their exact fractions and percentages; then, for every numeric outcome
    field, its distribution with the "at least X" column, its mean and its standard deviation."""
    rows = result.outcomes
    fields = list(rows[0][0]) if rows else []
    table = Table(title=f"{result.ruleset} {result.procedure}", title_justify="left")
    for name in fields:
        table.add_column(name)
    table.add_column("probability", justify="right")
    table.add_column("%", justify="right")
    for outcome, p in rows:
        table.add_row(*(_show(outcome[f]) for f in fields), f"{p.numerator}/{p.denominator}", _percent(p))
    console.print(table)
    for name in fields:
        if all(_is_number(o[name]) for o, _ in rows):
            console.print(numeric_field_table(name, [(o[name], p) for o, p in rows]))


def numeric_field_table(name: str, values: list[tuple[int, Fraction]]) -> Table:
    """One numeric field: P(= x) and P(≥ x) for every value, with mean and standard deviation."""
    marginal: dict[int, Fraction] = {}
    for value, p in values:
        marginal[value] = marginal.get(value, Fraction(0)) + p
    mean = sum((v * p for v, p in marginal.items()), Fraction(0))
    variance = sum(((v - mean) ** 2 * p for v, p in marginal.items()), Fraction(0))
    table = Table(
        title=f"{name}: mean {float(mean):.4g}, standard deviation {math.sqrt(variance):.4g}",
        title_justify="left",
    )
    table.add_column(name, justify="right")
    table.add_column("exactly", justify="right")
    table.add_column(f"at least {name}", justify="right")
    at_least = Fraction(1)
    for value in sorted(marginal):
        table.add_row(str(value), _percent(marginal[value]), _percent(at_least))
        at_least -= marginal[value]
    return table


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "-" if value is None else str(value)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"
