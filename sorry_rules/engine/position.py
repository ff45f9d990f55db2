"""The one position layout of race-track games: flat integer lists changed in place.

A `Position` holds, per colour, the sorted list of its pawns' squares (`pos[c]`: a square
repeats once per pawn there, so a colour's pawns are alike, A24) and, per square, the colour
of the pawn on it (`occ[sq]`, -1 when empty). On a board whose squares hold one pawn each
(`layout.stacked` false: Sorry!), squares below `X` are exclusive; squares from `X` on (Home,
Start) hold any number of pawns and always read -1 in `occ`, so a landing reads one list
entry whatever the square. On a board where squares may hold several pawns
(`engine.squares`), `cnt[sq]` counts the pawns on every square below `layout.counted` (X, or
the Homes too where a Home holds fewer pawns than its colour has) and `occ[sq]` is the lowest
colour among them (-1: empty); `pawns_on(sq)` lists them by colour. `marks` are the
marks on its pawns (`State.marks`), with `still` and `guard` the (colour, square) of pawns
that may not move and may not be moved (`engine.marks.shields`).

A move is played on it by `make(events)` and taken back by `unmake(events, undo)`:
python-chess's push/pop. The events (`engine.events`) are the move's record, in order: a
step, send or slide moves its pawn `from -> to`, a bump sends its pawn to its Start, a
switch trades two pawns' squares; the mark events change the marks (`engine.marks.replay`).

Contract: `relocate` is the only writer of `pos`, `occ` and `cnt` (a square is cleared only
when the last pawn of its colour on it leaves it: a bump follows the step that lands on its
square, and a simultaneous split's part may land on the square a later part leaves), but for the
one-step shortcut of `make` and `unmake` and a switch where squares hold one pawn; `make` then
`unmake` with what `make` returned gives back exactly the position before; `placement()` is
the canonical placement (per colour a sorted tuple). `key_of(weights, events)` is the exact
change of the placement key (`placement_weights`) a move makes: two moves from one position
give the same placement exactly when their keys are equal.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SPLIT, SWITCH
from sorry_rules.engine import marks as _marks


class Position:
    """A mutable position (module contract). `layout` is the board kind's layout (`X`,
    `start`, `home`); `kinds` the game's mark kinds (() without marks)."""

    __slots__ = ("pos", "occ", "cnt", "plain", "marks", "marked", "still", "guard", "X", "start", "home", "kinds",
                 "shielding", "layout", "moved", "bumped", "followed", "listed", "counters")

    def __init__(self, layout, placement, kinds: tuple = (), marks: tuple = ()):
        self.layout = layout
        self.X = X = layout.X
        self.start = layout.start
        self.home = layout.home
        self.kinds = kinds
        self.shielding = _marks.shielding(kinds)
        occ = [-1] * layout.size
        self.cnt = None
        if getattr(layout, "stacked", False):
            counted = layout.counted
            cnt = self.cnt = [0] * counted
            for c in range(len(placement) - 1, -1, -1):  # the lowest colour last: it is the one `occ` shows
                for sq in placement[c]:
                    if sq < counted:
                        cnt[sq] += 1
                        occ[sq] = c
        else:
            for c, squares in enumerate(placement):
                for sq in squares:
                    if sq < X:
                        occ[sq] = c
        self.occ = occ
        self.plain = self.cnt is None  # squares hold one pawn each: `make`'s one-step shortcut applies
        self.pos = [list(squares) for squares in placement]
        self.moved = {}  # {(colour, square): pawns} a move being followed moved there (`Table` sets it, `events.moved_to`)
        self.bumped = {}  # {(colour, its Start): pawns} a move being followed sent back there (`events.bumped_to`)
        #: the move being followed as the facts of a move read it ({"@events": ..., "@card": ...}), or None
        self.followed = None
        self.counters = ()  # State.counters as they stand (a card's guards read them; the `Table` keeps them)
        self.set_marks(marks if kinds else ())
        #: scratch notes of the card effects being listed on this position (`compiler.plays`:
        #: whether an alternative of a choice listed an option); never part of the position
        self.listed: dict = {}

    def set_marks(self, marks: tuple) -> None:
        """Put `marks` (as `State.marks`) on the pawns and work out their shields."""
        self.marks = marks
        self.marked = frozenset((e[0], e[1]) for entries in marks for e in entries)
        self.still, self.guard = _marks.shields(self.kinds, marks, self.X) if marks and self.shielding else _marks.NO_SHIELDS

    def touches(self, events: tuple) -> bool:
        """Whether `events` may change the marks: a mark event, or a marked pawn moved."""
        marked = self.marked
        for e in events:
            kind = e[0]
            if kind in _marks.MARK_EVENTS:
                return True
            if marked and ((e[1], e[2]) in marked or (kind == SWITCH and (e[3], e[4]) in marked)):
                return True
        return False

    def marks_after(self, events: tuple) -> tuple:
        """The marks once `events` are played (the position is unchanged)."""
        if not self.touches(events):
            return self.marks
        self._move_pawns(events)
        try:
            return self._marks_of(events)
        finally:
            self._unmove_pawns(events)

    def _marks_of(self, events: tuple) -> tuple:
        """The marks after `events`, the pawns already moved by them (`make`'s marks)."""
        return _marks.fit(_marks.replay(self.kinds, self.layout, self.marks, events), self.pos, self.X)

    def placement(self) -> tuple:
        return tuple(map(tuple, self.pos))

    def copy(self) -> "Position":
        """A position of its own with the same pawns and marks."""
        other = Position.__new__(Position)
        other.layout, other.X, other.start, other.home, other.kinds = self.layout, self.X, self.start, self.home, self.kinds
        other.shielding = self.shielding
        other.pos = [squares[:] for squares in self.pos]
        other.occ = self.occ[:]
        other.cnt = None if self.cnt is None else self.cnt[:]
        other.plain, other.moved, other.bumped, other.counters = self.plain, self.moved, self.bumped, self.counters
        other.followed = self.followed
        other.marks, other.marked, other.still, other.guard = self.marks, self.marked, self.still, self.guard
        other.listed = {}
        return other

    def relocate(self, c: int, frm: int, to: int, back: bool = False) -> None:
        """Colour c's pawn on `frm` to `to`. `back`: a split's part taken back (`unmake`, event
        by event from the last), whose pawn may leave a square that another colour's pawn has
        come back to (A2's simultaneous split: a part may land where another part leaves)."""
        squares = self.pos[c]
        squares[squares.index(frm)] = to
        squares.sort()
        occ, X, cnt = self.occ, self.X, self.cnt
        if cnt is None:
            if frm < X and occ[frm] == c and frm not in squares:  # a split's part may land where a later part leaves
                occ[frm] = next((o for o, others in enumerate(self.pos) if frm in others), -1) if back else -1
            if to < X:
                occ[to] = c
            return
        X = len(cnt)  # the counted squares
        if frm < X:
            cnt[frm] -= 1
            if not cnt[frm]:
                occ[frm] = -1
            elif occ[frm] == c and frm not in squares:
                occ[frm] = next(o for o, others in enumerate(self.pos) if frm in others)
        if to < X:
            cnt[to] += 1
            if occ[to] < 0 or c < occ[to]:
                occ[to] = c

    def pawns_on(self, sq: int) -> list:
        """[(colour, pawns), ...] on square `sq`, by colour (on any board)."""
        if self.occ[sq] < 0 and (sq < self.X or self.cnt is not None and sq < len(self.cnt)):
            return []
        return [(c, n) for c, squares in enumerate(self.pos) if (n := squares.count(sq))]

    def make(self, events: tuple):
        """Play `events` in place; returns what `unmake` needs (the marks before, when the
        game has marks)."""
        if len(events) == 1 and self.plain and len(events[0]) == 4:  # one pawn's step: the common move
            _, c, frm, to = events[0]
            squares = self.pos[c]
            squares[squares.index(frm)] = to
            squares.sort()
            occ, X = self.occ, self.X
            if frm < X:
                occ[frm] = -1
            if to < X:
                occ[to] = c
        else:
            self._move_pawns(events)
        if not self.kinds:
            return None
        before = self.marks
        if self.touches(events):
            marks = self._marks_of(events)
            if marks is not before:
                self.set_marks(marks)
        return before

    def unmake(self, events: tuple, undo=None) -> None:
        """Take back `make(events)`, given what it returned."""
        if len(events) == 1 and self.plain and len(events[0]) == 4:  # one pawn's step: the common move
            _, c, frm, to = events[0]
            squares = self.pos[c]
            squares[squares.index(to)] = frm
            squares.sort()
            occ, X = self.occ, self.X
            if to < X:
                occ[to] = -1
            if frm < X:
                occ[frm] = c
        else:
            self._unmove_pawns(events)
        if self.kinds and undo is not None and undo is not self.marks:
            self.set_marks(undo)

    def _move_pawns(self, events: tuple) -> None:
        """The pawns of `events` moved (`make` without the marks)."""
        relocate = self.relocate
        for e in events:
            if len(e) == 4:  # a step, a send or a slide
                relocate(e[1], e[2], e[3])
            elif e[0] == BUMP:
                relocate(e[1], e[2], self.start[e[1]])
            elif e[0] == SWITCH:
                self._switch(e[1], e[2], e[3], e[4])

    def _unmove_pawns(self, events: tuple) -> None:
        """`_move_pawns(events)` taken back."""
        relocate = self.relocate
        for e in reversed(events):
            if len(e) == 4:
                relocate(e[1], e[3], e[2], e[0] == SPLIT)
            elif e[0] == BUMP:
                relocate(e[1], self.start[e[1]], e[2])
            elif e[0] == SWITCH:
                self._switch(e[1], e[4], e[3], e[2])

    def _switch(self, c: int, a: int, o: int, b: int) -> None:
        """Colour c's pawn on `a` and colour o's on `b` trade squares (both below X)."""
        if self.cnt is not None:
            self.relocate(c, a, b)
            self.relocate(o, b, a)
            return
        mine, theirs = self.pos[c], self.pos[o]
        mine[mine.index(a)] = b
        mine.sort()
        theirs[theirs.index(b)] = a
        theirs.sort()
        self.occ[b] = c
        self.occ[a] = o

    def after(self, events: tuple) -> tuple:
        """(placement, marks) once `events` are played; the position itself is unchanged."""
        undo = self.make(events)
        placement, marks = self.placement(), self.marks
        self.unmake(events, undo)
        return placement, marks


def placement_weights(layout, pawns: int) -> tuple:
    """weights[c][sq]: what one colour-c pawn on sq adds to a placement's key. Every colour
    has a field per square below X wide enough for the own pawns it may hold (one bit where
    a square holds one pawn) and two counters wide enough for `pawns` (its Home, its Start),
    so the key is exact."""
    width = pawns.bit_length() + 1
    hold = getattr(layout, "hold", None)
    offsets, at = [], 0
    for sq in range(layout.X):
        offsets.append(at)
        at += 1 if hold is None else max(1, min(hold[sq], pawns).bit_length())
    field = at + 2 * width  # Home's counter is wide enough for every pawn, whatever a Home holds
    weights = []
    for c in range(layout.C):
        row = [0] * layout.size
        for sq in range(layout.X):
            row[sq] = 1 << (c * field + offsets[sq])
        row[layout.home[c]] = 1 << (c * field + at)
        row[layout.start[c]] = 1 << (c * field + at + width)
        weights.append(tuple(row))
    return tuple(weights)


def key_of(weights: tuple, start: tuple, events: tuple) -> int:
    """The exact change of the placement key that `events` make (module contract)."""
    key = 0
    for e in events:
        if len(e) == 4:
            row = weights[e[1]]
            key += row[e[3]] - row[e[2]]
        elif e[0] == BUMP:
            row = weights[e[1]]
            key += row[start[e[1]]] - row[e[2]]
        elif e[0] == SWITCH:
            mine, theirs = weights[e[1]], weights[e[3]]
            key += mine[e[4]] - mine[e[2]] + theirs[e[2]] - theirs[e[4]]
    return key
