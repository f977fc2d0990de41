"""legions: the Legions Imperialis Combat phase (rule IDs LI-*, spec ``rules/legions.md``).

The package map:

- ``rules/``: the pure procedures, each a function of a frozen question to an exact ``Dist``:
  ``hit_rolls`` (LI-HIT), ``targeting`` (the Engaged-target and obscuration penalties, the hit modifier: LI-TGT-5,
  LI-OBSC, LI-HIT-4), ``saves`` (AP, Light AT, rear arc, best save, Void Shields: LI-SAVE, LI-ARC, LI-VOID),
  ``allocation`` (allocation order and the hit-resolution routine R as a damage track: LI-ALLOC, §5.1),
  ``firing`` (``fire`` and ``resolve_hits``: §5.2, §5.3), ``close_combat`` (``fight``, ``combat``: LI-FIGHT,
  LI-RESULT), ``pairing`` (LI-PAIR), ``morale`` (``morale_check``: LI-MORALE), ``withdrawal`` (``withdrawal_save``,
  ``withdrawal_move``: LI-WD), ``broken`` (``break_point``, what counts for a Break Point: LI-BREAK).
- ``referee/``: the engine. ``state`` (models, Detachments, Formations, the frozen game state), ``phases`` (the
  round's phases and stages, the Orders), ``steps`` (the pending steps and the decision kinds), ``machine`` (the step
  table), ``game`` (the ``Game`` and ``ENGINE``), ``setup`` (the initial state from a scenario), ``battlefield``
  (distances, contact, arcs, combats, Withdrawal paths), ``rounds`` (the engine's own Orders, Initiative and End
  phases), ``movement`` and ``movement_phase`` (the engine's own Movement phase: where models may go, LI-MOVE-*),
  ``stages`` (§4.1 stages, §4.2 activation); then one module per rules module it drives: ``targeting``, ``firing``,
  ``allocation`` (hits allocated in order or one at a time), ``pairing``, ``close_combat``, ``morale``,
  ``withdrawal``, ``broken``; ``notation`` (every choice as text, and refusals naming rule IDs) and ``odds`` (the
  exact numbers of a choice).
- ``procedures.py`` (the odds registry: pydantic inputs validated at the edge, turned into ``rules`` questions),
  ``scenario.py`` (the scenario file), ``profiles.py`` (model types, Scales, weapon profiles), ``events.py``,
  ``text.py`` (narration and option words, with the exact odds of an attack), ``board.py`` (what ``kessen board``
  draws), ``ai.py`` (the AI's policy).

Not done: Overwatch, terrain beyond Cover Saves, hidden models and blocked lines of sight, Flyers, Structures,
reserves arriving, Void Shields re-igniting, weapon traits other than Light AT (outside the spec, §1).
"""

from kessen.rulesets import Ruleset

RULESET = Ruleset.of_package(
    __name__, id="legions", prefix="LI",
    title="Legions Imperialis: the Combat phase (firing, close combat, morale, Break Points)",
)
