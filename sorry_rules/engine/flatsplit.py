"""A split among up to K different pawns (`split N among K`, K > 2 or `any`) over a flat
position (`engine.flatstate`), for the flat flavour (`compiler.loopgen`).

`ManySplits.split(control, steps, limit, P, occ, KP, out, seen)` appends to `out` one flat
candidate `(key, False, 12, events)` per outcome of the interpreter's sequential split
(`Mechanics._split_sequential(steps, limit)`) whose key is not in `seen` (and adds it
there), in the interpreter's order of first occurrence: the same depth-first search (the
pawns of the `control` colours on exclusive squares, in colour order and then square
order; each part >= 1 step, every part a different pawn, the first never all the steps;
each part judged on the board the earlier parts left: a landing on an own pawn is
illegal, one on another pawn bumps it if it may, a slide sweeps as `flatstate.Slides.land`
says), run on integer keys over the caller's `occ` changed in place and restored. Three
cuts leave the list as it is, each skipping only parts whose outcomes were all listed
before or that have none: a state reached again with the same pawns used and the same
steps left is explored once; after a part of pawn p, a part of an earlier pawn j whose
parts commute with p's (neither reads or changes a square the other's does, nor the
other's own square: `ManySplits.ways`'s reach masks) is not tried, as the same two parts
the other way round reached that state before; a part after which no pawn may take one
is tried with every step left only. So the list is the one the interpreter's outcomes give
once their repeats are dropped. Keys count from `KP`.

`events` are the interpreter's: per part `("split", c, frm, to)`, its bumps, its slide
(code 12 is also the split along `geometry:` routes: `flatstate.replay_in_place` plays the
events on a flat position, `FlatMoves.move` replays them on a placement). `split` leaves
`P` and `occ` as it found them (`occ` changes while it runs); it only appends to `out` and
`seen`.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE

SPLIT = "split"

#: the candidate code of a split among many (`engine.flatstate`'s list of codes)
CODE = 12


class ManySplits:
    """The split among many of one variant over flat positions (module docstring)."""

    def __init__(self, mechanics, weights: tuple, slides):
        layout = mechanics.layout
        self.X, self.C = int(mechanics.X), layout.C
        self.forward = layout.forward
        self.weights = weights
        self.start = tuple(mechanics.start)
        self.bumpable = mechanics.bumpable
        self.land = slides.land  # a landing on a slide square: (key, end, bumps) or None
        T = int(mechanics.T)
        self.slide_here = tuple(tuple(mechanics.slide_here[c][sq] if sq < T else None for sq in range(self.X))
                                for c in range(self.C))
        self.slide = tuple(tuple(info is not None for info in row) for row in self.slide_here)
        self.tables: dict = {}

    def ways(self, steps: int) -> tuple:
        """(ways, reach): ways[c][sq][n] where n forward steps take a colour-c pawn from
        exclusive square sq (-1: nowhere), n = 1..steps (index 0 unused); reach[c][sq] the
        bit mask of the exclusive squares a part of 1..steps from sq reads or changes (its
        landing, the squares its slide sweeps) and of sq itself."""
        table = self.tables.get(steps)
        if table is None:
            rows = [self.forward(n) for n in range(1, steps + 1)]
            ways = tuple(tuple((-1,) + tuple(int(row[c][sq]) for row in rows) for sq in range(self.X))
                         for c in range(self.C))
            reach = tuple(tuple(self._reach(c, sq, ways[c][sq]) for sq in range(self.X)) for c in range(self.C))
            table = self.tables[steps] = (ways, reach)
        return table

    def _reach(self, c: int, sq: int, landings: tuple) -> int:
        mask = 1 << sq
        for to in landings[1:]:
            if 0 <= to < self.X:
                mask |= 1 << to
                info = self.slide_here[c][to]
                if info is not None:
                    for s in info.swept:
                        mask |= 1 << s
        return mask

    def split(self, control: tuple, steps: int, limit: int, P: list, occ: list, KP: int, out: list, seen: set) -> None:
        X = self.X
        col, cur = [], []  # mover i: its colour, its square now (bit 1 << i of `used` once it moved)
        for c in control:
            for sq in P[c]:
                if sq >= X:
                    break
                col.append(c)
                cur.append(sq)
        if len(cur) < 2 or steps < 2:
            return
        ways, reach = self.ways(steps)
        _Search(self, ways, reach, col, cur, limit, occ, out, seen).extend(KP, 0, steps, 0, -1)


class _Search:
    """One search: `col[i]`, `cur[i]` the colour and square of mover i (bit 1 << i of
    `used` once it moved). `after[p]`: the movers j < p whose parts commute with any part of
    mover p (neither reads or changes a square the other's reads or changes, nor its pawn's
    square): after a part of p, a part of such a j leads to the state the same two parts in
    the other order reached earlier (explored then), so it is not tried."""

    __slots__ = ("s", "ways", "col", "cur", "limit", "occ", "out", "seen", "states", "full", "after", "events")

    def __init__(self, splits: ManySplits, ways: tuple, reach: tuple, col: list, cur: list, limit: int, occ: list,
                 out: list, seen: set):
        self.s, self.ways, self.col, self.cur, self.limit = splits, ways, col, cur, limit
        self.occ, self.out, self.seen = occ, out, seen
        self.states: set = set()
        self.events: list = []
        self.full = (1 << len(cur)) - 1
        masks = [reach[c][sq] for c, sq in zip(col, cur)]
        self.after = [sum(1 << j for j in range(p) if not masks[j] & masks[p]) for p in range(len(cur))]

    def extend(self, key: int, used: int, remaining: int, parts: int, last: int) -> None:
        """Every next part from the state (key, used, remaining), reached by a part of `last`."""
        s, col, cur, occ, ways = self.s, self.col, self.cur, self.occ, self.ways
        X, W, slide, full, after = s.X, s.weights, s.slide, self.full, self.after
        # the last part allowed takes every step left; the first never takes them all
        every = (remaining,) if parts + 1 == self.limit else range(1, remaining + 1 if parts else remaining)
        skip = used | after[last] if last >= 0 else used
        for i in range(len(cur)):
            bit = 1 << i
            sq = cur[i]
            if skip & bit or sq >= X:  # moved, commuting, or sent back to Start by an earlier part
                continue
            moved = used | bit
            if full & ~(moved | after[i]):
                sizes = every
            elif parts:
                sizes = (remaining,)  # no pawn left for a part after it: its part takes every step left
            else:
                continue
            c = col[i]
            row, Ec, slides = ways[c][sq], W[c], slide[c]
            for n in sizes:
                to = row[n]
                if to < 0:
                    continue
                if to < X and (occ[to] >= 0 or slides[to]):
                    self.landed(key, moved, remaining - n, parts, i, c, sq, to)
                    continue
                k = key - Ec[sq] + Ec[to]
                if n == remaining:
                    if k not in self.seen:
                        self.seen.add(k)
                        self.out.append((k, False, CODE, (*self.events, (SPLIT, c, sq, to))))
                    continue
                state = (k, moved, remaining - n)
                if state not in self.states:
                    self.states.add(state)
                    self.plain(k, moved, remaining - n, parts, i, c, sq, to)

    def plain(self, key: int, used: int, rest: int, parts: int, i: int, c: int, sq: int, to: int) -> None:
        """Mover i (colour c) goes sq -> to (no bump, no slide), then the rest of the split."""
        cur, occ, X = self.cur, self.occ, self.s.X
        cur[i] = to
        occ[sq] = -1
        if to < X:
            occ[to] = c
        self.events.append((SPLIT, c, sq, to))
        self.extend(key, used, rest, parts + 1, i)
        self.events.pop()
        if to < X:
            occ[to] = -1
        occ[sq] = c
        cur[i] = sq

    def landed(self, key: int, used: int, rest: int, parts: int, i: int, c: int, sq: int, to: int) -> None:
        """Mover i (colour c) lands sq -> to on a pawn or a slide square, then the rest."""
        s, occ = self.s, self.occ
        o = occ[to]
        if o == c:
            return
        if s.slide[c][to]:
            rs = s.land(c, sq, to, occ, key)
            if rs is None:
                return
            k, end, bumps = rs
        elif not s.bumpable[c][o]:
            return
        else:
            W = s.weights
            k, end, bumps = key - W[c][sq] + W[c][to] - W[o][to] + W[o][s.start[o]], to, ((o, to),)
        added = [(SPLIT, c, sq, to), *((BUMP, b, at) for b, at in bumps)]
        if end != to:
            added.append((SLIDE, c, to, end))
        if not rest:
            if k not in self.seen:
                self.seen.add(k)
                self.out.append((k, False, CODE, (*self.events, *added)))
            return
        state = (k, used, rest)
        if state not in self.states:
            self.states.add(state)
            self.relocated(k, used, rest, parts, i, c, sq, end, bumps, added)

    def relocated(self, key: int, used: int, rest: int, parts: int, i: int, c: int, sq: int, end: int, bumps: tuple,
                  added: list) -> None:
        """Mover i ends on `end` from sq, `bumps` sent back, then the rest of the split."""
        occ, cur, col, X, start = self.occ, self.cur, self.col, self.s.X, self.s.start
        sent = []  # movers sent back to Start: (index, square)
        for b, at in bumps:
            occ[at] = -1
            for j in range(len(cur)):
                if col[j] == b and cur[j] == at:
                    sent.append((j, at))
                    cur[j] = start[b]
        cur[i] = end
        occ[sq] = -1
        if end < X:
            occ[end] = c
        events = self.events
        size = len(events)
        events += added
        self.extend(key, used, rest, parts + 1, i)
        del events[size:]
        if end < X:
            occ[end] = -1
        occ[sq] = c
        for b, at in bumps:
            occ[at] = b
        for j, at in sent:
            cur[j] = at
        cur[i] = sq
