"""The run-time side of the generated move functions (`sorry_rules.compiler.codegen`).

The compiler generates, from fixed templates and integers only, one Python function per
(card, player colour): `moves(placement) -> (moves, spare_flags)` (`moves(placement,
marks)` where `FastMoves.takes_marks`), exactly what `Game._moves_of` returns for that card,
player and position (the same `Move`s in the same order, with the same marks, the same flags
of outcomes that move nothing), with the movement tables of the player's colours bound as
constants, the card's alternatives unrolled, and a move that neither bumps nor slides placed
without building a board. `FastMoves` holds them; `Game` uses them when a variant's
`Game.features()` are all covered (else the interpreter path).

`namespace(mechanics, weights, kinds)` is everything the generated source may name besides
its own constants: the engine's `Move` and `Board`, the `Helpers` (`land`: one landing with
bumps and slides, for the rarer moves that need it; `split_many`: a split among many pawns
or along routes), the fixed event and move kinds, and for a variant with marks `MK`,
`CARRIES`, `MB` (the marks after a move, the pawns that may leave Start, a marked board).
Contract: nothing here changes a placement, an occupancy list or marks it is given.
"""

from __future__ import annotations

import functools

from sorry_rules.engine.game import Move
from sorry_rules.engine.events import BUMP, SWITCH
from sorry_rules.engine import marks
from sorry_rules.engine.marks import SEND
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS, Board
from sorry_rules.engine.pawns import MOVE


SPLIT = "split"
_MARKING = frozenset((marks.MARK, marks.UNMARK, marks.CARRY))

#: The code (a candidate's third element) of a candidate that is a pass (the rest are moves).
PASS_CODE = 5


class FastMoves:
    """`table[card][colour]`: the generated function of `card` for a player of `colour`,
    or None where the card is played by the interpreter (its effect uses a construct the
    generator does not cover). `source` is the generated module's text (for tests).

    `select[card][colour](P, KP)` is the candidates flavour for the random-game loop: the
    same moves in the same order, each as a small tuple `(key, draw_again, code, ...)` that
    `move(candidate, P, card)` turns into the `Move`; `key` is the exact key of the move's
    placement (`key(placement)`, KP the key of P), so candidates are told apart without
    building their placements (a variant with marks has no candidates flavour: `select` is ()).
    `passes[card]` is False when the card's effect has no `pass` (its candidates are all
    moves: a random-game loop need not look for passes), True when it may offer one (every
    card, when not given).

    `flat`: the flat-state flavour (`engine.flatstate.FlatMoves`) when every card has one, else None;
    `flat_marked`: for a variant with marks, its flat flavour taking the marks
    (`engine.flatmarks.MarkedFlatMoves`) where there is one, else None.
    `takes_marks`: the functions are `moves(placement, marks)` (`State.marks`): the variant has marks.

    The two flat flavours may be given late: `defer_flat(build)` stores `build`, a function
    of no argument returning `(flat, flat_marked)`, called once, on the first read of `flat`
    or `flat_marked` (a command that lists one position's moves never builds them); what it
    returns is then kept and `build` dropped. Assigning `flat` or `flat_marked` builds the
    deferred pair first, so an assignment is never overwritten later."""

    __slots__ = ("table", "source", "select", "weights", "passes", "takes_marks", "_flat", "_flat_marked", "_build")

    def __init__(self, table: tuple, source: str, select: tuple = (), weights: tuple = (), passes: tuple = (),
                 takes_marks: bool = False):
        self.table = table
        self.source = source
        self.select = select
        self.weights = weights
        self.passes = passes or (True,) * len(table)
        self.takes_marks = takes_marks
        self._flat = self._flat_marked = self._build = None

    def defer_flat(self, build) -> None:
        """Build the flat flavours with `build()` -> (flat, flat_marked) when first read."""
        self._build = build

    def _built(self) -> None:
        build, self._build = self._build, None
        if build is not None:
            self._flat, self._flat_marked = build()

    @property
    def flat(self):
        """The flat-state flavour (`engine.flatstate.FlatMoves`), or None."""
        if self._build is not None:
            self._built()
        return self._flat

    @flat.setter
    def flat(self, value) -> None:
        self._built()
        self._flat = value

    @property
    def flat_marked(self):
        """The flat flavour with marks (`engine.flatmarks.MarkedFlatMoves`), or None."""
        if self._build is not None:
            self._built()
        return self._flat_marked

    @flat_marked.setter
    def flat_marked(self, value) -> None:
        self._built()
        self._flat_marked = value

    def covers(self, card: int) -> bool:
        """Whether `card` is played by generated code."""
        return self.table[card][0] is not None

    def key(self, placement) -> int:
        """The exact key of `placement` (`placement_key`)."""
        return placement_key(self.weights, placement)

    @staticmethod
    def move(candidate: tuple, placement: tuple, card: int) -> Move:
        """The `Move` a candidate of `select` stands for, `placement` being the position."""
        code, draw_again = candidate[2], candidate[1]
        if code == PASS_CODE:
            return Move(card, placement, (), draw_again, "pass")
        if code == 6:  # (key, draw_again, 6, events, starts): the events replayed on `placement`
            return Move(card, replayed(candidate[4], placement, candidate[3]), candidate[3], draw_again, "move")
        if code == 1:
            return Move(card, candidate[3], candidate[4], draw_again, "move")
        if code == 0:
            _, _, _, c, frm, to, step = candidate
            return Move(card, _moved(placement, c, frm, to), ((step, c, frm, to),), draw_again, "move")
        if code == 4:
            _, _, _, c1, sq1, to1, c2, sq2, to2 = candidate
            result = _moved(_moved(placement, c1, sq1, to1), c2, sq2, to2)
            return Move(card, result, (("split", c1, sq1, to1), ("split", c2, sq2, to2)), draw_again, "move")
        if code == 3:  # switch: colour c's pawn on `mine` and colour o's on sq trade squares
            _, _, _, c, mine, o, sq = candidate
            return Move(card, _moved(_moved(placement, c, mine, sq), o, sq, mine), (("switch", c, mine, o, sq),),
                        draw_again, "move")
        _, _, _, c, start, sq, o, back = candidate  # code 2, sorry: c's pawn leaves Start for sq, o's goes to `back`
        return Move(card, _moved(_moved(placement, c, start, sq), o, sq, back), (("sorry", c, start, sq), ("bump", o, sq)),
                    draw_again, "move")


def placement_weights(layout, pawns: int) -> tuple:
    """weights[c][sq]: what one colour-c pawn on sq adds to a placement's key. Every colour
    has a field of layout.X bits (its exclusive squares: at most one own pawn each) and two
    counters wide enough for `pawns` (its Home, its Start), so the key is exact."""
    width = pawns.bit_length() + 1
    field = layout.X + 2 * width
    weights = []
    for c in range(layout.C):
        row = [0] * layout.size
        for sq in range(layout.X):
            row[sq] = 1 << (c * field + sq)
        row[layout.home[c]] = 1 << (c * field + layout.X)
        row[layout.start[c]] = 1 << (c * field + layout.X + width)
        weights.append(tuple(row))
    return tuple(weights)


def placement_key(weights: tuple, placement) -> int:
    """The exact key of `placement`: one bit per colour and exclusive square, one counter
    field per colour for its Home and its Start (`placement_weights`); two placements have
    the same key exactly when they are equal (as sorted tuples)."""
    key = 0
    for c, squares in enumerate(placement):
        row = weights[c]
        for sq in squares:
            key += row[sq]
    return key


def replayed(starts: tuple, placement: tuple, events: tuple) -> tuple:
    """The placement after the relocations of `events` (each step, send, slide or switch
    moves its pawn; a bump sends its pawn to its Start `starts[colour]`)."""
    for e in events:
        if e[0] == BUMP:
            placement = _moved(placement, e[1], e[2], starts[e[1]])
        elif e[0] == SWITCH:
            placement = _moved(_moved(placement, e[1], e[2], e[4]), e[3], e[4], e[2])
        else:
            placement = _moved(placement, e[1], e[2], e[3])
    return placement


def _moved(placement: tuple, c: int, frm: int, to: int) -> tuple:
    squares = list(placement[c])
    squares[squares.index(frm)] = to
    squares.sort()
    return placement[:c] + (tuple(squares),) + placement[c + 1:]


class Helpers:
    """The interpreter's own code for the rarer cases the generated functions hand over: a
    landing that bumps or slides, a `sorry` or `switch` followed by a slide, a split whose
    first part bumps or slides. Each returns what `Mechanics` would, on a fresh board."""

    def __init__(self, mechanics, weights: tuple = ()):
        self.m = mechanics
        self.weights = weights  # placement_weights, for land_key
        self.X, self.T = mechanics.X, mechanics.T

    def land(self, c: int, frm: int, to: int, step: str, placement: tuple, occ: list, prefix: tuple = (),
             guard: frozenset = frozenset()):
        """(placement, events) after colour c's pawn lands `frm` -> `to` (an exclusive square)
        with bumps and slides, exactly as `Mechanics.land` (`MarkedMechanics.land`: the pawns
        of `guard`, (colour, square), may not be landed on or swept), the events after
        `prefix`; None when illegal. `occ` is the occupancy of `placement` (read only)."""
        m = self.m
        events = list(prefix)
        events.append((step, c, frm, to))
        squares = list(placement)
        o = occ[to]
        if o >= 0:
            if o == c or not m.bumpable[c][o] or (o, to) in guard:
                return None
            self._send_back(squares, o, to)
            events.append(("bump", o, to))
        mine = squares[c] = list(squares[c])
        mine[mine.index(frm)] = to
        info = m.slide_here[c][to] if to < self.T else None
        if info is not None:
            spares = m.spares[c]
            for sq in info.swept:  # the landing square is not swept; the square left is empty now
                o = -1 if sq == frm else occ[sq]
                if o >= 0:
                    if spares[o] or (o, sq) in guard:
                        if sq == info.end:
                            return None
                        continue
                    self._send_back(squares, o, sq)
                    events.append(("bump", o, sq))
            mine = squares[c]
            mine[mine.index(to)] = info.end
            events.append(("slide", c, to, info.end))
        return tuple(tuple(sorted(x)) if type(x) is list else x for x in squares), tuple(events)

    def land_key(self, c: int, frm: int, to: int, step: str, placement: tuple, occ: list, prefix: tuple, key: int):
        """`land`, with the key of the result as a third element: `key` (that of `placement`)
        changed by every relocation of the landing's events (the step, bumps, the slide)."""
        landed = self.land(c, frm, to, step, placement, occ, prefix)
        if landed is None:
            return None
        weights, starts = self.weights, self.m.start
        for event in landed[1][len(prefix):]:
            if event[0] == "bump":
                key += weights[event[1]][starts[event[1]]] - weights[event[1]][event[2]]
            else:
                key += weights[event[1]][event[3]] - weights[event[1]][event[2]]
        return landed[0], landed[1], key

    def _send_back(self, squares: list, o: int, sq: int) -> None:
        theirs = squares[o]
        if type(theirs) is not list:
            theirs = squares[o] = list(theirs)
        theirs[theirs.index(sq)] = self.m.start[o]

    def sorry_slide(self, c: int, o: int, start: int, sq: int, placement: tuple):
        """`Mechanics.sorry`'s outcome for one pawn replacing colour o's on sq, then sliding."""
        X = self.X
        board = Board.of(placement, X).copy()
        board.relocate(o, sq, self.m.start[o], X)
        board.relocate(c, start, sq, X)
        events = [("sorry", c, start, sq), ("bump", o, sq)]
        if not self.m.slide(board, c, sq, events):
            return None
        return board.placement(), tuple(events)

    def switch_slide(self, c: int, mine: int, o: int, sq: int, placement: tuple):
        """`Mechanics.switch`'s outcome for colour c's pawn on `mine` and colour o's on sq."""
        board = Board.of(placement, self.X).copy()
        pc, po = board.pos[c], board.pos[o]
        pc[pc.index(mine)] = sq
        po[po.index(sq)] = mine
        board.occ[sq] = c
        board.occ[mine] = o
        events = [("switch", c, mine, o, sq)]
        after = self.m.slide_after_switch
        if after != "none":
            if not self.m.slide(board, c, sq, events):
                return None
            if after == "both" and board.occ[mine] == o and not self.m.slide(board, o, mine, events):
                return None
        return board.placement(), tuple(events)

    def split_second(self, c1: int, i1: int, sq1: int, to1: int, control: tuple, rows: tuple, placement: tuple) -> list:
        """The outcomes of a two-part sequential split whose first part (colour c1's pawn
        `i1` from sq1 to to1) bumps or slides: `Mechanics.split`'s second level, with
        `rows[c]` the forward table of the remaining steps."""
        X, T = self.X, self.T
        land_on, slide_here = self.m.land, self.m.slide_here
        board = Board.of(placement, X).copy()
        events: list = []
        if not land_on(board, c1, sq1, to1, events, "split"):
            return []
        out = []
        occ = board.occ
        for c in control:
            squares = board.pos[c]
            row = rows[c]
            for index in range(len(squares)):
                sq = squares[index]
                if sq >= X or (c == c1 and index == i1):
                    continue
                to = row[sq]
                if to < 0 or (to < X and occ[to] == c):
                    continue
                if to >= X or (occ[to] < 0 and (to >= T or slide_here[c][to] is None)):
                    out.append((board.moved(c, sq, to), tuple(events) + (("split", c, sq, to),)))
                    continue
                moved = board.copy()
                more = list(events)
                if land_on(moved, c, sq, to, more, "split"):
                    out.append((moved.placement(), tuple(more)))
        return out

    def split_many(self, control: tuple, steps: int, limit: int, tables: tuple, placement: tuple, occ: list, key: int,
                   blocks: tuple = ()) -> list:
        """`Mechanics._split_sequential(steps, limit)` (a split among up to `limit` pawns) as
        `(key, events)` per outcome, in the interpreter's order: `key` that of the outcome's
        placement (`placement_key`), which `replayed(placement, events)` builds; the search
        runs on integer keys, each placement listed once (a position seen again with the same
        pawns used and steps left is explored once, as there). `tables[c][sq][n]` are the ways
        `(to, passed)` n forward steps take a colour-c pawn from sq: the plain table's one
        square, or the routes' (`compiler.routetables.split_ways`, the split along routes of
        `engine.routes.split`), a way taken only when no pawn on its `passed` squares stops
        colour c (`blocks[c][s][o]`)."""
        search = _ManySplit(self, control, limit, tables, max(len(squares) for squares in placement) + 1, blocks)
        search.extend([list(squares) for squares in placement], occ[:], key, steps, 0, 0)
        return search.out


class _ManySplit:
    """One search of `Helpers.split_many`: pawns keep their index in `pos[c]` when they move
    (`used` has bit c * width + index of each pawn moved), a part that neither bumps nor
    slides is explored in place and undone."""

    def __init__(self, helpers: Helpers, control: tuple, limit: int, tables: tuple, width: int, blocks: tuple):
        self.m, self.X, self.T, self.weights = helpers.m, helpers.X, helpers.T, helpers.weights
        self.control, self.limit, self.tables, self.width, self.blocks = control, limit, tables, width, blocks
        self.out: list = []
        self.events: list = []
        self.seen = set() if limit > 2 else None
        self.found: set = set()  # keys listed: a later way to the same placement is the same move (A24)

    def extend(self, pos: list, occ: list, key: int, remaining: int, used: int, parts: int) -> None:
        seen = self.seen
        if seen is not None and parts:
            state = (key, used, remaining)
            if state in seen:
                return
            seen.add(state)
        sizes = (remaining,) if parts + 1 == self.limit else range(1, remaining + 1 if parts else remaining)
        X, width, part = self.X, self.width, self.part
        for c in self.control:
            squares, ends = pos[c], self.tables[c]
            for index in range(len(squares)):
                sq = squares[index]
                if sq >= X:
                    continue
                bit = 1 << (c * width + index)
                if used & bit:
                    continue
                ways = ends[sq]
                for n in sizes:
                    for to, passed in ways[n]:
                        if not passed or self.passable(c, occ, passed):
                            part(pos, occ, key, c, index, to, remaining - n, used | bit, parts)

    def passable(self, c: int, occ: list, passed: tuple) -> bool:
        block = self.blocks[c]
        for s in passed:
            o = occ[s]
            if o >= 0 and block[s][o]:
                return False
        return True

    def part(self, pos: list, occ: list, key: int, c: int, index: int, to: int, rest: int, used: int, parts: int) -> None:
        """Colour c's pawn `index` goes to `to`, then the `rest` of the steps is split further."""
        X = self.X
        squares, events = pos[c], self.events
        sq = squares[index]
        o = occ[to] if to < X and to != sq else -1  # a bounce may end on the square it left
        if o == c:
            return
        if o >= 0 or (to < self.T and self.m.slide_here[c][to] is not None):
            self.landed(pos, occ, c, sq, to, rest, used, parts)
            return
        events.append((SPLIT, c, sq, to))
        row = self.weights[c]
        moved = key - row[sq] + row[to]
        if not rest:
            self.leaf(moved)
        else:
            squares[index] = to
            occ[sq] = -1
            if to < X:
                occ[to] = c
            self.extend(pos, occ, moved, rest, used, parts + 1)
            if to < X:
                occ[to] = -1
            occ[sq] = c
            squares[index] = sq
        events.pop()

    def landed(self, pos: list, occ: list, c: int, sq: int, to: int, rest: int, used: int, parts: int) -> None:
        """A part that bumps or slides: landed on a copy by the interpreter's `land`."""
        board, events = Board([p[:] for p in pos], occ[:]), self.events
        before = events[:]
        if self.m.land(board, c, sq, to, events, SPLIT):
            moved = placement_key(self.weights, board.pos)
            if not rest:
                self.leaf(moved)
            else:
                self.extend(board.pos, board.occ, moved, rest, used, parts + 1)
        events[:] = before

    def leaf(self, key: int) -> None:
        if key not in self.found:
            self.found.add(key)
            self.out.append((key, tuple(self.events)))


def carry_options(kinds: tuple, M: tuple, c: int, sq: int, pawns: int, chosen: tuple) -> tuple:
    """The "carry" events of each kind of pawn that may leave the shared square sq holding
    `pawns` of colour c's pawns, with the marks `M` of the mark `kinds` (as
    `MarkedMechanics.from_start`: no pawn whose marks make it immobile), only those carrying
    every mark of chosen[0] and none of chosen[1] (a selector's `marked` / `unmarked`)."""
    options = marks.shared_kinds(M, c, sq, pawns) if any(M) else [()]
    out = []
    for option in options:
        has = {k for k, _ in option}
        if any(kinds[k].immobile for k in has):
            continue
        if all(k in has for k in chosen[0]) and not any(k in has for k in chosen[1]):
            out.append(tuple((marks.CARRY, c, sq, k, by) for k, by in option))
    return tuple(out)


def namespace(mechanics, weights: tuple = (), kinds: tuple = ()) -> dict:
    """The globals of a generated module (its own integer tables are added by the compiler):
    the engine's types, the fixed event and move kinds, and the `Helpers`; with mark `kinds`,
    MK(marks, events, result) (the marks after a move, as `Game._marked_moves_of` computes
    them), CARRIES (the pawns that may leave a shared square), SHIELDS (`marks.shields`) and
    MB (the `MarkedBoard` a primitive runs on)."""
    helpers = Helpers(mechanics, weights)
    layout, X = mechanics.layout, mechanics.X

    last = [None, frozenset()]  # the marks last asked about, and the (colour, square) of their pawns

    def after(before: tuple, events: tuple, result: tuple) -> tuple:
        """The marks after a move: `before` itself when no event marks, unmarks or carries
        and none concerns a marked pawn (marks follow only the pawns that move)."""
        if last[0] is not before:
            last[0], last[1] = before, frozenset((e[0], e[1]) for entries in before for e in entries)
        marked = last[1]
        for e in events:
            if e[0] in _MARKING or (e[1], e[2]) in marked or (e[0] == SWITCH and (e[3], e[4]) in marked):
                return marks.fit(marks.replay(kinds, layout, before, events), result, X)
        return before

    shielded = [None, None]  # the marks last asked about, and their shields

    def shields(before: tuple) -> tuple:
        if shielded[0] is not before:
            shielded[0], shielded[1] = before, marks.shields(kinds, before)
        return shielded[1]

    carried = [None, {}]  # the marks last asked about, and the answers for them

    def carries(before: tuple, c: int, sq: int, squares: tuple, chosen: tuple = ((), ())) -> tuple:
        """The "carry" events of each kind of pawn that may leave the shared square sq (as
        `MarkedMechanics.from_start`: no pawn whose marks make it immobile), only those
        carrying every mark of chosen[0] and none of chosen[1] (a selector's `marked` /
        `unmarked`). Remembered for the marks last asked about (the answer depends on them,
        the colour, the square, its pawn count and `chosen` only)."""
        if carried[0] is not before:
            carried[0], carried[1] = before, {}
        key = (c, sq, squares.count(sq), chosen)
        known = carried[1].get(key)
        if known is None:
            known = carried[1][key] = carry_options(kinds, before, c, sq, key[2], chosen)
        return known

    return {
        "MK": after, "CARRIES": carries, "SHIELDS": shields,
        "MB": lambda placement, before: marks.MarkedBoard.with_marks(placement, X, kinds, before),
        "__builtins__": {"list": list, "tuple": tuple, "bool": bool, "set": set, "range": range, "len": len},
        "Move": Move, "NEW": tuple.__new__, "NO_LABEL": "", "Board": Board, "land": helpers.land, "land_key": helpers.land_key,
        "sorry_slide": helpers.sorry_slide,
        "switch_slide": helpers.switch_slide, "split_second": helpers.split_second, "split_many": helpers.split_many,
        "REPLAYED": functools.partial(replayed, mechanics.start),
        "DRAW_AGAIN": DRAW_AGAIN, "PASS": PASS,
        "K_MOVE": "move", "K_PASS": "pass", "E_ENTER": "enter", "E_FORWARD": "forward", "E_BACKWARD": "backward",
        "E_SPLIT": "split", "E_SORRY": "sorry", "E_BUMP": "bump", "E_SWITCH": "switch", "E_MOVE": MOVE, "E_SEND": SEND,
        "MOVED": _moved,
    }
