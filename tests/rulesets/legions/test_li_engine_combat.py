"""Combats through the engine: chains, pairing, fights, results, Morale and Break Point timing (SC-ENG, SC-PAIR, SC-MORALE, SC-BREAK)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from test_li_engine_support import BLUE, RED, apply, det, drive, m, node, of, outcome_where, raw_state_of, stage_started, state_of

from kessen.core.engine import Chance, Decision
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import combats, engaged_with
from kessen.rulesets.legions.referee.broken import check_break_point, formation_losses
from kessen.rulesets.legions.rules.morale import MoraleCheckQuestion, morale_check
from kessen.rulesets.legions.referee.rounds import order_options
from kessen.rulesets.legions.referee.firing import volley_question, volleys
from kessen.rulesets.legions.referee.targeting import Fire
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.steps import StageEnd, StageStart

# SC-ENG-1 geometry: A–B, C–B and C–D in base contact (radius 0.5 bases 1 inch apart).
CHAIN = dict(
    red=[det("A", m("inf", 10, 20)), det("C", m("inf", 12, 21), m("inf", 14, 21))],
    blue=[det("B", m("inf", 11, 20), m("inf", 12, 20)), det("D", m("inf", 14, 22))],
)


def test_li_eng_1_li_eng_2_li_eng_3_sc_eng_1_one_chain() -> None:
    """SC-ENG-1, LI-ENG-1..3: contacts A–B, C–B, C–D make one combat {A, B, C, D}; A is Engaged with B only,
    D with C only; A and D share the combat but are not Engaged with each other."""
    state = raw_state_of(**CHAIN)  # type: ignore[arg-type]
    assert combats(state) == (("A", "C", "B", "D"),)
    assert engaged_with(state, "A") == ("B",) and engaged_with(state, "D") == ("C",)
    assert engaged_with(state, "C") == ("B", "D") and "D" not in engaged_with(state, "A")


def test_li_eng_2_sc_eng_2_two_combats() -> None:
    """SC-ENG-2, LI-ENG-2: contacts A–B and C–D only: two combats {A, B} and {C, D}."""
    state = raw_state_of([det("A", m("inf", 10, 20)), det("C", m("inf", 30, 20))], [det("B", m("inf", 11, 20)), det("D", m("inf", 31, 20))])
    assert combats(state) == (("A", "B"), ("C", "D"))


def test_li_eng_6_sc_eng_3_sc_eng_4_marked_engaged_without_contact_and_idle_charge() -> None:
    """SC-ENG-3, SC-ENG-4, LI-ENG-6: E is marked Engaged but touches no enemy: it is in no combat and not Engaged
    at the end of the stage; a Charge Detachment in no combat loses its Charge order at the end of the stage."""
    state = state_of([det("E", m("inf", 10, 10), engaged=True), det("Q", m("inf", 30, 10), order="charge")], [det("B", m("inf", 10, 40))])
    assert combats(raw_state_of([det("E", m("inf", 10, 10), engaged=True)], [det("B", m("inf", 10, 40))])) == ()
    state, events = drive(state, until=stage_started("advancing_fire"))
    assert not state.detachment("E").engaged and state.detachment("Q").order is None
    assert of(events, ev.CombatStarted) == []
    assert any(isinstance(e, ev.NoLongerEngaged) and e.detachment == "E" for e in events)
    assert any(isinstance(e, ev.OrderRemoved) and e.detachment == "Q" and e.why == "engagement_over" for e in events)


def test_li_tgt_5_li_eng_3_sc_eng_5_penalty_uses_direct_contacts_only() -> None:
    """SC-ENG-5: in SC-ENG-1 with A Scale 4, B 1, C 2, D 1: firing at A (Engaged with B only) no penalty; at C
    (with B and D) −1; at B (with A and C) −1; at D (with C only) −1, and A's Scale plays no part."""
    # a line along y = 20: knight A (r 1) at 10, B (r 0.5) at 11.5, tank C (r 1) at 13, D (r 0.5) at 14.5
    red = [det("A", m("knight", 10, 20)), det("C", m("tank", 13, 20)), det("S", m("gun", 12, 2))]
    blue = [det("B", m("inf", 11.5, 20)), det("D", m("inf", 14.5, 20)), det("T", m("gun", 12, 46))]
    state = raw_state_of(red, blue)
    assert combats(state)[0] == ("A", "C", "B", "D")

    def penalty(shooter: str, target: str) -> int:
        question = volley_question(state, volleys(state, state.detachment(shooter), Fire(target))[0])
        assert question is not None
        return -question.modifier  # no other modifier here: the hit modifier is the Engaged-target penalty alone

    assert [penalty("T", "A"), penalty("T", "C"), penalty("S", "B"), penalty("S", "D")] == [0, 1, 1, 1]


def test_li_pair_3_sc_pair_3_initiative_player_chooses_the_fight_e_joins() -> None:
    """SC-PAIR-3, LI-PAIR-3/4: contacts A–C, B–D, E–C, E–D on real bases: the player with Initiative is asked, and
    can reach exactly the two valid pairings {A–C, B–D, E–C} and {A–C, B–D, E–D}."""
    # C at (10, 20), D at (12, 20); A at (9, 20) touches C, B at (13, 20) touches D, E at (11, 20) touches both.
    state = state_of(
        [det("R", m("inf", 9, 20, id="A"), m("inf", 13, 20, id="B"), m("inf", 11, 20, id="E"))],
        [det("Q", m("inf", 10, 20, id="C"), m("inf", 12, 20, id="D"))],
        initiative=BLUE,
    )
    n = node(state)
    assert isinstance(n, Decision) and n.kind == "pairing" and n.player == BLUE
    assert reachable_pairings(state) == {frozenset({("C", "A"), ("D", "B"), ("C", "E")}), frozenset({("C", "A"), ("D", "B"), ("D", "E")})}


def reachable_pairings(state: LiState) -> set[frozenset[tuple[str, str]]]:
    """Every pairing the player with Initiative can reach from a pairing decision, trying every option in turn."""
    found: set[frozenset[tuple[str, str]]] = set()
    n = node(state)
    assert isinstance(n, Decision) and n.kind == "pairing"
    for option in n.options:
        after, events = apply(state, option)
        paired = of(list(events), ev.Paired)
        if paired:
            found.add(frozenset(tuple(f.split("-")) for f in paired[0].fights.split(", ")))  # type: ignore[misc]
        else:
            found |= reachable_pairings(after)
    return found


def _ring(centre: tuple[float, float], reach: float, n: int) -> list[tuple[float, float]]:
    import math

    return [(centre[0] + reach * math.cos(2 * math.pi * k / n), centre[1] + reach * math.sin(2 * math.pi * k / n)) for k in range(n)]


def test_li_fight_4_sc_pair_4_outnumbered_model_extra_dice_capped_at_6d6() -> None:
    """SC-PAIR-4, LI-FIGHT-4, LI-PAIR-2: X touched by seven models fights them one after another; its opponents
    roll 2D6, 3D6, 4D6, 5D6, 6D6 and then still 6D6 (never more than 6D6); X always rolls 2D6."""
    ring = _ring((30.0, 24.0), 1.5, 7)
    state = state_of([det("XD", m("knight", 30, 24, id="X"))], [det("Y", *[m("inf", x, y) for x, y in ring])])
    state, events = drive(state, until=stage_started("advancing_fire"), roll=lambda s, n: outcome_where(n, winner="draw") if n.kind == "fight" else None)
    fights = of(events, ev.FightRolled)
    assert len(fights) == 7 and all(f.attacker == "X" for f in fights)
    assert [f.defender_dice for f in fights] == [2, 3, 4, 5, 6, 6, 6]
    assert all(f.attacker_dice == 2 for f in fights)


def test_li_cc_1_four_steps_in_order_and_li_result_3_failed_check_withdraws() -> None:
    """LI-CC-1, LI-RESULT-3, LI-MORALE-5: pair off, fights, result, Withdrawal: the pairing comes before any fight,
    the result after the last, then the loser's Morale check; failing it gives Fall Back and a Withdrawal."""
    state = state_of([det("A", m("tough", 10, 20), m("tough", 11, 20), order="advance")], [det("B", m("inf", 10, 21), m("inf", 11, 21))])

    def roll(s: object, n: object) -> object:
        if n.kind == "fight":  # type: ignore[attr-defined]
            return outcome_where(n, winner="b")  # blue's model wins each fight
        if n.kind == "morale check":  # type: ignore[attr-defined]
            return outcome_where(n, result="fail")
        return None

    state, events = drive(state, until=stage_started("advancing_fire"), roll=roll)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("Paired") < kinds.index("FightRolled") < kinds.index("CombatResult") < kinds.index("MoraleChecked") < kinds.index("Withdrawal")
    assert of(events, ev.OrderIssued)[0].order == "fall_back" and of(events, ev.Withdrawal)[0].detachment == "A"
    assert of(events, ev.CombatResult)[0].winner == BLUE


def test_li_result_5_sc_morale_6_draw_nobody_checks_and_win_two_to_one() -> None:
    """SC-MORALE-6, LI-RESULT-1, LI-RESULT-3, LI-RESULT-5: won 2–1 by one side: every Detachment of the other side in
    the combat checks (trigger combat); a 1–1 draw: nobody checks."""
    setup = dict(red=[det("A", m("tough", 10, 20), m("tough", 12, 20), m("tough", 14, 20))],
                 blue=[det("B", m("tough", 10, 21), m("tough", 12, 21)), det("C", m("tough", 14, 21))])
    winners = iter(["a", "a", "b"])
    _, events = drive(state_of(**setup), until=stage_started("advancing_fire"),  # type: ignore[arg-type]
                      roll=lambda s, n: outcome_where(n, winner=next(winners)) if n.kind == "fight" else None)
    assert of(events, ev.CombatResult)[0].fights_won == "2-1"
    assert sorted((e.detachment, e.trigger) for e in of(events, ev.MoraleChecked)) == [("B", "combat"), ("C", "combat")]
    winners = iter(["a", "b", "draw"])
    _, events = drive(state_of(**setup), until=stage_started("advancing_fire"),  # type: ignore[arg-type]
                      roll=lambda s, n: outcome_where(n, winner=next(winners)) if n.kind == "fight" else None)
    assert of(events, ev.CombatResult)[0].winner == "draw" and of(events, ev.MoraleChecked) == []


def test_li_result_2_sc_morale_7_side_with_no_models_left_loses() -> None:
    """SC-MORALE-7, LI-RESULT-2: blue's only model W wins two fights to one but is destroyed in the third: blue has no
    models left in the combat, so red wins."""
    red = [det("Z", m("tough", 31, 24), m("tough", 29, 24), m("tough", 30, 25))]
    state = state_of(red, [det("B", m("inf", 30, 24, id="W"))])
    winners = iter(["b", "b", "a"])
    _, events = drive(state, until=stage_started("advancing_fire"),
                      roll=lambda s, n: outcome_where(n, winner=next(winners)) if n.kind == "fight" else None)
    result = of(events, ev.CombatResult)[0]
    assert result.fights_won == "1-2" and result.winner == RED


def _morale_roll(state: object, n: object, result: str) -> object:
    return outcome_where(n, result=result) if n.kind == "morale check" else None  # type: ignore[attr-defined]


def test_li_morale_7_sc_morale_3_failed_casualties_check_then_lost_combat_auto_fails_without_withdrawal() -> None:
    """SC-MORALE-3, LI-MORALE-7: a Detachment that failed a check this phase loses a combat: automatic failure, no
    new Order, no Withdrawal."""
    state = raw_state_of([det("A", m("tough", 10, 20), order="fall_back")], [det("B", m("inf", 10, 21))])
    state = replace(state, detachments=tuple(replace(d, morale_this_phase="failed") if d.id == "A" else d for d in state.detachments))
    state = replace(state, pending=(StageStart("engagement"), StageEnd("engagement")), course=replace(state.course, initiative=RED, phase="combat"))
    state, events = drive(state, roll=lambda s, n: outcome_where(n, winner="b") if n.kind == "fight" else None)
    assert [e.result for e in of(events, ev.MoraleChecked)] == ["auto_fail"]
    assert of(events, ev.Withdrawal) == [] and state.detachment("A").order == "fall_back"


def test_li_morale_2_sc_morale_5_fight_losses_never_cause_a_casualties_check() -> None:
    """SC-MORALE-5 (second part), LI-MORALE-2: Wounds lost in fights never trigger a casualties check, even when they
    are half the Detachment."""
    state = state_of([det("A", m("inf", 10, 20), m("inf", 30, 5))], [det("B", m("inf", 10, 21))], initiative=RED)
    _, events = drive(state, until=stage_started("advancing_fire"),
                      roll=lambda s, n: outcome_where(n, winner="b") if n.kind == "fight" else _morale_roll(s, n, "pass"))
    assert [e.trigger for e in of(events, ev.MoraleChecked)] == ["combat"]


def _break_setup(extra_blue: list[dict[str, object]] | None = None) -> dict[str, object]:
    """Formation F (red): 28 models, Break Point 14, 12 already lost; X (6 models) and Y (4) and Z (6)."""
    dead = m("inf", 60, 2, count=12, dx=0.0, wounds_remaining=0)
    return dict(
        red=[det("dead", dead), det("X", m("inf", 5, 10, count=6, dx=1.0)), det("Y", m("tough", 30, 20, count=4, dx=1.0)),
             det("Z", m("tough", 50, 20, count=6, dx=1.0))],
        blue=[det("S", m("gun", 8, 20, count=6, dx=1.0), order="first_fire"), *(extra_blue or [])],
    )


def test_li_break_4_li_break_7_sc_break_2_broken_before_the_same_attacks_morale_check() -> None:
    """SC-BREAK-2, LI-BREAK-4, LI-BREAK-7: losses 12, Break Point 14; an attack destroys 4 of X's 6 models: F is Broken
    (16 ≥ 14) as soon as that firing is resolved, and X's Morale check (4 ≥ 3) already takes −1."""
    state = state_of(**_break_setup())  # type: ignore[arg-type]
    assert formation_losses(state, "red-f1") == (12, 14)
    state, _ = drive(state, choose=lambda s, n: Fire("X") if n.kind == "target" else None,
                     until=lambda s, n, e: isinstance(n, Chance) and n.kind == "volley")
    n = node(state)
    state, events = apply(state, outcome_where(n, hits=4, destroyed=4))
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("FormationBroken") < len(kinds)
    n = node(state)
    assert isinstance(n, Chance) and n.kind == "morale check"
    assert n.dist == morale_check(MoraleCheckQuestion(morale=4, broken=True))
    assert state.formation("red-f1").broken


def test_li_break_4_sc_break_1_not_broken_between_combats_only_at_the_end_of_the_stage() -> None:
    """SC-BREAK-1, LI-BREAK-4, LI-RESULT-6: losses 12 at the start of the Engagement stage; the first combat costs F 3
    more models (15 ≥ 14); in the second combat another F Detachment loses: its combat check uses one D6 (F is
    not Broken yet); at the end of the stage F becomes Broken."""
    red = [det("dead", m("inf", 60, 2, count=12, dx=0.0, wounds_remaining=0)), det("X", m("inf", 5, 10, count=3, dx=1.0)),
           det("Y", m("inf", 30, 20), m("inf", 33, 20)), det("pad", m("inf", 40, 5, count=11, dx=1.0))]
    blue = [det("P", m("inf", 5, 11, count=3, dx=1.0)), det("Q", m("inf", 30, 21))]
    state = raw_state_of(red, blue)
    assert formation_losses(state, "red-f1") == (12, 14)
    state = state_of(red, blue)
    checks: list[object] = []

    def roll(s: object, n: object) -> object:
        if n.kind == "fight":  # type: ignore[attr-defined]
            return outcome_where(n, winner="b")  # blue wins every fight
        if n.kind == "morale check":  # type: ignore[attr-defined]
            checks.append((s.pending[0].detachment, n.dist, s.formation("red-f1").broken))  # type: ignore[attr-defined]
            return outcome_where(n, result="pass")
        return None

    state, events = drive(state, until=stage_started("advancing_fire"), roll=roll)
    assert len(of(events, ev.CombatResult)) == 2
    y_check = next(c for c in checks if c[0] == "Y")
    assert y_check[1] == morale_check(MoraleCheckQuestion(morale=4, trigger="combat", broken=False)) and y_check[2] is False
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("FormationBroken") > max(i for i, k in enumerate(kinds) if k == "CombatResult")
    assert state.formation("red-f1").broken


def test_li_break_4_every_formation_with_a_detachment_in_a_combat_is_checked() -> None:
    """LI-BREAK-4: at the end of the Engagement stage every Formation with a Detachment that took part in a combat is
    checked, not only those whose models rolled a fight. Y (alone in its Formation, Break Point 1) is in the combat
    through Y1 touching E1, but W1 destroys E1 first, so Y1's fight is never fought (LI-FIGHT-6); E2 beats W2 and
    W3, the combat is lost 1–2, Y fails its check and Y1 dies withdrawing (0.5 inches from E3, LI-WD-8): Y's
    Formation has 1 loss and must become Broken at the end of the stage."""
    w = [det("W", m("inf", 10, 20, id="W1"), m("inf", 20, 20, id="W2"), m("inf", 21, 21, id="W3")),
         det("pad", m("inf", 50, 5, count=4, dx=1.0))]  # W's Formation: 7 models, Break Point 4, loses 2
    y = [det("Y", m("inf", 11, 21, id="Y1"), m("inf", 40, 10, id="Y2"))]
    blue = [det("E", m("inf", 10, 21, id="E1"), m("inf", 20, 21, id="E2"), m("inf", 12.5, 15, id="E3"))]

    def roll(s: object, n: object) -> object:
        step = s.pending[0]  # type: ignore[attr-defined]
        if n.kind == "fight":  # type: ignore[attr-defined]
            return outcome_where(n, winner="a" if step.a == "W1" else "b")
        if n.kind == "morale check":  # type: ignore[attr-defined]
            return outcome_where(n, result="fail" if step.detachment == "Y" else "pass")
        if n.kind == "withdrawal roll":  # type: ignore[attr-defined]
            return outcome_where(n, distance=1)
        return None

    state, events = drive(state_of([], blue, red_formations=[w, y]), until=stage_started("advancing_fire"), roll=roll)
    assert [(e.attacker, e.defender) for e in of(events, ev.FightRolled)] == [("W1", "E1"), ("W2", "E2"), ("W3", "E2")]
    assert any(isinstance(e, ev.Destroyed) and e.model == "Y1" and e.how == "engagement_zone" for e in events)
    assert [e.formation for e in of(events, ev.FormationBroken)] == ["red-f2"]
    assert state.formation("red-f2").broken and not state.formation("red-f1").broken


def test_li_break_5_li_break_6_sc_break_3_broken_formation_orders_and_no_recovery() -> None:
    """SC-BREAK-3, LI-BREAK-5, LI-BREAK-6: a Broken Formation's Detachments may only be issued Advance or Charge; an
    Order issued before stays; it stays Broken after a Titan regains Wounds."""
    state = raw_state_of([det("T", m("titan", 30, 10, wounds_remaining=1), order="first_fire")], [det("B", m("inf", 10, 40))])
    assert order_options(state, state.detachment("T")) == ("advance", "first_fire", "charge", "march")
    state = state.with_formation(replace(state.formation("red-f1"), broken=True))
    assert order_options(state, state.detachment("T")) == ("advance", "charge")
    assert state.detachment("T").order == "first_fire"
    healed = state.with_model(replace(state.model("T-1"), wounds_remaining=6))
    assert check_break_point(healed, "red-f1", []).formation("red-f1").broken


def test_li_morale_1_li_morale_7_sc_morale_1_sc_morale_2_thresholds_and_one_check_per_phase() -> None:
    """SC-MORALE-1, SC-MORALE-2, LI-MORALE-1, LI-MORALE-7: 8 one-Wound models losing 4 check, 3 do not; a pass earlier
    this phase makes the second check an automatic pass with no dice."""
    def first_attack(lost: int) -> tuple[object, list[object]]:
        state = state_of([det("A", m("inf", 5, 10, count=8, dx=1.0)), det("pad", m("inf", 40, 2, count=20, dx=1.0))],
                         [det("S", m("gun", 8, 30, count=6, dx=1.0), order="first_fire"), det("S2", m("gun", 5, 20, count=6, dx=1.0), order="advance")])
        state, _ = drive(state, choose=lambda s, n: Fire("A") if n.kind == "target" else None,
                         until=lambda s, n, e: isinstance(n, Chance) and n.kind == "volley")
        return apply(state, outcome_where(node(state), hits=lost, destroyed=lost))

    state, events = first_attack(3)
    assert not (isinstance(node(state), Chance) and node(state).kind == "morale check")  # type: ignore[attr-defined]
    state, events = first_attack(4)
    n = node(state)
    assert isinstance(n, Chance) and n.kind == "morale check" and n.dist.probability(lambda o: o.result == "pass") == Fraction(1, 2)
    state, events = apply(state, outcome_where(n, result="pass"))
    # the Advancing Fire attack of S2 again kills half of what is left: automatic pass, no dice
    state, events2 = drive(state, choose=lambda s, n: Fire("A") if n.kind == "target" else None,
                           until=lambda s, n, e: isinstance(n, Chance) and n.kind == "volley")
    state, events3 = apply(state, outcome_where(node(state), destroyed=3))
    assert [e.result for e in of(list(events3), ev.MoraleChecked)] == ["auto_pass"]
    assert not (isinstance(node(state), Chance) and node(state).kind == "morale check")  # type: ignore[attr-defined]


def test_li_morale_8_sc_morale_4_fall_back_at_phase_start_takes_no_casualties_check() -> None:
    """SC-MORALE-4, LI-MORALE-8: a Detachment that began the phase with a Fall Back order loses all but one model:
    no check."""
    state = state_of([det("A", m("inf", 5, 10, count=4, dx=1.0), order="fall_back")], [det("S", m("gun", 8, 30, count=6, dx=1.0), order="first_fire")])
    state, _ = drive(state, choose=lambda s, n: Fire("A") if n.kind == "target" else None,
                     until=lambda s, n, e: isinstance(n, Chance) and n.kind == "volley")
    state, events = apply(state, outcome_where(node(state), destroyed=3))
    assert [e.result for e in of(list(events), ev.MoraleChecked)] == ["not_taken"]
    assert not any(isinstance(e, ev.OrderIssued) for e in events)


def test_li_morale_5_failed_casualties_check_gives_fall_back() -> None:
    """LI-MORALE-5: failing a Morale check removes the Order and gives a Fall Back order (no Withdrawal for casualties)."""
    state = state_of([det("A", m("inf", 5, 10, count=2, dx=1.0), order="advance")], [det("S", m("gun", 8, 30, count=6, dx=1.0), order="first_fire")])
    state, _ = drive(state, choose=lambda s, n: Fire("A") if n.kind == "target" else None,
                     until=lambda s, n, e: isinstance(n, Chance) and n.kind == "volley")
    state, _ = apply(state, outcome_where(node(state), destroyed=1))
    state, events = apply(state, outcome_where(node(state), result="fail"))
    assert state.detachment("A").order == "fall_back" and of(list(events), ev.Withdrawal) == []
    assert any(isinstance(e, ev.OrderRemoved) and e.order == "advance" for e in events)


def test_li_eng_5_after_a_combat_only_detachments_still_in_contact_stay_engaged() -> None:
    """LI-ENG-5: when a combat ends, a Detachment whose models all withdrew (and its opponent) stops being Engaged at once;
    after a drawn fight both still touch and stay Engaged."""
    setup = dict(red=[det("A", m("tough", 10, 20), engaged=True)], blue=[det("B", m("inf", 10, 21), engaged=True)])
    forced = {"fight": {"winner": "b"}, "morale check": {"result": "fail"}, "withdrawal roll": {"distance": 3}}
    _, events = drive(state_of(**setup), until=stage_started("advancing_fire"),  # type: ignore[arg-type]
                      roll=lambda s, n: outcome_where(n, **forced[n.kind]) if n.kind in forced else None)
    kinds = [(type(e).__name__, getattr(e, "detachment", getattr(e, "stage", ""))) for e in events]
    assert kinds.index(("WithdrawalMove", "")) < kinds.index(("NoLongerEngaged", "A")) < kinds.index(("StageStarted", "advancing_fire"))
    assert ("NoLongerEngaged", "B") in kinds
    _, events = drive(state_of(**setup), until=stage_started("advancing_fire"),  # type: ignore[arg-type]
                      roll=lambda s, n: outcome_where(n, winner="draw") if n.kind == "fight" else None)
    assert of(events, ev.NoLongerEngaged) == []
