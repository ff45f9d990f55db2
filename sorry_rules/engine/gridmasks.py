"""Lines of a grid judged on bit masks: a set of cells is one int, lines are shifts and ands.

Cell `row * width + column` is bit `row * (width + 1) + column` of a mask: every row has one
spare bit after its last column that no cell uses, so shifting a mask by a direction's step
never carries a cell into the next row (row 1, column width + 1, diagonals width + 2 and
width). The bits increase with the cells, so the k-th lowest set bit is the k-th cell in
cell order.

A *window* of a direction is a cell from which `length` cells along that direction are all
covered. Along one straight, a maximal run of `n >= length` covered cells holds `n - length
+ 1` consecutive windows; taking the lowest window, dropping the `length - shared - 1`
windows after it (they would share more than `shared` cells with it) and repeating picks
`(n - length) // (length - shared) + 1` lines, the count of `engine.grid` (its contract).

Contract: `LineMasks(width, height, length, directions, shared, free)` is immutable; `count`,
`protected` and `lined` are pure functions of masks and give `engine.grid.Grid`'s `sequences` and
`protected` (tests/test_gridtable.py compares them on random chip sets).
"""

from __future__ import annotations

from functools import reduce
from operator import or_


class LineMasks:
    """Bit masks and line counts of one grid (see the module contract)."""

    #: the most row patterns `cells_of` keeps per row
    PATTERNS = 4096

    def __init__(self, width: int, height: int, length: int, directions, shared: int, free):
        stride = width + 1
        self.length = length
        #: per cell its bit (an int with one bit set)
        self.bit = tuple(1 << (row * stride + column) for row in range(height) for column in range(width))
        self.free = sum(self.bit[cell] for cell in free)
        self.cells = sum(self.bit) & ~self.free          # every cell that can take a chip
        self._stride = stride
        #: per bit position its cell (-1 for the spare bit of a row)
        self.cell_at = tuple(-1 if position % stride == width else position - position // stride
                             for position in range(stride * height))
        steps = []
        for name in directions:
            steps += {"row": (1,), "column": (stride,), "diagonal": (stride + 1, stride - 1)}[name]
        skip = length - shared
        # per direction: the shifts of its `length` cells, and the windows one line rules out
        self._directions = tuple((tuple(k * step for k in range(1, length)), sum(1 << (k * step) for k in range(skip)))
                                 for step in steps)
        #: per cell, per direction the cells of the lines along it through the cell: when each
        #: holds fewer than `length` covered cells, no line holds the cell
        self.reach = tuple(self._reach(row, column, steps, width, height)
                           for row in range(height) for column in range(width))
        #: per cell the cells of every line through it (the union of its `reach`)
        self.around = tuple(reduce(or_, segments, 0) for segments in self.reach)
        #: the sequence count of a colour without chips (the free cells alone)
        self.none = self.count(0)
        # `cells_of` reads a mask a row at a time: per row its shift, its first cell, and the
        # cells of each pattern of its bits met so far
        self._width = width
        self._rows = tuple((row * stride, row * width, {}) for row in range(height))

    def _reach(self, row: int, column: int, steps, width: int, height: int) -> tuple:
        stride = self._stride
        out = []
        for step in steps:
            dr, dc = divmod(step, stride)
            if dc == stride - 1:  # the step down-left: one row down, one column back
                dr, dc = dr + 1, -1
            mask = 0
            for k in range(1 - self.length, self.length):
                r, c = row + k * dr, column + k * dc
                if 0 <= r < height and 0 <= c < width:
                    mask |= 1 << (r * stride + c)
            out.append(mask)
        return tuple(out)

    def lined(self, chips: int, cell: int) -> bool:
        """Whether a line of covered cells (`chips` and the free cells) could hold `cell`:
        False means none does (True may still mean none)."""
        covered = chips | self.free
        length = self.length
        if (covered & self.around[cell]).bit_count() < length:
            return False  # too few covered cells on all the lines together
        for segment in self.reach[cell]:
            if (covered & segment).bit_count() >= length:
                return True
        return False

    def mask(self, cells) -> int:
        """The mask of `cells`."""
        bit = self.bit
        out = 0
        for cell in cells:
            out |= bit[cell]
        return out

    def cell(self, single: int) -> int:
        """The cell of a mask with exactly one bit set."""
        return self.cell_at[single.bit_length() - 1]

    def cells_of(self, mask: int) -> tuple:
        """The cells of `mask`, in cell order."""
        out = ()
        if not mask:
            return out
        full = (1 << self._width) - 1
        for shift, first, known in self._rows:
            pattern = mask >> shift & full
            if pattern:
                cells = known.get(pattern)
                if cells is None:
                    cells = tuple(first + column for column in range(self._width) if pattern >> column & 1)
                    if len(known) < self.PATTERNS:
                        known[pattern] = cells
                out += cells
        return out

    def count(self, chips: int) -> int:
        """The sequence count of a colour whose chips are `chips` (a mask; free cells are added)."""
        covered = chips | self.free
        total = 0
        for shifts, ruled_out in self._directions:
            windows = covered
            for shift in shifts:
                windows &= covered >> shift
            while windows:
                total += 1
                windows &= ~(ruled_out * (windows & -windows))
        return total

    def protected(self, chips: int) -> int:
        """The chips of `chips` (a mask) that lie in a line of their colour, as a mask."""
        covered = chips | self.free
        lined = 0
        for shifts, _ in self._directions:
            windows = covered
            for shift in shifts:
                windows &= covered >> shift
            if windows:
                lined |= windows
                for shift in shifts:
                    lined |= windows << shift
        return lined & chips
