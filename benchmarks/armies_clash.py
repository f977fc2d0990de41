"""armies-clash cases: kessen's ``attack`` and ``unit_attack`` against an expert's icepool expressions of spec
§6.3 and §6.4 (checked equal as exact fractions before timing), the worst inputs at the limits, and battles.

The references share no code with kessen: a roll's d20 is ``icepool.d20`` or the highest/lowest of two, the
damage is ``n @ icepool.d(s)`` plus the constant floored at 0 (twice the dice on a natural 20), the rolls of an
action are combined with ``icepool.map`` on (hits, crits, damage) tuples, and a unit's stands add up with ``+``.
Whole battles per second for each scenario of ``examples/armies-clash/`` are printed by the shared ``battles``
section (``python -m benchmarks --section battles --ruleset armies-clash``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import icepool

from benchmarks.harness import LimitCase, OddsCase, Suite, cold, same_probabilities
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset

RULESET = "armies-clash"
_PACKAGES = ("kessen.rulesets.armies_clash", "kessen.dice")
_COVER = {"none": 0, "half": 2, "three_quarters": 5}


def _damage(text: str, critical: bool) -> icepool.Die[int]:
    total: Any = icepool.Die([0])
    constant = 0
    for sign, term in re.findall(r"([+-]?)([0-9d]+)", text):
        if "d" in term:
            n, s = term.split("d")
            total = total + (int(n) * (2 if critical else 1)) @ icepool.d(int(s))
        else:
            constant += -int(term) if sign == "-" else int(term)
    return (total + constant).map(lambda v: max(0, v))


def _respond(value: int, q: Mapping[str, Any]) -> int:
    value = value * 2 if q["target_isolated"] else value
    return {"none": value, "resistance": value // 2, "vulnerability": value * 2, "immunity": 0}[q["resistance"]]


def _one_roll(entry: Mapping[str, Any], q: Mapping[str, Any], supported: bool) -> icepool.Die[Any]:
    """One attack roll as (hits, crits, damage) (§6.3 steps 3–7)."""
    melee = entry["kind"] == "melee"
    if q.get("target") == "objective" and melee:
        return _damage(entry["damage"], False).map(lambda v: (1, 0, _respond(v, q)))
    ac = q["target_ac"] + (2 if q["target_defensive"] else 0) + _COVER[q["target_cover"]]
    adv = q["target_isolated"] or q["incited"] or q["extra_advantage"] or (melee and (supported or q["higher_ground"]))
    dis = q["attacker_isolated"] or q["extra_disadvantage"] or (not melee and (q["long_range"] or q["adjacent_enemy"]))
    if adv and not dis:
        d20: Any = icepool.highest(icepool.d20, icepool.d20)
    elif dis and not adv:
        d20 = icepool.lowest(icepool.d20, icepool.d20)
    else:
        d20 = icepool.d20
    hit = _damage(entry["damage"], False).map(lambda v: (1, 0, _respond(v, q)))
    crit = _damage(entry["damage"], True).map(lambda v: (1, 1, _respond(v, q)))
    miss = icepool.Die([(0, 0, 0)])
    return d20.map(lambda n: crit if n == 20 else miss if n == 1 else hit if n + entry["attack_bonus"] >= ac else miss)


def _add(a: icepool.Die[Any], b: icepool.Die[Any]) -> icepool.Die[Any]:
    return icepool.map(lambda x, y: (x[0] + y[0], x[1] + y[1], x[2] + y[2]), a, b)


def _rolls(q: Mapping[str, Any], reach_bonus: bool) -> list[Mapping[str, Any]]:
    rolls = [e for e in q["attacks"] for _ in range(e["count"])]
    if reach_bonus:
        rolls += [e for e in q["attacks"] if e["kind"] == "melee" and e.get("reach_ft", 5) >= 10][:1]
    return rolls


def icepool_attack(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.3 in icepool."""
    hp = q["target_hp"]
    if q["target"] == "objective" and q["attacker"] == "solo" and q["action"] == "spell":
        return icepool.Die([(0, 0, 0, False, 0)])
    total: icepool.Die[Any] = icepool.Die([(0, 0, 0)])
    for entry in _rolls(q, q["attacker"] == "stand" and q["action"] == "attack"):
        total = _add(total, _one_roll(entry, q, q["supported"]))
    return total.map(lambda t: (t[0], t[1], t[2], t[2] >= hp, max(0, t[2] - hp)))


def icepool_unit_attack(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.4 in icepool: each stand's damage, summed over the attacking stands, then stands brought down."""
    flags = {**q, "target": "stand"}
    attackers = q["stands"] - q["supporting_stands"]
    supported = min(q["supporting_stands"], attackers)

    def stand(is_supported: bool) -> icepool.Die[int]:
        total: icepool.Die[int] = icepool.Die([0])
        for entry in _rolls(q, True):
            total = total + _one_roll(entry, flags, is_supported).map(lambda t: t[2])
        return total

    damage: icepool.Die[int] = icepool.Die([0])
    if supported:
        damage = damage + supported @ stand(True)
    if attackers - supported:
        damage = damage + (attackers - supported) @ stand(False)
    return damage.map(lambda v: min(q["target_stands"], v // q["target_hp"]))


LONGSWORD = {"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}
ODDS_QUESTIONS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], Any], dict[str, Any]], ...] = (
    ("attack E1, plain melee", "attack", icepool_attack, {"attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7}),
    ("attack E4, reach bonus roll", "attack", icepool_attack,
     {"attacks": [{"kind": "melee", "attack_bonus": 6, "damage": "2d8+4", "reach_ft": 10}], "target_ac": 14, "target_hp": 30}),
    ("attack, hill giant stand, isolated", "attack", icepool_attack,
     {"attacks": [{"kind": "melee", "attack_bonus": 8, "damage": "3d8+5", "count": 2}], "target_ac": 15, "target_hp": 40,
      "target_isolated": True}),
    ("attack, four rolls, resistance", "attack", icepool_attack,
     {"attacker": "solo", "attacks": [{"kind": "melee", "attack_bonus": 11, "damage": "2d6+7", "count": 4}],
      "target_ac": 18, "target_hp": 100, "resistance": "resistance"}),
    ("unit_attack E6, support and overflow", "unit_attack", icepool_unit_attack,
     {"stands": 3, "supporting_stands": 1, "attacker_formation": "support", "attacks": [LONGSWORD],
      "target_ac": 13, "target_hp": 7, "target_stands": 2}),
    ("unit_attack, ten stands, chain of ten", "unit_attack", icepool_unit_attack,
     {"stands": 10, "attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "1d12+3", "count": 2}],
      "target_ac": 13, "target_hp": 15, "target_stands": 10}),
)


def _odds_case(name: str, procedure_name: str, reference: Callable[[Mapping[str, Any]], Any], data: dict[str, Any]) -> OddsCase:
    procedure = get_ruleset(RULESET).procedure(procedure_name)
    value = validate_data(procedure.input_model, data)
    normalised = procedure.normalise(value) if procedure.normalise else value.model_dump(mode="json")
    return OddsCase(
        ruleset=RULESET, name=name, kessen=cold(lambda: procedure.compute(value), *_PACKAGES),
        reference=lambda: reference(normalised), check=same_probabilities,
        procedure=procedure_name, data=data,
    )


LIMITS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("attack", "ceiling 300, five rolls with reach", {
        "attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "2d12+12", "count": 4, "reach_ft": 10}],
        "target_ac": 12, "target_hp": 1000}),
    ("unit_attack", "ten stands, ceiling 200, chain 1000 HP", {
        "stands": 10, "attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "2d10+10", "count": 3, "reach_ft": 10}],
        "target_ac": 12, "target_hp": 100, "target_stands": 10}),
)


def suite() -> Suite:
    """Every armies-clash benchmark case."""
    return Suite(
        ruleset=RULESET,
        odds=tuple(_odds_case(*question) for question in ODDS_QUESTIONS),
        limits=tuple(LimitCase(RULESET, procedure, name, data) for procedure, name, data in LIMITS),
    )


def limit_scenario(*, seed: int = 0) -> str:
    """A scenario at armies-clash's limits (``scenario.py``, issue 14), as TOML text: a 100 × 100 grid with 1,000
    terrain entries, 40 creatures (three-attack routines, fireballs of 300 ft range), 50 stands in 26 units and
    10 PC solos a side, every creature at the 60-ft speed limit, 100 rounds allowed."""
    width = height = 100
    out = ['name = "At the limits"', "max_rounds = 100", "", "[grid]", f"width = {width}", f"height = {height}", "terrain = ["]
    kinds = ('kind = "forest"', "rough = true", "elevation = 2", 'kind = "shallow_water"', "obscured = true", 'kind = "road"')
    for i in range(1000):
        x, y = (i * 37 + seed) % width, (i * 53) % height
        out.append(f"  {{ rect = [{x}, {y}, {min(width - 1, x + 3)}, {min(height - 1, y + 3)}], {kinds[i % 6]} }},")
    out.append("]")
    abilities = "abilities = { str = 2, dex = 1, con = 1, int = 0, wis = 0, cha = 1 }"
    fireball = ('  { id = "fireball", range_ft = 300, form = "area", shape = "sphere", size_ft = 20, resolution = "save", '
                'save_ability = "dex", dc = 14, damage = "8d6", uses = 2 },')
    bolt = ('  { id = "bolt", range_ft = 120, form = "targeted", max_targets = 3, resolution = "attack", kind = "ranged", '
            'attack_bonus = 6, damage = "2d10" },')
    for c in range(39):
        out += ["", "[[creatures]]", f'id = "c{c}"', f'size = "{("medium", "small", "large")[c % 3]}"', "ac = 14",
                f"hp = {10 + c}", "speed_ft = 60", abilities, "attacks = [",
                '  { id = "blade", kind = "melee", attack_bonus = 4, damage = "1d8+2", reach_ft = 10 },',
                '  { id = "bow", kind = "ranged", attack_bonus = 4, damage = "1d6+2", range_ft = 150, long_range_ft = 600 },',
                "]", 'multiattack = ["blade", "blade", "blade"]']
        if c % 4 == 0:
            out += ["spells = [", fireball, bolt, "]"]
    out += ["", "[[creatures]]", 'id = "hero"', 'size = "medium"', "ac = 17", "hp = 60", "speed_ft = 60", abilities,
            'attacks = [{ id = "sword", kind = "melee", attack_bonus = 7, damage = "1d8+4" }]', 'multiattack = ["sword", "sword"]']
    for side, top in (("a", 2), ("b", height - 12)):
        for u in range(26):
            formation = ['formation = "march"'] if u % 2 else []
            out += ["", "[[units]]", f'id = "{side}u{u}"', f'side = "{side}"', f'type = "{"regiment" if u % 2 else "skirmisher"}"', *formation]
        for s in range(50):
            c = (s * 7 + (0 if side == "a" else 3)) % 39
            while c % 3 == 2:  # one-square creatures, so that the stands tile
                c = (c + 1) % 39
            out += ["", "[[stands]]", f'id = "{side}s{s}"', f'unit = "{side}u{s % 26}"', f'creature = "c{c}"',
                    f"at = [{(s % 30) * 3 + 5}, {top + (s // 30) * 3 + (s % 26) % 2}]"]
        for k in range(10):
            out += ["", "[[solos]]", f'id = "{side}h{k}"', f'side = "{side}"', 'creature = "hero"',
                    f"at = [{k * 9 + 10}, {top + 8 if side == 'a' else top - 4}]", "pc = true"]
    for side in "ab":
        out += ["", "[[objectives]]", f'id = "attrition-{side}"', 'kind = "attrition"', f'side = "{side}"', "vp_per_unit = 1"]
    return "\n".join(out) + "\n"


def limit_battles(seeds: tuple[int, ...] = (1, 2, 3)) -> list[tuple[int, float, int, int]]:
    """AI battles of the scenario at the limits, to the end: (seed, seconds, rounds, events) each."""
    import time

    from kessen.sim.play import play_battle

    ruleset, text = get_ruleset(RULESET), limit_scenario()
    found = []
    for seed in seeds:
        started = time.perf_counter()
        played = play_battle(ruleset, text, "at-the-limits.toml", seed)
        assert played.terminal is not None
        found.append((seed, time.perf_counter() - started, played.terminal.summary["rounds"], len(played.events)))
    return found


if __name__ == "__main__":  # python -m benchmarks.armies_clash: the battles at the limits
    for seed, took, rounds, events in limit_battles():
        print(f"seed {seed}: {took:.1f} s, {rounds} rounds, {events} events")
