"""toy: a race of two racers and one die, the smallest ruleset, laid out as every kessen ruleset is and added from
outside kessen through the fifth-ruleset checklist of docs/architecture.md alone: ``kessen.rulesets.register("toy",
"tests.toy")`` (the fixture ``toy`` of tests/toy/conftest.py), with no line of kessen written for it.

The rules (TOY-*):

- TOY-1 On its turn a side declares a dash of N squares (1 to 6; 3, 2 and 1 are suggested) and rolls a d6: on N or
  more its racer moves N squares, else it stays.
- TOY-2 A side whose racer stands on square 8 or beyond confirms it before its next dash (one option, which the
  settle policy takes without asking).
- TOY-3 The first racer to reach square 10 wins; after 12 turns the race is a draw.

rules/dash.py (the one procedure, a dash: TOY-1); procedures.py (its odds input); referee/: steps (the steps and
the decision kinds), state, options, setup, machine (the step table), notation, odds, game (GAME, ENGINE); scenario.py
(the file: ``ruleset = "toy"``, ``name``, ``sides``), events, text, ai, board; i18n/ its catalogues (en, ja). Its page
texts (kessen/web/text) it has none of: the page shows the input model's descriptions.
"""

from kessen.rulesets import Ruleset

RULESET = Ruleset.of_package(__name__, id="toy", prefix="TOY", title="A toy race")
