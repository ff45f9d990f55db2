"""Compile DSL ASTs into Python closures (no AST is walked at play time).

Effects compile to makers of options, `maker(p, flags, card) -> gen(pos, out)`
(`compiler.plays`; options, makers and the position they read: `engine.track`).
Expressions compile to `expr(p, board, env) -> int | bool` (`compiler.expressions`).
Errors are `CompileError(offset, message, code)` located by the caller.

Each pass over the tree is one `dsl.Visitor`: `CostEstimator` (the resource bound),
`PlayBuilder` and `ExpressionBuilder`; `ProgramCompiler` ties them together for one
variant. Resource bounds (docs/LIMITS.md), checked before anything is built, so that no
rule file can make play hang or exhaust memory:
  * `cost_of(node)`: an upper bound of the work one evaluation can take must stay within
    MAX_WORK; else SR303 at the smallest part over it (`compiler.costs`).
  * movement tables: all of a variant's tables together stay within MAX_TABLE_CELLS; else
    SR303 at the effect that needs the table that does not fit (`compiler.plays`).
  * steps of one move: 1 .. a lap, the safety zone and the step into Home (T + L + 1); else SR508.
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.compiler.costs import MAX_WORK, CostEstimator
from sorry_rules.compiler.expressions import ExpressionBuilder
from sorry_rules.compiler.plays import MAX_TABLE_CELLS, PlayBuilder
from sorry_rules.compiler.ranges import Interval, ValueRange
from sorry_rules.compiler.vocabulary import COUNTS, FACTS, GROUPS, CompileError

__all__ = ["ProgramCompiler", "CompileError", "GROUPS", "COUNTS", "MAX_WORK", "MAX_TABLE_CELLS"]


class ProgramCompiler:
    """Compiles effects and expressions for one variant's mechanics and teams.

    `team_of[c]` is the tuple of colours of c's team (c included); `pawns` is the number of
    pawns per colour (for the cost bound); `counters` the declared counter names (with their
    `counter_starts`), readable in expressions; `mark_names` the declared mark kinds
    (`marks_read` and `marks_placed` collect those selectors read and `mark` places);
    `throws` the faces of each card of a dice game (`engine.dice.Dice.throws`; () with cards).
    `functions_used` collects the count functions compiled since the caller last cleared it.
    Movement tables are reserved across every effect this compiler builds (one variant's budget)."""

    def __init__(self, mechanics, team_of: tuple, pawns: int = 1, counters: tuple = (), counter_starts: tuple = (),
                 mark_names: tuple = (), throws: tuple = (), counter_ranges: tuple = ()):
        self.m = mechanics
        self.mark_names = tuple(mark_names)          # declared mark kinds, in order
        self.throws = tuple(throws)                  # per card: the faces of the throw it is (dice; () for cards)
        self.marks_read: set[str] = set()            # mark names read by a selector so far
        self.marks_placed: dict = {}                 # mark name -> {(player, pawn colour)} a `mark` primitive may mark
        self.counters = tuple(counters)              # declared counter names, in order
        self.counter_starts = tuple(counter_starts)  # their start values
        self.counter_ranges = tuple(counter_ranges)  # their (lowest, highest) values (none given: any)
        self.layout = mechanics.layout
        self.team_of = team_of
        self.pawns = pawns
        self.functions_used: set[str] = set()
        self.following = False  # compiling an after: then: effect (its selectors may read `moved`)
        #: the effects whose outcomes a running `A | B | ...` knows on the position a `can`
        #: reads (`compiler.plays.PlayBuilder.visit_Choice`): shape -> test
        self.known_outcomes: dict = {}
        self._costs = CostEstimator(mechanics, pawns)
        self._effects = PlayBuilder(self)
        self._expressions = ExpressionBuilder(self)

    def number_range(self, node) -> tuple:
        """(lowest, highest) a number expression can be (`compiler.ranges`: counts of a colour
        from none to all its pawns, counters within their ranges; infinite where unknown)."""
        pawns = Interval(0, self.pawns)
        bounds = {name: pawns for name in COUNTS + FACTS}
        bounds["pawns"] = Interval(self.pawns, self.pawns)
        for name, (low, high) in zip(self.counters, self.counter_ranges):
            bounds[name] = Interval(low, high)
        return tuple(ValueRange(bounds, self.layout.C).visit(node))

    def cost_of(self, node) -> tuple[int, int]:
        """`(outcomes, work)` upper bounds of one evaluation of `node` (`compiler.costs`);
        CompileError (SR303) when it could take more than MAX_WORK work to evaluate once.
        Call it before `effect`/`expression`."""
        return self._costs.cost(node)

    def effect(self, node, following: bool = False):
        """The closure of a card effect; CompileError when `node` is not one. `following`: an
        `after:` `then:` effect, played right after a move (its selectors may read `moved`)."""
        outer, self.following = self.following, following
        try:
            return self._effects.visit(node)
        finally:
            self.following = outer

    def can_test(self, node):
        """`test(p, board) -> bool`: whether effect `node` has any outcome for player p (the
        makers' generators stop at the first one). Where the alternative of a choice being
        run is that effect on the same position, the test reads what it listed instead."""
        known = self.known_outcomes.get(dsl.shape(node))
        if known is not None:
            return known()
        effect = self.effect(node)
        gens: dict = {}

        def can(p, pos):
            gen = gens.get(p)
            if gen is None:
                gen = gens[p] = effect(p, 0, None)
            try:
                gen(pos, _FIRST)
            except _Found:
                return True
            return False
        return can

    def expression(self, node, expect, allow_can: bool = False, variables: frozenset = frozenset()):
        """Compile an expression that must produce `expect` (int or bool)."""
        return self._expressions.typed(node, expect, allow_can, variables)


class _Found(Exception):
    """Raised by `_FIRST` at the first outcome: `can(...)` needs no more."""


class _First:
    """An `out` list for generators that stops them at their first option (generators
    undo what they did to the position in `finally` clauses)."""

    def __len__(self) -> int:
        return 0

    def append(self, option) -> None:
        raise _Found

    def extend(self, options) -> None:
        for _ in options:
            raise _Found


_FIRST = _First()
