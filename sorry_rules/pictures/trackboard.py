"""The race-track board as SVG: squares, slides, safety zones, Start and Home, pawns.

`board_svg(game, state)` draws any track rule file's board from its layout alone
(`pictures.geometry`), with the pawns of `state` (an engine `State`, or anything with
`placement`, `seats` and `counters`) and a legend of the seated colours: pawns in Start and
Home, the variant's counters and scores where it has them, and the card of a position.

Elements carry what tests and the replay page's script read:
  * `rect.square.track[data-square]`, `rect.square.safety[data-square][data-colour]`;
  * `g.slide[data-colour]` with `path.slide-start` (the triangle) and `circle.slide-end`;
  * `circle.start` / `circle.home` `[data-square][data-colour]`, `text.count[data-square]`;
  * `circle.named-square[data-square][data-name]` on each named square (`board.squares`) and
    `text.square-name[data-name]` in the legend (its symbol and label);
  * `line.start-exit[data-colour]`; `circle.pawn[data-colour][data-square][data-at]`, one per
    pawn (pawns in Start or Home are small dots round its circle, several pawns on a track
    or safety square smaller ones round its centre);
  * `text.counter[data-colour][data-name][data-value]`, `text.score[data-colour][data-value]`;
  * for a variant with marks on pawns (`game.marks`, `state.marks`, when the engine has them):
    `circle.mark[data-kind][data-colour][data-square]` round each marked pawn on the board,
    and `text.marks[data-kind][data-count]` in the legend.

Contract: pure; the same game and state give the same bytes.
"""

from __future__ import annotations

import math
import textwrap

from sorry_rules.pictures import geometry
from sorry_rules.pictures.svg import FONT, document, element, fill_of, ink_on, num

LEGEND = 230.0       # width of the legend beside the board
LINE = 18.0          # legend line height


def labels_of(colours) -> tuple:
    """One short label per colour: its initial, or its number when initials clash."""
    initials = tuple(name[:1].upper() for name in colours)
    if len(set(initials)) == len(initials) and all(initials):
        return initials
    return tuple(str(i + 1) for i in range(len(colours)))


#: where several pawns share a track or safety square: on a ring of this many cells round its centre, each this
#: much of a lone pawn's size (the replay page's script draws them the same way: `replaypage.SCRIPT`)
CROWD_RING, CROWD_SIZE = 0.2, 0.62


def pawn_spot(geo, layout, sq: int, i: int, n: int) -> tuple:
    """Where the i-th of n pawns on square `sq` is drawn: the square's centre for a lone pawn
    on a track or safety square, several round a small ring in it (`CROWD_RING`), else
    round the Start or Home circle."""
    x, y = geo.at[sq]
    if sq < layout.X:
        if n <= 1:
            return x, y
        angle = -math.pi / 2 + 2 * math.pi * i / n
        ring = (geo.cell if sq < layout.T else geo.step) * CROWD_RING
        return x + ring * math.cos(angle), y + ring * math.sin(angle)
    angle = math.radians(-30 + (i + 0.5) * 240 / max(n, 1))  # round the sides and bottom: the label is on top
    ring = pile_ring(geo, sq)
    return x + ring * math.cos(angle), y + ring * math.sin(angle)


def pile_ring(geo, sq: int) -> float:
    """The radius of the ring the pawns of a Start or Home square are drawn on: inside its
    circle, or on its rim where the circle is small (its count fills it)."""
    pool = geo.pool(sq)
    return pool * 0.62 if pool >= geo.cell * 0.6 else pool


def pawn_radius(geo, sq: int, layout, n: int = 1) -> float:
    """The radius of a pawn on `sq` where `n` pawns stand (several on a track or safety square are smaller)."""
    r = geo.cell * (0.34 if sq < layout.T else 0.3 if sq < layout.X else 0.14)
    return r * CROWD_SIZE if n > 1 and sq < layout.X else r


def _angle(vector) -> str:
    return num(math.degrees(math.atan2(vector[1], vector[0])))


def _square(geo, sq: int, side: float, angle: str, attrs: dict) -> str:
    x, y = geo.at[sq]
    half = side / 2
    return element("rect", dict(attrs, **{"data-square": sq, "x": num(x - half), "y": num(y - half), "width": num(side),
                                          "height": num(side), "transform": f"rotate({angle} {num(x)} {num(y)})"}))


def static_parts(game, geo) -> list:
    """Everything of the board that no move changes."""
    layout = game.layout
    fills = fill_of(game.colours)
    names = game.colours
    parts = ['<g class="board">']
    for sq in range(layout.T):
        parts.append(_square(geo, sq, geo.cell, _angle(geo.heading[sq]),
                             {"class": "square track", "fill": "#fffdf5", "stroke": "#444", "stroke-width": "1"}))
    for c in range(layout.C):
        angle = _angle(geo.heading[layout.safety_entry[c]])
        for j in range(layout.L):
            parts.append(_square(geo, layout.T + c * layout.L + j, geo.step, angle,
                                 {"class": "square safety", "data-colour": names[c], "fill": fills[c], "fill-opacity": "0.35",
                                  "stroke": fills[c], "stroke-width": "1.5"}))
    for info in layout.slide_at:
        if info is not None:
            parts.extend(_slide(geo, info, fills[info.colour], names[info.colour]))
    parts.extend(named_squares(game, geo))
    for c in range(layout.C):
        parts.extend(_pools(game, geo, c, fills[c]))
    parts.extend(square_numbers(game, geo))
    parts.append("</g>")
    return parts


def square_numbers(game, geo) -> list:
    """Each square's name as the moves say it: a track square's number outside the track
    (`track:N`), a safety square's K inside it, small (`safety:K`)."""
    layout = game.layout
    out = ['<g class="square-numbers" fill="#666" style="font-family:sans-serif">']
    for sq in range(layout.T):
        (x, y), (ix, iy) = geo.at[sq], geo.inward[sq]
        reach = geo.cell * 0.5 + 8
        out.append(element("text", {"class": "square-number", "data-square": sq, "x": num(x - ix * reach),
                                    "y": num(y - iy * reach + 3), "font-size": "8", "text-anchor": "middle"}, str(sq)))
    for c in range(layout.C):
        for k in range(1, layout.L + 1):
            sq = layout.T + c * layout.L + k - 1
            x, y = geo.at[sq]
            out.append(element("text", {"class": "square-number safety-number", "data-square": sq, "x": num(x),
                                        "y": num(y + 3), "font-size": "7", "text-anchor": "middle"}, str(k)))
    out.append("</g>")
    return out


def _slide(geo, info, fill: str, name: str) -> list:
    squares = (info.triangle, *info.swept)
    points = " ".join(f"{num(geo.at[sq][0])},{num(geo.at[sq][1])}" for sq in squares)
    (x, y), (dx, dy) = geo.at[info.triangle], geo.heading[info.triangle]
    size = geo.cell * 0.36
    tip = (x + dx * size, y + dy * size)
    left = (x - dx * size - dy * size, y - dy * size + dx * size)
    right = (x - dx * size + dy * size, y - dy * size - dx * size)
    path = f"M{num(tip[0])},{num(tip[1])} L{num(left[0])},{num(left[1])} L{num(right[0])},{num(right[1])} Z"
    ex, ey = geo.at[info.end]
    kind = "slide jump" if info.jump else "slide"  # a jump (`sweep: end`): dashed, straight across the board
    return [element("g", {"class": kind, "data-colour": name, "data-from": info.triangle, "data-to": info.end})[:-2] + ">",
            element("polyline", {"points": points, "fill": "none", "stroke": fill, "stroke-width": num(geo.cell * 0.28),
                                 "stroke-linecap": "round", "stroke-opacity": "0.8",
                                 "stroke-dasharray": num(geo.cell * 0.5) if info.jump else None}),
            element("path", {"class": "slide-start", "d": path, "fill": fill, "stroke": "#222", "stroke-width": "1"}),
            element("circle", {"class": "slide-end", "cx": num(ex), "cy": num(ey), "r": num(geo.cell * 0.22), "fill": fill,
                               "stroke": "#222", "stroke-width": "1"}),
            "</g>"]


def named_squares(game, geo) -> list:
    """The named squares of `board.squares` (a star, a safe square): a ring in the colour of
    the square's side with the name's symbol, `circle.named-square[data-square][data-name]`."""
    layout = game.layout
    fills = fill_of(game.colours)
    symbols = getattr(layout, "square_symbols", {})
    out = []
    for name, symbol in symbols.items():
        for sq, owner in layout.named[name]:
            x, y = geo.at[sq]
            out.append(element("circle", {"class": "named-square", "data-square": sq, "data-name": name, "cx": num(x),
                                          "cy": num(y), "r": num(geo.cell * 0.42), "fill": "none", "stroke": fills[owner],
                                          "stroke-width": "2"}))
            out.append(element("text", {"class": "square-symbol", "x": num(x), "y": num(y + 5), "font-size": "14",
                                        "text-anchor": "middle", "fill": fills[owner], "fill-opacity": "0.6",
                                        "style": FONT}, symbol))
    return out


def _pools(game, geo, c: int, fill: str) -> list:
    """Start and Home of colour c, and the start exit."""
    layout = game.layout
    name = game.colours[c]
    out = []
    (sx, sy), (ex, ey) = geo.at[layout.start[c]], geo.at[layout.start_exit[c]]
    apart = math.hypot(ex - sx, ey - sy) or 1.0
    edge = geo.pool(layout.start[c]) / apart  # the line leaves from the circle's rim
    sx, sy = sx + (ex - sx) * edge, sy + (ey - sy) * edge
    out.append(element("line", {"class": "start-exit", "data-colour": name, "x1": num(sx), "y1": num(sy), "x2": num(ex),
                                "y2": num(ey), "stroke": fill, "stroke-width": "3", "stroke-dasharray": "4 3"}))
    for kind, sq in (("start", layout.start[c]), ("home", layout.home[c])):
        x, y = geo.at[sq]
        radius = geo.pool(sq)
        out.append(element("circle", {"class": kind, "data-square": sq, "data-colour": name, "cx": num(x), "cy": num(y),
                                      "r": num(radius), "fill": fill, "fill-opacity": "0.25" if kind == "start" else "0.55",
                                      "stroke": fill, "stroke-width": "2"}))
        if radius >= geo.cell * 0.6:  # a circle too small for its word is known by its place
            out.append(element("text", {"class": "label", "x": num(x), "y": num(y - geo.cell * 0.3), "font-size": "8",
                                        "text-anchor": "middle", "style": FONT},
                               "Start" if kind == "start" else "Home"))
    return out


def pawn_parts(game, geo, placement, names=None) -> list:
    """The pawns of `placement`, each on the board labelled with its name in `names`
    (`records.pawnnames`; without, its colour's label), and the count of pawns in each
    Start and Home."""
    layout = game.layout
    fills = fill_of(game.colours)
    labels = labels_of(game.colours)
    on: dict = {}  # track or safety square -> [(colour, name), ...] of its pawns, by colour
    out = ['<g class="pawns">']
    for c, squares in enumerate(placement):
        for sq in sorted(set(squares)):
            n = squares.count(sq)
            if sq >= layout.X:
                for i in range(n):
                    out.extend(_pawn(game, geo, c, sq, i, n, fills[c], labels[c]))
                continue
            found = names.at(c, sq) if names is not None else []
            on.setdefault(sq, []).extend((c, found[i] if i < len(found) else labels[c]) for i in range(n))
    for sq, pawns in sorted(on.items()):
        for i, (c, label) in enumerate(pawns):
            out.extend(_pawn(game, geo, c, sq, i, len(pawns), fills[c], label))
    for c in range(layout.C):
        squares = placement[c] if c < len(placement) else ()
        for sq in (layout.start[c], layout.home[c]):
            x, y = geo.at[sq]
            count = squares.count(sq)
            out.append(element("text", {"class": "count", "data-square": sq, "data-value": count, "x": num(x),
                                        "y": num(y + 8), "font-size": "12", "font-weight": "bold", "text-anchor": "middle",
                                        "style": FONT}, str(count)))
    out.append("</g>")
    return out


def _pawn(game, geo, c: int, sq: int, i: int, n: int, fill: str, label: str) -> list:
    layout = game.layout
    x, y = pawn_spot(geo, layout, sq, i, n)
    r = pawn_radius(geo, sq, layout, n)
    out = [element("circle", {"class": "pawn", "data-colour": game.colours[c], "data-square": sq,
                              "data-at": layout.name(sq), "data-name": label if sq < layout.X else None, "cx": num(x),
                              "cy": num(y), "r": num(r), "fill": fill, "stroke": "#111", "stroke-width": "1.5"})]
    if sq < layout.X:
        size = ("11" if len(label) < 2 else "9") if n == 1 else "7"
        out.append(element("text", {"class": "pawn-label", "x": num(x), "y": num(y + (4 if n == 1 else 2.5)), "font-size": size,
                                    "font-weight": "bold", "text-anchor": "middle", "fill": ink_on(fill),
                                    "style": FONT}, label))
    return out


def legend_lines(game, state, card: str | None = None) -> list:
    """(colour index or None, class, text, extra attributes) per legend line; `card` is the
    line saying the card (or hand) of a position, if any."""
    layout = game.layout
    counters = getattr(state, "counters", ()) or ()
    scores = game.standing(state) if game.scoring else {}
    lines = [(None, "title", game.name, {})]
    if card is not None:
        lines.append((None, "card", card, {}))
    for name, symbol in getattr(layout, "square_symbols", {}).items():
        lines.append((None, "square-name", f"{symbol} {layout.square_labels[name]}", {"data-name": name}))
    for seat, c in enumerate(dict.fromkeys(state.seats)):
        squares = state.placement[c]
        lines.append((c, "seat", f"{game.colours[c]}: Start {squares.count(layout.start[c])}, "
                                 f"Home {squares.count(layout.home[c])}", {}))
        if counters:
            for (name, _, label), value in zip(game.counters, counters[c]):
                lines.append((c, "counter", f"{label or name}: {value}", {"data-name": name, "data-value": value}))
        if seat in scores:
            lines.append((c, "score", f"points: {scores[seat]}", {"data-value": scores[seat]}))
    for kind, marked in marks_of(game, state):
        where = ", ".join(f"{game.colours[c]} {layout.name(sq)}" for c, sq, _ in marked) or "none"
        lines.append((None, "marks", f"{getattr(kind, 'label', '') or kind.name}: {where}",
                      {"data-kind": kind.name, "data-count": len(marked)}))
    return lines


def marks_of(game, state) -> list:
    """(mark kind, its marks) per mark kind of a variant with marks on pawns (`game.marks`,
    `state.marks`: per kind a tuple of (colour, square, placed by)); [] for a variant or a
    state without them."""
    kinds = getattr(game, "marks", ()) or ()
    marks = getattr(state, "marks", ()) or ()
    return list(zip(kinds, marks))


def mark_parts(game, geo, state) -> list:
    """A dashed ring round each marked pawn on a track or safety square, with the kind's
    symbol (marked pawns in Start or Home are counted in the legend)."""
    layout = game.layout
    out = []
    for kind, marked in marks_of(game, state):
        for c, sq, _ in marked:
            if sq >= layout.X:
                continue
            x, y = geo.at[sq]
            r = pawn_radius(geo, sq, layout) + 3
            out.append(element("circle", {"class": "mark", "data-kind": kind.name, "data-colour": game.colours[c],
                                          "data-square": sq, "cx": num(x), "cy": num(y), "r": num(r), "fill": "none",
                                          "stroke": "#000", "stroke-width": "2", "stroke-dasharray": "3 2"}))
            symbol = getattr(kind, "symbol", "") or "*"
            out.append(element("text", {"class": "mark-symbol", "x": num(x + r), "y": num(y - r + 4), "font-size": "10",
                                        "font-weight": "bold", "style": FONT}, symbol))
    return out


#: Characters of a legend line that fit `LEGEND` at the legend's font size; longer lines wrap.
LEGEND_CHARS = 32


def wrapped_legend(lines: list) -> list:
    """The legend lines with every text longer than `LEGEND_CHARS` broken at spaces into
    continuation lines (class `more`, indented), so nothing runs past the picture's edge."""
    out = []
    for c, kind, text, extra in lines:
        parts = textwrap.wrap(text, LEGEND_CHARS - (0 if kind in ("title", "card") else 3), break_on_hyphens=False) or [""]
        out.append((c, kind, parts[0], extra))
        out += [(c, "more", part, {}) for part in parts[1:]]
    return out


def legend_parts(game, lines: list, x0: float, y0: float) -> list:
    fills = fill_of(game.colours)
    out = ['<g class="legend">']
    y = y0
    for c, kind, text, extra in lines:
        y += LINE
        if kind == "more":
            out.append(element("text", {"class": "more", "x": num(x0 + 24), "y": num(y), "style": FONT,
                                        "font-size": "12"}, text))
            continue
        attrs = {"class": kind, "data-colour": None if c is None else game.colours[c], **extra}
        if kind == "seat":
            out.append(element("rect", {"x": num(x0), "y": num(y - 11), "width": "12", "height": "12", "fill": fills[c],
                                        "stroke": "#111"}))
        flush = kind in ("title", "card", "note", "square-name")  # no swatch before it
        out.append(element("text", dict(attrs, x=num(x0 + (0 if flush else 16)), y=num(y), style=FONT,
                                        **{"font-size": "14" if kind == "title" else "12"}), text))
    out.append("</g>")
    return out


def path_parts(game, geo, paths) -> list:
    """The way each moved pawn went (`pictures.paths.move_paths`): a line through the centres
    of its squares (`polyline.path[data-colour]`) and a ring where it stopped
    (`circle.moved[data-square]`), drawn under the pawns."""
    fills = fill_of(game.colours)
    out = ['<g class="move-paths">']
    for c, squares in paths:
        points = " ".join(f"{num(geo.at[sq][0])},{num(geo.at[sq][1])}" for sq in squares)
        out.append(element("polyline", {"class": "path", "data-colour": game.colours[c], "points": points, "fill": "none",
                                        "stroke": fills[c], "stroke-width": "4", "stroke-dasharray": "6 3",
                                        "stroke-linecap": "round", "stroke-opacity": "0.9"}))
        x, y = geo.at[squares[-1]]
        out.append(element("circle", {"class": "moved", "data-colour": game.colours[c], "data-square": squares[-1],
                                      "cx": num(x), "cy": num(y), "r": num(geo.cell * 0.5), "fill": "none", "stroke": "#000",
                                      "stroke-width": "2.5"}))
    out.append("</g>")
    return out


def board_svg(game, state=None, card: str | None = None, title: str | None = None, names=None, paths=(),
              notes=()) -> str:
    """The board of `game` with the pawns of `state` (default: the start of a game with the
    most players), named by `names` when given, the `paths` of a move (`path_parts`), and
    its legend (with the line `card`, if given, and the lines `notes` after the title), as a
    whole SVG document."""
    geo = geometry.build(game.layout)
    if state is None:
        state = game.new_game(0, players=game.players_max)
    lines = legend_lines(game, state, card)
    lines[1:1] = [(None, "note", note, {}) for note in notes]
    lines = wrapped_legend(lines)
    body = static_parts(game, geo) + path_parts(game, geo, paths) + pawn_parts(game, geo, state.placement, names)
    body += mark_parts(game, geo, state) + legend_parts(game, lines, geo.width, 8.0)
    height = max(geo.height, 8.0 + LINE * (len(lines) + 1))
    return document(geo.width + LEGEND, height, body, title or f"{game.name}: the board", "sorry-board track-board")
