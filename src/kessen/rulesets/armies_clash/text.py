"""The words of a battle: option descriptions, the line naming who decides, and the narration of events, in the
language of the ``armies-clash.<lang>.toml`` catalogue.

Ids of units, stands, solos, attacks, spells and objectives are the scenario's names and are never translated;
the words of the rules (battle actions, formations, results) come from the catalogue's ``option_words`` (options)
and ``values`` (narration), which use the same terms. An event may read differently by its numbers (one hit or
two, a draw or a win): its template is then ``<type>_<variant>`` beside the type's own. (``kessen.i18n.narrate``
translates every string field found among the values, ids included, and has one template per type: hence this
module's own narration.)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.i18n import catalogue, option_text, option_word
from kessen.rulesets.armies_clash.referee.attack import attack_odds
from kessen.rulesets.armies_clash.referee.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Award,
    Benefit,
    Cast,
    CastArea,
    Declare,
    Done,
    JoinStand,
    Leave,
    NoAction,
    NoShift,
    PassOn,
    PlaceAt,
    PushTo,
    Rally,
    Shift,
    Stay,
    Support,
    Switch,
)
from kessen.rulesets.armies_clash.referee.pieces import castable, piece_footprint
from kessen.rulesets.armies_clash.referee.spells import cast_odds
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.referee.steps import AwardCustom, ChooseOverflow, ForcedMove, MoreTargets, PlaceSolo, ShiftGap
from kessen.rulesets.armies_clash.rules.grid import Footprint
from kessen.rulesets.armies_clash.rules.movement import Destination

RULESET_ID = "armies-clash"

_SIMPLE: dict[type, str] = {Stay: "stay", NoAction: "no_action", Done: "done", NoShift: "no_shift"}


def describe(state: AcState, option: Any, lang: str) -> str:
    """An option as a player reads it; an attack or a spell of the active piece shows its exact odds."""
    if isinstance(option, AttackWith):
        return _attack(state, option, lang)
    if isinstance(option, (Cast, CastArea)):
        return _cast(state, option, lang)
    if isinstance(option, Destination):
        road = _say(lang, "road") if option.road else ""
        return _say(lang, f"destination_{option.kind}", stand=option.stand, x=option.x, y=option.y, cost=option.cost, road=road)
    if type(option) in _SIMPLE:
        return _say(lang, _SIMPLE[type(option)])
    if isinstance(option, Declare):
        if option.formation:
            return _say(lang, "declare_formation", action=_word(lang, option.action), formation=_word(lang, option.formation))
        return _say(lang, "declare", action=_word(lang, option.action))
    if isinstance(option, Rally):
        return _say(lang, "rally" if option.rally else "no_rally")
    if isinstance(option, Benefit):
        return _say(lang, "benefit", benefit=_word(lang, option.name))
    if isinstance(option, Award):
        return _say(lang, "award" if option.award else "not_met")
    if isinstance(option, PushTo):
        return _push_to(state, option, lang)
    return _plain(option, lang)


def _push_to(state: AcState, option: PushTo, lang: str) -> str:
    """Where a push leaves its target: a square, off the grid, or where it stands (AC-MOVE-8, AC-MOVE-5)."""
    step = state.pending[0]
    assert isinstance(step, ForcedMove), step
    fp = piece_footprint(state, step.piece)
    if (option.x, option.y) == (fp.x, fp.y):
        return _say(lang, "push_none", piece=step.piece)
    off = not all(state.grid.on_grid(sq) for sq in Footprint(option.x, option.y, fp.size).squares())
    return _say(lang, "push_off" if off else "push_to", piece=step.piece, x=option.x, y=option.y)


def _plain(option: Any, lang: str) -> str:
    """The options that only name a stand, a solo or a square."""
    if isinstance(option, Activate):
        return _say(lang, "activate", stand=option.stand)
    if isinstance(option, ActivateSolo):
        return _say(lang, "activate_solo", solo=option.solo)
    if isinstance(option, Support):
        return _say(lang, "support", stand=option.stand)
    if isinstance(option, Leave):
        return _say(lang, "leave", x=option.x, y=option.y)
    if isinstance(option, Switch):
        return _say(lang, "switch", stand=option.stand)
    if isinstance(option, PassOn):
        return _say(lang, "pass_on", stand=option.stand)
    if isinstance(option, Shift):
        return _say(lang, "shift", stand=option.stand, dx=option.dx, dy=option.dy)
    if isinstance(option, JoinStand):
        return _say(lang, "join_stand", stand=option.stand)
    assert isinstance(option, PlaceAt), option
    return _say(lang, "place_at", x=option.x, y=option.y)


def _attack(state: AcState, option: AttackWith, lang: str) -> str:
    """``attack X with Y (casualty 41.6%)  [expected damage 9.50]``: the exact mean damage of the action and the
    chance of its decisive effect, both from the distribution the engine draws from (never the AI's scores)."""
    using = _word(lang, option.using) if option.using == "multiattack" else option.using
    piece = state.turn.piece if state.turn else ""
    if not piece:
        return _say(lang, "attack_plain", target=option.target, using=using)
    odds = attack_odds(state, piece, option)
    chance = "" if odds.chance is None else _say(lang, f"chance_{odds.effect}", chance=_percent(odds.chance))
    return _say(lang, "attack", target=option.target, using=using, chance=chance, damage=f"{float(odds.mean_damage):.2f}")


def _cast(state: AcState, option: Cast | CastArea, lang: str) -> str:
    """A spell with the exact mean damage it deals to enemies and to friends (only for the piece now acting)."""
    if isinstance(option, Cast):
        text = _say(lang, "cast", spell=option.spell, target=option.target)
    else:
        facing = _say(lang, "facing", dx=option.dx, dy=option.dy) if option.dx or option.dy else ""
        mirrored = _say(lang, "mirrored") if option.mirrored else ""
        text = _say(lang, "cast_area", spell=option.spell, x=option.x, y=option.y, facing=facing, mirrored=mirrored)
    piece = state.turn.piece if state.turn else ""
    if not piece or all(sp.id != option.spell for sp in castable(state, piece)):
        return text
    odds = cast_odds(state, piece, option)
    if not odds.friends:
        return text + _say(lang, "cast_odds", damage=f"{float(odds.enemies):.2f}")
    return text + _say(lang, "cast_odds_friends", damage=f"{float(odds.enemies):.2f}", friends=f"{float(odds.friends):.2f}")


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def prompt(state: AcState, decision: Decision, lang: str) -> str:
    """The question a decision asks, as a sentence naming the side that decides and the unit, stand or solo that
    acts (or the general choosing for it): ``side a: hob-1 of hobs moves (movement left: 6)``."""
    fields = _prompt_fields(state, decision)
    question = _line(lang, "prompts", str(fields.pop("key")), fields, words={"action"})
    return _line(lang, "prompts", "decider", {"side": decision.player, "question": question}, words=set())


def _prompt_fields(state: AcState, decision: Decision) -> dict[str, Any]:
    kind = decision.kind
    step = state.pending[0]
    if isinstance(step, MoreTargets):
        return {"key": "spell_targets", "caster": step.caster, "spell": step.spell}
    if isinstance(step, ChooseOverflow):
        return {"key": "overflow", "source": step.source, "damage": step.damage}
    if isinstance(step, PlaceSolo):
        return {"key": "place_solo", "solo": step.solo}
    if isinstance(step, ShiftGap):
        return {"key": "shift", "unit": step.unit}
    if isinstance(step, AwardCustom):
        return {"key": "custom_objective", "objective": step.objective}
    if isinstance(step, ForcedMove):
        return {"key": "push", "by": step.by, "piece": step.piece, "squares": step.squares}
    turn = state.turn
    assert turn is not None
    if kind in ("rally", "benefit"):
        return {"key": kind, "commander": decision.actor, "unit": turn.actor}
    if kind in ("action", "activate"):
        return {"key": f"{kind}_{'solo' if turn.solo else 'unit'}", "who": turn.actor}
    stand = state.stand(turn.piece)
    unit = stand.unit if stand is not None else ""
    if kind == "move":
        if stand is not None and state.unit(unit).routed:
            return {"key": "move_routed", "piece": turn.piece, "unit": unit, "budget": turn.budget}
        return {"key": "move_stand" if stand else "move_solo", "piece": turn.piece, "unit": unit, "budget": turn.budget}
    solo = state.solo(turn.piece)
    host = solo.joined_to if solo is not None and solo.joined_to else ""
    if kind in ("bonus", "joined_move"):
        return {"key": kind, "piece": turn.piece, "stand": host}
    if kind == "piece_action":
        return {"key": "piece_action_stand" if stand else "piece_action_solo", "piece": turn.piece, "unit": unit}
    return {"key": "act_stand" if stand else "act_solo", "piece": turn.piece, "unit": unit, "action": turn.doing}


# --- narration ------------------------------------------------------------------------------------------------------

_WORD_FIELDS = frozenset({"action", "formation", "benefit", "result", "how"})
"""Event fields whose values are words of the rules (translated by the catalogue's ``values``); all other string
fields are names from the scenario."""


def _attacked(f: dict[str, Any]) -> str:
    if not f["hits"]:
        return "miss"
    if f["hits"] == 1:
        return "one_crit" if f["crits"] else "one"
    return "" if f["crits"] else "many"


_VARIANTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "attacked": _attacked,
    "battle_ended": lambda f: "draw" if f["winner"] == "none" else "",
    "death_saves": lambda f: "one" if f["rolls"] == 1 else "",
    "pushed": lambda f: "one" if f["squares"] == 1 else "",
    "unit_eliminated": lambda f: "" if f["vp"] else "unscored",
    "morale": lambda f: "" if f["routed"] else "holds",
    "rout_roll": lambda f: "" if f["eliminated"] else "holds",
    "hid": lambda f: "" if f["hidden"] else "seen",
    "commander_benefit": lambda f: "" if f["success"] else "failure",
    "rally": lambda f: "" if f["success"] else "failure",
    "moved": lambda f: "road" if f["road"] else "",
    "solo_down": lambda f: "dying" if f["how"] == "dying" else "",
}
"""Events whose wording depends on their numbers or flags: the variant of the template (``<type>_<variant>``), or
"" for the event type's own template."""


def narrate(event: Event, lang: str) -> str:
    """One event as a line of the battle report."""
    fields = event.fields()
    variant = _VARIANTS[event.type](fields) if event.type in _VARIANTS else ""
    key = f"{event.type}_{variant}" if variant else event.type
    if event.type == "turn_order":
        fields["order"] = _list(lang, str(fields["order"]).split(","))
    if event.type == "spell_cast":  # an origin square "(x,y)", or the targets "a,b"
        aim = str(fields["aim"])
        fields["aim"] = aim.replace(",", ", ") if aim.startswith("(") else _list(lang, aim.split(","))
    words = _WORD_FIELDS & fields.keys()
    if event.type == "attacked" and fields["using"] == "multiattack":
        words |= {"using"}
    line = _line(lang, "events", key, fields, words=words)
    if event.type == "attacked" and fields["results"]:
        return f"{line} {_attack_dice(lang, fields)}"
    if fields.get("d20"):
        said: dict[str, str] = catalogue(RULESET_ID, lang)["dice"]
        return f"{line} {said['brackets'].format(_check_dice(said, fields))}"
    return line


def _check_dice(said: dict[str, str], fields: dict[str, Any]) -> str:
    """A saving throw or check as the table sees it: the d20s (the one kept first), the bonus and the total against
    the DC (AC-D20-1..3)."""
    return said["check"].format(d20=_d20_text(said, fields["d20"], fields["mode"]), bonus=f"{fields['bonus']:+d}", total=_kept(fields["d20"], fields["mode"]) + fields["bonus"], dc=fields["dc"])


def _kept(d20: tuple[int, ...], mode: str) -> int:
    return max(d20) if mode == "advantage" else min(d20)


def _d20_text(said: dict[str, str], d20: tuple[int, ...], mode: str) -> str:
    """The d20s of one roll, the one kept first, and how they were rolled: ``15/18 with disadvantage``."""
    kept = _kept(d20, mode)
    return "/".join(str(n) for n in sorted(d20, key=lambda n: n != kept)) + (said[mode] if mode != "normal" else "")


def _attack_dice(lang: str, fields: dict[str, Any]) -> str:
    """Each attack roll as the table sees it: the d20s (the one kept first), the bonus, the total against the AC and
    what it did, or an automatic hit (AC-D20-1..3, AC-OBJ-4)."""
    said: dict[str, str] = catalogue(RULESET_ID, lang)["dice"]
    rolls = []
    for d20, mode, bonus, ac, result, damage in zip(
        fields["d20"], fields["modes"], fields["bonus"], fields["armour_class"], fields["results"], fields["roll_damage"]
    ):
        what = said[result] + (said["damage"].format(damage=damage) if result != "miss" else "")
        if not d20:
            rolls.append(said["automatic"].format(result=what))
            continue
        rolls.append(said["roll"].format(d20=_d20_text(said, d20, mode), bonus=f"{bonus:+d}", total=_kept(d20, mode) + bonus, ac=ac, result=what))
    return said["brackets"].format(said["separator"].join(rolls))


def _list(lang: str, names: list[str]) -> str:
    return str(catalogue(RULESET_ID, lang)["texts"]["list_separator"]).join(names)


def _line(lang: str, table: str, key: str, fields: dict[str, Any], *, words: set[str] | frozenset[str]) -> str:
    """A template of *table* with its fields, the fields named in *words* said in the catalogue's ``values``."""
    cat = catalogue(RULESET_ID, lang)
    values: dict[str, str] = cat["values"]
    shown = {name: values.get(str(value), value) if name in words else value for name, value in fields.items()}
    return str(cat[table][key]).format(**shown)


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)
