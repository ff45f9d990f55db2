"""Splits: a count of steps shared among pawns, part after part (R22, A1-A3, H11, the
`split N into ...` parts of docs/REFERENCE.md section 2.1).

One search serves every split played in order: `split N` / `split N among K` (forward
parts of different pawns, at least two parts, at most K) and `split N into PART, ...`
(parts in the order written, each with its direction and which pawns it may move). Each
part is judged on the position the earlier parts left (bumps and slides per part, A2/A3),
played in place on the position and taken back (`Position.make`/`unmake`). A part goes
every way its count of steps allows: the plain movement tables, or the `geometry:` routes
(turns, bounces, pawns that cannot be passed). Splits that reach the same position with
the same pawns used and the same steps left have the same continuations: with more than
two parts only the first is explored.

`simultaneous` is A2's option: every part judged on the position before the split, then
the pawns land one after another.

Contract: each function is a maker as in `engine.track` (`maker(p, flags)` -> `gen(pos,
out)`); plays come in the order of the parts' pawns (colour by colour of those the player
moves, squares ascending), sizes ascending, ways in route order; `pos` is left unchanged.
"""

from __future__ import annotations

from typing import NamedTuple

from sorry_rules.engine.events import SLIDE
from sorry_rules.engine.option import MOVE, Option, new_option
from sorry_rules.engine.position import key_of

_LIFTED = 1 << 40


class Part(NamedTuple):
    """One level of a split search."""

    ways: tuple        # ways[n][c][sq]: the ways (to, passed, event) n steps of this part's direction allow
    colours: tuple     # colours whose pawns this part may move
    reuse: bool        # a pawn an earlier part moved may move again
    hold: int          # steps kept for later parts (sizes 1 .. remaining - hold); -1: exactly the rest


def ways_table(track, direction: str, steps: int) -> tuple:
    """ways[n][c][sq] for n in 0..steps: the ways (to, passed, split event) of n steps, from
    the route options of `geometry:` or the plain table's one destination (made once per
    track and direction)."""
    known = track.__dict__.setdefault("_split_ways", {})
    table = known.get(direction)
    if table is not None and len(table) > steps:
        return table
    routes, layout = track.routes, track.layout
    out = [()]
    for n in range(1, steps + 1):
        if routes is not None:
            rows = routes.options(direction, n)
            out.append(tuple(tuple(tuple((to, passed, ("split", c, sq, to)) for to, passed, _ in row)
                                   for sq, row in enumerate(colour)) for c, colour in enumerate(rows)))
            continue
        table = layout.forward(n) if direction == "forward" else layout.backward(n)
        out.append(tuple(tuple(((to, (), ("split", c, sq, to)),) if to >= 0 else () for sq, to in enumerate(row))
                         for c, row in enumerate(table)))
    known[direction] = table = tuple(out)
    return table


def among(track, steps: int, limit: int, p: int, flags: int, card):
    """`split steps among limit`: forward parts, each of a pawn no earlier part moved."""
    ways, control = ways_table(track, "forward", steps), track.control_of[p]
    parts = tuple(Part(ways, control, False, 1 if i == 0 else (-1 if i == limit - 1 else 0)) for i in range(limit))
    return search(track, steps, parts, flags, card, prune=limit > 2,
                  symmetric=track.routes is None or not track.routes.walls)


def into(track, steps: int, spec: tuple, p: int, flags: int, card):
    """`split steps into` the parts of `spec` ((direction, who), ...): `who` None (a pawn
    of the player's colours no earlier part moved), "any" (the same again included), or a
    relation (a pawn of that relation to p, whoever controls it, not moved before)."""
    n = len(spec)
    parts = []
    for i, (direction, who) in enumerate(spec):
        if who is None or who == "any":
            colours = tuple(track.control_of[p])
        else:
            colours = tuple(o for o in range(track.layout.C) if track.matches(p, o, who))
        parts.append(Part(ways_table(track, direction, steps), colours, who == "any", -1 if i == n - 1 else n - 1 - i))
    if steps < n:
        return lambda pos, out: None
    return search(track, steps, tuple(parts), flags, card, prune=False)


def search(track, steps: int, parts: tuple, flags: int, card, prune: bool, symmetric: bool = False):
    """The split search over `parts` (module contract). `symmetric`: every part may move
    the same pawns the same ways and passing is free, so two plain parts played in either
    order give one result: the order met second is not listed."""
    X, W, start = track.X, track.weights, track.start
    slide_here, landing, routes = track.slide_here, track.landing, track.routes
    final = len(parts) - 1  # the level that takes the steps left (a split has two parts or more)
    last = parts[final]
    reuse_last = last.reuse
    overlay_last = not prune and not reuse_last  # a plain part before the last is not made on the position
    skip_twins = symmetric and final == 1
    movers = tuple(sorted({c for part in parts for c in part.colours}))
    distinct_pawns = not any(part.reuse for part in parts)  # every part moves a pawn of its own
    # per level: per colour (index, colour, slides, weights, per square the (n, ways) of n = 1..steps)
    levels = tuple(tuple((ci, c, slide_here[c], W[c], tuple(tuple((n, part.ways[n][c][sq]) for n in range(1, steps + 1)
                                                                   if part.ways[n][c][sq]) for sq in range(X)))
                         for ci, c in enumerate(part.colours)) for part in parts[:final])
    # the last part, per count of steps left: per colour (index, colour, its ways, slides, weights)
    lasts = tuple(tuple((ci, c, last.ways[n][c], slide_here[c], W[c]) for ci, c in enumerate(last.colours)) if n else ()
                  for n in range(steps + 1))

    def split(pos, out):
        occ, P = pos.occ, pos.pos
        if distinct_pawns:  # fewer than two pawns on the board: no split
            count = 0
            for c in movers:
                for sq in P[c]:
                    if sq >= X:
                        break
                    count += 1
            if count < 2:
                return
        seen = set() if prune else None
        events: list = []
        used: set = set()  # squares of the pawns earlier parts moved (one pawn a square: below X)

        def extend(level: int, remaining: int, key: int, first: tuple) -> None:
            if seen is not None and level:
                known = (pos.placement(), frozenset(used), remaining)
                if known in seen:
                    return
                seen.add(known)
            part = parts[level]
            top = remaining - part.hold
            reuse = part.reuse
            before_last = level + 1 == final
            for ci, c, here, row_w, by_square in levels[level]:
                for sq in P[c]:
                    if sq >= X:
                        break
                    if sq in used and not reuse:
                        continue
                    for n, options in by_square[sq]:
                        if n > top:
                            break
                        ends = set() if len(options) > 1 else None
                        for to, passed, step in options:
                            o = occ[to]
                            if (o == c and to != sq) or (ends is not None and to in ends):
                                continue
                            if passed and not routes.passable(c, occ, sq, passed):
                                continue
                            if ends is not None:
                                ends.add(to)
                            plain = o < 0 and to != sq and here[to] is None  # no bump, no slide
                            rest = remaining - n
                            if plain:
                                made = (step,)
                                change = key + row_w[to] - row_w[sq]
                                end = to
                            else:
                                made = landing(pos, c, sq, to, "split")
                                if made is None:
                                    continue
                                made = tuple(made)
                                change = key + key_of(W, start, made)
                                end = made[-1][3] if made[-1][0] == SLIDE and made[-1][1] == c else to
                            if not rest:
                                out.append(new_option(Option, (card, (*events, *made), flags, MOVE, change, (), "")))
                                continue
                            ahead = ((ci, sq), sq, plain) if level == 0 else first
                            if before_last and plain and overlay_last:  # the last part sees the pawn moved
                                events.append(step)
                                last_part(rest, change, ahead, c, sq, to)
                                events.pop()
                                continue
                            undo = pos.make(made)
                            events.extend(made)
                            fresh = end < X and end not in used
                            if fresh:
                                used.add(end)
                            try:
                                if before_last:
                                    last_part(rest, change, ahead, -1, -1, -1)
                                else:
                                    extend(level + 1, rest, change, ahead)
                            finally:  # a generator stopped early (`can`) leaves the position as it was too
                                if fresh:
                                    used.discard(end)
                                del events[len(events) - len(made):]
                                pos.unmake(made, undo)

        def last_part(remaining: int, key: int, first: tuple, c1: int, sq1: int, to1: int) -> None:
            """The last part, exactly `remaining` steps, on the position after the earlier
            parts; where the part before it was plain and is not made, colour c1's pawn counts
            as moved from sq1 to to1."""
            skip = skip_twins and first[2]
            for ci, c, rows, here, row_w in lasts[remaining]:
                for sq in P[c]:
                    if sq >= X:
                        break
                    if (sq == sq1 and c == c1) or (sq in used and not reuse_last):
                        continue
                    options = rows[sq]
                    ends = set() if len(options) > 1 else None
                    for to, passed, step in options:
                        if to == sq1:
                            o = -1
                        elif to == to1 and to < X:
                            o = c1
                        else:
                            o = occ[to]
                        if (o == c and to != sq) or (ends is not None and to in ends):
                            continue
                        if passed and not _passable(routes, occ, c, sq, passed, c1, sq1, to1):
                            continue
                        if ends is not None:
                            ends.add(to)
                        if o < 0 and to != sq and here[to] is None:  # no bump, no slide
                            if skip and to != first[1] and (ci, sq) < first[0]:
                                continue  # listed already, in the other order
                            out.append(new_option(Option, (card, (*events, step), flags, MOVE, key + row_w[to] - row_w[sq],
                                                           (), "")))
                            continue
                        if c1 >= 0:  # the earlier part's pawn moves in `occ` for the landing
                            occ[sq1] = -1
                            if to1 < X:
                                occ[to1] = c1
                            made = landing(pos, c, sq, to, "split")
                            if to1 < X:
                                occ[to1] = -1
                            occ[sq1] = c1
                        else:
                            made = landing(pos, c, sq, to, "split")
                        if made is not None:
                            out.append(new_option(Option, (card, (*events, *made), flags, MOVE,
                                                           key + key_of(W, start, made), (), "")))

        extend(0, steps, 0, ())
    return track.hooked(split, track.free)


def _passable(routes, occ: list, c: int, sq: int, passed: tuple, c1: int, sq1: int, to1: int) -> bool:
    """`routes.passable` with colour c1's pawn (c1 >= 0) counted as moved from sq1 to to1."""
    if c1 < 0:
        return routes.passable(c, occ, sq, passed)
    held = occ[to1]
    occ[sq1] = -1
    if to1 < len(occ) and to1 < routes.layout.X:
        occ[to1] = c1
    try:
        return routes.passable(c, occ, sq, passed)
    finally:
        occ[to1] = held
        occ[sq1] = c1


def simultaneous(track, steps: int, limit: int, p: int, flags: int, card):
    """A2's option: every part judged on the position before the split (a pawn may not land
    where another part lands); then the pawns land one after another, bumps and slides in
    the order of the parts."""
    X = track.X
    forward = track.layout.forward
    control = track.control_of[p]

    def split(pos, out):
        movers = [(c, sq) for c in control for sq in pos.pos[c] if sq < X]

        def choose(first: int, remaining: int, chosen: list) -> None:
            if remaining == 0:
                if len(chosen) >= 2:
                    _resolve(track, pos, chosen, flags, card, out)
                return
            if len(chosen) == limit:
                return
            for i in range(first, len(movers)):
                c, sq = movers[i]
                for part in range(1, remaining + 1):
                    to = forward(part)[c][sq]
                    if to >= 0:
                        choose(i + 1, remaining - part, chosen + [(c, sq, to)])

        choose(0, steps, [])
    return track.hooked(split, track.free)


def _resolve(track, pos, chosen: list, flags: int, card, out: list) -> None:
    """The simultaneous split of `chosen` ((colour, from, to) per part), if legal."""
    targets = [to for _, _, to in chosen]
    if len(set(targets)) != len(targets):
        return
    X = track.X
    lifted = []
    for i, (c, sq, _) in enumerate(chosen):  # off the board, so pawns landing on vacated squares stay distinct
        marker = _LIFTED + i
        pos.relocate(c, sq, marker)
        lifted.append(marker)
    made, events, legal = [], [], True
    for (c, sq, to), marker in zip(chosen, lifted):
        part = None if to < X and pos.occ[to] == c else track.landing(pos, c, marker, to, "split")
        if part is None:
            legal = False
            break
        part = tuple(part)
        made.append((part, pos.make(part)))
        events.extend(part)
    for part, undo in reversed(made):
        pos.unmake(part, undo)
    for (c, sq, _), marker in zip(chosen, lifted):
        pos.relocate(c, marker, sq)
    if legal:
        real = {marker: sq for (c, sq, _), marker in zip(chosen, lifted)}
        events = tuple((e[0], e[1], real.get(e[2], e[2]), e[3]) if e[0] == "split" else e for e in events)
        out.append(track.option(events, flags, card))
