"""Card effects compiled into makers of options: `maker(p, flags, card) -> gen(pos, out)`.

Options (`engine.option`), makers and positions are those of `engine.track`. Semantics of the combinators
(docs/REFERENCE.md section 2.1):
  A | B       the legal options of A and those of B
  A then B    each option of A followed by each option of B on the position A left; where
              B has none, A's alone; where A has none, B alone
  A if C      A's options when condition C holds on the position before A, else none

Contract: `PlayBuilder(compiler).visit(node)` returns the maker or raises `CompileError` at
the node that has no meaning as an effect. Makers touch no AST and no builder: everything
they need is bound when they are made (per player colour, by the engine, on first use).
Resource bounds checked here (docs/LIMITS.md): steps of one move are 1 .. one lap plus the
safety zone (T + L + 1), else SR508; every distinct `forward N`, `backward N` and split part
needs a movement table of colours x squares entries (a route table of `geometry:` keeps the
squares each way passes: colours x squares x (N + 1) x (1 + 2 x turns) entries), and one
variant's tables together stay within MAX_TABLE_CELLS, else SR303 at the effect whose table
does not fit.
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.base import limits
from sorry_rules.compiler.selectors import compile_selector, mark_index, pairs_of
from sorry_rules.compiler.vocabulary import MOVE as FOLLOWED, CompileError, reads_the_move
from sorry_rules.engine import pawns, splits
from sorry_rules.engine.events import STEP_KINDS, bumped_to, moved_to, stood_before
from sorry_rules.engine.option import DRAW_AGAIN, MOVE, PASS, PASS_KIND, SPARE, Option

#: Largest number of movement-table entries (colours x squares per table) of one variant.
MAX_TABLE_CELLS = limits.MAX_TABLE_CELLS

NOT_AN_EFFECT = ("expected a card effect here (enter, forward N, backward N, split, switch, sorry, send, move, mark, "
                 "unmark, draw_again, pass)")


class PlayBuilder(dsl.Visitor):
    """Builds the makers of one variant. `compiler` gives `m` (the `engine.track.Track`) and
    `expression(node, expect, allow_can=...)` for the conditions of guards."""

    covers = dsl.EFFECT_NODES

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
            routes = self.m.routes
            sets = len(routes.masks()) if routes is not None else 1
            why = (f"; the {len(routes.conditional)} geometry turns with a when: condition make {sets} sets of route "
                   "tables: fewer of them need fewer" if sets > 1 else "")
            raise CompileError(node.pos, f"the movement tables for this board would need {cells:,} entries "
                               f"(at most {MAX_TABLE_CELLS:,}); use fewer or smaller step counts on a board this large"
                               f"{why}", "SR303")
        self.tables = wanted

    def _entries(self, kind: str, steps: int) -> int:
        entries = self.layout.C * self.layout.size
        if kind.startswith("route"):
            routes = self.m.routes
            ways = 1 + 2 * (len(routes.geometry.turns) if routes is not None else 0)  # a lap passes a turn twice at most
            entries *= (steps + 1) * ways * (len(routes.masks()) if routes is not None else 1)  # per set of turns there
        return entries

    def check_steps(self, node, steps: int) -> None:
        limit = self.layout.T + self.layout.L + 1
        if not 1 <= steps <= limit:
            raise CompileError(node.pos, f"{steps} steps: must be between 1 and {limit} (a lap, the safety zone and the "
                               "step into Home)", "SR508")

    # ---- primitives ----------------------------------------------------------------------
    def visit_Enter(self, node):
        m = self.m
        if node.selector is None:
            return m.enter
        selector, layout = self._selector(node.selector), self.layout

        def maker(p, flags, card):
            enter = m.enter(p, flags, card)

            def enter_selected(pos, out):
                options: list = []
                enter(pos, options)
                if not options:
                    return
                chosen = pawns.select(selector, layout, p, pos.pos, pos.marks, pos.moved)
                for option in options:
                    events = option[1]
                    carried = tuple((e[3], e[4]) for e in events if e[0] == "carry")
                    step = next(e for e in events if e[0] == "enter")
                    if any(c == step[1] and sq == step[2] and kind == carried for c, sq, kind in chosen):
                        out.append(option)
            return enter_selected
        return maker

    def _destination(self, node):
        dest = node.destination
        if isinstance(dest, tuple):
            kind, n, pos = dest
            limit = self.layout.T - 1 if kind == "track" else self.layout.L
            low = 0 if kind == "track" else 1
            if not low <= n <= limit:
                raise CompileError(pos, f"{kind}:{n}: this board has {kind} squares {low}..{limit}", "SR508")
            return kind, n
        return dest

    def _selector(self, selector, every_ok: bool = False):
        """The engine's selector of a primitive's `selector` (`moved` only in an after: then:,
        `every` only where the primitive acts on all chosen pawns at once)."""
        return compile_selector(self.compiler, selector, moved_ok=self.compiler.following, every_ok=every_ok)

    def visit_Send(self, node):
        """`send` and `move`: the selected pawn to a destination."""
        play = pawns.send if isinstance(node, dsl.Send) else pawns.move
        m, selector, dest = self.m, self._selector(node.selector, play is pawns.send), self._destination(node)
        return lambda p, flags, card: play(m, selector, dest, p, flags, card)

    visit_MovePawn = visit_Send

    def visit_Mark(self, node):
        """`mark` and `unmark`: a declared mark put on or taken off the selected pawn."""
        k = mark_index(self.compiler, node.name, node.name_pos, read=False)
        play = pawns.mark if isinstance(node, dsl.Mark) else pawns.unmark
        m, selector = self.m, self._selector(node.selector, every_ok=True)
        if isinstance(node, dsl.Mark):
            self.compiler.marks_placed.setdefault(node.name, set()).update(pairs_of(selector.owner))
        return lambda p, flags, card: play(m, selector, k, p, flags, card)

    visit_Unmark = visit_Mark

    def visit_Forward(self, node):
        """`forward N` and `backward N`."""
        direction = "forward" if isinstance(node, dsl.Forward) else "backward"
        self.check_steps(node, node.steps)
        self.reserve_tables(node, direction, (node.steps,))
        return self._selected(node, self._step(node, direction, getattr(self.layout, direction)(node.steps)))

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node):
        """`forward (N)` and `backward (N)`: N read on the position before the move, for the
        player; a value outside 1 .. the most steps of a move moves nothing. The step of each
        count is made when the count first comes up; the tables of every count N may take
        (`ProgramCompiler.number_range`) are reserved now."""
        direction = "forward" if isinstance(node, dsl.ForwardBy) else "backward"
        count = self.compiler.expression(node.count, expect=int, variables=self._move_read())
        low, high = self.compiler.number_range(node.count)
        low, high = int(max(low, 1)), int(min(high, self.layout.T + self.layout.L + 1))
        if low > high:
            raise CompileError(node.count.pos, f"{direction} (...): this number is never between 1 and "
                               f"{self.layout.T + self.layout.L + 1} (the most steps of a move), so it never moves "
                               "a pawn", "SR508")
        counts = range(low, high + 1)
        try:
            self.reserve_tables(node, direction, counts)
            if self.m.routes is not None:
                self.reserve_tables(node, "route " + direction, counts)
        except CompileError as error:
            raise CompileError(node.pos, f"{error.message} ({direction} (...) may take any count from {low} to {high}: "
                               "bound it, e.g. by a counter's max)", error.code) from None
        m, tables = self.m, getattr(self.layout, direction)

        def counted_maker(p, flags, card):
            gens: dict = {}  # count -> the step of that many squares, made when it first comes up

            def counted(pos, out):
                n = count(p, pos, pos.followed)
                if low <= n <= high:
                    gen = gens.get(n)
                    if gen is None:
                        gen = gens[n] = (m.step(tables(n), direction, p, flags, card) if m.routes is None
                                         else m.routed_step(direction, n, p, flags, card))
                    gen(pos, out)
            return counted
        return self._selected(node, counted_maker)

    visit_BackwardBy = visit_ForwardBy

    def _step(self, node, direction: str, table):
        """One pawn `direction` `node.steps` steps: along the plain table, or along the routes
        of `geometry:` when the variant has turns, passing rules or bounces."""
        m, steps = self.m, node.steps
        if m.routes is None:
            return lambda p, flags, card: m.step(table, direction, p, flags, card)
        self.reserve_tables(node, "route " + direction, (steps,))
        return lambda p, flags, card: m.routed_step(direction, steps, p, flags, card)

    def _selected(self, node, maker):
        """`maker` keeping only the plays whose moving pawns (every step, each part of a
        split) the node's selector chooses on the position before it; `maker` itself when
        the node has no selector."""
        if node.selector is None:
            return maker
        selector, layout = self._selector(node.selector), self.layout

        def selected_maker(p, flags, card):
            gen = maker(p, flags, card)

            def selected(pos, out):
                chosen = {(c, sq) for c, sq, _ in pawns.select(selector, layout, p, pos.pos, pos.marks, pos.moved)}
                if not chosen:
                    return
                options: list = []
                gen(pos, options)
                out.extend(o for o in options if all((e[1], e[2]) in chosen for e in o[1] if e[0] in STEP_KINDS))
            return selected
        return selected_maker

    def visit_Split(self, node):
        m = self.m
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
        steps = node.steps
        limit = min(node.among, steps) if node.among is not None else steps  # every part takes a step at least
        split = splits.simultaneous if m.simultaneous_split else splits.among
        return self._selected(node, lambda p, flags, card: split(m, steps, limit, p, flags, card))

    def _split_into(self, node):
        """`split N into PART, PART ...`: parts in order, each with its direction, its steps
        when written, and its pawn."""
        m, steps, parts = self.m, node.steps, node.parts
        sizes = node.sizes or (None,) * len(parts)
        if steps < len(parts):
            raise CompileError(node.pos, f"split {steps} into {len(parts)} parts: each part needs at least 1 step", "SR508")
        if any(size is not None and size < 1 for size in sizes):
            raise CompileError(node.pos, f"split {steps} into ...: a part moves 1 step or more", "SR508")
        fixed, free = sum(size for size in sizes if size is not None), sizes.count(None)
        if fixed + free > steps or (not free and fixed != steps):
            raise CompileError(node.pos, f"split {steps} into ...: the parts' steps ({fixed} written"
                               f"{f', and at least 1 for each of {free} other parts' if free else ''}) "
                               f"{'exceed' if fixed + free > steps else 'do not make'} {steps}", "SR508")
        if m.simultaneous_split:
            raise CompileError(node.pos, "split ... into plays its parts in order: it needs rules.split: sequential",
                               "SR304")
        for direction in sorted({d for d, _ in parts}):
            self.reserve_tables(node, ("route " if m.routes is not None else "") + direction, range(1, steps + 1))
        spec = tuple((direction, who, size) for (direction, who), size in zip(parts, sizes))
        return lambda p, flags, card: splits.into(m, steps, spec, p, flags, card)

    def visit_Switch(self, node):
        """`switch RELATION` and `sorry RELATION`: never with the player's own colour."""
        m, relation = self.m, node.relation
        if relation == "own":
            word, what = ("switch", "switch with") if isinstance(node, dsl.Switch) else ("sorry", "replace")
            raise CompileError(node.pos, f"{word} own: a pawn cannot {what} its own colour; "
                                         "use opponent, partner or other", "SR304")
        play = m.switch if isinstance(node, dsl.Switch) else m.sorry
        return lambda p, flags, card: play(relation, p, flags, card)

    visit_Sorry = visit_Switch

    def visit_DrawAgain(self, node):
        return _flag_only(DRAW_AGAIN if isinstance(node, dsl.DrawAgain) else PASS)

    visit_Pass = visit_DrawAgain

    # ---- combinators ---------------------------------------------------------------------
    def visit_Choice(self, node):
        """`A | B | ...`: each alternative's options in turn. A `can(X)` in a later
        alternative's guard, X an earlier alternative, reads whether X listed an option on
        this position (the same answer as running X again: flags and card change no outcome),
        noted on the position itself (`Position.listed`: games played at once never share it)."""
        compiler, outer = self.compiler, self.compiler.known_outcomes
        read: dict = {}  # alternative index -> the key of its note on the position (`Position.listed`)

        def reader(index):
            def known():
                key = read.setdefault(index, object())
                return lambda p, pos: pos.listed[key]
            return known

        known, makers = dict(outer), []
        compiler.known_outcomes = known
        try:
            for index, option in enumerate(node.options):
                makers.append(self.visit(option))
                known.setdefault(dsl.shape(option), reader(index))
        finally:
            compiler.known_outcomes = outer
        makers = tuple(makers)

        def choice_maker(p, flags, card):
            gens = tuple(maker(p, flags, card) for maker in makers)
            if read:
                noted = tuple((read.get(index), gen) for index, gen in enumerate(gens))

                def choice_noted(pos, out):
                    for key, gen in noted:
                        if key is not None:
                            n = len(out)
                            gen(pos, out)
                            pos.listed[key] = len(out) > n
                        else:
                            gen(pos, out)
                return choice_noted
            if len(gens) == 2:
                first, second = gens

                def either(pos, out):
                    first(pos, out)
                    second(pos, out)
                return either

            def choice(pos, out):
                for gen in gens:
                    gen(pos, out)
            return choice
        return choice_maker

    def visit_Then(self, node):
        """`A then B`: B on the position A left, its `moved` / `unmoved` selectors choosing
        among the pawns A moved (`events.moved_to`), its `bumped` ones among those A sent
        back to Start (`events.bumped_to`); where B has no outcome, A's alone, and where A has
        none, B's; of `both (A then B)`, neither alone."""
        first_maker = self.visit(node.first)
        outer, self.compiler.known_outcomes = self.compiler.known_outcomes, {}  # B runs on the position A left
        following, self.compiler.following = self.compiler.following, True
        try:
            second_maker = self.visit(node.second)
        finally:
            self.compiler.known_outcomes, self.compiler.following = outer, following
        selectors = (getattr(found, "selector", None) for found in dsl.walk(node.second))
        reads_moved = any(s is not None and (s.moved or s.unmoved or s.bumped) for s in selectors)
        reads_facts = reads_the_move(node.second)  # B reads the facts of A (`Position.followed`)
        start, stacked, both = self.m.layout.start, self.m.layout.stacked, node.both
        if isinstance(node.second, (dsl.DrawAgain, dsl.Pass)):
            flag = DRAW_AGAIN if isinstance(node.second, dsl.DrawAgain) else PASS

            def then_flag_maker(p, flags, card):
                first, alone = first_maker(p, flags | flag, card), second_maker(p, flags, card)

                def then_flag(pos, out):
                    n = len(out)
                    first(pos, out)
                    if len(out) == n and not both:
                        alone(pos, out)
                return then_flag
            return then_flag_maker

        def then_maker(p, flags, card):
            first, second = first_maker(p, flags, card), second_maker(p, flags, card)

            def then(pos, out):
                firsts: list = []
                first(pos, firsts)
                if not firsts:
                    if both:
                        return
                    if reads_facts:  # B alone: no move before it
                        outer = pos.followed
                        pos.followed = {"@events": (), "@card": card}
                        try:
                            second(pos, out)
                        finally:
                            pos.followed = outer
                    else:
                        second(pos, out)
                    return
                for option in firsts:
                    events = option[1]
                    undo = pos.make(events)
                    seconds: list = []
                    if reads_moved or reads_facts:
                        outer = pos.moved, pos.bumped, pos.followed
                        pos.moved = moved_to(start, events, stood_before(pos.pos, events) if stacked else None)
                        pos.bumped = bumped_to(start, events)
                        pos.followed = {"@events": events, "@card": card}
                        try:
                            second(pos, seconds)
                        finally:
                            pos.moved, pos.bumped, pos.followed = outer
                    else:
                        second(pos, seconds)
                    pos.unmake(events, undo)
                    if not seconds and not both:
                        out.append(option)
                    for more in seconds:
                        joined = events + more[1]
                        out.append(option._replace(events=joined, flags=option[2] | more[2], key=option[4] + more[4],
                                                   kind=MOVE if joined else _kind(option[2] | more[2])))
            return then
        return then_maker

    def _move_read(self) -> frozenset:
        """The variables of an expression in B of `A then B` or an `after:` `then:` effect:
        the move being followed (its facts, `Position.followed`); none elsewhere."""
        return frozenset((FOLLOWED,)) if self.compiler.following else frozenset()

    def visit_Guard(self, node):
        inner_maker = self.visit(node.effect)
        condition = self.compiler.expression(node.condition, expect=bool, allow_can=True, variables=self._move_read())

        def guard_maker(p, flags, card):
            inner = inner_maker(p, flags, card)

            def guard(pos, out):
                if condition(p, pos, pos.followed):
                    inner(pos, out)
            return guard
        return guard_maker


def _kind(flags: int) -> str:
    """The kind of an option that moves nothing: a pass, or SPARE (no choice: its flags)."""
    return PASS_KIND if flags & PASS else SPARE


def _flag_only(flag: int):
    """The maker of `draw_again` / `pass`: one option that moves nothing."""
    def maker(p, flags, card):
        option = Option(card, (), flags | flag, _kind(flags | flag))
        return lambda pos, out: out.append(option)
    return maker
