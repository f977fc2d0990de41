"""The words of a legions battle (en, ja): the battle report, the choices of ``kessen play`` with their exact odds,
and the one helper every text of the ruleset goes through (catalogues ``kessen/i18n/legions.<lang>.toml``)."""

from __future__ import annotations

from typing import Any

from kessen import i18n
from kessen.core.events import Event
from kessen.core.notation import number
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder
from kessen.rulesets.legions.referee.firing import attack_damage, weapon_profiles
from kessen.rulesets.legions.referee.odds import best_target
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.movement import AsOrdered, ChargeAt, Done, Hold, InLine, MoveModel, MoveTo
from kessen.rulesets.legions.referee.targeting import Fire, HoldFire

RULESET_ID = "legions"


def say(lang: str, key: str, **fields: object) -> str:
    """A text of the catalogue's ``options`` table (option words and the board)."""
    return i18n.option_text(RULESET_ID, lang, key, **fields)


def word(lang: str, name: str) -> str:
    """A rules word (an Order, a phase, a stage, an edge, a status) as the catalogue's ``option_words`` say it."""
    return i18n.option_word(RULESET_ID, lang, name)


def narrate(event: Event, lang: str) -> str:
    """One event as a line of the battle report, a volley's and an allocated hit's dice after it."""
    line = i18n.narrate(RULESET_ID, event, lang)
    dice = _dice(event, i18n.catalogue(RULESET_ID, lang)["dice"])
    return f"{line} {dice}" if dice else line


def _dice(event: Event, said: dict[str, str]) -> str:
    """The natural hit dice and each hit's save on the model it went to (LI-HIT-1, LI-SAVE-3, §5.1 R), a fight's
    dice (LI-FIGHT-2), a Morale check's (LI-MORALE-3) and a withdrawing model's saves (LI-WD-4); empty when the
    event was drawn without its dice."""
    fields = event.fields()
    parts: list[str] = []
    if event.type == "volley":
        if fields["hit_dice"]:
            parts.append(said["hit_dice"].format(dice=i18n.faces_text(tuple(fields["hit_dice"]))))
        saves = [
            said["save" if face else "no_save"].format(model=model, face=face, needed=needed, result=said[result]).strip()
            for model, face, needed, result in zip(fields["save_models"], fields["save_dice"], fields["save_needed"], fields["save_results"])
        ]
        if saves:
            parts.append(said["saves"].format(saves=said["list"].join(saves)))
    elif event.type == "hit_allocated" and fields["save_die"]:
        parts.append(said["save_die"].format(face=fields["save_die"], needed=fields["save_needed"]))
    elif event.type == "fight" and fields["attacker_faces"]:
        parts.extend(
            said["fight"].format(model=model, dice=i18n.faces_text(tuple(faces)), bonus=f"{bonus:+d}", total=sum(faces) + bonus)
            for model, faces, bonus in (
                (fields["attacker"], fields["attacker_faces"], fields["attacker_bonus"]),
                (fields["defender"], fields["defender_faces"], fields["defender_bonus"]),
            )
        )
    elif event.type == "morale_check" and fields["dice"]:
        dice = tuple(fields["dice"])
        parts.append(said["morale"].format(
            dice=i18n.faces_text(dice) + (said["lower_kept"] if len(dice) > 1 else ""), modifier=f"{fields['modifier']:+d}",
            total=min(dice) + fields["modifier"], morale=fields["morale"],
        ))
    elif event.type == "withdrawal_move" and fields["save_dice"]:
        parts.append(said["withdrawal_saves"].format(dice=i18n.faces_text(tuple(fields["save_dice"])), needed=fields["save_needed"]))
    return said["brackets"].format(said["separator"].join(parts)) if parts else ""


def describe(state: LiState, option: Any, lang: str) -> str:
    """An option of the decision *state* waits at, in the words of *lang*; an attack shows its exact odds."""
    step = state.pending[0] if state.pending else None
    if isinstance(option, HoldFire):
        return say(lang, "hold_fire")
    if isinstance(option, Fire):
        assert isinstance(step, st.ChooseTarget)
        return describe_fire(option, lang) + _fire_odds(state, step, option, lang)
    if isinstance(step, st.IssueOrder | st.ChooseActivation | st.MoveDetachment):
        words = _order_activation_move(state, step, option, lang)
        target = best_target(state, option)
        return words if target is None else say(lang, "best_target", option=words, target=target)
    if isinstance(step, st.ChooseMover):
        return say(lang, "mover", detachment=option)
    if isinstance(step, st.ChooseWithdrawer):
        return say(lang, "withdrawer", model=option)
    if isinstance(step, st.ChooseCombat):
        return say(lang, "combat", detachments=say(lang, "separator").join(option))
    if isinstance(step, st.ChoosePairing):
        fights = say(lang, "separator").join(say(lang, "pair", a=a, b=b) for a, b in option)
        return say(lang, "pairing", fights=fights)
    if isinstance(step, st.ChooseFight):
        a, b = option
        return say(lang, "fight", a=a, b=b)
    if isinstance(step, st.ChooseAllocation):
        weapon, index = option
        return say(lang, "hits", weapon=weapon_name(state, step.volleys[0].attacker, weapon, index, lang))
    if isinstance(option, InOrder | HitByHit | AllocateTo):
        return _describe_allocation(option, lang)
    return str(option)


def _order_activation_move(state: LiState, step: st.IssueOrder | st.ChooseActivation | st.MoveDetachment, option: Any, lang: str) -> str:
    if isinstance(step, st.IssueOrder):
        return say(lang, "order", order=option, word=word(lang, option))
    if isinstance(step, st.ChooseActivation):
        return say(lang, "activation", detachment=option)
    return _describe_move(step.detachment, option, lang)


def weapon_name(state: LiState, attacker: str, weapon: str, index: int, lang: str) -> str:
    """A weapon as a player reads it, with its profile when it has several (LI-FIRE-3)."""
    several = len(weapon_profiles(state.detachment(attacker), weapon)) > 1
    return say(lang, "profile", weapon=weapon, number=index + 1) if several else weapon


def _describe_move(detachment: str, option: Any, lang: str) -> str:
    if isinstance(option, AsOrdered):
        return say(lang, "move_as_ordered", detachment=detachment)
    if isinstance(option, Hold):
        return say(lang, "move_hold", detachment=detachment)
    if isinstance(option, ChargeAt):
        return say(lang, "move_charge_at", detachment=detachment, target=option.target)
    if isinstance(option, InLine):
        return say(lang, "move_in_line", detachment=detachment, target=option.toward)
    if isinstance(option, MoveTo):
        return say(lang, "move_to", detachment=detachment, x=number(option.x), y=number(option.y))
    if isinstance(option, MoveModel):
        return say(lang, "move_model", model=option.model, x=number(option.x), y=number(option.y))
    assert isinstance(option, Done)
    return say(lang, "move_done", detachment=detachment)


def _describe_allocation(option: InOrder | HitByHit | AllocateTo, lang: str) -> str:
    if isinstance(option, AllocateTo):
        return say(lang, "allocate_to", model=option.model)
    return say(lang, "allocate_in_order" if isinstance(option, InOrder) else "allocate_hit_by_hit")


def describe_fire(option: Fire | HoldFire, lang: str = "en") -> str:
    """An attack in words, without its odds: the target, the profiles chosen, the obscuration penalty."""
    if isinstance(option, HoldFire):
        return say(lang, "hold_fire")
    profiles = say(lang, "separator").join(say(lang, "profile", weapon=w, number=i + 1) for w, i in option.profiles)
    text = say(lang, "fire", target=option.target)
    if profiles:
        text += say(lang, "fire_profiles", profiles=profiles)
    if option.penalty:
        text += say(lang, "fire_penalty", penalty=option.penalty)
    return text


def _fire_odds(state: LiState, step: st.ChooseTarget, option: Fire, lang: str) -> str:
    """The exact odds of a declared attack (§5.2), its volleys in the declared order: the mean damage (Wounds and Void
    Shield levels lost) and the chance that the whole attack causes at least one Wound (not each volley's alone)."""
    damage = attack_damage(state, state.detachment(step.detachment), option)
    mean = damage.map(lambda d: d.losses).mean()
    chance = damage.probability(lambda d: d.wounds > 0)
    return say(lang, "fire_odds", damage=f"{float(mean):.2f}", chance=f"{float(chance) * 100:.1f}%")
