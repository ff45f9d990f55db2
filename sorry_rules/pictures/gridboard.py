"""A grid board (Sequence and other grid rule files) as SVG: the card face of every cell, the
free cells, the chips of a position and a line drawn through each completed sequence.

Elements carry what tests and the replay page's script read:
  * `rect.cell[data-cell][data-card]` for a card cell, `rect.cell.free[data-cell]` for a free one;
  * `circle.chip[data-colour][data-cell]`, one per chip;
  * `line.sequence[data-colour]`, one per sequence the colour has made (`Grid.sequences`):
    a run of covered cells long enough for k sequences gets k lines, each over its own cells;
  * `text.seat[data-colour][data-chips][data-sequences]` in the legend.

Contract: pure; drawn from `game.grid` alone (columns, rows, cards, free cells, lines), so an
invented grid comes out right; the same game and placement give the same bytes.
"""

from __future__ import annotations

from sorry_rules.base.words import plural
from sorry_rules.pictures.svg import FONT, document, element, fill_of, num

CELL = 44.0
MARGIN = 28.0
LEGEND = 230.0
LINE = 18.0


def cell_centre(grid, cell: int, size: float = CELL) -> tuple:
    row, col = divmod(cell, grid.width)
    return MARGIN + (col + 0.5) * size, MARGIN + (row + 0.5) * size


def static_parts(grid, size: float = CELL) -> list:
    """The cells with their card faces, and the column and row names."""
    out = ['<g class="board">']
    for cell in range(grid.size):
        x, y = cell_centre(grid, cell, size)
        card = grid.card_of[cell]
        free = card is None
        out.append(element("rect", {"class": "cell free" if free else "cell", "data-cell": grid.cell_names[cell],
                                    "data-card": card, "x": num(x - size / 2), "y": num(y - size / 2), "width": num(size),
                                    "height": num(size), "fill": "#333" if free else "#fffdf5", "stroke": "#666"}))
        out.append(element("text", {"class": "face", "x": num(x), "y": num(y - size * 0.22), "font-size": "10",
                                    "text-anchor": "middle", "fill": "#fff" if free else "#333", "style": FONT},
                           "free" if free else card))
    for col, name in enumerate(grid.columns):
        x = MARGIN + (col + 0.5) * size
        out.append(element("text", {"class": "axis", "x": num(x), "y": num(MARGIN - 8), "font-size": "12",
                                    "text-anchor": "middle", "style": FONT}, name))
    for row, name in enumerate(grid.rows):
        y = MARGIN + (row + 0.5) * size + 4
        out.append(element("text", {"class": "axis", "x": num(MARGIN - 6), "y": num(y), "font-size": "12",
                                    "text-anchor": "end", "style": FONT}, name))
    out.append("</g>")
    return out


def sequence_lines(grid, placement) -> list:
    """(colour, first cell, last cell) of every sequence made, colour by colour (see the
    module docstring)."""
    step = grid.length - grid.shared
    out = []
    for c, chips in enumerate(placement):
        if not chips:
            continue
        for run in grid.runs(chips):
            for k in range((len(run) - grid.length) // step + 1):
                out.append((c, run[k * step], run[k * step + grid.length - 1]))
    return out


def chip_parts(game, placement, size: float = CELL) -> list:
    grid = game.grid
    fills = fill_of(game.colours)
    out = ['<g class="chips">']
    for c, chips in enumerate(placement):
        for cell in chips:
            x, y = cell_centre(grid, cell, size)
            out.append(element("circle", {"class": "chip", "data-colour": game.colours[c], "data-cell": grid.cell_names[cell],
                                          "cx": num(x), "cy": num(y + size * 0.1), "r": num(size * 0.3), "fill": fills[c],
                                          "stroke": "#111", "stroke-width": "1.5"}))
    for c, first, last in sequence_lines(grid, placement):  # the colour's own, on a dark casing: whose line it is
        (x1, y1), (x2, y2) = cell_centre(grid, first, size), cell_centre(grid, last, size)
        ends = {"x1": num(x1), "y1": num(y1 + size * 0.1), "x2": num(x2), "y2": num(y2 + size * 0.1),
                "stroke-linecap": "round"}
        out.append(element("line", {"class": "casing", **ends, "stroke": "#111", "stroke-width": "8"}))
        out.append(element("line", {"class": "sequence", "data-colour": game.colours[c], **ends, "stroke": fills[c],
                                    "stroke-width": "4"}))
    out.append("</g>")
    return out


def side_text(game, placement, c: int) -> str:
    """'green: 5 chips, 1 sequence': colour `c`'s chips and sequences (the legend, the replay page)."""
    return f"{game.colours[c]}: {plural(len(placement[c]), 'chip')}, {plural(game.grid.sequences(placement[c]), 'sequence')}"


def legend_parts(game, state, x0: float, hand: str | None = None) -> list:
    grid = game.grid
    fills = fill_of(game.colours)
    colours = list(dict.fromkeys(state.seats)) if state is not None else list(range(game.grid.C))
    placement = state.placement if state is not None else ((),) * grid.C
    out = ['<g class="legend">', element("text", {"class": "title", "x": num(x0), "y": num(MARGIN), "font-size": "14",
                                                   "style": FONT}, game.name)]
    y = MARGIN
    if hand is not None:
        y += LINE
        out.append(element("text", {"class": "card", "x": num(x0), "y": num(y), "font-size": "12", "style": FONT}, hand))
    for c in colours:
        y += LINE
        chips = len(placement[c])
        made = grid.sequences(placement[c])
        out.append(element("rect", {"x": num(x0), "y": num(y - 11), "width": "12", "height": "12", "fill": fills[c],
                                    "stroke": "#111"}))
        out.append(element("text", {"class": "seat", "data-colour": game.colours[c], "data-chips": chips,
                                    "data-sequences": made, "x": num(x0 + 16), "y": num(y), "font-size": "12", "style": FONT},
                           side_text(game, placement, c)))
    out.append("</g>")
    return out


def size_of(grid, size: float = CELL) -> tuple:
    return 2 * MARGIN + grid.width * size, 2 * MARGIN + grid.height * size


def board_svg(game, state=None, title: str | None = None, hand: str | None = None) -> str:
    """The grid of `game` with the chips of `state` (an engine `GridState`, or anything with
    `placement` and `seats`; default: an empty board) and the legend line `hand`, if given,
    as a whole SVG document."""
    grid = game.grid
    width, height = size_of(grid)
    placement = state.placement if state is not None else ((),) * grid.C
    body = static_parts(grid) + chip_parts(game, placement) + legend_parts(game, state, width, hand)
    return document(width + LEGEND, height, body, title or f"{game.name}: the board", "sorry-board grid-board")
