"""The flat flavour's templates along `geometry:` routes (turns, bounces, pawns that cannot
be passed), for `compiler.loopgen.FlatWriter`.

A step is a lookup in the route tables (`compiler.routetables.step_ways`: per colour and
square, each way's end and the squares it passes that some pawn could block), over the
caller's flat position: the pawn loop stops at the first pawn off the exclusive squares, a
way is taken when no pawn on its `passed` squares blocks the mover (BLOCK<c>[s][o]; no check
is written when no blocker stops passing), its first way per end only (the tables hold
those), and lands as the plain flavour lands (a move past Home that bounces back onto the
square it left is a plain outcome, code 0 with frm == to). A split between two pawns is
unrolled as `FlatWriter.split_first` unrolls it along the plain tables (candidate codes 4,
8, 9, 10), each part along its ways (a first part judged on the position, the second on
the position the first left), in the order of `Helpers.split_many`'s search, through the
seen-sets (two ways may give one placement); a first part that sends back a pawn of the
player's own colours runs `engine.flatroutes.RouteSplits.second` (code 1). A split among
more pawns runs that search on the route tables (`split_ways`) and lists each outcome as
its events (code 12, replayed on the flat position when played: `engine.flatstate`).
Where the tables cannot judge a way (`step_ways`/`split_ways` None) the primitive runs,
as in `compiler.codegen`.

`routes_distinct` is `loopgen.distinct_by_construction`'s question for the step primitives
along routes: their plain outcomes are pairwise different placements when no pawn reaches
one square by two of them and at most one (primitive, colour, square) may end where it
started (such a move leaves the placement as it was).

Security contract: as `compiler.codegen`'s. Only integers (square, colour, step counts)
and generated constant names enter the source; the tables are bound in the namespace.
"""

from __future__ import annotations

from sorry_rules.compiler import routetables
from sorry_rules.engine.flatroutes import RouteSplits
from sorry_rules.engine.flatstate import freeze


class RouteTemplates:
    """`FlatWriter`'s methods for `geometry:` routes (a mixin: it writes with the writer's
    `line`, `indent`, `landing`, `plain_landing`, `emit_move`, `primitive`)."""

    def route_step(self, node, direction: str, kind: str, step: str) -> None:
        """`forward N` / `backward N` along the route tables over the flat position."""
        steps = int(node.steps)
        ways = routetables.step_ways(self.m, direction, steps)
        if ways is None:
            self.primitive(node)
            return
        self.uses_occ = True
        X, walls = int(self.m.X), bool(self.m.routes.walls)
        for c in self.colours:
            c = int(c)
            name = self.module.constant(f"W{kind}{steps}_{c}", ways[c])
            self.line(f"for sq in P{c}:")
            self.line(f"    if sq >= {X}:")
            self.line("        break")
            self.line(f"    for to, passed in {name}[sq]:")
            self.indent(2)
            if walls:
                block = self.module.constant(f"BLOCK{c}", routetables.blockers(self.m, c))
                self.line("for s in passed:")
                self.line("    o = occ[s]")
                self.line(f"    if o >= 0 and {block}[s][o]:")
                self.line("        break")
                self.line("else:")
                self.indent(1)
            self.line(f"if to >= {X} or to == sq:")
            self.indent(1)
            self.plain_landing(c, "sq", step)
            self.indent(-1)
            self.line("else:")
            self.indent(1)
            self.landing(c, "sq", step)
            self.indent(-1)
            self.indent(-3 if walls else -2)

    def route_split(self, node) -> None:
        """`split N` along routes: among 2, unrolled (`route_split2`); among K or any,
        `Helpers.split_many` on the route tables, each outcome a candidate of code 12 (its
        events) keyed from KP."""
        steps = int(node.steps)
        ways = routetables.split_ways(self.m, steps)
        if ways is None or self.probe:
            self.primitive(node)
            return
        if node.among == 2:
            self.route_split2(steps)
            return
        limit = steps if node.among is None else int(node.among)
        C = self.m.layout.C
        tables = self.module.constant(f"WSPLIT{steps}", ways)
        blocks = self.module.constant("BLOCKS", tuple(routetables.blockers(self.m, c) for c in range(C)))
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        self.uses_occ = True
        self.line("if KB is None:")
        self.line("    KB = KEY(P) - KP")
        self.line(f"for k, ev in split_many({control}, {steps}, {limit}, {tables}, P, occ, KB + KP, {blocks}):")
        self.indent(1)
        self.emit_move("", "", "k - KB", "12, ev")
        self.indent(-1)

    def passed_check(self, c: int, passed: str) -> bool:
        """Open a block taken only when no pawn on the squares `passed` (a local) stops colour
        c (`for ... else:`, one level deeper); False, writing nothing, when nothing stops passing."""
        if not self.m.routes.walls:
            return False
        block = self.module.constant(f"BLOCK{c}", routetables.blockers(self.m, c))
        self.line(f"for s in {passed}:")
        self.line("    o = occ[s]")
        self.line(f"    if o >= 0 and {block}[s][o]:")
        self.line("        break")
        self.line("else:")
        self.indent(1)
        return True

    def route_split2(self, steps: int) -> None:
        """A sequential split between two pawns along routes, as `FlatWriter.split_first` along
        the plain tables: RPARTS<steps>_<c>[sq] the (part, to, passed) ways of a first part, in
        the search's order, RLAST<steps>_<c>[part][sq] the ways of the second; the outcomes go
        through the seen-sets (two ways may lead to one placement). A first part that sends
        back a pawn of the player's colours runs `RouteSplits.second` (code 1)."""
        m, C = self.m, self.m.layout.C
        X = int(m.X)
        tables = [routetables.step_ways(m, "forward", k) for k in range(steps)]  # [0]: unused
        for c in range(C):
            self.module.constant(f"RLAST{steps}_{c}", (None,) + tuple(tables[steps - k][c] for k in range(1, steps)))
        for c in self.colours:
            c = int(c)
            self.module.constant(f"RPARTS{steps}_{c}", tuple(
                tuple((k, to, passed) for k in range(1, steps) for to, passed in tables[k][c][sq]) for sq in range(X)))
        self.module.constant(f"RREST{steps}", (None,) + tuple(tables[steps - k] for k in range(1, steps)))
        self.module.constant("STARTS", tuple(int(x) for x in m.start))
        self.uses_occ = True
        self.line(f"if {self.on_board()} >= 2:")
        self.indent(1)
        for c1 in self.colours:
            self.route_first(int(c1), steps, X, C)
        self.indent(-1)

    def route_first(self, c1: int, steps: int, X: int, C: int) -> None:
        """The first part by a colour-c1 pawn along its ways, each second part after it."""
        own = self.module.constant(f"OWN{int(self.player)}", tuple(c in self.colours for c in range(C)))
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        self.line("i1 = -1")
        self.line(f"for sq1 in P{c1}:")
        self.line(f"    if sq1 >= {X}:")
        self.line("        break")
        self.line("    i1 += 1")
        self.line(f"    k0 = KP - E{c1}[sq1]")
        self.line(f"    for part, to1, passed in RPARTS{steps}_{c1}[sq1]:")
        self.indent(2)
        deeper = self.passed_check(c1, "passed")
        self.line("pre = None")
        self.line(f"k1 = k0 + E{c1}[to1]")
        self.line("end1 = to1")
        self.line(f"if to1 < {X} and to1 != sq1:")
        self.line("    o1 = occ[to1]")
        self.line(f"    if o1 == {c1}:")
        self.line("        continue")
        self.line(f"    if SLIDE{c1}[to1]:")
        self.line(f"        rs = slide_land({c1}, sq1, to1, occ, KP)")
        self.line("        if rs is None:")
        self.line("            continue")
        self.line(f"        if not sends_back(rs[2], {own}):")
        self.line("            k1, end1 = rs[0], rs[1]")
        self.line("            pre = rs[2]")
        self.line("    elif o1 >= 0:")
        self.line(f"        if not {self.bump_table(c1)}[o1]:")
        self.line("            continue")
        self.line(f"        if not {own}[o1]:")
        self.line("            k1 = k1 - ES[o1][to1] + ES[o1][STARTS[o1]]")
        self.line("            pre = ((o1, to1),)")
        self.line(f"    if pre is None and (o1 >= 0 or SLIDE{c1}[to1]):")
        self.line(f"        for rl in route_second({c1}, i1, sq1, to1, {control}, RREST{steps}[part], P):")
        self.indent(3)
        self.emit_move("rl[0]", "rl[1]")
        self.indent(-3)
        self.line("        continue")
        self.with_first_part(c1, X, lambda c2: self.route_second_part(c1, c2, steps, X))
        self.indent(-3 if deeper else -2)

    def route_second_part(self, c1: int, c2: int, steps: int, X: int) -> None:
        """The second part by a colour-c2 pawn once c1's pawn went sq1 -> end1 (occ shows it)."""
        self.line(f"row = RLAST{steps}_{c2}[part]")
        self.line("i2 = -1")
        self.line(f"for sq2 in P{c2}:")
        self.line(f"    if sq2 >= {X}:")
        self.line("        break")
        self.line("    i2 += 1")
        if c2 == c1:
            self.line("    if i2 == i1:")
            self.line("        continue")
        self.line("    for to2, passed in row[sq2]:")
        self.indent(2)
        deeper = self.passed_check(c2, "passed")
        self.line(f"if to2 < {X} and to2 != sq2:")
        self.line("    o2 = occ[to2]")
        self.line(f"    if o2 == {c2}:")
        self.line("        continue")
        self.line(f"    if SLIDE{c2}[to2]:")
        self.line(f"        rs = slide_land({c2}, sq2, to2, occ, k1)")
        self.line("        if rs is not None:")
        self.indent(3)
        self.split_outcome(c1, c2, "rs[0]", f"9, {c1}, sq1, to1, {c2}, sq2, to2, rs[1], rs[2]", "rs[1], rs[2]")
        self.indent(-3)
        self.line("        continue")
        self.line("    if o2 >= 0:")
        self.line(f"        if {self.bump_table(c2)}[o2]:")
        self.indent(3)
        self.split_outcome(c1, c2, f"k1 - E{c2}[sq2] + E{c2}[to2] - ES[o2][to2] + ES[o2][STARTS[o2]]",
                           f"8, {c1}, sq1, to1, {c2}, sq2, to2, o2, STARTS[o2]", "to2, ((o2, to2),)")
        self.indent(-3)
        self.line("        continue")
        if not deeper:  # no walls: the same two plain parts the other way round came earlier (its key is seen)
            if c2 == c1:
                self.line("if pre is None and i2 < i1 and to2 != sq1:")
                self.line("    continue")
            elif self.colours.index(c2) < self.colours.index(c1):
                self.line("if pre is None and to2 != sq1:")
                self.line("    continue")
        self.split_outcome(c1, c2, f"k1 - E{c2}[sq2] + E{c2}[to2]", f"4, {c1}, sq1, to1, {c2}, sq2, to2", "to2, ()")
        self.indent(-3 if deeper else -2)


def route_namespace(mechanics) -> dict:
    """What the route templates name besides the flat namespace: `route_second`
    (`RouteSplits.second`, handed a tuple copy of the flat lists)."""
    second = RouteSplits(mechanics).second
    return {"route_second": lambda c1, i1, sq1, to1, control, ways, P: second(c1, i1, sq1, to1, control, ways, freeze(P))}


def routes_distinct(steps: list, mechanics, colours) -> bool:
    """Whether the step primitives `steps` ((direction, steps) each) of a player of
    `colours` give pairwise different plain outcomes along routes (module docstring); False
    when a table cannot judge its ways (the primitive then runs)."""
    ends: list = []
    stays = 0
    for direction, count in steps:
        ways = routetables.step_ways(mechanics, direction, int(count))
        if ways is None:
            return False
        rows = {}
        for c in colours:
            for sq, options in enumerate(ways[c]):
                rows[c, sq] = {to for to, _ in options}
                stays += sq in rows[c, sq]
        ends.append(rows)
    if stays > 1:
        return False
    for i, first in enumerate(ends):
        for second in ends[i + 1:]:
            if any(first[key] & second[key] for key in first):
                return False
    return True
