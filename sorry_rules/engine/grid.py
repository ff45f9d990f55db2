"""A grid board kind: cells named by coordinates, a card face per cell, free cells, lines.

Cells are integers `row * width + column` (0 .. size-1), named by the column name followed
by the row name (`A1`). Every cell is exclusive (one chip at most), so `X == size`. A cell
either shows a card (`card_of[cell]` is its name) or is *free* (`card_of[cell]` is None): a
free cell takes no chip and belongs to every colour when lines are judged.

Lines (`Lines`): a line is `length` adjacent cells along one of the allowed directions; it
belongs to a colour when each of its cells holds a chip of that colour or is free. The
*count* of a colour is the greatest number of its lines such that any two share at most
`shared` cells (`shared >= 1`). Two lines on different straights share at most one cell, so
only lines on the same straight compete: a run of `n >= length` covered cells on one
straight holds `(n - length) // (length - shared) + 1` such lines, and the count is the sum
over every maximal run. A chip is *protected* when some line of its colour contains it,
which is exactly when it lies in a run of at least `length` cells.

Contract: pure data and functions of a placement (per colour a sorted tuple of cells); no
state, no I/O. Implements `engine.board.BoardKind` (no home and no start: every piece is on
the board from the moment it is placed).
"""

from __future__ import annotations

from sorry_rules.base.errors import PositionError
from sorry_rules.engine.gridmasks import LineMasks

#: direction name -> (row step, column step) of the straights it stands for
DIRECTIONS = {"row": ((0, 1),), "column": ((1, 0),), "diagonal": ((1, 1), (1, -1))}


class Grid:
    """A grid board (see the module contract)."""

    def __init__(self, colours, columns, rows, cards, length: int, directions, shared: int):
        self.colours = tuple(colours)
        self.C = len(self.colours)
        self.columns = tuple(columns)
        self.rows = tuple(rows)
        self.width, self.height = len(self.columns), len(self.rows)
        self.size = self.X = self.width * self.height
        self.home = ()
        self.start = ()
        self.card_of = tuple(cards)                   # per cell: card name, or None when free
        self.free = frozenset(i for i, c in enumerate(self.card_of) if c is None)
        self.cell_names = tuple(col + row for row in self.rows for col in self.columns)
        self._cell_index = {name: i for i, name in enumerate(self.cell_names)}
        cells_of: dict = {}
        for i, card in enumerate(self.card_of):
            if card is not None:
                cells_of.setdefault(card, []).append(i)
        self.cells_of_card = {card: tuple(cells) for card, cells in cells_of.items()}
        self.length = length
        self.shared = shared
        self.straights = self._straights(directions)
        # bit masks (bit i = cell i) let `runs` skip a straight with fewer than `length` covered cells
        self._free_mask = sum(1 << cell for cell in self.free)
        self._masks = tuple((straight, sum(1 << cell for cell in straight)) for straight in self.straights)
        #: the same lines judged on bit masks (`engine.gridmasks`): `sequences` and `protected` use them
        self.lines = LineMasks(self.width, self.height, length, directions, shared, self.free)

    def _straights(self, directions) -> tuple:
        """Every straight of at least `length` cells along the allowed directions, each a
        tuple of cells in order."""
        out = []
        for name in directions:
            for dr, dc in DIRECTIONS[name]:
                for r in range(self.height):
                    for c in range(self.width):
                        pr, pc = r - dr, c - dc
                        if 0 <= pr < self.height and 0 <= pc < self.width:
                            continue  # not the first cell of its straight
                        cells = []
                        y, x = r, c
                        while 0 <= y < self.height and 0 <= x < self.width:
                            cells.append(y * self.width + x)
                            y, x = y + dr, x + dc
                        if len(cells) >= self.length:
                            out.append(tuple(cells))
        return tuple(out)

    # ---- BoardKind ---------------------------------------------------------------------------
    def name(self, sq: int) -> str:
        return self.cell_names[sq]

    def parse(self, c: int, text: str) -> int:
        cell = self._cell_index.get(text)
        if cell is None:
            raise PositionError(f"'{text}' is not a cell of the board ({self.cell_names[0]} .. {self.cell_names[-1]})")
        return cell

    def distance_home(self, c: int, sq: int) -> int:
        return 0

    # ---- lines ------------------------------------------------------------------------------
    def runs(self, chips) -> list:
        """Every maximal run of at least `length` covered cells (a chip of `chips` or a free
        cell) on one straight, as a tuple of cells."""
        covered = self._free_mask
        for cell in chips:
            covered |= 1 << cell
        L = self.length
        out = []
        for straight, mask in self._masks:
            if (covered & mask).bit_count() < L:
                continue
            run: list = []
            for cell in straight:
                if covered >> cell & 1:
                    run.append(cell)
                    continue
                if len(run) >= L:
                    out.append(tuple(run))
                run = []
            if len(run) >= L:
                out.append(tuple(run))
        return out

    def sequences(self, chips) -> int:
        """The sequence count of a colour whose chips are on `chips` (module contract)."""
        return self.lines.count(self.lines.mask(chips))

    def protected(self, chips) -> frozenset:
        """The cells of `chips` that lie in a line of their colour."""
        lines = self.lines
        return frozenset(lines.cells_of(lines.protected(lines.mask(chips))))
