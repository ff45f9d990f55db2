"""Compile DSL ASTs into Python closures (no AST is walked at play time).

Effects compile to `effect(p, board) -> list[outcome]` (outcomes: see mechanics.py); `board`
is a `mechanics.Board` of the position the effect starts from.
Expressions compile to `expr(p, board, env) -> int | bool`, where `p` is the colour whose
point of view the expression takes (`player`), `board.pos[c]` lists colour c's squares and
`env` maps aggregate variables to colours. A colour takes part in a game when it has pawns.

Semantics of the combinators (docs/REFERENCE.md):
  A | B       the legal outcomes of A and those of B
  A then B    each outcome of A followed by each outcome of B on the board A left; where B
              has no outcome, A's outcome alone; where A has none, B alone
  A if C      A's outcomes when condition C holds on the board before A, else none
Errors are `CompileError(offset, message, code)` located by the caller.

Resource bounds (docs/LIMITS.md), checked before anything is built, so that no rule file can
make play hang or exhaust memory:
  * `check_cost(node)`: an upper bound of the work one evaluation can take (outcomes an
    effect can produce, with `then` multiplying and `can`, aggregates and guards adding
    their own work) must stay within MAX_WORK; else SR303 at the smallest part over it.
  * movement tables: every distinct `forward N`, `backward N` and split part needs one
    table of colours x squares entries; all of a variant's tables together stay within
    MAX_TABLE_CELLS; else SR303 at the effect that needs the table that does not fit.
  * steps of one move: 1 .. one lap plus the safety zone (T + L + 1); else SR508.
"""

from __future__ import annotations

from math import comb, perm

from sorry_rules import dsl
from sorry_rules.base import limits
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS, Board

#: Largest estimated work of one evaluation of a card effect, condition or formula.
MAX_WORK = limits.MAX_WORK
#: Largest number of movement-table entries (colours x squares per table) of one variant.
MAX_TABLE_CELLS = limits.MAX_TABLE_CELLS
_CAP = 10**30  # estimates are clamped here, so huge texts stay cheap to estimate


class CompileError(Exception):
    def __init__(self, offset: int, message: str, code: str = "SR302"):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.code = code


GROUPS = ("player", "team", "partners", "opponents", "players")
COUNTS = ("home", "pawns", "start", "safety", "track")


class ProgramCompiler:
    """Compiles effects and expressions for one variant's mechanics and teams."""

    def __init__(self, mechanics, team_of: tuple, pawns: int = 1):
        self.m = mechanics
        self.layout = mechanics.layout
        self.team_of = team_of  # colour -> tuple of colours of its team (itself included)
        self.pawns = pawns  # pawns per colour (for the cost bound)
        self.functions_used: set[str] = set()  # count functions seen since the last reset
        self.tables: set[tuple[str, int]] = set()  # movement tables reserved so far

    # ---- resource bounds -----------------------------------------------------------------
    def check_cost(self, node) -> int:
        """Raise CompileError (SR303) when `node` could take more than MAX_WORK work to
        evaluate once; return the estimate. Call it before `effect`/`expression`."""
        return self._cost(node)[1]

    def _cost(self, node) -> tuple[int, int]:
        """(outcomes, work) upper bounds of one evaluation of `node`."""
        out, work = self._estimate(node)
        out, work = min(out, _CAP), min(work, _CAP)
        if work > MAX_WORK:
            what = "effect" if isinstance(node, dsl.EFFECT_NODES) else "expression"
            raise CompileError(node.pos, f"this {what} could take up to {work:,} steps to work out "
                               f"(at most {MAX_WORK:,}); make it smaller", "SR303")
        return out, work

    def _estimate(self, node) -> tuple[int, int]:
        layout, m = self.layout, self.m
        group = max(len(colours) for colours in m.control_of)  # colours one player moves
        movers = self.pawns * group
        targets = max(1, min(layout.T, self.pawns * (layout.C - 1)))  # other pawns on the track
        if isinstance(node, dsl.Enter):
            return group, group
        if isinstance(node, (dsl.Forward, dsl.Backward)):
            return movers, movers
        if isinstance(node, dsl.Split):
            most = min(node.among if node.among is not None else node.steps, movers, node.steps)
            out = sum(perm(movers, k) * comb(node.steps - 1, k - 1) for k in range(2, most + 1))
            return out, max(out, 1)
        if isinstance(node, dsl.Switch):
            return movers * targets, movers * targets + targets
        if isinstance(node, dsl.Sorry):
            return group * targets, group * targets + targets
        if isinstance(node, (dsl.DrawAgain, dsl.Pass, dsl.Number, dsl.Bool, dsl.Name)):
            return 1, 1
        if isinstance(node, dsl.Choice):
            costs = [self._cost(option) for option in node.options]
            return sum(c[0] for c in costs), sum(c[1] for c in costs)
        if isinstance(node, dsl.Then):
            (o1, w1), (o2, w2) = self._cost(node.first), self._cost(node.second)
            if isinstance(node.second, (dsl.DrawAgain, dsl.Pass)):
                return max(o1, 1), w1 + 1
            return max(o1, 1) * max(o2, 1), w1 + max(o1, 1) * w2
        if isinstance(node, dsl.Guard):
            (o1, w1), (_, w2) = self._cost(node.effect), self._cost(node.condition)
            return o1, w1 + w2
        if isinstance(node, dsl.Can):
            return 1, self._cost(node.effect)[1] + 1
        if isinstance(node, (dsl.Not, dsl.Neg)):
            return 1, self._cost(node.operand)[1] + 1
        if isinstance(node, dsl.BinOp):
            return 1, self._cost(node.left)[1] + self._cost(node.right)[1] + 1
        if isinstance(node, dsl.Call):
            return 1, self._cost(node.argument)[1] + layout.C * self.pawns
        if isinstance(node, dsl.Aggregate):
            return 1, layout.C * (self._cost(node.body)[1] + 1)
        return 1, 1

    def _reserve_tables(self, node, kind: str, counts) -> None:
        """Account for the movement tables `node` needs; CompileError (SR303) when the
        variant's tables would exceed MAX_TABLE_CELLS."""
        wanted = self.tables | {(kind, n) for n in counts}
        cells = len(wanted) * self.layout.C * self.layout.size
        if cells > MAX_TABLE_CELLS:
            raise CompileError(node.pos, f"the movement tables for this board would need {cells:,} entries "
                               f"(at most {MAX_TABLE_CELLS:,}); use fewer or smaller step counts on a board this large", "SR303")
        self.tables = wanted

    # ---- effects -------------------------------------------------------------------------
    def effect(self, node):
        m = self.m
        layout = self.layout
        if isinstance(node, dsl.Enter):
            return m.enter
        if isinstance(node, dsl.Forward):
            self._check_steps(node, node.steps)
            self._reserve_tables(node, "forward", (node.steps,))
            table = layout.forward(node.steps)
            return lambda p, board: m.step(table, "forward", p, board)
        if isinstance(node, dsl.Backward):
            self._check_steps(node, node.steps)
            self._reserve_tables(node, "backward", (node.steps,))
            table = layout.backward(node.steps)
            return lambda p, board: m.step(table, "backward", p, board)
        if isinstance(node, dsl.Split):
            self._check_steps(node, node.steps)
            if node.among is not None and node.among < 2:
                raise CompileError(node.pos, f"split {node.steps} among {node.among}: a split needs at least 2 pawns", "SR508")
            if node.steps < 2:
                raise CompileError(node.pos, f"split {node.steps}: a split needs at least 2 steps (one per pawn)", "SR508")
            self._reserve_tables(node, "forward", range(1, node.steps + 1))
            steps, among = node.steps, node.among
            return lambda p, board: m.split(steps, among, layout.forward, p, board)
        if isinstance(node, dsl.Switch):
            relation = node.relation
            if relation == "own":
                raise CompileError(node.pos, "switch own: a pawn cannot switch with its own colour; use opponent, partner or other", "SR304")
            return lambda p, board: m.switch(relation, p, board)
        if isinstance(node, dsl.Sorry):
            relation = node.relation
            if relation == "own":
                raise CompileError(node.pos, "sorry own: a pawn cannot replace its own colour; use opponent, partner or other", "SR304")
            return lambda p, board: m.sorry(relation, p, board)
        if isinstance(node, dsl.DrawAgain):
            return lambda p, board: [(board.placement(), (), DRAW_AGAIN)]
        if isinstance(node, dsl.Pass):
            return lambda p, board: [(board.placement(), (), PASS)]
        if isinstance(node, dsl.Choice):
            options = tuple(self.effect(o) for o in node.options)

            def choice(p, board):
                out = []
                for option in options:
                    out.extend(option(p, board))
                return out

            return choice
        if isinstance(node, dsl.Then):
            first, second = self.effect(node.first), self.effect(node.second)
            exclusive = layout.X
            if isinstance(node.second, (dsl.DrawAgain, dsl.Pass)):
                flag = DRAW_AGAIN if isinstance(node.second, dsl.DrawAgain) else PASS

                def then_flag(p, board):
                    firsts = first(p, board)
                    if not firsts:
                        return second(p, board)
                    return [(b1, e1, f1 | flag) for b1, e1, f1 in firsts]

                return then_flag

            def then(p, board):
                firsts = first(p, board)
                if not firsts:
                    return second(p, board)
                out = []
                for b1, e1, f1 in firsts:
                    seconds = second(p, Board.of(b1, exclusive))
                    if not seconds:
                        out.append((b1, e1, f1))
                    for b2, e2, f2 in seconds:
                        out.append((b2, e1 + e2, f1 | f2))
                return out

            return then
        if isinstance(node, dsl.Guard):
            inner = self.effect(node.effect)
            condition = self.expression(node.condition, expect=bool, allow_can=True)
            return lambda p, board: inner(p, board) if condition(p, board, None) else []
        raise CompileError(node.pos, "expected a card effect here (enter, forward N, backward N, split, switch, sorry, draw_again, pass)", "SR304")

    def _check_steps(self, node, steps: int) -> None:
        limit = self.layout.T + self.layout.L + 1
        if not 1 <= steps <= limit:
            raise CompileError(node.pos, f"{steps} steps: must be between 1 and {limit} (one lap plus the safety zone)", "SR508")

    # ---- expressions ---------------------------------------------------------------------
    def expression(self, node, expect, allow_can: bool = False, variables: frozenset = frozenset()):
        """Compile an expression that must produce `expect` (int or bool)."""
        kind, fn = self._expr(node, allow_can, variables)
        if kind is not expect:
            wanted = "a condition (true/false)" if expect is bool else "a number"
            raise CompileError(node.pos, f"expected {wanted} here", "SR304")
        return fn

    def _expr(self, node, allow_can, variables):
        if isinstance(node, dsl.Number):
            value = node.value
            return int, lambda p, b, env: value
        if isinstance(node, dsl.Bool):
            value = node.value
            return bool, lambda p, b, env: value
        if isinstance(node, dsl.Can):
            if not allow_can:
                raise CompileError(node.pos, "can(...) asks about a card's moves; it is only allowed in card effects", "SR304")
            effect = self.effect(node.effect)
            return bool, lambda p, b, env: bool(effect(p, b))
        if isinstance(node, dsl.Not):
            operand = self.expression(node.operand, bool, allow_can, variables)
            return bool, lambda p, b, env: not operand(p, b, env)
        if isinstance(node, dsl.Neg):
            operand = self.expression(node.operand, int, allow_can, variables)
            return int, lambda p, b, env: -operand(p, b, env)
        if isinstance(node, dsl.BinOp):
            return self._binop(node, allow_can, variables)
        if isinstance(node, dsl.Call):
            if node.function not in COUNTS:
                raise CompileError(node.pos, f"unknown function '{node.function}'; known: {', '.join(COUNTS)}")
            group = self._group(node.argument, variables)
            self.functions_used.add(node.function)
            return int, self._count(node.function, group)
        if isinstance(node, dsl.Aggregate):
            return self._aggregate(node, allow_can, variables)
        if isinstance(node, dsl.Name):
            if node.name in GROUPS or node.name in variables:
                raise CompileError(node.pos, f"'{node.name}' is a group of players; count something of it, e.g. home({node.name})", "SR304")
            raise CompileError(node.pos, f"unknown name '{node.name}'")
        raise CompileError(node.pos, "a card effect cannot stand here; wrap it in can(...)", "SR304")

    def _binop(self, node, allow_can, variables):
        op = node.op
        if op in ("and", "or"):
            left = self.expression(node.left, bool, allow_can, variables)
            right = self.expression(node.right, bool, allow_can, variables)
            if op == "and":
                return bool, lambda p, b, env: left(p, b, env) and right(p, b, env)
            return bool, lambda p, b, env: left(p, b, env) or right(p, b, env)
        left = self.expression(node.left, int, allow_can, variables)
        right = self.expression(node.right, int, allow_can, variables)
        ops = {
            "+": (int, lambda x, y: x + y), "-": (int, lambda x, y: x - y), "*": (int, lambda x, y: x * y),
            "==": (bool, lambda x, y: x == y), "!=": (bool, lambda x, y: x != y),
            "<": (bool, lambda x, y: x < y), "<=": (bool, lambda x, y: x <= y),
            ">": (bool, lambda x, y: x > y), ">=": (bool, lambda x, y: x >= y),
        }
        kind, f = ops[op]
        return kind, lambda p, b, env: f(left(p, b, env), right(p, b, env))

    def _group(self, node, variables):
        """A group argument: a group name or an aggregate variable -> fn(p, b, env) -> colours."""
        if not isinstance(node, dsl.Name):
            raise CompileError(node.pos, f"expected a group of players ({', '.join(GROUPS)}) or an aggregate variable", "SR304")
        name = node.name
        if name in variables:
            return lambda p, b, env: (env[name],)
        if name not in GROUPS:
            raise CompileError(node.pos, f"unknown group '{name}'; known: {', '.join(GROUPS)}")
        # Groups are static per colour; colours not in the game have no pawns, so they add
        # nothing to counts, and aggregates skip them.
        C = self.layout.C
        team_of = self.team_of
        table = {
            "player": tuple((p,) for p in range(C)),
            "team": team_of,
            "partners": tuple(tuple(c for c in team_of[p] if c != p) for p in range(C)),
            "opponents": tuple(tuple(c for c in range(C) if c not in team_of[p]) for p in range(C)),
            "players": tuple(tuple(range(C)) for _ in range(C)),
        }[name]
        return lambda p, b, env: table[p]

    def _count(self, function: str, group):
        layout = self.layout
        home, start, T, X = layout.home, layout.start, layout.T, layout.X
        if function == "home":
            def count_home(p, b, env):
                total = 0
                for c in group(p, b, env):
                    total += b.pos[c].count(home[c])
                return total
            return count_home
        if function == "start":
            return lambda p, b, env: sum(b.pos[c].count(start[c]) for c in group(p, b, env))
        if function == "pawns":
            return lambda p, b, env: sum(len(b.pos[c]) for c in group(p, b, env))
        if function == "track":
            return lambda p, b, env: sum(1 for c in group(p, b, env) for sq in b.pos[c] if sq < T)
        return lambda p, b, env: sum(1 for c in group(p, b, env) for sq in b.pos[c] if T <= sq < X)

    def _aggregate(self, node, allow_can, variables):
        if node.variable in GROUPS or node.variable in variables:
            raise CompileError(node.pos, f"aggregate variable '{node.variable}' hides a name already in use", "SR304")
        group = self._group(dsl.Name(node.group_pos, node.group), variables)
        inner_vars = variables | {node.variable}
        variable = node.variable
        if node.kind == "count":
            body = self.expression(node.body, bool, allow_can, inner_vars)
        else:
            body = self.expression(node.body, int, allow_can, inner_vars)

        def values(p, b, env):
            for c in group(p, b, env):
                if not b.pos[c]:
                    continue  # not in this game
                scope = dict(env or {})
                scope[variable] = c
                yield body(p, b, scope)

        if node.kind == "sum":
            return int, lambda p, b, env: sum(values(p, b, env))
        if node.kind == "count":
            return int, lambda p, b, env: sum(1 for v in values(p, b, env) if v)
        if node.kind == "max":
            return int, lambda p, b, env: max(values(p, b, env), default=0)
        return int, lambda p, b, env: min(values(p, b, env), default=0)


def is_move(flags: int, events: tuple) -> bool:
    """An outcome that plays the card: it moves a pawn or is an explicit pass."""
    return bool(events) or bool(flags & PASS)
