"""Where each square of a race-track board is drawn, computed from `game.layout` alone.

A board whose sides are arms (`cross_fits`: an odd side of 2R + 1 squares whose middle
square is the safety entry, and a safety zone of R - 1 squares, as on Ludo's and
Parcheesi's boards) is drawn as a cross, one arm per colour round the middle (four colours:
the familiar cross; three, six ...: a star of arms): an arm is three columns of R squares;
its side's track squares run out along one outer column, across the arm's tip and back along
the other, the safety zone runs down the middle column to Home in the middle, and Start (the
yard) sits between the arm and the next one, on the side of the start exit.

Any other track is laid out on a regular polygon with one side per colour (`C >= 3`; four colours
give the familiar square board, corners included), or on a circle (`C <= 2`, where a polygon
would be flat). Track square `k` of side `c` sits `k` cells (four colours: a square on each corner,
as on the printed board) or `k + o` cells (other polygons, `o` just enough to keep the squares
either side of a corner a cell apart) from the side's first corner, in the direction of
travel (clockwise). Each safety zone runs inward, square by square, from
its colour's safety entry, with Home after it; each Start sits just inside its start exit
(outside it when the safety zone leaves next to the exit). When the zones are too long for
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
    pools: dict = None          # Start or Home square -> the radius of its circle (None: every one `pool`)

    def pool(self, sq: int) -> float:
        """The radius of the circle of a Start or Home square."""
        return self.pools[sq] if self.pools else self.cell * POOL


def cross_fits(layout) -> bool:
    """Whether the board is drawn as a cross of arms (module docstring)."""
    S, L = layout.side, layout.L
    entry = (layout.safety_entry[0] - 0) % S
    return layout.C >= 3 and S >= 7 and S % 2 == 1 and entry == S // 2 and L == S // 2 - 1


def build(layout, cell: float = CELL) -> TrackGeometry:
    """The geometry of `layout` (see the module contract)."""
    if cross_fits(layout):
        return _cross(layout, cell)
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
        inner = radius = max(T * cell / (2 * math.pi), 3 * cell)
        for sq in range(T):
            angle = -math.pi / 2 + 2 * math.pi * sq / T
            at[sq] = _polar(radius, angle)
            heading[sq] = (-math.sin(angle), math.cos(angle))
            inward[sq] = (-math.cos(angle), -math.sin(angle))
    step = _step(layout, cell, inner)
    for c in range(C):
        _zone(layout, c, cell, step, at, inward)
    return _framed(at, heading, inward, cell, step, _fitted_pools(layout, at, cell, step))


def _cross(layout, cell: float) -> TrackGeometry:
    """The cross of arms (module docstring): arm c points at angle -90 + 360c/C degrees; its
    rows lie `d0` + 0.5 .. cells from the middle (`d0` lets neighbouring arms touch)."""
    C, S, T, L = layout.C, layout.side, layout.T, layout.L
    R = S // 2
    d0 = max(1.5, 1.5 / math.tan(math.pi / C))
    reach, yard = _yard(C, R, d0)
    yard *= cell
    at, heading, inward = {}, {}, {}
    for c in range(C):
        theta = -math.pi / 2 + 2 * math.pi * c / C
        u = (math.cos(theta), math.sin(theta))
        left = (u[1], -u[0])  # on screen (y down), to the left of going outward: clockwise is out, across, in

        def spot(row: float, column: float) -> tuple:
            reach = (d0 + 0.5 + row) * cell
            return (u[0] * reach + left[0] * column * cell, u[1] * reach + left[1] * column * cell)

        for k in range(S):
            sq = c * S + k
            if k < R:        # out along the left column
                at[sq], heading[sq], inward[sq] = spot(k, 1), u, (-left[0], -left[1])
            elif k == R:     # the tip
                at[sq], heading[sq], inward[sq] = spot(R - 1, 0), (-left[0], -left[1]), (-u[0], -u[1])
            else:            # back in along the right column
                at[sq], heading[sq], inward[sq] = spot(2 * R - k, -1), (-u[0], -u[1]), left
        for j in range(1, L + 1):
            at[T + c * L + j - 1] = spot(R - 1 - j, 0)
        at[layout.home[c]] = (u[0] * (d0 - 0.55) * cell, u[1] * (d0 - 0.55) * cell)
        exit_offset = (layout.start_exit[c] - c * S) % T
        side = -1 if exit_offset > R else 1  # the yard beside the start exit: right (next arm) or left (last arm)
        bisector = theta + side * -math.pi / C
        at[layout.start[c]] = (math.cos(bisector) * reach * cell, math.sin(bisector) * reach * cell)
    # Homes share the middle: each a small circle at the foot of its arm
    home = cell * min(0.45, (d0 - 0.55) * math.sin(math.pi / C))
    pools = {**{layout.home[c]: home for c in range(C)}, **{layout.start[c]: yard for c in range(C)}}
    return _framed(at, heading, inward, cell, cell, pools)


def _yard(C: int, R: int, d0: float) -> tuple:
    """`(reach, radius)` in cells of a yard of the cross: its centre on the bisector between
    two arms, `reach` from the middle (level with the middle of the arms, or nearer where the
    arms are far apart), its circle clear of both arms (whose sides lie 1.5 cells from their
    axes)."""
    half = math.pi / C
    radius = max(POOL, R / 2 - 0.9)
    reach = min((d0 + R / 2) / math.cos(half), (radius + 2.4) / math.sin(half))
    return reach, min(radius, reach * math.sin(half) - 1.8)


def _fitted_pools(layout, at: dict, cell: float, step: float) -> dict | None:
    """The radius of each Start and Home circle where `POOL` cells would cover a square or
    another circle (small boards): as large as fits, at least a fifth of a cell; None when
    every circle has its full size."""
    pools = [*layout.start, *layout.home]
    room = {}
    for sq in pools:
        near = [math.dist(at[sq], at[other]) - (cell if other < layout.T else step) / 2 for other in range(layout.X)]
        near += [math.dist(at[sq], at[other]) / 2 for other in pools if other != sq]
        room[sq] = max(cell * 0.2, min(cell * POOL, min(near) - 1.0))
    return room if any(r < cell * POOL for r in room.values()) else None


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
    direction, or, for the first square of a side (on or next to a corner of a polygon), the
    bisector of the corner (stretched by 1 / sin of half the corner's angle: sqrt 2 on the
    square board, so that what is drawn inward clears the squares of both sides instead of
    running over the previous side's)."""
    if layout.C >= 3 and sq % layout.side == 0:
        (ax, ay), (bx, by) = inward[sq], inward[(sq - 1) % layout.T]
        size = math.hypot(ax + bx, ay + by) or 1.0
        return ((ax + bx) / size, (ay + by) / size), 1 / math.sin(math.pi / 2 - math.pi / layout.C)
    return inward[sq], 1.0


def _zone(layout, c: int, cell: float, step: float, at: dict, inward: dict) -> None:
    T, L = layout.T, layout.L
    entry = layout.safety_entry[c]
    (ex, ey), ((ix, iy), stretch) = at[entry], _into_board(layout, entry, inward)
    for j in range(1, L + 1):
        reach = (cell * 0.5 + step * (j - 0.5)) * stretch
        at[T + c * L + j - 1] = (ex + ix * reach, ey + iy * reach)
    reach = (cell * 0.5 + step * L) * stretch + cell * (POOL + 0.1)
    at[layout.home[c]] = (ex + ix * reach, ey + iy * reach)
    exit_sq = layout.start_exit[c]
    (sx, sy), ((jx, jy), stretch) = at[exit_sq], _into_board(layout, exit_sq, inward)
    apart = (exit_sq - entry) % T
    apart = apart - T if apart > T // 2 else apart
    reach = cell * (0.6 + POOL) * stretch
    if abs(apart) * cell < cell * (0.5 + POOL + 0.1) and L:
        reach = -reach  # the safety zone leaves next to the start exit: Start goes outside the track
    at[layout.start[c]] = (sx + jx * reach, sy + jy * reach)


def _framed(at: dict, heading: dict, inward: dict, cell: float, step: float, pools: dict | None = None) -> TrackGeometry:
    """Move everything so the drawing starts at (MARGIN, MARGIN): every square and circle
    (`pools`, or `POOL` cells) inside, with a margin."""
    pad = {sq: (pools.get(sq, 0.0) if pools else 0.0) or cell * POOL for sq in at}
    left = min(x - pad[sq] for sq, (x, _) in at.items()) - MARGIN
    top = min(y - pad[sq] for sq, (_, y) in at.items()) - MARGIN
    right = max(x + pad[sq] for sq, (x, _) in at.items()) + MARGIN
    bottom = max(y + pad[sq] for sq, (_, y) in at.items()) + MARGIN
    moved = {sq: (x - left, y - top) for sq, (x, y) in at.items()}
    return TrackGeometry(right - left, bottom - top, cell, step, moved, heading, inward, (-left, -top), pools)
