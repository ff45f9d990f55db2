"""The rarer case of a two-part split along `geometry:` routes in the flat flavour
(`compiler.loopgeom`): a first part that sends back a pawn of the mover's own colours.

`RouteSplits(mechanics).second(c1, i1, sq1, to1, control, ways, placement)` lists, as
(placement, events), every second part after colour c1's pawn `i1` (its index among the
sorted squares of `placement[c1]`) went `sq1` -> `to1` with bumps and slides: exactly the
second level of `fastmoves.Helpers.split_many` (and so of `routes.split`), in its order,
`ways[c][sq]` the route ways `(to, passed)` of the remaining steps
(`compiler.routetables.step_ways`), a way taken when the interpreter's `Routes.passable`
allows it on the board the first part left. Nothing it is given is changed.
"""

from __future__ import annotations

from sorry_rules.engine.mechanics import Board


class RouteSplits:
    """The second parts of splits along routes, run on the interpreter's boards."""

    def __init__(self, mechanics):
        self.m = mechanics

    def second(self, c1: int, i1: int, sq1: int, to1: int, control: tuple, ways: tuple, placement: tuple) -> list:
        m = self.m
        X, T, routes = m.X, m.T, m.routes
        board = Board.of(placement, X).copy()
        events: list = []
        if not m.land(board, c1, sq1, to1, events, "split"):
            return []
        out = []
        occ = board.occ
        for c in control:
            squares = board.pos[c]
            for index in range(len(squares)):
                sq = squares[index]
                if sq >= X or (c == c1 and index == i1):
                    continue
                for to, passed in ways[c][sq]:
                    if passed and not routes.passable(c, occ, sq, passed):
                        continue
                    o = occ[to] if to < X and to != sq else -1  # a bounce may end on the square it left
                    if o == c:
                        continue
                    if o < 0 and (to >= T or to == sq or m.slide_here[c][to] is None):
                        out.append((board.moved(c, sq, to), tuple(events) + (("split", c, sq, to),)))
                        continue
                    moved, more = board.copy(), list(events)
                    if m.land(moved, c, sq, to, more, "split"):
                        out.append((moved.placement(), tuple(more)))
        return out
