"""battlehost cases: kessen's procedures against an expert's icepool expressions of spec section 9 (battles per
second for every shipped scenario come from the shared battles section).

The references share no code with kessen: the wound chart is the k = Defence − Strength rule, a score is the
natural die plus modifiers clamped to 1–6, a side's best is ``icepool.highest`` of its dice, the Might policy and
the strike allocation are written again from BH-PROC-4/5, and the strikes are a fold over one strike at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import icepool

from benchmarks.harness import LimitCase, OddsCase, SamplingCase, Suite, cold, same_probabilities
from kessen.dice import Dist
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset

RULESET = "battlehost"
_PACKAGES = ("kessen.rulesets.battlehost", "kessen.dice")


# --- the references: spec section 9 in icepool ------------------------------------------------------


def _clamp(x: int) -> int:
    return max(1, min(6, x))


def _entry(strength: int, defence: int) -> tuple[int, int] | None:
    """BH-WOUND-2 as (first die needed, second die needed or 0); None for "-"."""
    k = defence - strength
    if k >= 8:
        return None
    if k >= 5:
        return (6, k - 1)
    return (3 if k <= -2 else 4 if k <= 0 else 5 if k <= 2 else 6, 0)


def _wound_die(strength: int, defence: int, modifier: int) -> icepool.Die[bool]:
    """One To Wound roll (BH-WOUND-1, BH-WOUND-3)."""
    entry = _entry(strength, defence)
    if entry is None:
        return icepool.Die([False])
    first, second = entry
    then = icepool.d6.map(lambda y: _clamp(y + modifier) >= second) if second else icepool.Die([True])
    return icepool.d6.map(lambda x: then if _clamp(x + modifier) >= first else False)


def icepool_wound_roll(q: Mapping[str, Any]) -> icepool.Die[Any]:
    return _wound_die(q["strength"], q["defence"], 1 if q["two_handed"] else 0)


def icepool_shoot(q: Mapping[str, Any]) -> icepool.Die[Any]:
    needed = q["shoot_value"] + (1 if q["moved"] else 0)
    wound = _wound_die(q["strength"], q["defence"], 0).map(lambda w: (True, w, w and q["wounds"] == 1))
    return icepool.d6.map(lambda x: wound if x == 6 or x >= needed else (False, False, False))


def icepool_strikes(q: Mapping[str, Any]) -> icepool.Die[Any]:
    rolls = q["strikes"] * (2 if q["trapped"] or q["prone"] else 1)
    hits = rolls @ _wound_die(q["strength"], q["defence"], 1 if q["two_handed"] else 0).map(lambda w: int(w))
    return hits.map(lambda h: (min(h, q["wounds"]), h >= q["wounds"]))


def _best(models: list[Mapping[str, Any]]) -> icepool.Die[int]:
    dice = []
    for m in models:
        mod = m.get("duel_modifier", 0) - (1 if m.get("two_handed") else 0)
        dice += [icepool.d6.map(lambda x, mod=mod: _clamp(x + mod))] * m["attacks"]
    # icepool.highest of a single die answers that die's highest face, not the die
    return dice[0] if len(dice) == 1 else icepool.highest(*dice)


def _chance(own: int, other: int, own_f: int, other_f: int) -> float:
    return 1.0 if own > other or (own == other and own_f > other_f) else 0.5 if own == other and own_f == other_f else 0.0


def _duel(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """BH-PROC-4: (winner, decided_by, might_spent)."""
    gf, ef = max(m["fight"] for m in q["good"]), max(m["fight"] for m in q["evil"])
    gm, em = q["good_might"], q["evil_might"]

    def settle(gb: int, eb: int) -> Any:
        spent = 0
        if gm:
            ks = range(min(gm, 6 - gb) + 1)
            spent = max(ks, key=lambda k: (_chance(gb + k, eb, gf, ef), -k))
            gb += spent
        elif em:
            ks = range(min(em, 6 - eb) + 1)
            spent = max(ks, key=lambda k: (_chance(eb + k, gb, ef, gf), -k))
            eb += spent
        if gb != eb:
            return ("good" if gb > eb else "evil", "score", spent)
        if gf != ef:
            return ("good" if gf > ef else "evil", "fight_value", spent)
        return icepool.d6.map(lambda r: ("good" if r >= 4 else "evil", "roll_off", spent))

    return icepool.map(settle, _best(q["good"]), _best(q["evil"]))


def icepool_duel(q: Mapping[str, Any]) -> icepool.Die[Any]:
    return _duel(q)


def _strikes_after(q: Mapping[str, Any], winner: str) -> icepool.Die[Any]:
    """BH-PROC-5's default allocation, one strike at a time: state (current loser, its wounds left)."""
    winners = [m for m in q[winner] if not m.get("prone")]
    losers = q["evil" if winner == "good" else "good"]
    state: icepool.Die[Any] = icepool.Die([(0, losers[0].get("wounds", 1))])
    for m in winners:
        for _ in range(m["attacks"]):
            def strike(index: int, left: int, m: Mapping[str, Any] = m) -> Any:
                if index == len(losers):
                    return (index, left)
                target = losers[index]
                rolls = 2 if target.get("trapped") or target.get("prone") else 1
                hits = rolls @ _wound_die(m["strength"], target["defence"], 1 if m.get("two_handed") else 0).map(lambda w: int(w))

                def after(h: int) -> tuple[int, int]:
                    if h < left:
                        return (index, left - h)
                    nxt = index + 1
                    return (nxt, losers[nxt].get("wounds", 1) if nxt < len(losers) else 0)

                return hits.map(after)

            state = state.map(strike, star=True)

    def tally(index: int, left: int) -> tuple[int, int]:
        done = sum(t.get("wounds", 1) for t in losers[:index])
        return (done + (losers[index].get("wounds", 1) - left if index < len(losers) else 0), index)

    return state.map(tally, star=True)


def icepool_fight(q: Mapping[str, Any]) -> icepool.Die[Any]:
    after = {w: _strikes_after(q, w) for w in ("good", "evil")}
    return _duel(q).map(lambda w, by, spent: after[w].map(lambda wounds, slain: (w, by, spent, wounds, slain), star=True), star=True)


REFERENCES: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "wound_roll": icepool_wound_roll, "shoot": icepool_shoot, "strikes": icepool_strikes,
    "duel": icepool_duel, "fight": icepool_fight,
}


# --- the questions ------------------------------------------------------------------------------------------


def _fm(fight: int, attacks: int, strength: int, defence: int, **extra: Any) -> dict[str, Any]:
    return {"fight": fight, "attacks": attacks, "strength": strength, "defence": defence, **extra}


ODDS_QUESTIONS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("wound_roll, 6/5 two-handed (E2)", "wound_roll", {"strength": 2, "defence": 8, "two_handed": True}),
    ("shoot, moved 6+ shooter (E5)", "shoot", {"shoot_value": 6, "moved": True, "strength": 2, "defence": 4}),
    ("strikes, 10 strikes trapped at W20", "strikes", {"strikes": 10, "strength": 3, "defence": 7, "wounds": 20, "trapped": True, "two_handed": True}),
    ("duel, Might 1 (E11)", "duel", {"good": [{"fight": 5, "attacks": 2}], "evil": [{"fight": 5, "attacks": 2}], "good_might": 1}),
    ("duel, 8 models of A10 vs one", "duel", {"good": [{"fight": 7, "attacks": 3, "two_handed": True}], "evil": [{"fight": 4, "attacks": 10, "duel_modifier": -1}] * 8, "good_might": 3}),
    ("fight, hero vs two orcs (E13)", "fight", {"good": [_fm(5, 2, 4, 6, wounds=2)], "evil": [_fm(3, 1, 3, 5), _fm(3, 1, 3, 5, trapped=True)]}),
    ("fight, troll A3 vs 6 warriors", "fight", {"good": [_fm(3, 1, 3, 5)] * 5 + [_fm(3, 1, 3, 5, two_handed=True)], "evil": [_fm(6, 3, 6, 6, wounds=3)], "evil_might": 1}),
)


def _odds_case(name: str, procedure_name: str, data: dict[str, Any]) -> OddsCase:
    procedure = get_ruleset(RULESET).procedure(procedure_name)
    value = validate_data(procedure.input_model, data)
    normalised = value.model_dump(mode="json")
    reference = REFERENCES[procedure_name]
    return OddsCase(
        ruleset=RULESET, name=name, kessen=cold(lambda: procedure.compute(value), *_PACKAGES),
        reference=lambda: reference(normalised), check=same_probabilities,
        procedure=procedure_name, data=data,
    )


LIMITS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("strikes", "10 strikes, trapped, W20", {"strikes": 10, "strength": 1, "defence": 1, "wounds": 20, "trapped": True}),
    ("duel", "8 × A10 against A10, Might 6", {"good": [{"fight": 1, "attacks": 10}] * 8, "evil": [{"fight": 10, "attacks": 10}], "good_might": 6}),
    ("fight", "8 × A10 winners against W20", {"good": [_fm(10, 10, 10, 1, wounds=20)] * 8, "evil": [_fm(1, 10, 10, 1, wounds=20, trapped=True)], "evil_might": 6}),
    ("fight", "A10 lone winner against 8 trapped W20", {"good": [_fm(10, 10, 10, 1, wounds=20)], "evil": [_fm(1, 10, 1, 1, wounds=20, trapped=True)] * 8}),
)


def _fight_dist() -> Dist[Any]:
    procedure = get_ruleset(RULESET).procedure("fight")
    return procedure.dist(validate_data(procedure.input_model, ODDS_QUESTIONS[5][2]))


def suite() -> Suite:
    """Every battlehost benchmark case (odds, sampling, limits)."""
    return Suite(
        ruleset=RULESET,
        odds=tuple(_odds_case(*q) for q in ODDS_QUESTIONS),
        sampling=(SamplingCase("fight E13 outcome", _fight_dist()),),
        limits=tuple(LimitCase(RULESET, p, n, d) for p, n, d in LIMITS),
        references=REFERENCES,
        check=same_probabilities,
    )


# --- a whole battle at the scenario limits (issue 14) ----------------------------------------------------------


def limits_scenario() -> str:
    """The biggest scenario the limits allow: 60 against 60 (archers, heroes with Might, two-handed weapons) on a 48"
    board with 50 pillars between the lines, 30 turns."""
    import tomli_w

    from kessen.rulesets.battlehost.scenario import MAX_MODELS_A_SIDE, MAX_TERRAIN_BLOCKS

    pillars = [[3.0 + 6.0 * (k % 7), 15.0 + 2.5 * (k // 7), 4.0 + 6.0 * (k % 7), 16.0 + 2.5 * (k // 7)] for k in range(MAX_TERRAIN_BLOCKS)]

    def force(side: str, y0: float, dy: float) -> list[dict[str, Any]]:
        out = []
        for i in range(MAX_MODELS_A_SIDE):
            row, column = divmod(i, 30)
            entry: dict[str, Any] = {"name": side, "move": 6, "fight": "3/4+", "strength": 3, "defence": 5, "x": 1.0 + 1.5 * column, "y": y0 + dy * 1.5 * row}
            if i % 4 == 0:
                entry["missile_weapon"] = "bow" if side == "Man" else "orc bow"
            if i % 20 == 1:
                entry.update(type="hero", might=3, attacks=2, wounds=2)
            if side == "Orc" and i % 3 == 0:
                entry["two_handed"] = True
            out.append(entry)
        return out

    return tomli_w.dumps({"name": "at the limits", "turns": 30, "terrain": pillars, "good": force("Man", 2.0, 1), "evil": force("Orc", 46.0, -1)})


def _reference_loop() -> float:
    """Seconds of a fixed plain-Python loop: the yardstick that makes battle times comparable across machines."""
    import time

    started = time.process_time()
    total = 0
    for i in range(5_000_000):
        total += i * i
    return time.process_time() - started


def limits_battles(seeds: tuple[int, ...] = (1, 2, 3)) -> list[tuple[int, int, float, float]]:
    """(seed, events, CPU seconds, seconds as a multiple of the reference loop) of AI battles at the limits."""
    import time

    from kessen.sim.play import play_battle

    text, ruleset = limits_scenario(), get_ruleset(RULESET)
    rows = []
    for seed in seeds:
        yardstick = _reference_loop()
        started = time.process_time()
        played = play_battle(ruleset, text, "limits.toml", seed)
        spent = time.process_time() - started
        rows.append((seed, len(played.events), spent, spent / yardstick))
    return rows


if __name__ == "__main__":  # python -m benchmarks.battlehost: a battle at the scenario limits
    from benchmarks.harness import console, table

    console().print(table(
        "battlehost at the scenario limits: 60 a side, 50 terrain blocks, 30 turns (AI against AI, one core)",
        [("seed", "right"), ("events", "right"), ("CPU seconds", "right"), ("× reference loop", "right")],
        [[str(s), str(e), f"{t:.2f}", f"{r:.1f}"] for s, e, t, r in limits_battles()],
        caption="reference loop: 5,000,000 plain-Python multiply-adds, timed before each battle",
    ))
