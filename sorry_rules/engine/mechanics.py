"""Movement mechanisms shared by every card: landing, bumping, sliding, and the action
primitives of the race track.

An *outcome* is a tuple `(placement, events, flags)`: the placement after the effect (per
colour a sorted tuple of squares), the resolved events in order (kinds and fields:
`sorry_rules.engine.events`), and flag bits (DRAW_AGAIN, PASS).

Action primitives are the `Mechanics` methods `enter`, `step` (forward/backward), `split`,
`switch` and `sorry`: each takes its parameters, then the player colour `p` and a `Board`,
and returns every outcome (a list; empty when it cannot be played). The compiler binds one
DSL node to one primitive (`compiler.programs`); `engine.queries.Obstacles` says, for the
same primitive, why it gives a pawn no move. Adding a primitive is one method here, one
obstacle method there, and the DSL node with its one compiler binding.

Contract: primitives never mutate the board they are given (a split explores in place and
undoes every change before it returns).
Relations (own/partner/opponent) are always judged from the colour of the pawn that moves
(RULES T9), never from the player's seat.
"""

from __future__ import annotations

from sorry_rules.engine.routes import Geometry, Routes
from sorry_rules.engine.routes import split as route_split

DRAW_AGAIN = 1
PASS = 2


_LIFTED = 1 << 40


def _moved(pos, c: int, frm: int, to: int) -> tuple:
    """Placement of working lists `pos` with one colour-c pawn moved from `frm` to `to`."""
    squares = list(pos[c])
    squares[squares.index(frm)] = to
    squares.sort()
    return tuple(tuple(sorted(p)) if i != c else tuple(squares) for i, p in enumerate(pos))


def _moved_base(base: tuple, c: int, frm: int, to: int) -> tuple:
    """Like `_moved`, from a canonical placement: only colour c needs sorting again."""
    squares = list(base[c])
    squares[squares.index(frm)] = to
    squares.sort()
    return base[:c] + (tuple(squares),) + base[c + 1:]


def _explore_in_place(extend, b, squares: list, index: int, c: int, sq: int, to: int, rest: int,
                      used: frozenset, events: list, parts: int, exclusive: int) -> None:
    """One plain part of a sequential split (no bump, no slide): move colour c's pawn
    `index` (on `sq`) to `to` on `b` in place, `extend` the split with the `rest` of the
    steps, then undo, leaving `b` and `events` as they were (no copy of the board)."""
    base, occ = b.base, b.occ
    squares[index] = to
    b.base = _moved_base(base, c, sq, to) if base is not None else None
    occ[sq] = -1
    if to < exclusive:
        occ[to] = c
    events.append(("split", c, sq, to))
    extend(b, rest, used | {(c, index)}, events, parts + 1)
    events.pop()
    if to < exclusive:
        occ[to] = -1
    occ[sq] = c
    squares[index] = sq
    b.base = base


class Board:
    """A working copy of pawn squares: `pos[c]` lists colour c's squares; `occ[sq]` is the
    colour on exclusive square sq or -1; `base` is the canonical placement the board still
    equals, or None once it was changed."""

    __slots__ = ("pos", "occ", "base")

    def __init__(self, pos: list, occ: list, base: tuple | None = None):
        self.pos = pos
        self.occ = occ
        self.base = base

    @classmethod
    def of(cls, placement, exclusive: int) -> "Board":
        occ = [-1] * exclusive
        for c, squares in enumerate(placement):
            for sq in squares:
                if sq < exclusive:
                    occ[sq] = c
        return cls([list(p) for p in placement], occ, placement)

    def copy(self) -> "Board":
        return Board([p[:] for p in self.pos], self.occ[:])  # a copy is made to be changed

    def after(self, placement, events, layout) -> "Board":
        """The board a following effect starts from, once `events` gave `placement` (a
        board with marks replays them: `engine.marks.MarkedBoard`)."""
        return Board.of(placement, len(self.occ))

    def placement(self) -> tuple:
        if self.base is not None:
            return self.base
        return tuple(tuple(sorted(p)) for p in self.pos)

    def moved(self, c: int, frm: int, to: int) -> tuple:
        """The placement after moving one colour-c pawn `frm` -> `to` (board unchanged)."""
        if self.base is not None:
            return _moved_base(self.base, c, frm, to)
        return _moved(self.pos, c, frm, to)

    def relocate(self, c: int, frm: int, to: int, exclusive: int) -> None:
        squares = self.pos[c]
        squares[squares.index(frm)] = to
        self.base = None
        occ = self.occ
        if frm < exclusive and occ[frm] == c:
            occ[frm] = -1
        if to < exclusive:
            occ[to] = c


def _track_pawns(board: Board, T: int) -> list:
    """(square, colour) of every pawn on the track, in square order."""
    return sorted((sq, c) for c, squares in enumerate(board.pos) for sq in squares if sq < T)


class Mechanics:
    """The movement rules of one compiled variant (tables built once)."""

    explore_in_place = staticmethod(_explore_in_place)  # for the route split (`engine.routes`)
    #: whether pawns may carry marks (`engine.marks.MarkedMechanics`): primitives run outside
    #: these methods (route steps, split parts) then pass their outcomes through `free`.
    marked = False

    def free(self, board, outcomes: list) -> list:
        """The outcomes the marks on `board` allow: all of them without marks."""
        return outcomes

    def __init__(self, layout, relation, rules, control_of, geometry: Geometry | None = None):
        self.layout = layout
        self.X = layout.X
        self.T = layout.T
        self.start = layout.start
        C = layout.C
        self.relation = relation  # relation[c][o] in {"own", "partner", "opponent"}
        geometry = geometry or Geometry(past_home=layout.past_home)
        self.geometry = geometry
        self.bumpable = tuple(tuple(o != c and relation[c][o] in rules.bump and not geometry.blocks_landing(relation[c][o], o)
                                    for o in range(C)) for c in range(C))
        self.slides_for = tuple(tuple(relation[c][s] in rules.slide_on for s in range(C)) for c in range(C))
        if rules.slide_sweep == "all":
            self.spares = tuple(tuple(False for _ in range(C)) for _ in range(C))
        else:
            self.spares = tuple(tuple(not self.bumpable[c][o] for o in range(C)) for c in range(C))
        self.slide_after_switch = rules.slide_after_switch
        self.slide_after_sorry = rules.slide_after_sorry
        self.simultaneous_split = rules.split == "simultaneous"
        self.control_of = control_of  # player colour -> colours it may move
        # routes: the route tables and passing rules (`engine.routes`), or None when plain tables do
        self.routes = Routes(layout, geometry, relation) if geometry.routed else None
        self._relation_tables: dict = {}
        # slide_here[c][sq]: the slide a colour-c pawn takes when it ends a move on sq, or None
        self.slide_here = tuple(
            tuple(info if info is not None and self.slides_for[c][info.colour] else None for info in layout.slide_at)
            for c in range(C)
        )

    def matches(self, c: int, o: int, relation: str) -> bool:
        rel = self.relation[c][o]
        return rel == relation or (relation == "other" and rel != "own")

    def relation_table(self, relation: str) -> tuple:
        """table[c][o]: colour o is `relation` (own/partner/opponent/other) to colour c."""
        C = self.layout.C
        return tuple(tuple(self.matches(c, o, relation) for o in range(C)) for c in range(C))

    # ---- resolution of one landing ----------------------------------------------------
    def land(self, board: Board, c: int, frm: int, to: int, events: list, step: str) -> bool:
        """Move colour c's pawn from `frm` to `to` on `board` (mutated), bumping and sliding.
        Returns False when the move is illegal (own pawn on `to`, a blocked bump or slide)."""
        X = self.X
        events.append((step, c, frm, to))
        if to < X:
            o = board.occ[to]
            if o >= 0:
                if o == c or not self.bumpable[c][o]:
                    return False
                board.relocate(o, to, self.start[o], X)
                events.append(("bump", o, to))
        board.relocate(c, frm, to, X)
        return self.slide(board, c, to, events)

    def slide(self, board: Board, c: int, at: int, events: list) -> bool:
        """Fire the slide whose triangle is `at` for colour c's pawn, if it applies (R26)."""
        if at >= self.T:
            return True
        info = self.slide_here[c][at]
        if info is None:
            return True
        occ = board.occ
        spares = self.spares[c]
        X = self.X
        for sq in info.swept:
            o = occ[sq]
            if o >= 0:
                if spares[o]:
                    if sq == info.end:
                        return False
                    continue
                board.relocate(o, sq, self.start[o], X)
                events.append(("bump", o, sq))
        board.relocate(c, at, info.end, X)
        events.append(("slide", c, at, info.end))
        return True

    # ---- primitives ------------------------------------------------------------------------
    def enter(self, p: int, board: Board) -> list:
        out = []
        layout = self.layout
        for c in self.control_of[p]:
            start = self.start[c]
            if start not in board.pos[c]:
                continue
            to = layout.start_exit[c]
            if board.occ[to] == c:
                continue
            if board.occ[to] < 0 and self.slide_here[c][to] is None:
                out.append((board.moved(c, start, to), (("enter", c, start, to),), 0))
                continue
            b = board.copy()
            events: list = []
            if self.land(b, c, start, to, events, "enter"):
                out.append((b.placement(), tuple(events), 0))
        return out

    def step(self, table, step: str, p: int, board: Board) -> list:
        """One pawn moves along `table` (a forward or backward destination table)."""
        out = []
        X = self.X
        occ = board.occ
        T = self.T
        for c in self.control_of[p]:
            row = table[c]
            slide_here = self.slide_here[c]
            squares = board.pos[c]
            for sq in squares:
                if sq >= X:
                    continue
                to = row[sq]
                if to < 0:
                    continue
                if to >= X:
                    out.append((board.moved(c, sq, to), ((step, c, sq, to),), 0))
                    continue
                o = occ[to]
                if o == c:
                    continue
                if o < 0 and (to >= T or slide_here[to] is None):
                    out.append((board.moved(c, sq, to), ((step, c, sq, to),), 0))
                    continue
                b = board.copy()
                events: list = []
                if self.land(b, c, sq, to, events, step):
                    out.append((b.placement(), tuple(events), 0))
        return out

    def sorry(self, relation: str | None, p: int, board: Board) -> list:
        """A pawn from Start replaces a bumpable pawn on the track (R25, T6)."""
        out = []
        T = self.T
        X = self.X
        for c in self.control_of[p]:
            start = self.start[c]
            if start not in board.pos[c]:
                continue
            bumpable = self.bumpable[c]
            for sq, o in _track_pawns(board, T):
                if not bumpable[o] or (relation is not None and not self.matches(c, o, relation)):
                    continue
                b = board.copy()
                b.relocate(o, sq, self.start[o], X)
                b.relocate(c, start, sq, X)
                events = [("sorry", c, start, sq), ("bump", o, sq)]
                if self.slide_after_sorry and not self.slide(b, c, sq, events):
                    continue
                out.append((b.placement(), tuple(events), 0))
        return out

    def switch(self, relation: str, p: int, board: Board) -> list:
        """Swap one of the player's track pawns with a track pawn of `relation` (R24, T10)."""
        out = []
        T = self.T
        after = self.slide_after_switch
        track_pawns = _track_pawns(board, T)
        allowed = self._relation_tables.get(relation)
        if allowed is None:
            allowed = self._relation_tables[relation] = self.relation_table(relation)
        for c in self.control_of[p]:
            targets = [(sq, o) for sq, o in track_pawns if o != c and allowed[c][o]]
            if not targets:
                continue
            for mine in board.pos[c]:
                if mine >= T:
                    continue
                for sq, o in targets:
                    b = board.copy()
                    pc, po = b.pos[c], b.pos[o]
                    pc[pc.index(mine)] = sq
                    po[po.index(sq)] = mine
                    b.occ[sq] = c
                    b.occ[mine] = o
                    events = [("switch", c, mine, o, sq)]
                    if after != "none":
                        if not self.slide(b, c, sq, events):
                            continue
                        if after == "both" and b.occ[mine] == o and not self.slide(b, o, mine, events):
                            continue
                    out.append((b.placement(), tuple(events), 0))
        return out

    def split(self, steps: int, among: int | None, forward_table, p: int, board: Board) -> list:
        """`steps` forward steps divided among 2..`among` different pawns, each part >= 1
        (R22, A1-A3). Sequential: each part is judged on the board the previous part left."""
        if self.simultaneous_split:
            return self._split_simultaneous(steps, among, forward_table, p, board)
        if self.routes is not None:
            return route_split(self, self.routes, steps, among if among is not None else steps, p, board)
        return self._split_sequential(steps, among if among is not None else steps, forward_table, p, board)

    def _split_sequential(self, steps: int, limit: int, forward_table, p: int, board: Board) -> list:
        """The sequential split, as a depth-first search over (pawn, part) choices."""
        out = []
        X, T = self.X, self.T
        slide_here = self.slide_here
        control = self.control_of[p]
        land = self.land

        # With more than two parts, different orders reach the same board with the same pawns
        # used and the same steps left; their continuations are identical, so explore one.
        seen = set() if limit > 2 else None

        def extend(b: Board, remaining: int, used: frozenset, events: list, parts: int) -> None:
            if seen is not None and parts:
                key = (b.placement(), used, remaining)
                if key in seen:
                    return
                seen.add(key)
            # a split has at least two parts: the first never takes every step
            sizes = (remaining,) if parts + 1 == limit else range(1, remaining + 1 if parts else remaining)
            for c in control:
                squares = b.pos[c]
                for index in range(len(squares)):
                    sq = squares[index]
                    if sq >= X or (c, index) in used:
                        continue
                    for part in sizes:
                        to = forward_table(part)[c][sq]
                        if to < 0 or (to < X and b.occ[to] == c):
                            continue
                        if to >= X or (b.occ[to] < 0 and (to >= T or slide_here[c][to] is None)):  # no bump, no slide
                            if part == remaining:
                                out.append((b.moved(c, sq, to), tuple(events) + (("split", c, sq, to),), 0))
                            else:
                                _explore_in_place(extend, b, squares, index, c, sq, to, remaining - part, used, events, parts, X)
                            continue
                        nb = b.copy()
                        nevents = list(events)
                        if not land(nb, c, sq, to, nevents, "split"):
                            continue
                        if part == remaining:
                            out.append((nb.placement(), tuple(nevents), 0))
                        else:
                            extend(nb, remaining - part, used | {(c, index)}, nevents, parts + 1)

        extend(board, steps, frozenset(), [], 0)
        return out

    def _split_simultaneous(self, steps, among, forward_table, p, board) -> list:
        """A2 option: every part is judged on the board before the split; then the pawns
        land one after another (bumps and slides in the order of the parts)."""
        limit = among if among is not None else steps
        X = self.X
        movers = [(c, sq) for c in self.control_of[p] for sq in board.pos[c] if sq < X]
        out = []

        def choose(start: int, remaining: int, chosen: list) -> None:
            if remaining == 0:
                if len(chosen) >= 2:
                    resolve(chosen)
                return
            if len(chosen) == limit:
                return
            for i in range(start, len(movers)):
                c, sq = movers[i]
                for part in range(1, remaining + 1):
                    to = forward_table(part)[c][sq]
                    if to >= 0:
                        choose(i + 1, remaining - part, chosen + [(c, sq, to)])

        def resolve(chosen: list) -> None:
            targets = [to for _, _, to in chosen]
            if len(set(targets)) != len(targets):
                return
            b = board.copy()
            lifted = []
            for i, (c, sq, _) in enumerate(chosen):
                marker = _LIFTED + i  # off-board id, so pawns landing on vacated squares stay distinct
                b.pos[c][b.pos[c].index(sq)] = marker
                b.occ[sq] = -1
                lifted.append(marker)
            events: list = []
            for (c, sq, to), marker in zip(chosen, lifted):
                if to < X and b.occ[to] == c:
                    return
                if not self.land(b, c, marker, to, events, "split"):
                    return
            real = {marker: sq for (c, sq, _), marker in zip(chosen, lifted)}
            events = [(e[0], e[1], real.get(e[2], e[2]), e[3]) if e[0] == "split" else e for e in events]
            out.append((b.placement(), tuple(events), 0))

        choose(0, steps, [])
        return out
