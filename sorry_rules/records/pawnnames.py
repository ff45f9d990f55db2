"""Pawn names (R1-R4) followed through a game, and moves in words with them.

The engine knows where a colour's pawns are (`State.placement`), not which pawn is which:
front ends name them here. At the start of a game (or of a position) a colour's pawns are
numbered 1, 2, ... in the order of its placement; each move then carries the names along
its events (`engine.events`: a step, slide or switch moves the pawn on its `from` square, a
bump sends the pawn it hit back to Start, ...), so a pawn keeps its name for the whole game:
R2 that left Start third is R2 when it gets Home. Marks (`engine.marks`) follow the names
too: a pawn leaving a square that holds several (Start, Home) is the lowest-numbered one
there that carries exactly the marks its move's "carry" events name (none: an unmarked one),
so where a marked pawn and an unmarked one may both leave Start, each move names its own.

Contract: `PawnNames.start(game, placement, labels, marks)` names a placement (`marks` as
`State.marks`); `after(move, placement, marks)` returns the names after `move` (self is
never changed), reconciled with the `placement` and the `marks` of the state it led to (the
consequences' marks included; None: the move's own `Move.marks`), so the squares named are
always exactly the placement's
(events the names cannot follow only cost stability, never correctness; `placement` None
gives the names as the events alone carry them). `describe(move)`
words a move as `engine.describe.describe_move` does, a pawn said by its name ("R2
track:4 -> track:11, bumps B1 (track:11)"). Track boards only (grid chips have no names).
"""

from __future__ import annotations

from sorry_rules.engine.describe import again_words, describe_events, describe_move
from collections import Counter

from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH
from sorry_rules.engine.marks import CARRY, MARK, SEND, UNMARK


def initials(colours, after_number: str = ".") -> tuple:
    """One label per colour for pawn names: the initials (upper case) when they differ, else
    the first two letters, else numbers, each followed by `after_number` (`1.`, `2.` ...:
    names then read `1.3`)."""
    for length in (1, 2):
        labels = tuple(name[:length].capitalize() for name in colours)
        if len(set(labels)) == len(labels) and all(labels):
            return labels
    return tuple(f"{i + 1}{after_number}" for i in range(len(colours)))


class PawnNames:
    """The square of every named pawn: `where[c][i]` is where pawn i+1 of colour c is, and
    `carrying[c][i]` the mark kinds (indexes of `game.marks`) it carries."""

    def __init__(self, game, where, labels, carrying=None):
        self.game = game
        self.where = tuple(tuple(squares) for squares in where)
        self.labels = tuple(labels)
        self.carrying = _unmarked(self.where) if carrying is None else carrying

    @classmethod
    def start(cls, game, placement, labels=None, marks=()) -> "PawnNames":
        """Names for `placement` (a colour's pawns numbered in its placement's order); on a
        square of several pawns the lowest-numbered carry its `marks`."""
        names = cls(game, placement, labels or initials(game.colours))
        if any(marks):
            names.carrying = _fitted(names.where, names.carrying, marks, set())
        return names

    # ---- reading ------------------------------------------------------------------------
    def name(self, c: int, i: int) -> str:
        return f"{self.labels[c]}{i + 1}"

    def at(self, c: int, sq: int) -> list:
        """The names of colour c's pawns on square `sq`, lowest number first."""
        return [self.name(c, i) for i, at in enumerate(self.where[c]) if at == sq]

    def on(self, c: int, sq: int) -> str:
        """The name of colour c's pawn on `sq` (the lowest-numbered when several are there)."""
        names = self.at(c, sq)
        return names[0] if names else f"{self.labels[c]}?"

    def by_square(self) -> dict:
        """{square: name} of the pawns on squares that hold one pawn (the track, the safety zones)."""
        layout = self.game.layout
        return {sq: self.name(c, i) for c, squares in enumerate(self.where) for i, sq in enumerate(squares) if sq < layout.X}

    # ---- following a move -----------------------------------------------------------------
    def after(self, move, placement, marks=None) -> "PawnNames":
        tracker = _Tracker(self)
        for event in move.events or ():
            tracker.follow(event)
        where = _reconciled(tracker.where, placement)
        carrying = tuple(tuple(kinds) if len(kinds) == len(squares) else (frozenset(),) * len(squares)
                         for kinds, squares in zip(tracker.carrying, where))
        if self.game.marks:
            arrived = {(c, i) for c, squares in enumerate(where) for i, sq in enumerate(squares)
                       if c >= len(self.where) or i >= len(self.where[c]) or self.where[c][i] != sq}
            carrying = _fitted(where, carrying, move.marks if marks is None else marks, arrived)
        return PawnNames(self.game, where, self.labels, carrying)

    # ---- words ------------------------------------------------------------------------------
    def describe(self, move) -> str:
        """`move` in words with pawn names (moves that move no pawn as the engine says them)."""
        if move.kind == "forfeit" and move.events:  # what a forfeit's consequences do, pawns by their names
            return describe_move(self.game, move._replace(events=())) + "; then " + self.describe_events(move.events)
        if move.kind in ("forfeit", "pass", "discard", "redraw", "action") or not move.events:
            return describe_move(self.game, move)
        text = self.describe_events(move.events)
        return text + again_words(self.game) if move.draw_again else text

    def describe_events(self, events) -> str:
        """'R2 track:12 -> track:19, bumps B1 (track:19)' of a move's events, in order."""
        return describe_events(self.game, events, _Following(self))


class _Tracker:
    """The names followed event by event: where each named pawn is (`where`), the marks it
    carries (`carrying`), the pawn each colour's last step moved (a slide takes that pawn
    along, a bump on its square hits the other one), and the mark kinds the next pawn of a
    colour to leave a shared square carries ("carry" events)."""

    def __init__(self, names: PawnNames):
        self.start, self.shared = names.game.layout.start, names.game.layout.X
        self.marked = bool(names.game.marks)
        self.where = [list(squares) for squares in names.where]
        self.carrying = [list(kinds) for kinds in names.carrying]
        self.moved: dict = {}
        self.leaving: dict = {}

    def index(self, c: int, sq: int, prefer=None, avoid=None):
        """The index of the colour-c pawn on `sq` an event concerns (see `_pick`); on a shared
        square, one carrying exactly the kinds the "carry" events before it named."""
        fits = None
        if self.marked and sq >= self.shared:
            wanted = frozenset(self.leaving.get(c, ()))
            fits = lambda i: self.carrying[c][i] == wanted  # noqa: E731
        return _pick(self.where[c], sq, prefer, avoid, fits)

    def follow(self, event) -> None:
        kind = event[0]
        if kind == CARRY:
            self.leaving.setdefault(event[1], set()).add(event[3])
        elif kind in STEP_KINDS or kind == SLIDE or kind == SEND:
            _, c, frm, to = event
            i = self.index(c, frm, self.moved.get(c) if kind == SLIDE else None)
            if kind in STEP_KINDS:
                self.leaving.pop(c, None)
            if i is not None:
                self.where[c][i] = to
                if kind != SEND:
                    self.moved[c] = i
        elif kind == BUMP:
            _, c, at = event
            i = self.index(c, at, None, avoid=self.moved.get(c))
            if i is not None:
                self.where[c][i] = self.start[c]
        elif kind == SWITCH:
            _, c, a, o, b = event
            i, j = self.index(c, a), self.index(o, b)
            if i is not None and j is not None:
                self.where[c][i], self.where[o][j] = b, a
                self.carrying[c][i], self.carrying[o][j] = self.carrying[o][j], self.carrying[c][i]
                self.moved[c] = i
        elif (kind == MARK or kind == UNMARK) and event[2] < self.shared:
            i = self.index(event[1], event[2])
            if i is not None:
                kinds = self.carrying[event[1]][i]
                self.carrying[event[1]][i] = kinds | {event[3]} if kind == MARK else kinds - {event[3]}


class _Following:
    """The names of `engine.describe.describe_events`, carried along the events it words."""

    def __init__(self, names: PawnNames):
        self.names = names
        self.tracker = _Tracker(names)

    def pawn(self, c: int, sq: int, prefer=None, avoid=None) -> str:
        i = self.tracker.index(c, sq, prefer, avoid)
        return f"{self.names.labels[c]}?" if i is None else self.names.name(c, i)

    def slider(self, c: int, frm: int) -> str:
        return self.pawn(c, frm, self.tracker.moved.get(c))

    def bumped(self, c: int, at: int, subject: bool) -> str:
        return self.pawn(c, at, avoid=self.tracker.moved.get(c))

    def follow(self, event) -> None:
        self.tracker.follow(event)


def _pick(squares: list, sq: int, prefer, avoid=None, fits=None):
    """The index of a pawn on `sq`: among those `fits` accepts (all when none does), `prefer`
    if it is there, else the lowest index other than `avoid` (`avoid` itself when it is the
    only one); None when no pawn is there."""
    found = [i for i, at in enumerate(squares) if at == sq]
    if not found:
        return None
    if fits is not None:
        found = [i for i in found if fits(i)] or found
    if prefer in found:
        return prefer
    others = [i for i in found if i != avoid]
    return others[0] if others else found[0]


def _unmarked(where) -> tuple:
    return tuple((frozenset(),) * len(squares) for squares in where)


def _fitted(where, carrying, marks, arrived) -> tuple:
    """The mark kinds each named pawn carries where `marks` (as `State.marks`) are: on a
    square of one pawn, its marks; on a shared square (Start, Home), as many pawns carry a
    kind as `marks` count there: those that carried it already first, then those the move
    brought there (`arrived`: (colour, index)), then the lowest-numbered."""
    out = [[set() for _ in squares] for squares in where]
    for k, entries in enumerate(marks):
        for (c, sq), n in Counter((c, sq) for c, sq, _ in entries).items():
            if c >= len(where):
                continue
            on = sorted((i for i, at in enumerate(where[c]) if at == sq),
                        key=lambda i: (k not in carrying[c][i], (c, i) not in arrived, i))
            for i in on[:n]:
                out[c][i].add(k)
    return tuple(tuple(frozenset(kinds) for kinds in row) for row in out)


def _reconciled(where: list, placement) -> tuple:
    """`where` made to name exactly the squares of `placement`: pawns on a square the
    placement still has keep it; the others take the remaining squares in order."""
    if placement is None:
        return tuple(tuple(squares) for squares in where)
    out = []
    for c, squares in enumerate(placement):
        mine = list(where[c]) if c < len(where) else []
        left = list(squares)
        kept: list = [None] * len(mine)
        for i, sq in enumerate(mine):
            if sq in left:
                left.remove(sq)
                kept[i] = sq
        for i in range(len(kept)):
            if kept[i] is None and left:
                kept[i] = left.pop(0)
        kept = [sq for sq in kept if sq is not None] + left
        out.append(tuple(kept[:len(squares)]))
    return tuple(out)
