"""Flat positions kept in place, for the flat move functions (`sorry_rules.compiler.loopgen`).

A flat position is `(P, occ, KP)`: `P[c]` colour c's squares as a sorted list, `occ[sq]`
the colour on exclusive square sq or -1 (entries at squares >= layout.X are not kept
exact and are never read), `KP` the placement's exact key (`fastmoves.placement_key`).
`FlatMoves.position` builds one from a placement, `apply` plays a candidate on it in
place, `placement` reads the canonical placement back.

`FlatMoves.table[card][colour](P, occ, KP)` gives `(candidates, spare_flags)`: the
moves of `FastMoves.select` for that placement, in the same order (so the same choices
pick the same moves), each a tuple `(key, draw_again, code, ...)`. The key is the result's
key counted from `KP` (the loop passes 0: keys then tell results of one position apart),
or None for a plain outcome of a function whose plain outcomes are distinct by
construction (`compiler.loopgen`; `plain_key` gives it). Codes:

    0  c, frm, to, step                      one pawn moves (no bump, no slide)
    1  placement, events                     the interpreter's outcome, whole
    2  c, start, sq, o, back                 sorry: o's pawn on sq goes to `back`
    3  c, mine, o, sq                        switch
    4  c1, sq1, to1, c2, sq2, to2            a two-part split
    5  (nothing)                             pass
    6  c, frm, to, step, o, back             one pawn lands on o's pawn, which goes to `back`
    7  c, frm, to, step, end, bumps          one pawn lands on a slide and ends on `end`;
                                             `bumps`: (colour, square) of each pawn sent back
    8  c1, sq1, to1, c2, sq2, to2, o, back   a split whose second part bumps
    9  c1, sq1, to1, c2, sq2, to2, end, bumps  a split whose second part slides
    10 c1, sq1, to1, end1, bumps1,           a split whose first part bumps or slides: each
       c2, sq2, to2, end2, bumps2            part's pawn, landing, end (after a slide) and
                                             the (colour, square) of the pawns it sends back
                                             (`split_chain` gives the relocations and events)
    11 c, mine, o, sq                        a switch that fires a slide (`Slides.switch`,
                                             run again on the position when played)
    12 events                                a split along `geometry:` routes
                                             (`Helpers.split_many`), or among more than two
                                             pawns (`flatsplit.ManySplits`), or a switch that
                                             fires a slide sparing shielded pawns
                                             (`compiler.markloopgen`): its events replayed

`FlatMoves.move` turns one into the engine's `Move`. `flat_namespace` adapts the
interpreter's helpers to the flat functions: every helper is handed a tuple copy of the
lists, never the lists.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SWITCH
from sorry_rules.engine.fastmoves import FastMoves, placement_key, replayed
from sorry_rules.engine.game import Move
from sorry_rules.engine.mechanics import Board


def freeze(P) -> tuple:
    """The placement (a tuple of sorted tuples) of the flat lists `P`."""
    return tuple(map(tuple, P))


def plain_key(candidate: tuple, KP: int, weights: tuple) -> int:
    """The key of a plain candidate (codes 0, 2, 3, 4) listed without it: the key `KP` of its
    position changed by its relocations (`weights`: the placement key's)."""
    E, code, c = weights, candidate[2], candidate[3]
    if code == 0:  # c, frm, to
        return KP - E[c][candidate[4]] + E[c][candidate[5]]
    if code == 2:  # sorry: c, start, sq, o, back
        _, _, _, c, start, sq, o, back = candidate
        return KP - E[c][start] + E[c][sq] - E[o][sq] + E[o][back]
    if code == 4:  # a two-part split: c1, sq1, to1, c2, sq2, to2
        _, _, _, c1, sq1, to1, c2, sq2, to2 = candidate
        return KP - E[c1][sq1] + E[c1][to1] - E[c2][sq2] + E[c2][to2]
    _, _, _, c, mine, o, sq = candidate  # switch
    return KP - E[c][mine] + E[c][sq] - E[o][sq] + E[o][mine]


def dedupe(candidates: list, KP: int, weights: tuple) -> list:
    """`candidates` without the moves whose result came earlier (all moves of one list have
    one draw-again flag; a pass, code 5, is kept: it is never the same outcome as a move);
    a key left None is `plain_key`'s."""
    seen = set()
    out = []
    for candidate in candidates:
        key = candidate[0]
        if candidate[2] == 5:
            out.append(candidate)
            continue
        if key is None:
            code = candidate[2]
            if code == 0:  # plain_key, inline for the common cases
                E = weights[candidate[3]]
                key = KP - E[candidate[4]] + E[candidate[5]]
            elif code == 3:  # switch: c, mine, o, sq
                E, F, mine, sq = weights[candidate[3]], weights[candidate[5]], candidate[4], candidate[6]
                key = KP - E[mine] + E[sq] - F[sq] + F[mine]
            else:
                key = plain_key(candidate, KP, weights)
        if key not in seen:
            seen.add(key)
            out.append(candidate)
    return out


class Slides:
    """A landing that takes a slide, on the flat occupancy: exactly `Helpers.land`'s rules
    (a bump on the landing square, every pawn swept bumped unless spared, a spared pawn on
    the end circle makes the move illegal), without building a placement."""

    def __init__(self, mechanics, weights: tuple):
        self.weights = weights
        self.start = start = tuple(mechanics.start)
        self.bumpable = mechanics.bumpable
        self.spares = mechanics.spares
        self.slide_here = mechanics.slide_here
        self.after_switch = mechanics.slide_after_switch
        # ends[c][sq]: (end, swept squares) of the slide a colour-c pawn takes landing on sq, or None;
        # back[o][sq]: what sending colour o's pawn on sq to its Start adds to a key
        self.ends = tuple(tuple(None if info is None else (info.end, tuple(info.swept)) for info in row)
                          for row in mechanics.slide_here)
        self.back = tuple(tuple(row[start[o]] - w for w in row) for o, row in enumerate(weights))

    def switch(self, c: int, mine: int, o: int, sq: int, occ: list, key: int, guard=()):
        """(key, relocations, events) of colour c's pawn on `mine` trading squares with colour
        o's on sq, then the slides `Mechanics.switch` fires (c's pawn's on sq, with
        slide_after_switch "both" o's on `mine` after it if still there), from the position
        of `occ` and `key` (read, not changed); `relocations` (colour, from, to) in order after
        the trade itself, `events` all of them; None when a slide is illegal. A pawn on a
        square of `guard` (neither `mine` nor sq) is spared by the slides as a pawn of a colour
        they spare is."""
        weights = self.weights
        key += weights[c][sq] - weights[c][mine] + weights[o][mine] - weights[o][sq]
        here = {sq: c, mine: o}
        relocations: list = []
        events = [("switch", c, mine, o, sq)]
        if self.after_switch == "none":
            return key, (), tuple(events)
        key = self._slide(c, sq, here, occ, key, relocations, events, guard)
        if key is not None and self.after_switch == "both" and here.get(mine, occ[mine]) == o:
            key = self._slide(o, mine, here, occ, key, relocations, events, guard)
        return None if key is None else (key, tuple(relocations), tuple(events))

    def switch_key(self, c: int, mine: int, o: int, sq: int, occ: list, key: int):
        """`switch(c, mine, o, sq, occ, key)`'s key (None when it is None), without building
        the relocations and events: what a listed switch that fires a slide needs (code 11)."""
        weights = self.weights
        key += weights[c][sq] - weights[c][mine] + weights[o][mine] - weights[o][sq]
        if self.after_switch == "none":
            return key
        here = {sq: c, mine: o}
        key = self._slide_key(c, sq, here, occ, key)
        if key is not None and self.after_switch == "both" and here.get(mine, occ[mine]) == o:
            key = self._slide_key(o, mine, here, occ, key)
        return key

    def _slide_key(self, c: int, at: int, here: dict, occ: list, key: int):
        """`_slide`'s key alone (no guard): the key after colour c's pawn on `at` slides over
        `occ` overlaid by `here` (updated), or None when illegal."""
        slide = self.ends[c][at]
        if slide is None:
            return key
        end, swept = slide
        spares, back = self.spares[c], self.back
        for s in swept:
            x = here.get(s, occ[s])
            if x >= 0:
                if spares[x]:
                    if s == end:
                        return None
                    continue
                here[s] = -1
                key += back[x][s]
        here[at] = -1
        here[end] = c
        weights = self.weights[c]
        return key + weights[end] - weights[at]

    def _slide(self, c: int, at: int, here: dict, occ: list, key: int, relocations: list, events: list, guard=()):
        """`Mechanics.slide` for colour c's pawn on `at` over `occ` overlaid by `here`
        (square -> colour, updated): the key after it, or None when illegal."""
        info = self.slide_here[c][at]
        if info is None:
            return key
        weights, start, spares = self.weights, self.start, self.spares[c]
        for s in info.swept:
            o = here.get(s, occ[s])
            if o >= 0:
                if spares[o] or s in guard:
                    if s == info.end:
                        return None
                    continue
                here[s] = -1
                relocations.append((o, s, start[o]))
                events.append(("bump", o, s))
                key += weights[o][start[o]] - weights[o][s]
        here[at] = -1
        here[info.end] = c
        relocations.append((c, at, info.end))
        events.append(("slide", c, at, info.end))
        return key + weights[c][info.end] - weights[c][at]

    def land(self, c: int, frm: int, to: int, occ: list, key: int, guard=()):
        """(key, end, bumps) of colour c's pawn landing `frm` -> `to` (a slide square) from the
        position of `occ` and `key`, `bumps` the (colour, square) of every pawn sent back in
        order; None when illegal. A pawn on a square of `guard` is spared as a pawn of a
        colour the slide spares is (the landing square is the caller's to check)."""
        end, swept = self.ends[c][to]
        weights = self.weights[c]
        key += weights[end] - weights[frm]
        o = occ[to]
        if o >= 0:
            if o == c or not self.bumpable[c][o]:
                return None
            bumps = ((o, to),)
            key += self.back[o][to]
        else:
            bumps = ()
        spares = self.spares[c]
        for sq in swept:  # the landing square is not swept; the square left is empty now
            if sq != frm:
                o = occ[sq]
                if o >= 0:
                    if spares[o] or sq in guard:
                        if sq == end:
                            return None
                        continue
                    bumps += ((o, sq),)
                    key += self.back[o][sq]
        return key, end, bumps


def sends_back(bumps: tuple, own: tuple) -> bool:
    """Whether one of `bumps` ((colour, square) pairs) is a pawn of a colour `own` marks."""
    for o, _ in bumps:
        if own[o]:
            return True
    return False


def split_meets(partof: tuple, last: tuple, sq1: int, sq2: int, x: int, y: int) -> bool:
    """Whether two pawns of one colour from sq1 and sq2 ending on x and y (a split that slid
    and sent no pawn back) may be the placement of a plain split (one pawn by part m to one
    end, the other by the rest to the other: `partof[sq][to]` the part landing on `to` from
    sq or 0, `last[m]` the rest's landings) or, when an end is a square left, of one pawn's
    move."""
    if x == sq1 or x == sq2 or y == sq1 or y == sq2:
        return True
    m = partof[sq1][x]
    if m and last[m][sq2] == y:
        return True
    m = partof[sq1][y]
    return bool(m and last[m][sq2] == x)


def split_chain(candidate: tuple, start: tuple) -> tuple:
    """(relocations, events) of a split candidate of code 10, in order: per part, the pawns
    it sends back ((colour, square) -> Start), then its pawn `frm` -> `end`; the events per
    part: the split step, its bumps, its slide (when end != to)."""
    relocations, events = [], []
    parts = (candidate[3:8], candidate[8:13])
    for c, frm, to, end, bumps in parts:
        events.append(("split", c, frm, to))
        for o, sq in bumps:
            relocations.append((o, sq, start[o]))
            events.append(("bump", o, sq))
        relocations.append((c, frm, end))
        if end != to:
            events.append(("slide", c, to, end))
    return tuple(relocations), tuple(events)


class _FrozenBoard:
    """`Board` for generated code: `of` copies the flat lists into a placement first."""

    @staticmethod
    def of(P, exclusive: int) -> Board:
        return Board.of(freeze(P), exclusive)


def flat_namespace(scope: dict, slides: Slides) -> dict:
    """`fastmoves.namespace(...)` with its helpers wrapped to take flat lists (frozen on
    entry: the interpreter's code may change what it is given), `DEDUPE(candidates, KP)`
    (`dedupe`), `slide_land` (`Slides.land`) and `switch_key` (`Slides.switch_key`)."""
    land, land_key = scope["land"], scope["land_key"]
    weights = slides.weights
    sorry_slide, switch_slide, split_second = scope["sorry_slide"], scope["switch_slide"], scope["split_second"]
    split_many = scope["split_many"]
    scope.update({
        "land": lambda c, frm, to, step, P, occ, prefix=(): land(c, frm, to, step, freeze(P), occ, prefix),
        "land_key": lambda c, frm, to, step, P, occ, prefix, key: land_key(c, frm, to, step, freeze(P), occ, prefix, key),
        "sorry_slide": lambda c, o, start, sq, P: sorry_slide(c, o, start, sq, freeze(P)),
        "switch_slide": lambda c, mine, o, sq, P: switch_slide(c, mine, o, sq, freeze(P)),
        "split_second": lambda c1, i1, sq1, to1, control, rows, P: split_second(c1, i1, sq1, to1, control, rows, freeze(P)),
        "split_many": lambda control, steps, limit, tables, P, occ, key, blocks: split_many(
            control, steps, limit, tables, freeze(P), occ, key, blocks),
        "Board": _FrozenBoard, "slide_land": slides.land, "switch_land": slides.switch, "switch_key": slides.switch_key,
        "sends_back": sends_back,
        "split_meets": split_meets,
        "DEDUPE": lambda candidates, KP: dedupe(candidates, KP, weights),
    })
    return scope


def replay_in_place(events: tuple, P: list, occ: list, start: tuple, home: tuple) -> bool:
    """Play `events` (steps, bumps, slides, switches, in order, as `fastmoves.replayed` reads
    them) on the flat position in place; whether a pawn reached its Home. A square is cleared
    only if its own pawn leaves it (a bump follows the step that lands on its square)."""
    reached = False
    for e in events:
        c, frm = e[1], e[2]
        if e[0] == SWITCH:  # c's pawn on frm and e[3]'s on e[4] trade squares (both on the track)
            o, sq = e[3], e[4]
            P[c][P[c].index(frm)] = sq
            P[c].sort()
            P[o][P[o].index(sq)] = frm
            P[o].sort()
            occ[sq], occ[frm] = c, o
            continue
        if e[0] == BUMP:
            to = start[c]
        else:
            to = e[3]
            reached = reached or to == home[c]
        squares = P[c]
        squares[squares.index(frm)] = to
        squares.sort()
        if occ[frm] == c:
            occ[frm] = -1
        occ[to] = c
    return reached


def _relocate(P: list, occ: list, c: int, frm: int, to: int) -> None:
    squares = P[c]
    squares[squares.index(frm)] = to
    squares.sort()
    occ[frm] = -1
    occ[to] = c


#: the codes of candidates whose move neither bumps nor slides: one pawn, a switch without a
#: slide, a two-part split, a pass
QUIET_CODES = frozenset({0, 3, 4, 5})


class FlatMoves:
    """The flat move functions of one variant: `table[card][colour]`, the generated
    `source` (for tests), the placement key `weights`; `home[c]` colour c's Home square;
    `eventful_after`: every consequence (`after:`) of the variant can fire only on a move
    that bumps or slides (never on a candidate of `QUIET_CODES`), set by the compiler."""

    __slots__ = ("table", "source", "weights", "home", "size", "start", "slides", "eventful_after")

    def __init__(self, table: tuple, source: str, weights: tuple, mechanics):
        self.table = table
        self.source = source
        self.weights = weights
        self.home = tuple(mechanics.layout.home)
        self.size = mechanics.layout.size
        self.start = tuple(mechanics.start)
        self.slides = Slides(mechanics, weights)
        self.eventful_after = False

    def position(self, placement) -> tuple:
        """(P, occ, KP): a fresh flat position of `placement`."""
        return (*self.lists(placement), placement_key(self.weights, placement))

    def lists(self, placement) -> tuple:
        """(P, occ): a fresh flat position of `placement` without its key."""
        occ = [-1] * self.size
        for c, squares in enumerate(placement):
            for sq in squares:
                occ[sq] = c
        return [list(squares) for squares in placement], occ

    def prepared(self, placement, card: int, colour: int) -> tuple:
        """(function, P, occ, KP): the flat move function of `card` for a player of `colour`
        and a fresh flat position of `placement`; `function(P, occ, KP)` is one legal-move set
        (benchmarks time exactly that call over prepared positions)."""
        return (self.table[card][colour], *self.position(placement))

    @staticmethod
    def placement(P) -> tuple:
        """The canonical placement of the flat lists `P`."""
        return freeze(P)

    def apply(self, candidate: tuple, P: list, occ: list) -> bool:
        """Play `candidate` (of `table`) on the flat position in place (its key, candidate[0],
        is the new KP); whether a pawn reached its Home."""
        code = candidate[2]  # the commonest first (code 0 the loops play inline)
        if code == 2:  # sorry: o's pawn on sq goes back, then c's pawn leaves Start for sq
            _, _, _, c, start, sq, o, back = candidate
            _relocate(P, occ, o, sq, back)
            _relocate(P, occ, c, start, sq)
            return False
        if code == 7:  # one pawn lands on a slide: the pawns swept go back, it ends on `end`
            _, _, _, c, frm, _, _, end, bumps = candidate
            for o, sq in bumps:
                _relocate(P, occ, o, sq, self.start[o])
            _relocate(P, occ, c, frm, end)
            return False
        if code == 3 or code == 11:  # switch: c's pawn on `mine` and o's on sq trade squares
            _, _, _, c, mine, o, sq = candidate
            slid = self.slides.switch(c, mine, o, sq, occ, 0)[1] if code == 11 else ()
            P[c][P[c].index(mine)] = sq
            P[c].sort()
            P[o][P[o].index(sq)] = mine
            P[o].sort()
            occ[sq] = c
            occ[mine] = o
            reached = False
            for c, frm, to in slid:
                _relocate(P, occ, c, frm, to)
                reached = reached or to == self.home[c]
            return reached
        home = self.home
        if code == 0:
            _, _, _, c, frm, to, _ = candidate
            _relocate(P, occ, c, frm, to)
            return to == home[c]
        if code == 4:
            _, _, _, c1, sq1, to1, c2, sq2, to2 = candidate
            _relocate(P, occ, c1, sq1, to1)
            _relocate(P, occ, c2, sq2, to2)
            return to1 == home[c1] or to2 == home[c2]
        if code == 6:  # one pawn lands on o's pawn, which goes back to `back`
            _, _, _, c, frm, to, _, o, back = candidate
            _relocate(P, occ, o, to, back)
            _relocate(P, occ, c, frm, to)
            return False
        if code == 8:  # a split whose second part bumps
            _, _, _, c1, sq1, to1, c2, sq2, to2, o, back = candidate
            _relocate(P, occ, c1, sq1, to1)
            _relocate(P, occ, o, to2, back)
            _relocate(P, occ, c2, sq2, to2)
            return to1 == home[c1]
        if code == 9:  # a split whose second part takes a slide
            _, _, _, c1, sq1, to1, c2, sq2, _, end, bumps = candidate
            _relocate(P, occ, c1, sq1, to1)
            for o, sq in bumps:
                _relocate(P, occ, o, sq, self.start[o])
            _relocate(P, occ, c2, sq2, end)
            return to1 == home[c1]
        if code == 10 or code == 12:  # relocations in order
            return self._chained(candidate, P, occ)
        if code == 1:
            fresh, fresh_occ, _ = self.position(candidate[3])
            P[:] = fresh
            occ[:] = fresh_occ
            return any(len(e) == 4 and e[3] == home[e[1]] for e in candidate[4])
        return False

    def _chained(self, candidate: tuple, P: list, occ: list) -> bool:
        """`apply` of a split of code 10 (its parts' relocations, `split_chain`) or 12 (its events)."""
        if candidate[2] == 12:
            return replay_in_place(candidate[3], P, occ, self.start, self.home)
        reached = False
        for c, frm, to in split_chain(candidate, self.start)[0]:
            _relocate(P, occ, c, frm, to)
            reached = reached or to == self.home[c]
        return reached

    def move(self, candidate: tuple, placement: tuple, card: int) -> Move:
        """The engine's `Move` a candidate stands for, `placement` being the position before."""
        code, draw_again = candidate[2], candidate[1]
        if code == 6:
            _, _, _, c, frm, to, step, o, back = candidate
            return Move(card, _moved(_moved(placement, o, to, back), c, frm, to), ((step, c, frm, to), ("bump", o, to)),
                        draw_again, "move")
        if code == 8:
            _, _, _, c1, sq1, to1, c2, sq2, to2, o, back = candidate
            result = _moved(_moved(_moved(placement, c1, sq1, to1), o, to2, back), c2, sq2, to2)
            return Move(card, result, (("split", c1, sq1, to1), ("split", c2, sq2, to2), ("bump", o, to2)),
                        draw_again, "move")
        if code in (7, 9):
            return _slid_move(candidate, placement, card, self.start)
        if code == 12:
            return Move(card, replayed(self.start, placement, candidate[3]), candidate[3], draw_again, "move")
        if code == 10:
            relocations, events = split_chain(candidate, self.start)
            for c, frm, to in relocations:
                placement = _moved(placement, c, frm, to)
            return Move(card, placement, events, draw_again, "move")
        if code == 11:
            _, _, _, c, mine, o, sq = candidate
            _, relocations, events = self.slides.switch(c, mine, o, sq, self.position(placement)[1], 0)
            placement = _moved(_moved(placement, c, mine, sq), o, sq, mine)
            for c, frm, to in relocations:
                placement = _moved(placement, c, frm, to)
            return Move(card, placement, events, draw_again, "move")
        return FastMoves.move(candidate, placement, card)


def _slid_move(candidate: tuple, placement: tuple, card: int, starts: tuple) -> Move:
    """The `Move` of a candidate with a slide (code 7, or 9 after a split's first part)."""
    if candidate[2] == 7:
        _, draw_again, _, c, frm, to, step, end, bumps = candidate
        events = [(step, c, frm, to)]
    else:
        _, draw_again, _, c1, sq1, to1, c, frm, to, end, bumps = candidate
        placement = _moved(placement, c1, sq1, to1)
        events = [("split", c1, sq1, to1), ("split", c, frm, to)]
    for o, sq in bumps:
        placement = _moved(placement, o, sq, starts[o])
        events.append(("bump", o, sq))
    events.append(("slide", c, to, end))
    return Move(card, _moved(placement, c, frm, end), tuple(events), draw_again, "move")


def _moved(placement: tuple, c: int, frm: int, to: int) -> tuple:
    squares = list(placement[c])
    squares[squares.index(frm)] = to
    squares.sort()
    return placement[:c] + (tuple(squares),) + placement[c + 1:]
