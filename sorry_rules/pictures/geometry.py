"""Where each square of a race-track board is drawn, computed from `game.layout` alone.

The track is laid out on a regular polygon with one side per colour (`C >= 3`; four colours
give the familiar square board, corners included), or on a circle (`C <= 2`, where a polygon
would be flat). Track square `k` of side `c` sits `k` cells (four colours: a square on each corner,
as on the printed board) or `k + o` cells (other polygons, `o` just enough to keep the squares
either side of a corner a cell apart) from the side's first corner, in the direction of
travel (clockwise). Each safety zone runs inward, square by square, from
its colour's safety entry, with Home after it; each Start sits just inside its start exit
(moved along the side when the safety zone is in the way). When the zones are too long for
the space inside the track, their squares are drawn closer together.

Contract: a pure function of the layout (no colour or variant names); every square id of the
layout (track, safety, Home, Start) has a centre in `at`; all of it lies inside
`0..width x 0..height`. Coordinates are plain floats; `pictures.svg.num` rounds them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CELL = 30.0          # side of a track square, in SVG units
MARGIN = 24.0        # space round the track
POOL = 0.85          # radius of the Start and Home circles, in cells


@dataclass(frozen=True)
class TrackGeometry:
    width: float
    height: float
    cell: float                 # side of a track square
    step: float                 # side of a safety square (cell, or less when zones are long)
    at: dict                    # square id -> (x, y): its centre
    heading: dict               # track square -> (dx, dy): the direction of travel there
    inward: dict                # track square -> (dx, dy): toward the middle of the board
    centre: tuple               # (x, y) of the middle of the board


def build(layout, cell: float = CELL) -> TrackGeometry:
    """The geometry of `layout` (see the module contract)."""
    C, S, T = layout.C, layout.side, layout.T
    at, heading, inward = {}, {}, {}
    if C >= 3:
        offset = 0.0 if C == 4 else _corner_offset(C)
        edge = S if C == 4 else S - 1 + 2 * offset
        radius = edge * cell / (2 * math.sin(math.pi / C))
        inner = radius * math.cos(math.pi / C)
        corners = [_polar(radius, -math.pi / 2 - math.pi / C + 2 * math.pi * i / C) for i in range(C)]
        for c in range(C):
            (x0, y0), (x1, y1) = corners[c], corners[(c + 1) % C]
            dx, dy = (x1 - x0) / (edge * cell), (y1 - y0) / (edge * cell)
            for k in range(S):
                sq = c * S + k
                at[sq] = (x0 + dx * (k + offset) * cell, y0 + dy * (k + offset) * cell)
                heading[sq] = (dx, dy)
                inward[sq] = (-dy, dx)  # clockwise on screen (y down): the inside is on the right
    else:
        radius = max(T * cell / (2 * math.pi), 3 * cell)
        inner = radius
        for sq in range(T):
            angle = -math.pi / 2 + 2 * math.pi * sq / T
            at[sq] = _polar(radius, angle)
            heading[sq] = (-math.sin(angle), math.cos(angle))
            inward[sq] = (-math.cos(angle), -math.sin(angle))
    step = _step(layout, cell, inner)
    for c in range(C):
        _zone(layout, c, cell, step, at, heading, inward)
    return _framed(at, heading, inward, cell, step, radius)


def _corner_offset(C: int) -> float:
    """How far (in cells) the first and last squares of a side stay from its corners, so that
    the two squares either side of a corner are a whole cell apart."""
    half_angle = math.pi / 2 - math.pi / C  # half the polygon's interior angle
    return max(0.5, 1 / (2 * math.sin(half_angle)))


def _polar(radius: float, angle: float) -> tuple:
    return (radius * math.cos(angle), radius * math.sin(angle))


def _step(layout, cell: float, inner: float) -> float:
    """The side of a safety square: a cell, or less so that the zone and Home fit inside."""
    room = inner - cell * (0.6 + 2 * POOL)
    need = layout.L + 0.5
    return max(cell * 0.3, min(cell, room / need)) if layout.L else cell


def _into_board(layout, sq: int, inward: dict) -> tuple:
    """`(direction, stretch)` from track square `sq` into the board: its side's inward
    direction, or, for a square on a corner of the square board, the diagonal between the two
    sides' (stretched by sqrt 2, so that what is drawn inward clears the squares of both
    sides instead of running over the previous side's)."""
    if layout.C == 4 and sq % layout.side == 0:
        (ax, ay), (bx, by) = inward[sq], inward[(sq - 1) % layout.T]
        size = math.hypot(ax + bx, ay + by) or 1.0
        return ((ax + bx) / size, (ay + by) / size), math.sqrt(2)
    return inward[sq], 1.0


def _zone(layout, c: int, cell: float, step: float, at: dict, heading: dict, inward: dict) -> None:
    T, L = layout.T, layout.L
    entry = layout.safety_entry[c]
    (ex, ey), ((ix, iy), stretch) = at[entry], _into_board(layout, entry, inward)
    for j in range(1, L + 1):
        reach = (cell * 0.5 + step * (j - 0.5)) * stretch
        at[T + c * L + j - 1] = (ex + ix * reach, ey + iy * reach)
    reach = (cell * 0.5 + step * L) * stretch + cell * (POOL + 0.1)
    at[layout.home[c]] = (ex + ix * reach, ey + iy * reach)
    exit_sq = layout.start_exit[c]
    (sx, sy), ((jx, jy), stretch), (hx, hy) = at[exit_sq], _into_board(layout, exit_sq, inward), heading[exit_sq]
    apart = (exit_sq - entry) % T
    apart = apart - T if apart > T // 2 else apart
    shift = 0.0
    if abs(apart) * cell < cell * (0.5 + POOL + 0.1) and L:
        shift = (cell * (0.6 + POOL) - abs(apart) * cell) * (1 if apart >= 0 else -1)
    reach = cell * (0.6 + POOL) * stretch
    at[layout.start[c]] = (sx + jx * reach + hx * shift, sy + jy * reach + hy * shift)


def _framed(at: dict, heading: dict, inward: dict, cell: float, step: float, radius: float) -> TrackGeometry:
    """Move everything so the drawing starts at (MARGIN, MARGIN)."""
    pad = cell * POOL + MARGIN
    xs = [x for x, _ in at.values()]
    ys = [y for _, y in at.values()]
    left, top = min(xs) - pad, min(ys) - pad
    moved = {sq: (x - left, y - top) for sq, (x, y) in at.items()}
    return TrackGeometry(max(xs) - left + pad, max(ys) - top + pad, cell, step, moved, heading, inward,
                         (-left, -top))
