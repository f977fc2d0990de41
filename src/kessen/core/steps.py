"""The pending-step machine every engine runs on: the queue of steps a phase still has to settle.

A ruleset's state holds ``pending``, a tuple of frozen step values; the first is the one the game stands at. Each
kind of step has a :class:`StepRule`: its ``node`` (the chance it rolls or the decision it asks, or None when the
rules settle it without dice or players) and its ``resolve`` (the state after its outcome or choice). The machine
runs the steps that settle themselves, and the one **settle policy** shared by every ruleset: a chance with a single
outcome, and a decision with a single suggested option that is not free, are resolved without drawing or asking
(a single-outcome draw consumes no randomness, so the seeded stream is the same either way). When the queue runs
empty, the ruleset's ``refill`` queues what comes next (the next turn, the next phase) or ends the battle.

The node the machine stops at is kept beside the state it belongs to, so ``node(state)`` right after ``apply``
builds no option list twice.

A ruleset's :class:`~kessen.core.engine.Game` is a :class:`StepGame`: its machine, filled with its step table, and
the functions of its words, notation, odds and AI (each ruleset's ``referee/game.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar, final

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.core.records import record

if TYPE_CHECKING:
    from kessen.core.board import Board
    from kessen.core.decisions import Decider
    from kessen.core.tactics import Tactics

S = TypeVar("S", bound="Staged")
T = TypeVar("T")
F = TypeVar("F")

Out = list[Event]


class Staged(Protocol):
    """A state with a queue of pending steps."""

    @property
    def pending(self) -> tuple[Hashable, ...]: ...


@record
class StepRule(Generic[S, T]):
    """How one kind of step *T* is played.

    ``node(state, step)`` gives the chance or decision it stands at, or None when it settles itself; then
    ``resolve(state, step, None, out)`` is called at once. ``resolve(state, step, choice, out)`` gets the state with
    the step already taken off the queue, appends the events to *out* and returns the new state.
    """

    resolve: Callable[[S, T, Any, Out], S]
    node: Callable[[S, T], Chance | Decision | None] | None = None


class StepMachine(Generic[S]):
    """``start``, ``node`` and ``apply`` of a ruleset's Game, over its step rules.

    *rules* maps each step type to its :class:`StepRule`; *with_pending* returns the state with another queue;
    *result* gives the Terminal of a finished battle (None while it goes on); *refill* is called when the queue is
    empty and must queue a step or end the battle; *interrupt*, checked before every step, may end or change the
    battle (a side wiped out), returning None when it does nothing.
    """

    def __init__(
        self,
        rules: Mapping[type, StepRule[S, Any]],
        *,
        with_pending: Callable[[S, tuple[Any, ...]], S],
        result: Callable[[S], Terminal | None],
        refill: Callable[[S, Out], S],
        interrupt: Callable[[S, Out], S | None] | None = None,
    ) -> None:
        self._rules = dict(rules)
        self._with_pending = with_pending
        self._result = result
        self._refill = refill
        self._interrupt = interrupt
        self._last: tuple[object, Node] | None = None  # the node settle stopped at, and its state

    def start(self, state: S) -> tuple[S, tuple[Event, ...]]:
        """The initial state settled up to its first chance or decision, with the events on the way."""
        out: Out = []
        return self.settle(state, out), tuple(out)

    def node(self, state: S) -> Node:
        """The node *state* stands at (a settled state: see :meth:`settle`)."""
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        over = self._result(state)
        if over is not None:
            return over
        step = state.pending[0]
        rule = self._rule(step)
        found = rule.node(state, step) if rule.node is not None else None
        assert found is not None, f"the state is not settled: {step!r} needs no chance or decision"
        self._last = (state, found)
        return found

    def apply(self, state: S, choice: Any) -> tuple[S, tuple[Event, ...]]:
        """The state after *choice* at the first pending step, settled to the next node; pure."""
        out: Out = []
        step = state.pending[0]
        state = self._rule(step).resolve(self._pop(state), step, choice, out)
        return self.settle(state, out), tuple(out)

    def settle(self, state: S, out: Out) -> S:
        """Run every step that needs no dice and no player, and the settle policy, until a real chance, a real
        decision or the end of the battle."""
        while self._result(state) is None:
            if self._interrupt is not None:
                changed = self._interrupt(state, out)
                if changed is not None:
                    state = changed
                    continue
            if not state.pending:
                state = self._refill(state, out)
                assert state.pending or self._result(state) is not None, "refill queued nothing and did not end the battle"
                continue
            step = state.pending[0]
            rule = self._rule(step)
            found = rule.node(state, step) if rule.node is not None else None
            if found is None:
                state = rule.resolve(self._pop(state), step, None, out)
                continue
            only = _only_choice(found)
            if only is not _ASK:
                state = rule.resolve(self._pop(state), step, only, out)
                continue
            self._last = (state, found)
            return state
        return state

    def ready(self, state: S) -> S:
        """*state* when it stands at a step that asks or rolls, or at the end; else (a scenario's initial state may
        stand at a step the rules settle alone: a round begins) *state* run up to its first chance or decision."""
        if self._result(state) is not None or (state.pending and self._rule(state.pending[0]).node is not None):
            return state
        return self.start(state)[0]

    def _pop(self, state: S) -> S:
        return self._with_pending(state, state.pending[1:])

    def _rule(self, step: Hashable) -> StepRule[S, Any]:
        try:
            return self._rules[type(step)]
        except KeyError:
            raise AssertionError(f"no step rule for {type(step).__name__}") from None


_ASK = object()


def _only_choice(found: Chance | Decision) -> Any:
    """The settle policy: the one outcome of a single-outcome chance, the one option of a decision that offers one
    and is not free; else ``_ASK`` (draw it, or ask the player)."""
    if isinstance(found, Chance):
        return found.dist.outcomes()[0] if len(found.dist) == 1 else _ASK
    if not found.free and len(found.options) == 1:
        return found.options[0]
    return _ASK


@final
class StepGame(Generic[S, F]):
    """A ruleset's Game (``kessen.core.engine.Game``) on its step machine: ``start``, ``node`` and ``apply`` are the
    machine's; the rest are the ruleset's own functions, each with the signature the protocol gives it.

    *scenario* reads and validates a scenario file's text into its model *F* (errors name the source), *setup* makes
    the battle's initial state of it; ``load_scenario`` is the two. *draw* is the board as text for a person at the
    terminal, given the node the state stands at (who decides next); ``show`` passes it that node. *tactics* is what
    the search AI asks of the ruleset (``kessen.core.tactics``; without it the search weighs every suggested option). A plain class
    with ``Final`` parts (mypyc compiles it as a native one), equal only to itself: a game is one object per ruleset.
    """

    def __init__(
        self,
        ruleset: str,
        machine: StepMachine[S],
        *,
        scenario: Callable[[str, str], F],
        setup: Callable[[F], S],
        sides: Callable[[S], tuple[str, ...]],
        ai: Callable[[str], Decider],
        notation: Callable[[S, Decision, Any], str],
        parse: Callable[[S, Decision, str], Any],
        odds: Callable[[S, Decision, Any], Mapping[str, Fraction] | None],
        describe: Callable[[S, Any, str], str],
        prompt: Callable[[S, Decision, str], str],
        narrate: Callable[[Event, str], str],
        board: Callable[[S], Board],
        draw: Callable[[S, Node, str], str],
        tactics: Tactics | None = None,
        odds_input: Callable[[S, Decision, Any], tuple[str, dict[str, Any]] | None] | None = None,
    ) -> None:
        self.ruleset: Final = ruleset
        self.machine: Final = machine
        self.scenario: Final = scenario
        self.setup: Final = setup
        self.sides: Final = sides
        self.ai: Final = ai
        self.notation: Final = notation
        self.parse: Final = parse
        self.odds: Final = odds
        self.describe: Final = describe
        self.prompt: Final = prompt
        self.narrate: Final = narrate
        self.board: Final = board
        self.draw: Final = draw
        self.tactics: Final = tactics
        self._odds_input: Final = odds_input

    def __repr__(self) -> str:
        return f"StepGame({self.ruleset!r})"

    def odds_input(self, state: S, decision: Decision, choice: Any) -> tuple[str, dict[str, Any]] | None:
        """The procedure and JSON input whose odds are shown beside *choice*, or None (see :class:`Game`)."""
        return None if self._odds_input is None else self._odds_input(state, decision, choice)

    def load_scenario(self, text: str, source: str) -> S:
        """The initial state of a scenario file's text; errors name *source*, the field and the value."""
        return self.setup(self.scenario(text, source))

    def start(self, state: S) -> tuple[S, tuple[Event, ...]]:
        """The initial state settled up to its first chance or decision, with the events on the way."""
        return self.machine.start(state)

    def node(self, state: S) -> Node:
        """The node a started state stands at (a chance, a decision, or the end)."""
        return self.machine.node(state)

    def apply(self, state: S, choice: Any) -> tuple[S, tuple[Event, ...]]:
        """The state after *choice* at the current node, settled to the next node, with the events; pure."""
        return self.machine.apply(state, choice)

    def show(self, state: S, lang: str) -> str:
        """The board as text, and who decides next; a scenario's initial state is shown as it will be when the battle
        asks its first question (:meth:`StepMachine.ready`)."""
        state = self.machine.ready(state)
        return self.draw(state, self.machine.node(state), lang)
