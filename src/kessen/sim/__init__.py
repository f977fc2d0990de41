"""Simulation: whole battles between AI sides, many at a time, with win rates and confidence intervals."""
