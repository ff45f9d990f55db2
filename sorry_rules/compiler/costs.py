"""The compile-time cost bound of DSL programs (docs/LIMITS.md), so that no rule file can
make play hang.

Contract: `CostEstimator(mechanics, pawns).cost(node)` (a track) and `GridCosts(cells,
colours).cost(node)` (a grid) return `(outcomes, work)`, upper
bounds of the outcomes one evaluation of `node` can produce and of the work it takes
(`then` multiplies, `can`, aggregates and guards add their own work), each clamped at
`CAP`; it raises `CompileError` (SR303) at the smallest part of the tree whose work is
over MAX_WORK. Every node is checked on the way up, children before their parent.
On a grid, a primitive (`place`, `remove`) has at most one outcome per cell, and each outcome
is a placement of up to every cell, so its work is `cells x max(1, cells // 10)`: `place on
empty then place on empty` on the 10x10 board is about 101,000, three in a row about 10^7
(refused).
"""

from __future__ import annotations

from math import comb, perm

from sorry_rules import dsl
from sorry_rules.base import limits
from sorry_rules.compiler.vocabulary import CompileError

#: Largest estimated work of one evaluation of a card effect, condition or formula.
MAX_WORK = limits.MAX_WORK
#: Estimates are clamped here, so huge texts stay cheap to estimate.
CAP = 10**30


class CostEstimator(dsl.Visitor):
    """`visit_<Node>` returns the unclamped (outcomes, work) of one node; `cost` clamps and
    checks it. Nodes without a method (numbers, names, draw_again, pass) cost (1, 1)."""

    covers = dsl.EFFECT_NODES + dsl.EXPRESSION_NODES
    #: one outcome, one step of work: (1, 1)
    defaulted = (dsl.DrawAgain, dsl.Pass, dsl.Number, dsl.Bool, dsl.Name)

    def __init__(self, mechanics, pawns: int):
        layout = mechanics.layout
        self.pawns = pawns
        self.C = layout.C
        self.group = max(len(colours) for colours in mechanics.control_of)  # colours one player moves
        self.movers = pawns * self.group
        self.targets = max(1, min(layout.T, pawns * (layout.C - 1)))  # other pawns on the track
        self.cells = layout.size  # a grid primitive has at most one outcome per cell
        routes = getattr(mechanics, "routes", None)
        self.ways = 1 + (len(routes.geometry.turns) if routes is not None else 0)  # ways one pawn may go n steps

    def cost(self, node) -> tuple[int, int]:
        out, work = self.visit(node)
        out, work = min(out, CAP), min(work, CAP)
        if work > MAX_WORK:
            what = "effect" if isinstance(node, dsl.EFFECT_NODES) else "expression"
            raise CompileError(node.pos, f"this {what} could take up to {work:,} steps to work out "
                               f"(at most {MAX_WORK:,}); make it smaller", "SR303")
        return out, work

    def generic(self, node):
        return 1, 1

    # ---- primitives ----------------------------------------------------------------------
    def visit_Enter(self, node):
        if node.selector is not None:
            return 2 * self.group, 2 * self.group + self.C * self.pawns
        return self.group, self.group

    def visit_Send(self, node):
        """At most one outcome per pawn the selector's owner word allows (two kinds per shared
        square); one for `every` (all of them at once); the work reads every pawn."""
        every = self.C * self.pawns
        owner = node.selector.owner
        chosen = self.pawns if owner == "own" else self.movers if owner in (None, "controlled") else every
        return (1 if node.selector.every else 2 * chosen), 3 * every

    visit_MovePawn = visit_Mark = visit_Unmark = visit_Send

    def visit_CountPawns(self, node):
        return 1, self.C * self.pawns

    def visit_Forward(self, node):
        if node.selector is not None:
            return self.movers, 2 * self.movers + self.C * self.pawns
        return self.movers, self.movers

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node):
        """A step of the count N read first: N's work, then a step's."""
        out, work = self.visit_Forward(node)
        return out, work + self.visit(node.count)[1]

    visit_BackwardBy = visit_ForwardBy

    def visit_Split(self, node):
        if node.parts:  # in order: per part a pawn (any pawn for a relation part) and a way, per division of the steps
            out = comb(max(node.steps - 1, 0), len(node.parts) - 1)  # 0 steps: none (SR508 is said by the compiler)
            for _, who in node.parts:
                out *= (self.movers if who in (None, "any") else self.pawns * self.C) * self.ways
            return out, max(out, 1)
        movers = self.movers
        most = min(node.among if node.among is not None else node.steps, movers, node.steps)
        out = sum(perm(movers, k) * comb(node.steps - 1, k - 1) for k in range(2, most + 1))
        return out, max(out, 1) + (self.C * self.pawns if node.selector is not None else 0)

    def visit_Switch(self, node):
        return self.movers * self.targets, self.movers * self.targets + self.targets

    def visit_Sorry(self, node):
        return self.group * self.targets, self.group * self.targets + self.targets

    def visit_Place(self, node):
        return self.cells, self.cells * self.outcome_work

    visit_Remove = visit_Place
    #: work of building one outcome of a primitive (a track placement: a few pawns)
    outcome_work = 1

    # ---- combinators ---------------------------------------------------------------------
    def visit_Choice(self, node):
        costs = [self.cost(option) for option in node.options]
        return sum(c[0] for c in costs), sum(c[1] for c in costs)

    def visit_Then(self, node):
        (o1, w1), (o2, w2) = self.cost(node.first), self.cost(node.second)
        if isinstance(node.second, (dsl.DrawAgain, dsl.Pass)):
            return max(o1, 1), w1 + 1
        return max(o1, 1) * max(o2, 1), w1 + max(o1, 1) * w2

    def visit_Guard(self, node):
        (o1, w1), (_, w2) = self.cost(node.effect), self.cost(node.condition)
        return o1, w1 + w2

    # ---- expressions ---------------------------------------------------------------------
    def visit_Can(self, node):
        return 1, self.cost(node.effect)[1] + 1

    def visit_Not(self, node):
        return 1, self.cost(node.operand)[1] + 1

    visit_Neg = visit_Not

    def visit_BinOp(self, node):
        return 1, self.cost(node.left)[1] + self.cost(node.right)[1] + 1

    def visit_Call(self, node):
        return 1, self.cost(node.argument)[1] + self.C * self.pawns

    def visit_Aggregate(self, node):
        return 1, self.C * (self.cost(node.body)[1] + 1)


class GridCosts(CostEstimator):
    """`CostEstimator` of a grid's card effects and expressions: `cells` cells (each a chip at
    most), `colours` colours; an outcome of a primitive is a placement of the whole grid."""

    covers, defaulted = CostEstimator.covers, CostEstimator.defaulted  # the same cases, other sizes

    def __init__(self, cells: int, colours: int):
        self.cells = max(1, cells)
        self.C = max(1, colours)
        self.pawns = self.cells  # chips of one colour, for counts (`chips(G)`)
        self.group = 1
        self.movers = self.targets = self.cells
        self.ways = 1
        self.outcome_work = max(1, self.cells // 10)
