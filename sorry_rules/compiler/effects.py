"""Card effects compiled into closures: `effect(p, board) -> list[outcome]`.

Outcomes and `board` are those of `sorry_rules.engine.mechanics`. Semantics of the
combinators (docs/REFERENCE.md section 2.1):
  A | B       the legal outcomes of A and those of B
  A then B    each outcome of A followed by each outcome of B on the board A left; where B
              has no outcome, A's outcome alone; where A has none, B alone
  A if C      A's outcomes when condition C holds on the board before A, else none

Contract: `EffectBuilder(compiler).visit(node)` returns the closure or raises
`CompileError` at the node that has no meaning as an effect. The closures touch no AST
and no builder: everything they need is bound when they are made. Resource bounds checked
here (docs/LIMITS.md): steps of one move are 1 .. one lap plus the safety zone (T + L + 1),
else SR508; every distinct `forward N`, `backward N` and split part needs a movement table
of colours x squares entries (a route table of `geometry:` keeps the squares each way passes:
colours x squares x (N + 1) x (1 + 2 x turns) entries), and one variant's tables together stay
within MAX_TABLE_CELLS, else SR303 at the effect whose table does not fit.
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.base import limits
from sorry_rules.compiler.selectors import compile_selector, mark_index
from sorry_rules.compiler.vocabulary import CompileError
from sorry_rules.engine import pawns
from sorry_rules.engine.events import STEP_KINDS
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS
from sorry_rules.engine.routes import step as route_step
from sorry_rules.engine.splitparts import split_parts

#: Largest number of movement-table entries (colours x squares per table) of one variant.
MAX_TABLE_CELLS = limits.MAX_TABLE_CELLS

NOT_AN_EFFECT = ("expected a card effect here (enter, forward N, backward N, split, switch, sorry, send, move, mark, "
                 "unmark, draw_again, pass)")


class EffectBuilder(dsl.Visitor):
    """Builds effect closures for one variant. `compiler` gives `m` (the mechanics) and
    `expression(node, expect, allow_can=...)` for the conditions of guards."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.m = compiler.m
        self.layout = compiler.layout
        self.tables: set[tuple[str, int]] = set()  # movement tables reserved so far

    def generic(self, node):
        raise CompileError(node.pos, NOT_AN_EFFECT, "SR304")

    def visit_Place(self, node):
        raise CompileError(node.pos, "place and remove are grid-board primitives; this board is a track", "SR304")

    visit_Remove = visit_Place

    # ---- resource bounds -----------------------------------------------------------------
    def reserve_tables(self, node, kind: str, counts) -> None:
        """Account for the movement tables `node` needs; CompileError (SR303) when the
        variant's tables would exceed MAX_TABLE_CELLS. A plain table has one entry per colour
        and square; a route table (`geometry:`, kind "route ...") of n steps keeps, per colour
        and square, each way with the squares it passes: (n + 1) entries per way, and up to two
        ways per turn besides the plain one (a move of at most a lap passes a turn's square twice)."""
        wanted = self.tables | {(kind, n) for n in counts}
        cells = sum(self._entries(kind, n) for kind, n in wanted)
        if cells > MAX_TABLE_CELLS:
            raise CompileError(node.pos, f"the movement tables for this board would need {cells:,} entries "
                               f"(at most {MAX_TABLE_CELLS:,}); use fewer or smaller step counts on a board this large", "SR303")
        self.tables = wanted

    def _entries(self, kind: str, steps: int) -> int:
        entries = self.layout.C * self.layout.size
        if kind.startswith("route"):
            routes = self.m.routes
            ways = 1 + 2 * (len(routes.geometry.turns) if routes is not None else 0)  # a lap passes a turn twice at most
            entries *= (steps + 1) * ways
        return entries

    def check_steps(self, node, steps: int) -> None:
        limit = self.layout.T + self.layout.L + 1
        if not 1 <= steps <= limit:
            raise CompileError(node.pos, f"{steps} steps: must be between 1 and {limit} (one lap plus the safety zone)", "SR508")

    # ---- primitives ----------------------------------------------------------------------
    def visit_Enter(self, node):
        if node.selector is None:
            return self.m.enter
        m, selector = self.m, compile_selector(self.compiler, node.selector)
        layout = self.layout

        def enter_selected(p, board):
            out = []
            for outcome in m.enter(p, board):
                events = outcome[1]
                carried = tuple((e[3], e[4]) for e in events if e[0] == "carry")
                step = next(e for e in events if e[0] == "enter")
                if any(c == step[1] and sq == step[2] for c, sq, kind in
                       pawns.select(selector, layout, p, board.pos, getattr(board, "marks", ())) if kind == carried):
                    out.append(outcome)
            return out

        return enter_selected

    # ---- pawn selectors and destinations (engine.pawns) -----------------------------------
    def _destination(self, node):
        dest = node.destination
        if isinstance(dest, tuple):
            kind, n = dest
            limit = self.layout.T - 1 if kind == "track" else self.layout.L
            low = 0 if kind == "track" else 1
            if not low <= n <= limit:
                raise CompileError(node.pos, f"{kind}:{n}: this board has {kind} squares {low}..{limit}", "SR508")
        return dest

    def visit_Send(self, node):
        m, selector, dest = self.m, compile_selector(self.compiler, node.selector), self._destination(node)
        return lambda p, board: pawns.send(m, selector, dest, p, board)

    def visit_MovePawn(self, node):
        m, selector, dest = self.m, compile_selector(self.compiler, node.selector), self._destination(node)
        return lambda p, board: pawns.move(m, selector, dest, p, board)

    def visit_Mark(self, node):
        k = mark_index(self.compiler, node.name, node.name_pos)
        self.compiler.marks_placed.add(node.name)
        selector, layout = compile_selector(self.compiler, node.selector), self.layout
        return lambda p, board: pawns.mark(selector, k, layout, p, board)

    def visit_Unmark(self, node):
        k = mark_index(self.compiler, node.name, node.name_pos)
        selector, layout = compile_selector(self.compiler, node.selector), self.layout
        return lambda p, board: pawns.unmark(selector, k, layout, p, board)

    def visit_Forward(self, node):
        self.check_steps(node, node.steps)
        self.reserve_tables(node, "forward", (node.steps,))
        return self._selected(node, self._step(node, "forward", self.layout.forward(node.steps)))

    def visit_Backward(self, node):
        self.check_steps(node, node.steps)
        self.reserve_tables(node, "backward", (node.steps,))
        return self._selected(node, self._step(node, "backward", self.layout.backward(node.steps)))

    def _step(self, node, direction: str, table):
        """One pawn `direction` `node.steps` steps: along the plain table, or along the routes
        of `geometry:` when the variant has turns, passing rules or bounces."""
        m, routes, steps = self.m, self.m.routes, node.steps
        if routes is not None:
            self.reserve_tables(node, "route " + direction, (steps,))
        if routes is None:
            return lambda p, board: m.step(table, direction, p, board)
        if m.marked:
            return lambda p, board: m.free(board, route_step(m, routes, direction, steps, p, board))
        return lambda p, board: route_step(m, routes, direction, steps, p, board)

    def _selected(self, node, program):
        """`program` keeping only the outcomes whose moving pawns (every step, each part of
        a split) the node's selector chooses on the board before it; `program` itself when
        the node has no selector."""
        if node.selector is None:
            return program
        selector, layout = compile_selector(self.compiler, node.selector), self.layout

        def selected(p, board):
            chosen = {(c, sq) for c, sq, _ in pawns.select(selector, layout, p, board.pos, getattr(board, "marks", ()))}
            return [outcome for outcome in program(p, board)
                    if all((e[1], e[2]) in chosen for e in outcome[1] if e[0] in STEP_KINDS)]
        return selected

    def visit_Split(self, node):
        m, layout = self.m, self.layout
        self.check_steps(node, node.steps)
        if node.among is not None and node.among < 2:
            raise CompileError(node.pos, f"split {node.steps} among {node.among}: a split needs at least 2 pawns", "SR508")
        if node.steps < 2:
            raise CompileError(node.pos, f"split {node.steps}: a split needs at least 2 steps (one per pawn)", "SR508")
        if node.parts:
            return self._split_into(node)
        self.reserve_tables(node, "forward", range(1, node.steps + 1))
        if m.routes is not None:
            self.reserve_tables(node, "route forward", range(1, node.steps + 1))
        steps, among = node.steps, node.among
        return self._selected(node, lambda p, board: m.split(steps, among, layout.forward, p, board))

    def _split_into(self, node):
        """`split N into PART, PART ...`: parts in order, each with its direction and pawn."""
        m, steps, parts = self.m, node.steps, node.parts
        if steps < len(parts):
            raise CompileError(node.pos, f"split {steps} into {len(parts)} parts: each part needs at least 1 step", "SR508")
        if self.m.simultaneous_split:
            raise CompileError(node.pos, "split ... into plays its parts in order: it needs rules.split: sequential",
                               "SR304")
        for direction in sorted({d for d, _ in parts}):
            self.reserve_tables(node, ("route " if m.routes is not None else "") + direction, range(1, steps + 1))
        if m.marked:
            return lambda p, board: m.free(board, split_parts(m, steps, parts, p, board))
        return lambda p, board: split_parts(m, steps, parts, p, board)

    def visit_Switch(self, node):
        m, relation = self.m, node.relation
        if relation == "own":
            raise CompileError(node.pos, "switch own: a pawn cannot switch with its own colour; "
                                         "use opponent, partner or other", "SR304")
        return lambda p, board: m.switch(relation, p, board)

    def visit_Sorry(self, node):
        m, relation = self.m, node.relation
        if relation == "own":
            raise CompileError(node.pos, "sorry own: a pawn cannot replace its own colour; "
                                         "use opponent, partner or other", "SR304")
        return lambda p, board: m.sorry(relation, p, board)

    def visit_DrawAgain(self, node):
        return lambda p, board: [(board.placement(), (), DRAW_AGAIN)]

    def visit_Pass(self, node):
        return lambda p, board: [(board.placement(), (), PASS)]

    # ---- combinators ---------------------------------------------------------------------
    def visit_Choice(self, node):
        options = tuple(self.visit(o) for o in node.options)

        def choice(p, board):
            out = []
            for option in options:
                out.extend(option(p, board))
            return out

        return choice

    def visit_Then(self, node):
        first, second = self.visit(node.first), self.visit(node.second)
        layout = self.layout
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
                seconds = second(p, board.after(b1, e1, layout))
                if not seconds:
                    out.append((b1, e1, f1))
                for b2, e2, f2 in seconds:
                    out.append((b2, e1 + e2, f1 | f2))
            return out

        return then

    def visit_Guard(self, node):
        inner = self.visit(node.effect)
        condition = self.compiler.expression(node.condition, expect=bool, allow_can=True)
        return lambda p, board: inner(p, board) if condition(p, board, None) else []
