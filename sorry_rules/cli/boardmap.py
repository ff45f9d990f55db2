"""Where each square of a board is drawn: a grid of cells computed from `game.layout` alone.

Two layouts, chosen by the geometry:
* `square`: four colours whose safety zones, Start and Home fit inside the ring. The track
  runs clockwise round the edge of an (S+1) x (S+1) grid (S = side length), one side per
  colour; each safety zone runs inward from its colour's safety entry with Home after it,
  and each Start sits just inside its start exit.
* `sides`: any other board (other numbers of colours, long safety zones, ...). One band per
  colour side: the side's track squares in a row (wrapped when long), then the colour's
  safety zone from under its safety entry with Home after it, and its Start under its start
  exit (on a row of its own when the zone is in the way).

Contract: a pure function of the layout (no colour or variant names); every track, safety,
Home and Start square appears in exactly one cell. Cells know what they show when empty
(`glyph`): `.` track, `>` `v` `<` `^` a slide's triangle (in the direction of travel),
`=` a slide's body, `o` its end circle, `:` a safety square, a named square's `symbol`
(`board.squares`: `*` a star); Start and Home show counts.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Direction of travel along each side of the square layout, and the arrow drawn for it.
_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
_ARROWS = {(0, 1): ">", (1, 0): "v", (0, -1): "<", (-1, 0): "^"}


@dataclass(frozen=True)
class Cell:
    kind: str            # "track", "safety", "home", "start" or "label"
    square: int          # the square id (-1 for labels)
    colour: int | None   # owner: safety/home/start colour, a slide's colour, a label's colour
    glyph: str           # what an empty cell shows (a label's text)


@dataclass(frozen=True)
class BoardMap:
    kind: str            # "square" or "sides"
    rows: int
    cols: int
    cells: dict          # (row, col) -> Cell


def build(layout, max_cols: int = 30) -> BoardMap:
    """The drawing grid for `layout`: the square layout when it fits, else `sides` with at
    most `max_cols` track cells per row."""
    square = _square(layout)
    return square if square is not None else _sides(layout, max_cols)


#: the glyph of a jump's start (`board.slides` with `sweep: end`): it leads across the board
JUMP = "~"


def _track_glyphs(layout, arrow_of) -> dict:
    """{square: (glyph, slide colour)} for the track squares that belong to slides, and the
    symbol of the named squares (`board.squares`: a star's `*`, in its side's colour); a
    jump's start shows '~' even on a named square, and a slide's end 'o' even inside another
    slide's body."""
    out = {}
    slides = [info for info in layout.slide_at if info is not None]
    for info in slides:  # a jump's start before all: it leads across the board
        if info.jump:
            out[info.triangle] = (JUMP, info.colour)
    for name, squares in getattr(layout, "named", {}).items():
        symbol = layout.square_symbols.get(name)
        if symbol is not None:
            for sq, owner in squares:
                out.setdefault(sq, (symbol, owner))
    for info in slides:
        out.setdefault(info.triangle, (arrow_of(info.triangle), info.colour))
    for info in slides:  # the ends before the bodies: a jump may end inside a slide's body
        out.setdefault(info.end, ("o", info.colour))
    for info in slides:
        for sq in info.swept:
            out.setdefault(sq, ("=", info.colour))
    return out


def _square(layout) -> BoardMap | None:
    C, S, L, T = layout.C, layout.side, layout.L, layout.T
    if C != 4 or S < 5:
        return None
    corners = ((0, 0), (0, S), (S, S), (S, 0))
    pos = {}
    for side in range(4):
        (r0, c0), (dr, dc) = corners[side], _DIRS[side]
        for k in range(S):
            pos[side * S + k] = (r0 + dr * k, c0 + dc * k)
    glyphs = _track_glyphs(layout, lambda sq: _ARROWS[_DIRS[sq // S]])
    cells = {pos[sq]: Cell("track", sq, glyphs.get(sq, (".", None))[1], glyphs.get(sq, (".", None))[0]) for sq in range(T)}

    def inward(sq: int, j: int) -> tuple:
        dr, dc = _DIRS[sq // S]
        r, c = pos[sq]
        return r + dc * j, c - dr * j

    def place(at: tuple, cell: Cell) -> bool:
        r, c = at
        if not (0 < r < S and 0 < c < S) or at in cells:
            return False
        cells[at] = cell
        return True

    for c in range(4):
        entry = layout.safety_entry[c]
        for j in range(1, L + 1):
            if not place(inward(entry, j), Cell("safety", T + c * L + j - 1, c, ":")):
                return None
        if not place(inward(entry, L + 1), Cell("home", layout.home[c], c, "H")):
            return None
    for c in range(4):
        exit_sq = layout.start_exit[c]
        if not any(place(inward(exit_sq, j), Cell("start", layout.start[c], c, "S")) for j in (1, 2)):
            return None
    return BoardMap("square", S + 1, S + 1, cells)


def _sides(layout, max_cols: int) -> BoardMap:
    C, S, L, T = layout.C, layout.side, layout.L, layout.T
    width = max(1, min(S, max_cols))
    glyphs = _track_glyphs(layout, lambda sq: ">")
    cells = {}
    row = 0
    for c in range(C):
        cells[(row, 0)] = Cell("label", -1, c, "")
        for k in range(S):
            sq = c * S + k
            glyph, owner = glyphs.get(sq, (".", None))
            if k and k % width == 0:
                row += 1
            cells[(row, 2 + k % width)] = Cell("track", sq, owner, glyph)
        row += 1
        # the safety zone from under the safety entry (turning off the track there), Home after
        # it; then Start under the start exit, on a row of its own when the zone is in the way
        lane = [Cell("safety", T + c * L + j, c, ":") for j in range(L)] + [Cell("home", layout.home[c], c, "H")]
        at = (layout.safety_entry[c] - c * S) % width
        for j, cell in enumerate(lane):
            cells[(row + (at + j) // width, 2 + (at + j) % width)] = cell
        row += (at + len(lane) - 1) // width
        exit_col = 2 + (layout.start_exit[c] - c * S) % width
        if (row, exit_col) in cells:
            row += 1
        cells[(row, exit_col)] = Cell("start", layout.start[c], c, "S")
        row += 1
    return BoardMap("sides", row, width + 2, cells)
