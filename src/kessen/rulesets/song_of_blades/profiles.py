"""Profiles and states of Song of Blades and Heroes models (§3)."""

from __future__ import annotations

from typing import Literal

Size = Literal["normal", "big", "huge", "gargantuan"]
SpecialRule = Literal["free_disengage", "opportunistic", "combat_master", "assassin"]
ModelState = Literal["standing", "fallen", "transfixed"]

SIZE_RANK: dict[str, int] = {"normal": 0, "big": 1, "huge": 2, "gargantuan": 3}

# SB-PRIO-2: special rules that may always choose a fallen enemy.
MAY_ALWAYS_TARGET_FALLEN: frozenset[str] = frozenset({"opportunistic", "combat_master", "assassin"})

# The most models a side may field in a scenario (issue 14); so also the most enemies that can ever be in base
# contact with one model, and the limit of every in-contact count of the odds inputs (no game can pass it).
MAX_MODELS_PER_SIDE = 50
