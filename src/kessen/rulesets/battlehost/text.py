"""battlehost in words: narration of events, the options a player chooses from, the prompts and what the battle asks
next, all from the en/ja catalogues (``kessen/i18n/battlehost.<lang>.toml``); the board drawn is board.py."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.markup import escape

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.i18n import catalogue, faces_text, option_text, option_word, signed
from kessen.rulesets.battlehost.referee import duel as referee_duel
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import steps as sp
from kessen.rulesets.battlehost.referee import strikes as referee_strikes
from kessen.rulesets.battlehost.referee.odds import shot_odds, strike_odds
from kessen.rulesets.battlehost.rules.might import die_score
from kessen.rulesets.battlehost.rules.sides import Side

RULESET_ID = "battlehost"

# Event fields that hold model ids (one, or several joined by ", "): names, never translated.
_NAME_FIELDS = frozenset({"model", "target", "loser", "good", "evil"})
_JOINED = ", "  # how the fight_chosen event joins the ids of a side

# --- narration -----------------------------------------------------------------------------------------------


def narrate(event: Event, lang: str) -> str:
    """One event as a line of the battle report: counts in words ("once", "2 wounds"), sides and rules words
    from the catalogue's values, model names as they are; a tie and a draw have their own sentences."""
    cat = catalogue(RULESET_ID, lang)
    counts, values = cat.get("counts", {}), cat.get("values", {})
    words: dict[str, Any] = {}
    for name, value in event.fields().items():
        if name in _NAME_FIELDS and isinstance(value, str):
            words[name] = _say(lang, "name_separator").join(value.split(_JOINED))
        elif name in counts and isinstance(value, int) and not isinstance(value, bool):
            words[name] = count(counts[name], value)
        elif isinstance(value, bool):
            words[name] = values.get(f"{name}_{'yes' if value else 'no'}", "")
        elif isinstance(value, str):
            words[name] = values.get(value, value)
        else:
            words[name] = value
    line = str(cat["events"][_template(event)]).format(**words)
    dice = _dice(event, cat.get("dice", {}))
    return f"{line} {dice}" if dice else line


def _dice(event: Event, said: dict[str, str]) -> str:
    """The dice behind an event, with the score each needed and its modifiers (BH-SHOOT-5..9, BH-STRIKE-2..6,
    BH-DUEL-1..4); empty when the event was drawn without its dice."""
    fields = event.fields()
    parts: list[str] = []
    if event.type == "shot" and fields["dice"]:
        dice = fields["dice"]
        parts.append(said["shot"].format(hit=dice[0], hit_needed=fields["hit_needed"]))
        if len(dice) > 1:
            parts.append(said["wound"].format(wound=faces_text((tuple(dice[1:]),)), wound_needed=_needed(fields["wound_needed"])))
    elif event.type == "struck" and fields["dice"]:
        parts.append(said["wound"].format(wound=faces_text(tuple(tuple(r) for r in fields["dice"])), wound_needed=_needed(fields["wound_needed"])))
        if fields["modifier"]:
            parts.append(said["modifier"].format(modifier=signed(fields["modifier"])))
    elif event.type == "duel_rolled" and fields["good_dice"]:
        sides = {
            side: said["separator"].join(
                said["duel_model"].format(model=m, dice=faces_text(tuple(d)), modifier=signed(k))
                for m, d, k in zip(fields[f"{side}_models"], fields[f"{side}_dice"], fields[f"{side}_modifiers"])
            )
            for side in ("good", "evil")
        }
        parts.append(said["duel"].format(**sides))
    return said["brackets"].format(said["rolls_separator"].join(parts)) if parts else ""


def _needed(entry: str) -> str:
    """A wound chart entry as the score it needs: ``5+``, ``6/4`` (BH-WOUND-1)."""
    return f"{entry}+" if entry.isdigit() else entry


def _template(event: Event) -> str:
    fields = event.fields()
    if event.type == "priority_rolled" and fields["good_roll"] == fields["evil_roll"]:
        return "priority_rolled_tie"
    if event.type == "battle_ended" and fields["winner"] == "draw":
        return "battle_ended_draw"
    return event.type


def count(forms: dict[str, str], n: int) -> str:
    """*n* things in the words of a catalogue's ``counts`` entry: its ``zero``, ``one`` or ``two`` form where it has
    one, else ``other``.

    >>> count({"one": "once", "two": "twice", "other": "{n} times"}, 3), count({"other": "{n}回"}, 1)
    ('3 times', '1回')
    """
    form = {0: "zero", 1: "one", 2: "two"}.get(n)
    return (forms.get(form, forms["other"]) if form else forms["other"]).format(n=n)


# --- the options of a decision -------------------------------------------------------------------------------


def describe(state: st.BhState, option: Any, lang: str) -> str:
    """An option in the words of the *lang* catalogue, naming the model that acts; shots and strikes show the
    exact odds of the roll that follows (BH-PROC-2, BH-PROC-3)."""
    if isinstance(option, op.ShootAt):
        shot = shot_odds(state, option)
        return _say(lang, "shoot_at", model=option.model, target=option.target, hit=_pct(shot["hit"]), wound=_pct(shot["wound"]))
    if isinstance(option, op.MoveTo):
        key = ("stand_" if option.stand_up else "") + ("charge" if option.charge else "move")
        return _say(lang, key, model=option.model, charge=option.charge, x=f"{option.x:.2f}", y=f"{option.y:.2f}")
    if isinstance(option, op.StandUp):
        return _say(lang, "stand_up" if option.stand else "stay_prone", model=option.model)
    if isinstance(option, op.ChooseFight):
        return _say(lang, "fight", good=_names(lang, option.fight.good), evil=_names(lang, option.fight.evil))
    if isinstance(option, op.ChooseSplit):
        return _say(lang, "split_separator").join(
            _say(lang, "split_fight", good=_names(lang, f.good), evil=_names(lang, f.evil)) for f in option.fights
        )
    if isinstance(option, op.UseTwoHanded):
        return _say(lang, "two_handed" if option.use else "one_handed", model=option.model)
    if isinstance(option, op.SpendMight):
        return _say(lang, "spend_might", points=option.points)
    if isinstance(option, op.MightOnRoll):
        return _might_on_roll(state, option, lang)
    if isinstance(option, op.NextLoser):
        return _say(lang, "next_loser", model=option.model)
    if isinstance(option, op.MakeWayChoice):
        step = state.pending[0]
        assert isinstance(step, sp.MakeWay) and step.retreat.make_way is not None
        return _say(lang, "make_way" if option.make_way else "no_make_way", model=step.retreat.make_way.model, loser=step.loser)
    if isinstance(option, op.NextStriker):
        return _say(lang, "next_striker", model=option.model)
    if isinstance(option, op.StrikeAt):
        return _strike_at(state, option, lang)
    simple = {op.EndMoves: "end_moves", op.EndShooting: "end_shooting"}.get(type(option))
    if simple is None:
        raise TypeError(f"not a battlehost option: {option!r}")
    return _say(lang, simple)


def _might_on_roll(state: st.BhState, option: op.MightOnRoll, lang: str) -> str:
    """Might on a Hero's failed die: the points that make it succeed, or none (BH-DICE-4)."""
    die = state.hero_die
    assert die is not None and die.face is not None
    roll = _word(lang, die.kind)
    if option.points:
        return _say(lang, "might_on_roll", model=option.model, points=option.points, roll=roll, score=die_score(die, die.face, option.points))
    return _say(lang, "no_might_on_roll", model=option.model, roll=roll)


def _strike_at(state: st.BhState, option: op.StrikeAt, lang: str) -> str:
    """The striker's next strike(s) at a target, with the exact odds of the strikes rule (BH-PROC-3)."""
    f = state.fighting
    assert f is not None and f.striker is not None
    made = referee_strikes.strikes_made(state, referee_strikes.aimed(f, option.target))
    strike = strike_odds(state, option)
    return _say(
        lang, "strike_at", model=f.striker, target=option.target, strikes=_strikes(lang, made),
        mean=f"{float(strike['expected_wounds']):.2f}", slay=_pct(strike["slay"]),
    )


def _strikes(lang: str, n: int) -> str:
    return _say(lang, "strikes_one") if n == 1 else _say(lang, "strikes_other", n=n)


def next_step(state: st.BhState, node: Node, lang: str) -> str:
    """What the battle asks next (*node*, at the state's first pending step) and of whom: the model or the side
    that acts, with the exact chances where Might can still change a duel (BH-DUEL-6)."""
    if isinstance(node, Terminal):
        return _say(lang, "now_over")
    step = state.pending[0]
    side = _word(lang, node.player) if isinstance(node, Decision) else ""
    if isinstance(step, sp.HeroRoll | sp.HeroMight):
        die = step.die
        hero, roll = state.get(die.hero), _word(lang, die.kind)
        if die.face is None:
            return _say(lang, "now_hero_die", model=escape(hero.id), roll=roll)
        return _say(lang, "now_hero_might", model=escape(hero.id), roll=roll, face=die.face, score=die_score(die, die.face), might=hero.might_left)
    if isinstance(step, sp.PriorityStep):
        return _say(lang, "now_priority", turn=state.turn + 1)
    key = _TURN_PROMPTS.get(type(step))
    if key is not None:
        return _say(lang, key, side=side)
    if isinstance(step, sp.ShotRoll):
        assert state.shooting is not None
        return _say(lang, "now_shot", model=escape(state.shooting.model), target=escape(state.shooting.target))
    if isinstance(step, sp.SplitStep):
        return _say(lang, "now_split", side=side, models=_shown(lang, step.group.models))
    f = st.current_fight(state)
    what = _fight_step(state, f, step, node, side, lang)
    return _say(lang, "fighting", good=_shown(lang, st.alive_ids(state, f.fight.good)), evil=_shown(lang, st.alive_ids(state, f.fight.evil)), what=what)


# The steps whose prompt names only the side that acts (or no one): in the turn, and within a fight.
_TURN_PROMPTS: dict[type, str] = {sp.MoveStep: "now_move", sp.ShootStep: "now_shoot", sp.PickFight: "now_fight"}
_FIGHT_PROMPTS: dict[type, str] = {
    sp.DuelRoll: "now_duel", sp.RollOff: "now_roll_off", sp.BackAway: "now_back_away", sp.ChooseStriker: "now_striker",
}


def _fight_step(state: st.BhState, f: st.Fighting, step: sp.Step, node: Chance | Decision, side: str, lang: str) -> str:
    key = _FIGHT_PROMPTS.get(type(step))
    if key is not None:
        return _say(lang, key, side=side)
    if isinstance(step, sp.Declare):
        assert isinstance(node, Decision)
        return _say(lang, "now_declare", model=escape(node.options[0].model))  # type: ignore[attr-defined]
    if isinstance(step, sp.DuelMight):
        return _might_chances(state, f, step.side, lang)
    if isinstance(step, sp.StandUpOffer):
        return _say(lang, "now_stand_up", model=escape(step.model))
    if isinstance(step, sp.MakeWay):
        assert step.retreat.make_way is not None
        return _say(lang, "now_make_way", model=escape(step.retreat.make_way.model), loser=escape(step.loser))
    if isinstance(step, sp.Aim):
        assert f.striker is not None
        return _say(lang, "now_aim", model=escape(f.striker), strikes=f.strikes_left)
    assert isinstance(step, sp.StrikeRoll) and f.striker is not None and f.target is not None
    return _say(lang, "now_strike", model=escape(f.striker), target=escape(f.target))


def _might_chances(state: st.BhState, f: st.Fighting, side: Side, lang: str) -> str:
    """The side's exact chance to win the duel for each number of Might points it may spend (BH-DUEL-6..9)."""
    heroes = [m for m in st.living(state, st.side_of(f.fight, side)) if m.is_hero and m.might_left]
    chances = _say(lang, "name_separator").join(
        _say(lang, "might_chance", points=o.points, chance=_pct(referee_duel.chance_after_might(state, f, side, o.points)))
        for o in sorted(referee_duel.might_options(state, f, side), key=lambda o: o.points)
    )
    return _say(
        lang, "now_might", good_best=f.good_best, evil_best=f.evil_best, side=_word(lang, side),
        heroes=_shown(lang, tuple(f"{m.id} ({m.might_left})" for m in heroes)), chances=chances,
    )


# --- catalogue helpers -------------------------------------------------------------------------------------------


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str | None) -> str:
    return option_word(RULESET_ID, lang, word or "")


def _names(lang: str, names: tuple[str, ...]) -> str:
    return _say(lang, "name_separator").join(names)


def _shown(lang: str, names: tuple[str, ...]) -> str:
    """Names for the board, which is printed with rich markup: a bracket in a name stays a bracket."""
    return _names(lang, tuple(escape(n) for n in names))


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def prompt(decision: Decision, lang: str) -> str:
    """The question *decision* asks, naming the side that decides and the model that acts (the catalogue's
    ``prompts`` table, one entry per decision kind)."""
    said = catalogue(RULESET_ID, lang)["prompts"][decision.kind]
    return str(said).format(side=_word(lang, decision.player), actor=decision.actor)
