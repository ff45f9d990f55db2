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
from sorry_rules.engine.routes import table_row

_LIFTED = 1 << 40


class Part(NamedTuple):
    """One level of a split search."""

    ways: tuple        # ways[n][c][sq]: the ways (to, passed, event) n steps of this part's direction allow
    colours: tuple     # colours whose pawns this part may move
    reuse: bool        # a pawn an earlier part moved may move again
    hold: int          # steps kept for later parts (sizes 1 .. remaining - hold); -1: exactly the rest
    size: int = 0      # the part's own count of steps (`split N into forward 9, ...`); 0: any


def ways_table(track, direction: str, steps: int, mask: int = -1) -> tuple:
    """ways[n][c][sq] for n in 0..steps: the ways (to, passed, split event) of n steps, from
    the route options of `geometry:` (with the turns of `mask`, by default every one) or the
    plain table's one destination; kept per track, direction and mask (on a large board a
    square's ways are made when first asked for: `routes.table_row`)."""
    known = track.__dict__.setdefault("_split_ways", {})
    table = known.get((direction, mask))
    if table is not None and len(table) > steps:
        return table
    routes, layout = track.routes, track.layout
    out, size = [()], layout.size
    for n in range(1, steps + 1):
        if routes is not None:
            rows = routes.options(direction, n, routes.every if mask < 0 else mask)
            out.append(tuple(table_row(lambda sq, c=c, colour=colour: tuple((to, passed, ("split", c, sq, to))
                                                                            for to, passed, _ in colour[sq]), size)
                             for c, colour in enumerate(rows)))
            continue
        table = layout.forward(n) if direction == "forward" else layout.backward(n)
        out.append(tuple(table_row(lambda sq, c=c, row=row: ((row[sq], (), ("split", c, sq, row[sq])),) if row[sq] >= 0
                                   else (), size) for c, row in enumerate(table)))
    known[(direction, mask)] = table = tuple(out)
    return table


def _conditional(track) -> bool:
    """Whether the turns of `track`'s routes depend on the position (`Routes.mask_of`)."""
    return track.routes is not None and bool(track.routes.conditional)


def among(track, steps: int, limit: int, p: int, flags: int, card, mask: int = -1):
    """`split steps among limit`: forward parts, each of a pawn no earlier part moved (with
    the turns of `mask`; by default those there for the player on the position)."""
    if mask < 0 and _conditional(track):
        return track.per_mask(p, lambda mask: among(track, steps, limit, p, flags, card, mask))
    ways, control = ways_table(track, "forward", steps, mask), track.control_of[p]
    parts = tuple(Part(ways, control, False, 1 if i == 0 else (-1 if i == limit - 1 else 0)) for i in range(limit))
    return search(track, steps, parts, flags, card, prune=limit > 2,
                  symmetric=track.routes is None or not track.routes.walls)


def into(track, steps: int, spec: tuple, p: int, flags: int, card, mask: int = -1):
    """`split steps into` the parts of `spec` ((direction, who, size), ...): `who` None (a
    pawn of the player's colours no earlier part moved), "any" (the same again included), or a
    relation (a pawn of that relation to p, whoever controls it, not moved before); `size`
    the part's own steps, or None (any: at least 1, as many as the later parts leave); the
    turns of `mask` as in `among`."""
    if mask < 0 and _conditional(track):
        return track.per_mask(p, lambda mask: into(track, steps, spec, p, flags, card, mask))
    n = len(spec)
    parts = []
    for i, (direction, who, size) in enumerate(spec):
        if who is None or who == "any":
            colours = tuple(track.control_of[p])
        else:
            colours = tuple(o for o in range(track.layout.C) if track.matches(p, o, who))
        kept = sum(later or 1 for _, _, later in spec[i + 1:])  # the later parts' steps, 1 at least each
        parts.append(Part(ways_table(track, direction, steps, mask), colours, who == "any", -1 if i == n - 1 else kept,
                          size or 0))
    if steps < n:
        return lambda pos, out: None
    return search(track, steps, tuple(parts), flags, card, prune=False)


def search(track, steps: int, parts: tuple, flags: int, card, prune: bool, symmetric: bool = False):
    """The split search over `parts` (module contract). `symmetric`: every part may move
    the same pawns the same ways and passing is free, so two plain parts played in either
    order give one result: the order met second is not listed."""
    return track.hooked(Search(track, steps, parts, flags, card, prune, symmetric), track.free)


class Search:
    """The generator of one split's options (`search`): tables bound at compile time; each
    call walks the position with a fresh `_Walk`."""

    def __init__(self, track, steps: int, parts: tuple, flags: int, card, prune: bool, symmetric: bool):
        self.track, self.steps, self.parts, self.flags, self.card, self.prune = track, steps, parts, flags, card, prune
        self.X, self.W, self.start = track.X, track.weights, track.start
        self.final = final = len(parts) - 1  # the level that takes the steps left (a split has two parts or more)
        last = parts[final]
        self.reuse_last = last.reuse
        self.last_size = last.size  # the last part's own count of steps (0: every step left)
        self.stacked = stacked = track.stacked  # squares hold several pawns: every landing is judged by `Track.landing`
        #: onto_own[c]: a colour-c part may end on a pawn of its own colour (`Track.landing` judges it)
        self.onto_own = tuple(stacked or own for own in track.lands_own)
        self.overlay_last = not prune and not last.reuse and not stacked  # a plain part before the last is not made
        self.skip_twins = symmetric and final == 1
        self.movers = tuple(sorted({c for part in parts for c in part.colours}))
        # two parts along the plain tables (the 7 of most rule files): `_Walk.pairs`
        self.pairs = final == 1 and not prune and not last.reuse and track.routes is None and not stacked \
            and not any(part.size for part in parts)
        self.distinct_pawns = not any(part.reuse for part in parts)  # every part moves a pawn of its own
        # a pawn that cannot be passed: a lone way that passes squares is judged by `_open_ways`
        self.walls = track.routes is not None and track.routes.walls
        slide_here, W = track.slide_here, track.weights
        # per level but the last: per colour (index, colour, slides, weights, per square the (n, ways) of n = 1..steps)
        self.levels = tuple(tuple((ci, c, slide_here[c], W[c], _by_square(track, part.ways, steps, c))
                                  for ci, c in enumerate(part.colours)) for part in parts[:final])
        # the last part, per count of steps left: per colour (index, colour, its ways, slides, weights)
        self.lasts = tuple(tuple((ci, c, last.ways[n][c], slide_here[c], W[c]) for ci, c in enumerate(last.colours))
                           if n else () for n in range(steps + 1))
        # `pairs`: per count of steps m, colour and square the second part's ways (end, event, no
        # slide at the end, key change)
        self.last_colours = tuple(enumerate(last.colours))
        if self.pairs:
            rows = {c: _second_rows(track, last.ways, steps, c) for c in last.colours}
            self.second_ways = tuple(tuple(rows[c][m] if c in rows else None for c in range(track.layout.C)) if m else ()
                                     for m in range(steps + 1))
        else:
            self.second_ways = ()

    def __call__(self, pos, out) -> None:
        movers = _on_board(pos.pos, self.movers, self.X) if self.distinct_pawns else -1
        if 0 <= movers < 2:
            return
        walk = _Walk(self, pos, out, movers)
        if self.pairs:
            walk.pairs()
        else:
            walk.level(0, self.steps, 0)


def _shared(track, kind: str, ways: tuple, steps: int, c: int, make):
    """`make()` kept on `track` per (kind, ways table, steps, colour): every player's split
    search (one per card and player) reads the same rows of a colour, built once."""
    known = track.__dict__.setdefault("_split_rows", {})
    key = (kind, id(ways), steps, c)
    found = known.get(key)
    if found is None or found[0] is not ways:  # the table kept alive with its rows: an id is not reused under it
        found = known[key] = (ways, make())
    return found[1]


def _by_square(track, ways: tuple, steps: int, c: int) -> tuple:
    """Per square, the (n, ways) of n = 1..steps that colour c's pawn there may go."""
    return _shared(track, "by-square", ways, steps, c, lambda: table_row(
        lambda sq: tuple((n, ways[n][c][sq]) for n in range(1, steps + 1) if ways[n][c][sq]), track.X))


def _second_rows(track, ways: tuple, steps: int, c: int) -> tuple:
    """Per count of steps m (0..steps) and square, colour c's second-part ways of `pairs`:
    (end, event, no slide at the end, key change)."""
    here, row_w = track.slide_here[c], track.weights[c]
    return _shared(track, "second", ways, steps, c, lambda: tuple(
        table_row(lambda sq, m=m: tuple((to, step, here[to] is None, row_w[to] - row_w[sq]) for to, _, step in ways[m][c][sq]),
                  track.X) if m else () for m in range(steps + 1)))


def _on_board(P, colours, X: int) -> int:
    """How many pawns of `colours` stand below X (neither in Start nor Home)."""
    count = 0
    for c in colours:
        for sq in P[c]:
            if sq >= X:
                break
            count += 1
    return count


def _open_ways(options, occ, routes, c: int, sq: int, pos=None, onto_own: bool = False) -> list:
    """The ways of `options` a colour-c pawn on sq may take before landing: not onto an own
    pawn (a bounce back onto sq excepted; on a board whose squares hold several pawns,
    `pos` given, or where it bumps them, `onto_own`, the landing judges that), passing every
    square it passes, the first way to each end square."""
    out, ends = [], set()
    for way in options:
        to, passed = way[0], way[1]
        if (pos is None and not onto_own and occ[to] == c and to != sq) or to in ends or \
                (passed and not routes.passable(c, occ, sq, passed, pos)):
            continue
        ends.add(to)
        out.append(way)
    return out


class _Walk:
    """One run of a `Search` over a position: the events of the parts so far and the squares
    of the pawns they moved ({square: pawns the parts moved there}, below X: where a square
    holds several pawns of a colour, those no part moved there may still move)."""

    __slots__ = ("s", "pos", "out", "occ", "P", "events", "used", "used_key", "seen", "movers")

    def __init__(self, search: Search, pos, out, movers: int = -1):
        self.s, self.pos, self.out, self.occ, self.P = search, pos, out, pos.occ, pos.pos
        # pawns the parts may move when every part moves a pawn of its own (-1: not counted);
        # the part of the last of them takes every step left (with fewer, nothing follows it)
        self.movers = movers
        self.events: list = []
        self.used: dict = {}
        self.used_key = 0  # `used` as one number: a byte per square (MAX_HOLD pawns fit one)
        self.seen = set() if search.prune else None

    def level(self, level: int, remaining: int, key: int) -> None:
        """Every part of `level` (not the last): each pawn, each count of steps it may take."""
        s, P, occ, used, events, out = self.s, self.P, self.occ, self.used, self.events, self.out
        part = s.parts[level]
        reuse, X, routes, walls, onto_own = part.reuse, s.X, s.track.routes, s.walls, s.onto_own
        overlay = s.overlay_last and level + 1 == s.final
        card, flags = s.card, s.flags
        least, top = self.counts(part, level, remaining)
        for ci, c, here, row_w, by_square in s.levels[level]:
            for sq in P[c]:
                if sq >= X:
                    break
                if used and sq in used and not reuse and used[sq] >= P[c].count(sq):
                    continue
                for n, options in by_square[sq]:
                    if n > top:
                        break
                    if n < least:
                        continue
                    if len(options) > 1 or (walls and options[0][1]):
                        options = _open_ways(options, occ, routes, c, sq, self.pos if s.stacked else None, onto_own[c])
                    for way in options:
                        to = way[0]
                        if occ[to] < 0 and to != sq and here[to] is None:  # no bump, no slide: `part` inlined
                            rest, change = remaining - n, key + row_w[to] - row_w[sq]
                            if not rest:
                                out.append(new_option(Option, (card, (*events, way[2]), flags, MOVE, change, (), "")))
                            elif overlay:  # a plain part before the last: not made, the last part sees the pawn moved
                                events.append(way[2])
                                self.last(rest, change, ci, c, sq, to)
                                events.pop()
                            else:
                                self.made(level, rest, change, (way[2],), to)
                        elif occ[to] != c or to == sq or onto_own[c]:
                            self.part(level, remaining - n, key, c, sq, way, here, row_w)

    def counts(self, part: Part, level: int, remaining: int) -> tuple:
        """(fewest, most) steps the part of `level` may take of the `remaining` ones: 1 to
        what the later parts leave; every step left when no pawn is left for a later part;
        its own count when it has one ((0, 0): none fits)."""
        least, top = 1, remaining - part.hold
        if 0 <= self.movers <= level + 1:
            least = remaining
        if part.size:
            least = top = part.size if part.size <= top else 0
        return least, top

    def pairs(self) -> None:
        """`level(0, ...)` of a split of two parts along the plain tables (one way a count of
        steps, nothing passed): a plain first part is not made, the second part sees its pawn
        moved; the other first parts go through `part`."""
        s, occ, out, P = self.s, self.occ, self.out, self.P
        steps, card, flags, skip, X, second_ways = s.steps, s.card, s.flags, s.skip_twins, s.X, s.second_ways
        onto_own = s.onto_own
        firsts = s.levels[0]
        seconds = [(ci, c, sq) for ci, c in s.last_colours for sq in P[c] if sq < X]
        for ci1, c1, here1, row1, by_square in firsts:
            for sq1 in P[c1]:
                if sq1 >= X:
                    break
                others = [pawn for pawn in seconds if pawn[2] != sq1 or pawn[1] != c1]
                for n, ((to1, _, step1),) in by_square[sq1]:
                    if n == steps or (occ[to1] == c1 and to1 != sq1 and not onto_own[c1]):  # a whole lap: a move (A8)
                        continue
                    if occ[to1] >= 0 or here1[to1] is not None:  # the first part bumps or slides
                        self.part(0, steps - n, 0, c1, sq1, (to1, (), step1), here1, row1)
                        continue
                    k1 = row1[to1] - row1[sq1]
                    ways = second_ways[steps - n]
                    for ci, c, sq in others:
                        for to, step, free, delta in ways[c][sq]:
                            o = -1 if to == sq1 or to == sq else (c1 if to == to1 and to < X else occ[to])
                            if o == c and not onto_own[c]:
                                continue
                            if o >= 0 or not free:
                                self.second(k1, step1, c1, sq1, to1, c, sq, to)
                            elif not skip or to == sq1 or ci > ci1 or (ci == ci1 and sq > sq1):  # else listed already
                                out.append(new_option(Option, (card, (step1, step), flags, MOVE, k1 + delta, (), "")))

    def second(self, key: int, step1: tuple, c1: int, sq1: int, to1: int, c: int, sq: int, to: int) -> None:
        """A second part of `pairs` that bumps or slides, the first part's pawn moved."""
        self.events.append(step1)
        self.land_last(key, c, sq, to, c1, sq1, to1)
        self.events.pop()

    def part(self, level: int, rest: int, key: int, c: int, sq: int, way: tuple, here, row_w) -> None:
        """Colour c's pawn on sq goes `way` as the part of `level`, then the parts after it."""
        s, to, step = self.s, way[0], way[2]
        if self.occ[to] < 0 and to != sq and here[to] is None:  # no bump, no slide
            self.follow(level, rest, (step,), key + row_w[to] - row_w[sq], to)
            return
        for made in s.track.landings(self.pos, c, sq, to, "split"):
            made = tuple(made)
            end = made[-1][3] if made[-1][0] == SLIDE and made[-1][1] == c else to
            self.follow(level, rest, made, key + key_of(s.W, s.start, made), end)

    def follow(self, level: int, rest: int, made: tuple, change: int, end: int) -> None:
        """After the part of `level` whose events are `made` (its pawn ending on `end`): the
        option when no step is left, else the parts after it."""
        if not rest:
            s = self.s
            self.out.append(new_option(Option, (s.card, (*self.events, *made), s.flags, MOVE, change, (), "")))
            return
        self.made(level, rest, change, made, end)

    def made(self, level: int, rest: int, key: int, made: tuple, end: int) -> None:
        """The parts after a part whose events `made` are played on the position (and taken
        back after, also when a generator stops early: `can`). With `prune`, a later level
        reached before with the same position (`key`: the placement's exact change), the
        same pawns used and the same steps left is not explored again."""
        fresh, final, before = end < self.s.X, self.s.final, self.used_key
        used_key = before + (1 << (end << 3)) if fresh else before
        seen = self.seen
        if seen is not None and level + 1 != final:
            known = (key, used_key, rest)
            if known in seen:
                return
            seen.add(known)
        pos, events, used = self.pos, self.events, self.used
        if fresh:
            used[end] = used.get(end, 0) + 1
        self.used_key = used_key
        undo = pos.make(made)
        events.extend(made)
        try:
            if level + 1 == final:
                self.last(rest, key, -1, -1, -1, -1)
            else:
                self.level(level + 1, rest, key)
        finally:
            del events[len(events) - len(made):]
            pos.unmake(made, undo)
            self.used_key = before
            if fresh:
                used[end] -= 1
                if not used[end]:
                    del used[end]

    def last(self, remaining: int, key: int, ci1: int, c1: int, sq1: int, to1: int) -> None:
        """The last part, exactly `remaining` steps, on the position after the earlier parts;
        where the part before it was plain and is not made (c1 >= 0), colour c1's pawn (the
        ci1-th colour of the parts) counts as moved from sq1 to to1."""
        s, P, used, occ, out = self.s, self.P, self.used, self.occ, self.out
        if s.last_size and remaining != s.last_size:
            return
        skip = s.skip_twins and c1 >= 0
        X, reuse, card, flags, events, walls, onto_own = s.X, s.reuse_last, s.card, s.flags, self.events, s.walls, s.onto_own
        for ci, c, rows, here, row_w in s.lasts[remaining]:
            for sq in P[c]:
                if sq >= X:
                    break
                options = rows[sq]
                if not options or (sq == sq1 and c == c1 and P[c].count(sq) <= 1 + used.get(sq, 0)) or \
                        (used and sq in used and not reuse and used[sq] >= P[c].count(sq)):
                    continue
                if len(options) > 1 or (walls and options[0][1]):
                    options = self.open_after(options, c, sq, c1, sq1, to1)
                for to, _, step in options:
                    o = -1 if to == sq1 else (c1 if to == to1 and to < X else occ[to])
                    if o < 0 and to != sq and here[to] is None:  # no bump, no slide
                        if skip and to != sq1 and (ci < ci1 or (ci == ci1 and sq < sq1)):
                            continue  # listed already, in the other order
                        out.append(new_option(Option, (card, (*events, step), flags, MOVE, key + row_w[to] - row_w[sq], (), "")))
                    elif o != c or to == sq or onto_own[c]:
                        self.land_last(key, c, sq, to, c1, sq1, to1)

    def land_last(self, key: int, c: int, sq: int, to: int, c1: int, sq1: int, to1: int) -> None:
        """The last part landing with a bump or a slide, the earlier pawn moved (c1 >= 0)."""
        with _Moved(self.occ, c1, sq1, to1, self.s.X):
            ways = self.s.track.landings(self.pos, c, sq, to, "split")
        s = self.s
        for made in ways:
            self.out.append(new_option(Option, (s.card, (*self.events, *made), s.flags, MOVE,
                                                key + key_of(s.W, s.start, made), (), "")))

    def open_after(self, options, c: int, sq: int, c1: int, sq1: int, to1: int) -> list:
        """`_open_ways` with the earlier pawn moved (c1 >= 0)."""
        with _Moved(self.occ, c1, sq1, to1, self.s.X):
            return _open_ways(options, self.occ, self.s.track.routes, c, sq, self.pos if self.s.stacked else None,
                              self.s.onto_own[c])


class _Moved:
    """Colour c1's pawn counted as moved sq1 -> to1 in `occ` inside the block (nothing when
    c1 < 0)."""

    __slots__ = ("occ", "c1", "sq1", "to1", "X")

    def __init__(self, occ, c1: int, sq1: int, to1: int, X: int):
        self.occ, self.c1, self.sq1, self.to1, self.X = occ, c1, sq1, to1, X

    def __enter__(self):
        if self.c1 >= 0:
            self.occ[self.sq1] = -1
            if self.to1 < self.X:
                self.occ[self.to1] = self.c1

    def __exit__(self, *exc):
        if self.c1 >= 0:
            if self.to1 < self.X:
                self.occ[self.to1] = -1
            self.occ[self.sq1] = self.c1


def simultaneous(track, steps: int, limit: int, p: int, flags: int, card):
    """A2's option: every part judged on the position before the split (a pawn may not land
    where another part lands, unless the square holds several: Home, `board.hold`); then the
    pawns land one after another (`_landing_order`), bumps and slides in that order."""
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


def _landing_order(chosen: list) -> list:
    """The parts in the order they land: their pawns' order, except that a part whose pawn
    leaves a square another part lands on lands first (the square is empty when the other
    lands; the events read as the split is played, and `events.moved_to` follows them)."""
    pending, order = list(chosen), []
    while pending:
        k = next((k for k, (_, _, to) in enumerate(pending)
                  if not any(sq == to for j, (_, sq, _) in enumerate(pending) if j != k)), 0)
        order.append(pending.pop(k))
    return order


def _resolve(track, pos, chosen: list, flags: int, card, out: list) -> None:
    """The simultaneous split of `chosen` ((colour, from, to) per part), if legal."""
    X = track.X
    # two parts may end on one square only where it holds several pawns: Home (R33), or a
    # board's `hold` (then landing in order judges the count)
    targets = [to for _, _, to in chosen if to < X]
    if not track.stacked and len(set(targets)) != len(targets):
        return
    chosen = _landing_order(chosen)
    lifted = []
    for i, (c, sq, _) in enumerate(chosen):  # off the board, so pawns landing on vacated squares stay distinct
        marker = _LIFTED + i
        pos.relocate(c, sq, marker)
        lifted.append(marker)
    real = {marker: sq for (c, sq, _), marker in zip(chosen, lifted)}

    def land(k: int, events: tuple) -> None:
        """The parts from the k-th on, landed one after another in every way they may."""
        if k == len(chosen):
            out.append(track.option(tuple((e[0], e[1], real.get(e[2], e[2]), e[3]) if e[0] == "split" else e
                                          for e in events), flags, card))
            return
        (c, _, to), marker = chosen[k], lifted[k]
        if to < X and pos.occ[to] == c and not (track.stacked or track.lands_own[c]):
            return
        for part in track.landings(pos, c, marker, to, "split"):
            part = tuple(part)
            undo = pos.make(part)
            try:
                land(k + 1, events + part)
            finally:
                pos.unmake(part, undo)

    try:
        land(0, ())
    finally:
        for (c, sq, _), marker in zip(chosen, lifted):
            pos.relocate(c, marker, sq)
