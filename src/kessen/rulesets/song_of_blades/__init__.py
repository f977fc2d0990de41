"""song-of-blades: Song of Blades and Heroes melee, and whole skirmishes (rule IDs SB-*; spec: rules/song-of-blades.md).

The map of the package:

    rules/            the rules as pure procedures of plain, frozen values, each to an exact Dist; they never import
                      referee/, pydantic or procedures.py
      melee.py          the combat roll: modifiers, outnumbering, the result ladder, the dice (SB-MELEE, SB-MOD, SB-OUT)
      disengaging.py    free hacks on a model leaving contact, Free Disengage (SB-DIS, SB-RECOIL-5)
      quality.py        activation and morale rolls, their dice (SB-ACT, SB-MOR)
      priority.py       melee priority (SB-PRIO)
      turns.py          the roll-off and who wins (SB-TURN-1, SB-TURN-4)
    referee/          the engine: it reads each question off the table, asks rules/ and applies what was drawn
      state.py          the frozen game state;  steps.py: its queue of pending steps and the decision kinds;
                        options.py: what a player chooses;  notation.py: each choice as text and back;  odds.py: the
                        exact numbers beside a choice
      setup.py          the table and warbands of a scenario;  battlefield.py: bases, contact, terrain, recoil
                        candidates (SB-GEO);  recoiling.py: where a loser may recoil and whether it has room
      placement.py      one placement of the figures and the facts worked out about it once (contacts, room to
                        recoil, suggested moves)
      turns.py          activation, actions, turnover, rounds, the end: the steps queued when nothing is pending
                        (drives rules/turns.py and rules/priority.py)
      quality.py        activation rolls and morale tests (drives rules/quality.py)
      melee.py          attacks and their results (drives rules/melee.py);  recoil.py: recoils and follow-ups
                        (SB-RECOIL, SB-FALL, SB-FOLLOW)
      disengaging.py    leaving contact (drives rules/disengaging.py);  moves.py: moves and flights (SB-MOVE)
      machine.py        the step table: each step's StepRule on core's StepMachine;  game.py: the Game, ENGINE
    procedures.py     the odds registry: the pydantic input of each procedure, validated at the edge, turned into the
                      rules' values
    scenario.py       the scenario file (docs/scenarios/song-of-blades.md) and its swapped deployment;
                      profiles.py: sizes, states, special rules, the models-per-side limit
    events.py         the battle report's events;  text.py: choices and prompts in the catalogues' words (en, ja);
                      board.py: the board drawn (`kessen board`) and as plain data;  ai.py: the AI policy

Not done: shooting, magic and the special rules beyond the four the seed names (out of the spec's scope); morale tests
other than the gruesome-kill trigger (SB-TURN-2).
"""

from kessen.rulesets import Ruleset

RULESET = Ruleset.of_package(
    __name__, id="song-of-blades", prefix="SB",
    title="Song of Blades and Heroes: melee, disengaging, activation and morale",
)
