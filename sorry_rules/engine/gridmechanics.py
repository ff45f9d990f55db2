"""The primitives of grid boards: placing a chip and removing one (SEQUENCE.md S7, S10).

A primitive takes the colour `p` that plays and a `GridView` of the position and returns
its outcomes, each `(placement, events)`: the whole placement after the primitive (per
colour a sorted tuple of cells) and the events `(PLACE, colour, cell)` or `(REMOVE, colour,
cell)`. Primitives never change the view they are given.

Contract: `place(p, view, cells)` puts a colour-`p` chip on each cell of `cells` that is
empty (holds no chip and is not free), one outcome per cell, in the order of `cells`;
`remove(p, view, colours, unprotected)` takes away one chip of one of `colours`, one
outcome per chip, skipping chips in a line of their colour when `unprotected` is set.
"""

from __future__ import annotations

PLACE = "place"
REMOVE = "remove"

# The shape of a card whose whole effect is one primitive (`GridGame.card_shapes`), read by
# lean loops that count and pick a card's outcomes on bit masks instead of listing them. The
# outcomes of a shape are those of the primitive, in the same order:
SHAPE_CELLS = 0    # (SHAPE_CELLS, cells): `place(p, view, cells)`
SHAPE_EMPTY = 1    # (SHAPE_EMPTY,): `place_empty(p, view)`
SHAPE_REMOVE = 2   # (SHAPE_REMOVE, colours, unprotected): `remove(p, view, colours[p], unprotected)`


class GridView:
    """A read-only position on a grid: `pos[c]` the cells of colour c's chips, `seated` the
    colours in the game (a frozenset), `sides` how many, `grid` the board
    (`engine.grid.Grid`). Expressions read it as they read a track placement (`pos`), and a
    colour's sequence count through `sequences(c)`. `counts`, when given, holds every colour's sequence count (a table that
    keeps them on masks, `engine.gridtable`); such a table may then give None for the
    placement to an expression that reads sequence counts only (`GridGame.win_reads`)."""

    __slots__ = ("pos", "seated", "sides", "grid", "counts", "_taken")

    def __init__(self, placement: tuple | None, seated: frozenset, grid, counts: list | tuple | None = None):
        self.pos = placement
        self.seated = seated
        self.sides = len(seated)
        self.grid = grid
        self.counts = counts
        self._taken = None

    def sequences(self, c: int) -> int:
        """The sequence count of colour c."""
        if self.counts is not None:
            return self.counts[c]
        return self.grid.sequences(self.pos[c])

    def taken(self) -> frozenset:
        """Cells holding a chip or free (no chip may be placed there)."""
        if self._taken is None:
            taken = set(self.grid.free)
            for chips in self.pos:
                taken.update(chips)
            self._taken = frozenset(taken)
        return self._taken


def _with(placement: tuple, c: int, chips: tuple) -> tuple:
    return placement[:c] + (chips,) + placement[c + 1:]


def place(p: int, view: GridView, cells) -> list:
    taken = view.taken()
    pos = view.pos
    return [(_with(pos, p, tuple(sorted(pos[p] + (cell,)))), ((PLACE, p, cell),)) for cell in cells if cell not in taken]


def place_empty(p: int, view: GridView) -> list:
    """`place` on every cell of the board."""
    return place(p, view, range(view.grid.size))


def remove(p: int, view: GridView, colours, unprotected: bool) -> list:
    pos = view.pos
    out = []
    for o in colours:
        chips = pos[o]
        if not chips:
            continue
        shielded = view.grid.protected(chips) if unprotected else ()
        for cell in chips:
            if cell not in shielded:
                out.append((_with(pos, o, tuple(x for x in chips if x != cell)), ((REMOVE, o, cell),)))
    return out
