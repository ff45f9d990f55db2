"""The flat flavour's templates along `geometry:` routes (turns, bounces, pawns that cannot
be passed), for `compiler.loopgen.FlatWriter`.

A step is a lookup in the route tables (`compiler.routetables.step_ways`: per colour and
square, each way's end and the squares it passes that some pawn could block), over the
caller's flat position: the pawn loop stops at the first pawn off the exclusive squares, a
way is taken when no pawn on its `passed` squares blocks the mover (BLOCK<c>[s][o]; no check
is written when no blocker stops passing), its first way per end only (the tables hold
those), and lands as the plain flavour lands (a move past Home that bounces back onto the
square it left is a plain outcome, code 0 with frm == to). A split along routes runs the
search of `fastmoves.Helpers.split_many` on the route tables (`split_ways`) and lists each
outcome as its events (candidate code 12, replayed on the flat position when played:
`engine.flatstate`). Where the tables cannot judge a way (`step_ways`/`split_ways` None)
the primitive runs, as in `compiler.codegen`.

`routes_distinct` is `loopgen.distinct_by_construction`'s question for the step primitives
along routes: their plain outcomes are pairwise different placements when no pawn reaches
one square by two of them and at most one (primitive, colour, square) may end where it
started (such a move leaves the placement as it was).

Security contract: as `compiler.codegen`'s. Only integers (square, colour, step counts)
and generated constant names enter the source; the tables are bound in the namespace.
"""

from __future__ import annotations

from sorry_rules.compiler import routetables


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
        """`split N` (among K, or any) along routes: `Helpers.split_many` on the route
        tables, each outcome a candidate of code 12 (its events) keyed from KP."""
        steps = int(node.steps)
        ways = routetables.split_ways(self.m, steps)
        if ways is None or self.probe:
            self.primitive(node)
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
