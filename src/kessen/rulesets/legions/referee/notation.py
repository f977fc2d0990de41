"""Notation: every choice of a legions battle as a short stable text, and the text read back (``Game.notation``,
``Game.parse``); a choice the rules forbid is refused with the rule ID and the reason. Distances in inches.

The forms of each decision kind, with examples, are tabled in ``docs/scenarios/legions.md`` ("Playing a battle").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.notation import find_suggested, normalise, parse_point, point, unknown
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder, allocatable, legal_models
from kessen.rulesets.legions.referee.firing import volleys, weapon_profiles
from kessen.rulesets.legions.referee.movement import (
    AsOrdered,
    ChargeAt,
    Done,
    Hold,
    InLine,
    MoveModel,
    MoveTo,
    move_refusal,
)
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.targeting import Fire, HoldFire, closest_visible, fire_options, weapons_in_range

ORDER_WORDS = {"advance": "advance", "first_fire": "first-fire", "charge": "charge", "march": "march"}
"""An Order as notation writes it."""


def notation(state: LiState, decision: Decision, choice: Any) -> str:
    """*choice* at *decision* as its notation."""
    step = state.pending[0]
    kind = decision.kind
    if kind == "order":
        return ORDER_WORDS[choice]
    if kind == "mover":
        return f"move {choice}"
    if kind == "move":
        return _move_notation(decision.actor, choice)
    if kind == "activation":
        return f"activate {choice}"
    if kind == "target":
        assert isinstance(step, st.ChooseTarget)
        return fire_notation(state.detachment(step.detachment), choice)
    if kind == "hits":
        assert isinstance(step, st.ChooseAllocation)
        return f"hits {_profile_name(state.detachment(step.volleys[0].attacker), *choice)}"
    if kind == "allocation":
        return {InOrder: "allocate in order", HitByHit: "allocate hit by hit"}.get(type(choice)) or f"allocate {choice.model}"
    if kind == "combat":
        return "combat " + ", ".join(choice)
    if kind == "pairing":
        (fight,) = choice
        return f"pair {decision.actor} with {_other(fight, decision.actor)}"
    if kind == "fight":
        return f"fight {choice[0]} with {choice[1]}"
    if kind == "withdrawer":
        return f"withdraw {choice}"
    raise AssertionError(f"no notation for a {kind} decision")


def parse(state: LiState, decision: Decision, text: str) -> Any:
    """The choice *text* names at *decision*, or IllegalChoice (with the rule ID where a rule forbids it)."""
    found = find_suggested(decision.options, lambda o: notation(state, decision, o), text)
    if found is not None:
        return found
    words = normalise(text).split(" ")
    reader = _READERS.get(decision.kind)
    choice = reader(state, decision, words) if reader is not None else None
    if choice is None:
        raise unknown(text, (notation(state, decision, o) for o in decision.options))
    return choice


# --- each kind of decision -------------------------------------------------------------------------------------


def _order(state: LiState, decision: Decision, words: list[str]) -> Any:
    wanted = "-".join(words).lower().replace("_", "-")
    order = next((o for o, w in ORDER_WORDS.items() if w == wanted), "fall_back" if wanted == "fall-back" else None)
    if order == "fall_back":
        raise IllegalChoice("LI-MORALE-5", "a Fall Back order is given only by a failed Morale check")
    if order is not None:
        raise IllegalChoice("LI-BREAK-5", f"{decision.actor}'s Formation is Broken: it may only be issued an Advance or Charge order")
    return None


Reader = Callable[[LiState, Decision, list[str]], Any]


def _refusing_detachment(verb: str, *, not_own: str, not_now: str, why: str) -> Reader:
    """The reader of a decision that picks a Detachment by ``<verb> <detachment>``: every suggested option is one,
    so a Detachment it names is refused, as another player's (rule *not_own*) or as one that may not act now (rule
    *not_now*, because *why*); other words are no choice."""

    def read(state: LiState, decision: Decision, words: list[str]) -> Any:
        if len(words) == 2 and words[0] == verb and _is_detachment(state, words[1]):
            det = state.detachment(words[1])
            if det.owner != decision.player:
                raise IllegalChoice(not_own, f"{det.id} is not a Detachment of {decision.player}")
            raise IllegalChoice(not_now, f"{det.id} {why}")
        return None

    return read


_mover = _refusing_detachment(
    "move", not_own="LI-MOVE-1", not_now="LI-MOVE-1", why="does not move now: it has moved, or its Order does not move it"
)


def _move_notation(actor: str, choice: Any) -> str:
    if isinstance(choice, AsOrdered):
        return f"move {actor} as ordered"
    if isinstance(choice, Hold):
        return f"hold {actor}"
    if isinstance(choice, ChargeAt):
        return f"charge {actor} at {choice.target}"
    if isinstance(choice, InLine):
        return f"move {actor} toward {choice.toward}"
    if isinstance(choice, MoveTo):
        return f"move {actor} to {point(choice.x, choice.y)}"
    if isinstance(choice, MoveModel):
        return f"move {choice.model} to {point(choice.x, choice.y)}"
    assert isinstance(choice, Done)
    return "done"


def _move(state: LiState, decision: Decision, words: list[str]) -> Any:
    step = state.pending[0]
    assert isinstance(step, st.MoveDetachment)
    det = state.detachment(decision.actor)
    choice = _move_choice(state, det, words)
    if choice is None:
        return None
    if isinstance(choice, ChargeAt | InLine):
        _check_enemy(state, det, choice)
        if isinstance(choice, ChargeAt) and det.order != "charge":
            raise IllegalChoice("LI-MOVE-4", f"only a Detachment with a Charge order charges; {det.id} has {_order_name(det)}")
        if isinstance(choice, InLine) and det.order == "fall_back":
            raise IllegalChoice("LI-MOVE-7", f"{det.id} falls back straight toward its own battlefield edge")
        return choice
    refusal = move_refusal(state, det.id, step.origins, choice)
    if refusal is not None:
        raise refusal
    return choice


def _check_enemy(state: LiState, det: Detachment, choice: ChargeAt | InLine) -> None:
    """The enemy a charge or a move in line goes for is an enemy Detachment on the battlefield: a charge at anything
    else breaks LI-MOVE-4 (a charge goes into base contact with an enemy); a move in line is written toward an enemy
    (a notation, not a rule: the refusal says what to write)."""
    enemy = choice.target if isinstance(choice, ChargeAt) else choice.toward
    if not _is_detachment(state, enemy):
        verb = f"charge {det.id} at" if isinstance(choice, ChargeAt) else f"move {det.id} toward"
        raise IllegalChoice(None, f"there is no Detachment {enemy}: write {verb} <enemy detachment>")
    target = state.detachment(enemy)
    mine = "one of yours" if target.owner == det.owner else "not on the battlefield"
    if target.owner != det.owner and target.on_battlefield:
        return
    if isinstance(choice, ChargeAt):
        raise IllegalChoice("LI-MOVE-4", f"a charge goes into base contact with an enemy Detachment on the battlefield, and {enemy} is {mine}")
    raise IllegalChoice(None, f"{enemy} is {mine}: write move {det.id} toward <enemy detachment on the battlefield>")


def _move_choice(state: LiState, det: Detachment, words: list[str]) -> Any:
    """The move choice the words name (its legality is checked after)."""
    if words == ["done"]:
        return Done()
    if len(words) < 2 or words[0] not in ("move", "hold", "charge"):
        return None
    verb, who, rest = words[0], words[1], words[2:]
    to = len(rest) == 2 and rest[0] == "to"
    if who == det.id:
        if verb == "move" and rest in ([], ["as", "ordered"]):
            return AsOrdered()
        if verb == "hold" and not rest:
            return Hold()
        if verb == "charge" and len(rest) == 2 and rest[0] == "at":
            return ChargeAt(rest[1])
        if verb == "move" and len(rest) == 2 and rest[0] == "toward":
            return InLine(rest[1])
        return MoveTo(*_written(parse_point(rest[1], "the point to move to"))) if verb == "move" and to else None
    if verb == "move" and to:
        if not _is_model_of(det, who):
            raise IllegalChoice("LI-MOVE-1", f"{who} is not a model of {det.id} on the battlefield")
        return MoveModel(who, *_written(parse_point(rest[1], "the point to move to")))
    if _is_detachment(state, who):
        raise IllegalChoice("LI-MOVE-1", f"Detachments move one at a time: it is {det.id}'s move, not {who}'s")
    return None


_activation = _refusing_detachment(
    "activate", not_own="LI-ACT-1", not_now="LI-ACT-2",
    why="may not activate now: it has activated, or its Order or state does not let it",
)


def fire_notation(det: Detachment, choice: Fire | HoldFire) -> str:
    """An attack as notation writes it."""
    if isinstance(choice, HoldFire):
        return "hold fire"
    text = f"fire at {choice.target}"
    if choice.profiles:
        text += " using " + ", ".join(f"{w}#{i + 1}" for w, i in choice.profiles)
    if choice.weapons is not None:
        text += " with " + ", ".join(_firing_items(det, choice.weapons))
    if choice.penalty:
        text += f" obscuration {choice.penalty}"
    return text


def _firing_items(det: Detachment, pairs: frozenset[tuple[str, str]]) -> list[str]:
    """The (model, weapon) pairs that fire, written weapon by weapon: a weapon's name when every model carrying it
    fires it, else each model that does."""
    items: list[str] = []
    for name in _weapon_names(det):
        carriers = [m.id for m in det.live if any(w.name == name for w in m.weapons)]
        firing = [m for m in carriers if (m, name) in pairs]
        if firing and firing == carriers:
            items.append(name)
        else:
            items += [f"{m} {name}" for m in firing]
    return items


def _weapon_names(det: Detachment) -> list[str]:
    return list(dict.fromkeys(w.name for m in det.live for w in m.weapons))


def _target(state: LiState, decision: Decision, words: list[str]) -> Any:
    det = state.detachment(decision.actor)
    text = " ".join(words)
    if not text.startswith("fire at "):
        return None
    rest = text.removeprefix("fire at ")
    penalty = 0
    if " obscuration " in rest:
        rest, _, written = rest.rpartition(" obscuration ")
        if written not in ("0", "1", "2"):
            raise IllegalChoice("LI-OBSC-1", f"the obscuration penalty is 0, 1 or 2 (got {written!r})")
        penalty = int(written)
    firing: str | None = None
    if " with " in rest:
        rest, _, firing = rest.partition(" with ")
    using = ""
    if " using " in rest:
        rest, _, using = rest.partition(" using ")
    target = rest
    if " " in target or not _is_detachment(state, target):
        return None
    _check_target(state, det, target)
    profiles = _profiles(det, using)
    offered = [o for o in fire_options(state, det) if isinstance(o, Fire) and o.target == target]
    same = [o for o in offered if o.penalty == penalty]
    if not same:
        present = sorted({o.penalty for o in offered})
        raise IllegalChoice("LI-OBSC-2", f"the penalty chosen must be that of a model of {target} the firers see: {', '.join(map(str, present))}")
    # the first attack offered with those profiles: a multi-profile weapon left unnamed fires its first profile
    chosen = next((o for o in same if all(dict(o.profiles).get(w) == i for w, i in profiles.items())), None)
    if chosen is None:
        raise IllegalChoice("LI-FIRE-3", "no weapon of that name with several profiles reaches the target, or no such profile")
    if firing is None:
        return chosen
    pairs = _firing_pairs(det, firing)
    if pairs >= {(m.id, w.name) for m in det.live for w in m.weapons}:
        return chosen
    attack = Fire(chosen.target, chosen.profiles, chosen.penalty, frozenset(pairs))
    if not volleys(state, det, attack):
        raise IllegalChoice("LI-TGT-2", f"none of those weapons reaches a model of {target} its firer can see")
    return attack


def _check_target(state: LiState, det: Detachment, target_id: str) -> None:
    """Why the Detachment may not fire at *target_id*, if it may not (LI-FIRE-2, LI-TGT-1..4, LI-WD-9)."""
    target = state.detachment(target_id)
    if det.withdrew_this_round:
        raise IllegalChoice("LI-WD-9", f"{det.id} made a Withdrawal move this round and cannot fire")
    if target.owner == det.owner:
        raise IllegalChoice("LI-FIRE-2", f"{target_id} is not an enemy Detachment")
    if not target.on_battlefield:
        raise IllegalChoice("LI-TGT-1", f"{target_id} is not on the battlefield")
    if target.pinned:
        raise IllegalChoice("LI-TGT-4", f"{target_id} is Engaged & Pinned and cannot be targeted")
    seen = [(f, r) for f in det.live if (r := closest_visible(state, f, target)) is not None]
    if not seen:
        raise IllegalChoice("LI-TGT-1", f"no model of {det.id} can see a model of {target_id}")
    if not any(weapons_in_range(f, r) for f, r in seen):
        raise IllegalChoice("LI-TGT-2", f"no weapon of {det.id} reaches the closest model of {target_id} its firer can see")


def _profiles(det: Detachment, using: str) -> dict[str, int]:
    chosen: dict[str, int] = {}
    for item in filter(None, (i.strip() for i in using.split(","))):
        name, _, number = item.rpartition("#")
        profiles = weapon_profiles(det, name)
        if not profiles or not number.isdigit() or not 1 <= int(number) <= len(profiles):
            raise IllegalChoice("LI-FIRE-3", f"{item!r} is not a profile of a weapon of {det.id} (write weapon#n)")
        chosen[name] = int(number) - 1
    return chosen


def _firing_pairs(det: Detachment, firing: str) -> set[tuple[str, str]]:
    """The (model, weapon) pairs a ``with`` list names: weapons, models, or a model and one of its weapons."""
    pairs: set[tuple[str, str]] = set()
    names = set(_weapon_names(det))
    models = {m.id: m for m in det.live}
    for item in filter(None, (i.strip() for i in firing.split(","))):
        if item in names:
            pairs |= {(m.id, item) for m in det.live if any(w.name == item for w in m.weapons)}
            continue
        model_id, _, weapon = item.partition(" ")
        model = models.get(model_id)
        if model is not None and not weapon:
            pairs |= {(model.id, w.name) for w in model.weapons}
        elif model is not None and any(w.name == weapon for w in model.weapons):
            pairs.add((model.id, weapon))
        else:
            raise IllegalChoice("LI-FIRE-2", f"{item!r} is neither a weapon nor a model of {det.id} (nor a model and its weapon)")
    return pairs


def _profile_name(det: Detachment, weapon: str, index: int) -> str:
    return f"{weapon}#{index + 1}" if len(weapon_profiles(det, weapon)) > 1 else weapon


def _allocation(state: LiState, decision: Decision, words: list[str]) -> Any:
    if len(words) != 2 or words[0] != "allocate":
        return None
    step = state.pending[0]
    model_id = words[1]
    if isinstance(step, st.VolleyAllocation):
        raise IllegalChoice("LI-ALLOC-1", "first choose how the hits go: 'allocate in order' or 'allocate hit by hit'")
    assert isinstance(step, st.AllocateHit)
    v = step.volley
    target = state.detachment(v.target)
    if not any(m.id == model_id for m in target.models):
        raise IllegalChoice("LI-ALLOC-2", f"{model_id} is not a model of {target.id}, the Detachment fired at: its hits go to its models")
    if not any(m.id == model_id for m in target.live):
        raise IllegalChoice("LI-ALLOC-4", f"{model_id} is destroyed")
    model = state.model(model_id)
    if model_id not in v.eligible:
        if model.penalty > v.penalty:
            raise IllegalChoice("LI-OBSC-2", f"{model_id} is hidden more than the penalty chosen: it cannot take these hits")
        raise IllegalChoice("LI-ALLOC-2", f"{model_id} is not in the range and sight of the firing models")
    if model not in legal_models(state, v):
        raise IllegalChoice("LI-ALLOC-3", "a wounded model must be allocated hits first: " + ", ".join(m.id for m in legal_models(state, v)))
    if len(allocatable(state, v)) == 1:
        return None  # the only model left: the hits go to it in order
    return AllocateTo(model_id)


def _combat(state: LiState, decision: Decision, words: list[str]) -> Any:
    if not words or words[0] != "combat":
        return None
    named = {w.strip(",") for w in words[1:] if w.strip(",")}
    found = [c for c in decision.options if isinstance(c, tuple) and named and named <= set(c)]
    if len(found) == 1:
        return found[0]
    if named and all(_is_detachment(state, d) for d in named):
        raise IllegalChoice("LI-ENG-2", "those Detachments are not one combat still to be resolved")
    return None


def _pairing(state: LiState, decision: Decision, words: list[str]) -> Any:
    if len(words) != 4 or words[0] != "pair" or words[2] != "with":
        return None
    step = state.pending[0]
    assert isinstance(step, st.ChoosePairing)
    a, b = words[1], words[3]
    if a != decision.actor and b == decision.actor:
        a, b = b, a
    if a != decision.actor:
        raise IllegalChoice("LI-PAIR-3", f"{decision.actor} is the next model to pair")
    if not any({a, b} == set(f) for f in step.contacts):
        raise IllegalChoice("LI-PAIR-1", f"{a} and {b} are not in base contact")
    raise IllegalChoice("LI-PAIR-4", f"pairing {a} with {b} would not pair the combat one-to-one wherever possible")


def _fight(state: LiState, decision: Decision, words: list[str]) -> Any:
    if len(words) != 4 or words[0] != "fight" or words[2] != "with":
        return None
    pair = {words[1], words[3]}
    found = [f for f in decision.options if isinstance(f, tuple) and set(f) == pair]
    if found:
        return found[0]
    raise IllegalChoice("LI-FIGHT-1", f"{words[1]} and {words[3]} have no fight left in this combat")


def _withdrawer(state: LiState, decision: Decision, words: list[str]) -> Any:
    """Which model withdraws next; where it goes is not the player's to choose: it moves directly toward its own
    battlefield edge by the shortest route and stops as soon as its base touches it (LI-WD-2, as the seed says)."""
    if len(words) == 4 and words[0] == "withdraw" and words[2] == "to":
        raise IllegalChoice(
            "LI-WD-2", "a withdrawing model moves directly toward its own battlefield edge by the shortest route: choose only which model moves next"
        )
    if len(words) == 2 and words[0] == "withdraw":
        raise IllegalChoice("LI-WD-6", f"{words[1]} is not a model of {decision.actor} still to make its Withdrawal move")
    return None


_READERS: dict[str, Reader] = {
    "order": _order,
    "mover": _mover,
    "move": _move,
    "activation": _activation,
    "target": _target,
    "allocation": _allocation,
    "combat": _combat,
    "pairing": _pairing,
    "fight": _fight,
    "withdrawer": _withdrawer,
}
"""How each kind of decision reads a text that is not the notation of a suggested option."""


# --- small helpers ---------------------------------------------------------------------------------------------


def _written(p: tuple[float, float]) -> tuple[float, float]:
    """A point as notation keeps it: three decimals, so that its notation reads back as the same point."""
    return round(p[0], 3) + 0.0, round(p[1], 3) + 0.0


def _is_detachment(state: LiState, det_id: str) -> bool:
    return any(d.id == det_id for d in state.detachments)


def _is_model_of(det: Detachment, model_id: str) -> bool:
    return any(m.id == model_id for m in det.live)


def _other(fight: tuple[str, str], model: str) -> str:
    return fight[1] if fight[0] == model else fight[0]


def _order_name(det: Detachment) -> str:
    return f"a {det.order.replace('_', ' ').title()} order" if det.order else "no Order"

