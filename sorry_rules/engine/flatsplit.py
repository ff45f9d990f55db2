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
says), run on integer keys over the caller's `occ` changed in place and restored. A
state reached again with the same pawns used and the same steps left is explored once:
its outcomes were listed the first time, so the list is the one the interpreter's
outcomes give once their repeats are dropped. Keys count from `KP`.

`events` are the interpreter's: per part `("split", c, frm, to)`, its bumps, its slide.
`relocations(events, start)` turns them into the relocations that play the candidate on
a flat position, in order. Nothing here keeps or changes the caller's lists once done.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE

SPLIT = "split"

#: the candidate code of a split among many (`engine.flatstate`'s list of codes)
CODE = 12


def relocations(events: tuple, start: tuple) -> list:
    """(colour, from, to) of every pawn a code-12 candidate's `events` move, in an order that
    keeps a flat occupancy exact when played one by one: per part, the pawns it bumps (to
    their Start `start[o]`), then its own pawn to where it ends (its slide's end, if any)."""
    out: list = []
    mover = None
    for e in events:
        kind = e[0]
        if kind == SPLIT:
            if mover is not None:
                out.append(mover)
            mover = (e[1], e[2], e[3])
        elif kind == BUMP:
            out.append((e[1], e[2], start[e[1]]))
        elif kind == SLIDE:
            mover = (mover[0], mover[1], e[3])
    if mover is not None:
        out.append(mover)
    return out


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
        self.slide = tuple(tuple(sq < T and mechanics.slide_here[c][sq] is not None for sq in range(self.X))
                           for c in range(self.C))
        self.tables: dict = {}

    def ways(self, steps: int) -> tuple:
        """ways[c][sq][n]: where n forward steps take a colour-c pawn from exclusive square
        sq (-1: nowhere), n = 1..steps (index 0 unused)."""
        table = self.tables.get(steps)
        if table is None:
            rows = [self.forward(n) for n in range(1, steps + 1)]
            table = self.tables[steps] = tuple(
                tuple((-1,) + tuple(int(row[c][sq]) for row in rows) for sq in range(self.X))
                for c in range(self.C))
        return table

    def split(self, control: tuple, steps: int, limit: int, P: list, occ: list, KP: int, out: list, seen: set) -> None:
        X = self.X
        col, cur = [], []  # mover i: its colour, its square now (bit 1 << i of `used` once it moved)
        for c in control:
            for sq in P[c]:
                if sq >= X:
                    break
                col.append(c)
                cur.append(sq)
        count = len(cur)
        if count < 2 or steps < 2:
            return
        ways, W, slide, bumpable, start, land = self.ways(steps), self.weights, self.slide, self.bumpable, self.start, self.land
        full = (1 << count) - 1
        states: set = set()
        events: list = []

        def extend(key: int, used: int, remaining: int, parts: int) -> None:
            """Every next part from the state (key, used, remaining)."""
            # the last part allowed takes every step left; the first never takes them all
            every = (remaining,) if parts + 1 == limit else range(1, remaining + 1 if parts else remaining)
            for i in range(count):
                bit = 1 << i
                if used & bit:
                    continue
                sq = cur[i]
                if sq >= X:  # sent back to Start by an earlier part's slide
                    continue
                c = col[i]
                moved = used | bit
                row, Ec, slides = ways[c][sq], W[c], slide[c]
                for n in every if moved != full else (remaining,):  # no pawn left for a part after it
                    to = row[n]
                    if to < 0:
                        continue
                    if to < X:
                        o = occ[to]
                        if o == c:
                            continue
                        if o >= 0 or slides[to]:
                            landed(key, moved, remaining - n, parts, i, c, sq, to, o)
                            continue
                    k = key - Ec[sq] + Ec[to]
                    if n == remaining:
                        if k not in seen:
                            seen.add(k)
                            out.append((k, False, CODE, (*events, (SPLIT, c, sq, to))))
                        continue
                    state = (k, moved, remaining - n)
                    if state in states:
                        continue
                    states.add(state)
                    cur[i] = to
                    occ[sq] = -1
                    if to < X:
                        occ[to] = c
                    events.append((SPLIT, c, sq, to))
                    extend(k, moved, remaining - n, parts + 1)
                    events.pop()
                    if to < X:
                        occ[to] = -1
                    occ[sq] = c
                    cur[i] = sq

        def landed(key: int, used: int, rest: int, parts: int, i: int, c: int, sq: int, to: int, o: int) -> None:
            """Mover i (colour c) lands sq -> to on a pawn of colour o (or -1 on none) or a slide square."""
            if slide[c][to]:
                rs = land(c, sq, to, occ, key)
                if rs is None:
                    return
                k, end, bumps = rs
            elif not bumpable[c][o]:
                return
            else:
                k, end, bumps = key - W[c][sq] + W[c][to] - W[o][to] + W[o][start[o]], to, ((o, to),)
            added = [(SPLIT, c, sq, to), *((BUMP, b, at) for b, at in bumps)]
            if end != to:
                added.append((SLIDE, c, to, end))
            if not rest:
                if k not in seen:
                    seen.add(k)
                    out.append((k, False, CODE, (*events, *added)))
                return
            state = (k, used, rest)
            if state in states:
                return
            states.add(state)
            sent = []  # movers sent back to Start: (index, square)
            for b, at in bumps:
                occ[at] = -1
                for j in range(count):
                    if col[j] == b and cur[j] == at:
                        sent.append((j, at))
                        cur[j] = start[b]
            cur[i] = end
            occ[sq] = -1
            if end < X:
                occ[end] = c
            size = len(events)
            events.extend(added)
            extend(k, used, rest, parts + 1)
            del events[size:]
            if end < X:
                occ[end] = -1
            occ[sq] = c
            for b, at in bumps:
                occ[at] = b
            for j, at in sent:
                cur[j] = at
            cur[i] = sq

        extend(KP, 0, steps, 0)
