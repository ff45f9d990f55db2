"""Conditions and numbers compiled into closures: `expr(p, board, env) -> int | bool`.

`p` is the colour whose point of view the expression takes (`player`), `board.pos[c]` lists
colour c's squares and `env` maps aggregate variables to colours (None outside aggregates).
A colour takes part in a game when it has pawns.

Contract: `ExpressionBuilder(compiler).visit(node, allow_can, variables)` returns
`(kind, closure)` with kind `int` or `bool`, or raises `CompileError` at the node that has
no meaning there: an unknown name, function or group (SR302, listing what is known and
suggesting the close name), a construct not allowed there or of the wrong type (SR304).
`allow_can` says whether `can(...)` may appear (card effects only); `variables` are the
aggregate variables in scope, plus the marker `MOVE` where a move is being judged (filters
and consequences): only there may facts (`bumps(opponents)`, FACTS) appear, reading
`env["@events"]`, and the facts of the throw (`total`, `doubles`, `thrown(N)`, THROW_FACTS),
reading the move's card `env["@card"]` through `compiler.throws`. Declared counters
(`compiler.counters`, read as `NAME(group)`) read `env["@counters"]`, or in a card effect's
guards (no env) the board's `counters` (`engine.position.Position.counters`, the values as the
card is played); their start values when absent. Every count function compiled is added to
`compiler.functions_used`; `compiler.effect(node)` compiles the effect inside `can(...)`.
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.compiler.selectors import compile_selector
from sorry_rules.compiler.vocabulary import COUNTS, FACTS, GROUPS, LITERALS, MOVE, CompileError, unknown
from sorry_rules.engine import pawns
from sorry_rules.engine.events import bumped_to, moved_to, stood_before
from sorry_rules.engine.facts import FACTS as FACT_FUNCTIONS

_OPS = {
    "+": (int, lambda x, y: x + y), "-": (int, lambda x, y: x - y), "*": (int, lambda x, y: x * y),
    "==": (bool, lambda x, y: x == y), "!=": (bool, lambda x, y: x != y),
    "<": (bool, lambda x, y: x < y), "<=": (bool, lambda x, y: x <= y),
    ">": (bool, lambda x, y: x > y), ">=": (bool, lambda x, y: x >= y),
}


def _count_home(layout, group):
    home = layout.home

    def count_home(p, b, env):
        total = 0
        for c in group(p, b, env):
            total += b.pos[c].count(home[c])
        return total
    return count_home


def _count_start(layout, group):
    start = layout.start
    return lambda p, b, env: sum(b.pos[c].count(start[c]) for c in group(p, b, env))


def _count_pawns(layout, group):
    return lambda p, b, env: sum(len(b.pos[c]) for c in group(p, b, env))


def _count_track(layout, group):
    T = layout.T
    return lambda p, b, env: sum(1 for c in group(p, b, env) for sq in b.pos[c] if sq < T)


def _count_safety(layout, group):
    T, X = layout.T, layout.X
    return lambda p, b, env: sum(1 for c in group(p, b, env) for sq in b.pos[c] if T <= sq < X)


#: count function -> maker of its closure from (layout, group closure); keys are COUNTS.
_COUNTERS = {"home": _count_home, "pawns": _count_pawns, "start": _count_start, "safety": _count_safety,
             "track": _count_track}
assert tuple(_COUNTERS) == COUNTS
assert tuple(FACT_FUNCTIONS) == FACTS


#: aggregate kind -> maker of its closure from the generator of its body's values.
_AGGREGATES = {
    "sum": lambda values: lambda p, b, env: sum(values(p, b, env)),
    "count": lambda values: lambda p, b, env: sum(1 for v in values(p, b, env) if v),
    "max": lambda values: lambda p, b, env: max(values(p, b, env), default=0),
    "min": lambda values: lambda p, b, env: min(values(p, b, env), default=0),
}


class GroupBuilder(dsl.Visitor):
    """A group argument (a group name or an aggregate variable) -> fn(p, b, env) -> colours."""

    covers = (dsl.Name,)  # a group argument is a name; anything else is refused

    def __init__(self, layout, team_of):
        C = layout.C
        # Groups are static per colour; colours not in the game have no pawns or chips, so they
        # add nothing to counts, and aggregates skip them (`ExpressionBuilder.seated`).
        self.tables = {
            "player": tuple((p,) for p in range(C)),
            "team": team_of,
            "partners": tuple(tuple(c for c in team_of[p] if c != p) for p in range(C)),
            "opponents": tuple(tuple(c for c in range(C) if c not in team_of[p]) for p in range(C)),
            "players": tuple(tuple(range(C)) for _ in range(C)),
        }
        assert tuple(self.tables) == GROUPS

    def generic(self, node, variables):
        raise CompileError(node.pos, f"expected a group of players ({', '.join(GROUPS)}) or an aggregate variable", "SR304")

    def visit_Name(self, node, variables):
        name = node.name
        if name in variables:
            return lambda p, b, env: (env[name],)
        if name not in GROUPS:
            raise CompileError(node.pos, unknown("group", name, GROUPS + tuple(sorted(v for v in variables if v != MOVE))))
        table = self.tables[name]
        return lambda p, b, env: table[p]


class ExpressionBuilder(dsl.Visitor):
    covers = dsl.EXPRESSION_NODES

    def __init__(self, compiler):
        self.compiler = compiler
        self.layout = compiler.layout
        self.groups = GroupBuilder(compiler.layout, compiler.team_of)

    @staticmethod
    def seated(b, c: int) -> bool:
        """Whether colour c plays on board `b` (the colours an aggregate ranges over): on a
        track, a colour in the game has pawns and one not in it has none."""
        return bool(b.pos[c])

    def typed(self, node, expect, allow_can, variables):
        """The closure of `node`, which must produce `expect` (int or bool); else SR304."""
        kind, fn = self.visit(node, allow_can, variables)
        if kind is not expect:
            wanted = "a condition (true/false)" if expect is bool else "a number"
            raise CompileError(node.pos, f"expected {wanted} here", "SR304")
        return fn

    def generic(self, node, allow_can, variables):
        raise CompileError(node.pos, "a card effect cannot stand here; wrap it in can(...)", "SR304")

    # ---- literals and names --------------------------------------------------------------
    def visit_Number(self, node, allow_can, variables):
        value = node.value
        return bool if isinstance(node, dsl.Bool) else int, lambda p, b, env: value

    visit_Bool = visit_Number

    def visit_Name(self, node, allow_can, variables):
        name = node.name
        if name in ("total", "doubles") and name not in variables:
            return self._throw_fact(node, name, variables)
        if name in GROUPS or name in variables:
            raise CompileError(node.pos, f"'{name}' is a group of players; count something of it, e.g. home({name})", "SR304")
        if name in COUNTS:
            raise CompileError(node.pos, f"unknown name '{name}'; '{name}' counts pawns of a group: write {name}(G), "
                                         f"e.g. {name}(team)")
        if name in self.compiler.counters or name in FACTS:
            what = "counter" if name in self.compiler.counters else "fact"
            raise CompileError(node.pos, f"unknown name '{name}'; the {what} '{name}' is read for a group: write "
                                         f"{name}(G), e.g. {name}(player)")
        in_scope = tuple(sorted(v for v in variables if v != MOVE))
        throw = ("total", "doubles") if MOVE in variables else ()
        raise CompileError(node.pos, unknown("name", name, COUNTS + GROUPS + in_scope + throw + LITERALS))

    # ---- operators -----------------------------------------------------------------------
    def visit_Can(self, node, allow_can, variables):
        if not allow_can:
            raise CompileError(node.pos, "can(...) asks about a card's moves; it is only allowed in card effects", "SR304")
        test = self.compiler.can_test(node.effect)
        return bool, lambda p, b, env: test(p, b)

    def visit_Not(self, node, allow_can, variables):
        operand = self.typed(node.operand, bool, allow_can, variables)
        return bool, lambda p, b, env: not operand(p, b, env)

    def visit_Neg(self, node, allow_can, variables):
        operand = self.typed(node.operand, int, allow_can, variables)
        return int, lambda p, b, env: -operand(p, b, env)

    def visit_BinOp(self, node, allow_can, variables):
        op = node.op
        operands = bool if op in ("and", "or") else int
        left = self.typed(node.left, operands, allow_can, variables)
        right = self.typed(node.right, operands, allow_can, variables)
        if op == "and":
            return bool, lambda p, b, env: left(p, b, env) and right(p, b, env)
        if op == "or":
            return bool, lambda p, b, env: left(p, b, env) or right(p, b, env)
        kind, f = _OPS[op]
        return kind, lambda p, b, env: f(left(p, b, env), right(p, b, env))

    # ---- counts and aggregates -----------------------------------------------------------
    def visit_CountPawns(self, node, allow_can, variables):
        """`count(pawns SELECTOR)`: the pawns chosen from the player's point of view, on the
        board judged (a card's guard, a win or score condition) or, where a move is judged,
        after it (its marks included)."""
        if not hasattr(self.compiler, "mark_names"):
            raise CompileError(node.pos, "count(pawns ...) counts pawns of a race track; this board has none", "SR304")
        selector = compile_selector(self.compiler, node.selector, moved_ok=MOVE in variables or self.compiler.following)
        layout = self.layout
        self.compiler.functions_used.add("count_pawns")  # not a Home-only win condition (build.win_on_home_only)
        start, stacked = layout.start, layout.stacked

        bumped = selector.bumped

        def count_pawns(p, b, env):
            if b is None:  # a move judged on its events alone (`vocab.events_only`: a `moved_only` selector)
                events = env["@events"]
                return pawns.count_moved(selector, layout, p, bumped_to(start, events) if bumped else moved_to(start, events))
            marks = getattr(b, "marks", None)
            if marks is None:
                marks = env.get("@marks", ()) if env else ()
            moved = getattr(b, "bumped" if bumped else "moved", frozenset())
            if selector.moved and env and "@events" in env:  # `b` is the board after the move judged
                events = env["@events"]
                moved = bumped_to(start, events) if bumped else \
                    moved_to(start, events, stood_before(b.pos, events) if stacked else None)
            return pawns.count(selector, layout, p, b.pos, marks, moved)
        return int, count_pawns

    def visit_Call(self, node, allow_can, variables):
        if node.function in FACTS:
            return int, self._fact(node, variables)
        if node.function == "thrown":
            return self._throw_fact(node, "thrown", variables)
        if node.function in self.compiler.counters:
            return int, self._counter(node, allow_can, variables)
        if node.function not in COUNTS:
            known = COUNTS + (FACTS + ("thrown",) if MOVE in variables else ()) + tuple(self.compiler.counters)
            raise CompileError(node.pos, unknown("function", node.function, tuple(dict.fromkeys(known))))
        group = self.groups.visit(node.argument, variables)
        self.compiler.functions_used.add(node.function)
        return int, _COUNTERS[node.function](self.layout, group)

    def _fact(self, node, variables):
        if MOVE not in variables:
            raise CompileError(node.pos, f"'{node.function}(...)' is a fact about a move; it can only be read in filters:, "
                                         "after: and after a move (B of 'A then B', an after: then: effect)", "SR304")
        group = self.groups.visit(node.argument, variables)
        fact, layout = FACT_FUNCTIONS[node.function], self.layout
        self.compiler.functions_used.add(node.function)
        return lambda p, b, env: fact(layout, env["@events"], group(p, b, env))

    def _throw_fact(self, node, fact: str, variables):
        """`total`, `doubles` and `thrown(N)`: facts of the throw being judged (`engine.dice`),
        read from the move's card (a card of a deck: no dice, so 0 and false)."""
        if MOVE not in variables:
            raise CompileError(node.pos, f"'{fact}' is a fact about the throw of a move; it can only be read in filters:, "
                                         "after: and after a move (B of 'A then B', an after: then: effect)", "SR304")
        throws = self.compiler.throws
        if fact == "doubles":
            doubles = tuple(len(t) > 1 and len(set(t)) == 1 for t in throws)
            return bool, lambda p, b, env: bool(doubles) and env["@card"] is not None and doubles[env["@card"]]
        if fact == "total":
            values = tuple(sum(t) for t in throws)
        elif not isinstance(node.argument, dsl.Number):
            raise CompileError(node.argument.pos, "thrown(N) counts the dice showing the number N: write a number", "SR304")
        else:
            values = tuple(t.count(node.argument.value) for t in throws)
        return int, lambda p, b, env: values[env["@card"]] if values and env["@card"] is not None else 0

    def _counter(self, node, allow_can, variables):
        group = self.groups.visit(node.argument, variables)
        index = self.compiler.counters.index(node.function)
        start = self.compiler.counter_starts[index]
        self.compiler.functions_used.add(node.function)

        def counter(p, b, env):
            values = env.get("@counters") if env else None
            if values is None:  # a card's guard (no env, or an aggregate's variables only): the position's
                values = getattr(b, "counters", None)
            if not values:
                return start * len(group(p, b, env))
            return sum(values[c][index] for c in group(p, b, env))
        return counter

    def visit_Aggregate(self, node, allow_can, variables):
        if node.variable in GROUPS or node.variable in variables:
            raise CompileError(node.pos, f"aggregate variable '{node.variable}' hides a name already in use", "SR304")
        group = self.groups.visit(dsl.Name(node.group_pos, node.group), variables)
        inner_vars = variables | {node.variable}
        variable = node.variable
        body = self.typed(node.body, bool if node.kind == "count" else int, allow_can, inner_vars)
        seated = self.seated

        def values(p, b, env):
            for c in group(p, b, env):
                if not seated(b, c):
                    continue
                scope = dict(env or {})
                scope[variable] = c
                yield body(p, b, scope)

        return int, _AGGREGATES[node.kind](values)
