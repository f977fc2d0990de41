"""The parts of a round the engine steps through, and the Orders a Detachment may hold (§3.4, §3.6, §4.1)."""

from __future__ import annotations

from typing import Literal

Order = Literal["advance", "charge", "march", "first_fire", "fall_back"]
MoraleThisPhase = Literal["none", "passed", "failed"]
Phase = Literal["orders", "movement", "combat", "end"]
Stage = Literal["first_fire", "engagement", "advancing_fire"]

STAGES: tuple[Stage, ...] = ("first_fire", "engagement", "advancing_fire")
"""The stages of the Combat phase, in their order (LI-STAGE-1)."""
