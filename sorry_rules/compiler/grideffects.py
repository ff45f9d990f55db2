"""Card effects and expressions of grid boards compiled into closures.

Effects compile to `effect(p, view) -> list[(placement, events)]` over a
`engine.gridmechanics.GridView`; the primitives (`place on card`, `place on empty`,
`remove RELATION [unprotected]`) call `engine.gridmechanics`, and the combinators mean what
they mean on a track (docs/REFERENCE.md section 2.1): `A | B` both, `A then B` B on what A
left (A alone where B has nothing, B alone where A has nothing), `A if C` A when C holds
before it. Track primitives
(enter, forward, ...) have no meaning on a grid: SR304 at the primitive.

Expressions are the track's (`compiler.expressions`) with the grid's counts: `sequences(G)`
(the sequence count of the colours of G, S11), `chips(G)` (their chips), and the name
`sides` (colours in the game).

Contract: `GridCompiler(grid, team_of, relation)` offers `effect(node, card)` and
`expression(node, expect)`; both raise `CompileError` at the node that has no meaning.
`shape(node, card)` is the shape of an effect that is one primitive (a tuple of
`engine.gridmechanics.SHAPE_*` and integers, for `engine.gridtable`), or None.
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.compiler.expressions import ExpressionBuilder
from sorry_rules.compiler.geometry import RELATIONS
from sorry_rules.compiler.vocabulary import GROUPS, LITERALS, CompileError, unknown
from sorry_rules.engine import gridmechanics as gm

#: count functions of grid expressions
GRID_COUNTS = ("sequences", "chips")
#: names of grid expressions
GRID_NAMES = ("sides",)

NOT_A_GRID_EFFECT = "expected a grid card effect here (place on card, place on empty, remove RELATION [unprotected])"

#: the primitives of race tracks, which mean nothing on a grid
TRACK_PRIMITIVES = tuple(node for node in dsl.PRIMITIVES if node not in (dsl.Place, dsl.Remove))


def _removable(relation: tuple, word: str) -> tuple:
    """Per colour p, the colours whose chips `remove WORD` takes (`relation[p][o]` says how o is to p)."""
    return tuple(tuple(o for o in range(len(row)) if row[o] in RELATIONS[word]) for row in relation)


class GridEffectBuilder(dsl.Visitor):
    covers = dsl.EFFECT_NODES
    #: track primitives: no meaning on a grid (`generic` refuses them, SR304)
    defaulted = TRACK_PRIMITIVES

    def __init__(self, compiler):
        self.compiler = compiler
        self.grid = compiler.layout

    def generic(self, node, card):
        raise CompileError(node.pos, NOT_A_GRID_EFFECT, "SR304")

    def visit_Place(self, node, card):
        if node.target == "empty":
            return gm.place_empty
        cells = self.grid.cells_of_card.get(card, ())
        return lambda p, view: gm.place(p, view, cells)

    def visit_Remove(self, node, card):
        colours = _removable(self.compiler.relation, node.relation)
        unprotected = node.unprotected
        return lambda p, view: gm.remove(p, view, colours[p], unprotected)

    def visit_Choice(self, node, card):
        options = [self.visit(option, card) for option in node.options]

        def choice(p, view):
            out = []
            for option in options:
                out.extend(option(p, view))
            return out
        return choice

    def visit_Guard(self, node, card):
        effect = self.visit(node.effect, card)
        condition = self.compiler.expression(node.condition, bool, allow_can=True)
        return lambda p, view: effect(p, view) if condition(p, view, None) else []

    def visit_Then(self, node, card):
        first, second = self.visit(node.first, card), self.visit(node.second, card)

        both = node.both

        def then(p, view):
            done = first(p, view)
            if not done:  # A has no outcome: B's outcomes (REFERENCE section 2.1), none of `both`
                return [] if both else second(p, view)
            out = []
            for placement, events in done:
                after = second(p, gm.GridView(placement, view.seated, view.grid))
                if not after and not both:
                    out.append((placement, events))
                out.extend((result, events + more) for result, more in after)
            return out
        return then


class GridShapeBuilder(dsl.Visitor):
    """The shape of a card's effect (`engine.gridmechanics.SHAPE_*`) when it is one
    primitive, else None (combinators and guards: only the closure plays them)."""

    covers = dsl.EFFECT_NODES
    #: not one grid primitive: no shape (None)
    defaulted = TRACK_PRIMITIVES + (dsl.Choice, dsl.Then, dsl.Guard)

    def __init__(self, compiler):
        self.compiler = compiler

    def generic(self, node, card):
        return None

    def visit_Place(self, node, card):
        if node.target == "empty":
            return (gm.SHAPE_EMPTY,)
        return (gm.SHAPE_CELLS, self.compiler.layout.cells_of_card.get(card, ()))

    def visit_Remove(self, node, card):
        return (gm.SHAPE_REMOVE, _removable(self.compiler.relation, node.relation), bool(node.unprotected))


class GridExpressionBuilder(ExpressionBuilder):
    """`compiler.expressions.ExpressionBuilder` with the counts and names of grid boards."""

    covers = dsl.EXPRESSION_NODES

    @staticmethod
    def seated(b, c: int) -> bool:
        """Whether colour c is seated (a seated colour may have no chip yet)."""
        return c in b.seated

    def visit_Name(self, node, allow_can, variables):
        if node.name == "sides":
            return int, lambda p, b, env: b.sides
        if node.name in GRID_COUNTS:
            raise CompileError(node.pos, f"'{node.name}' counts for a group: write {node.name}(G), e.g. {node.name}(team)")
        if node.name in GROUPS or node.name in variables:
            return super().visit_Name(node, allow_can, variables)
        raise CompileError(node.pos, unknown("name", node.name, GRID_COUNTS + GRID_NAMES + GROUPS
                                             + tuple(sorted(variables)) + LITERALS))

    def visit_Call(self, node, allow_can, variables):
        if node.function not in GRID_COUNTS:
            raise CompileError(node.pos, unknown("function", node.function, GRID_COUNTS))
        group = self.groups.visit(node.argument, variables)
        self.compiler.functions_used.add(node.function)
        if node.function == "chips":
            return int, lambda p, b, env: sum(len(b.pos[c]) for c in group(p, b, env))
        return int, lambda p, b, env: sum(b.sequences(c) for c in group(p, b, env))


class GridCompiler:
    """Compiles the effects and expressions of one grid variant."""

    def __init__(self, grid, team_of: tuple, relation: tuple):
        self.layout = grid
        self.team_of = team_of
        self.relation = relation
        self.functions_used: set[str] = set()
        self._effects = GridEffectBuilder(self)
        self._shapes = GridShapeBuilder(self)
        self._expressions = GridExpressionBuilder(self)
        self.card = None  # the card whose effect is being compiled (`effect`)

    def effect(self, node, card):
        """The closure of a card effect for `card` (the card `place on card` looks for)."""
        self.card = card
        return self._effects.visit(node, card)

    def can_test(self, node):
        """`test(p, view) -> bool`: whether effect `node`, played with the card whose effect
        is being compiled, has any outcome for player p (`can(...)` in a card's guard)."""
        effect = self._effects.visit(node, self.card)
        return lambda p, view: bool(effect(p, view))

    def shape(self, node, card):
        """The shape of `card`'s effect `node` (`GridShapeBuilder`), or None."""
        return self._shapes.visit(node, card)

    def expression(self, node, expect, allow_can: bool = False, variables: frozenset = frozenset()):
        return self._expressions.typed(node, expect, allow_can, variables)
