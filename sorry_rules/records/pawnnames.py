"""Pawn names (R1-R4) followed through a game, and moves in words with them.

The engine knows where a colour's pawns are (`State.placement`), not which pawn is which:
front ends name them here. At the start of a game (or of a position) a colour's pawns are
numbered 1, 2, ... in the order of its placement; each move then carries the names along
its events (`engine.events`: a step, slide or switch moves the pawn on its `from` square, a
bump sends the pawn it hit back to Start, ...), so a pawn keeps its name for the whole game:
R2 that left Start third is R2 when it gets Home. A pawn leaving a square that holds
several (Start, Home) is the lowest-numbered one there.

Contract: `PawnNames.start(game, placement, labels)` names a placement; `after(move,
placement)` returns the names after `move` (self is never changed), reconciled with the
`placement` the move led to, so the squares named are always exactly the placement's
(events the names cannot follow only cost stability, never correctness; `placement` None
gives the names as the events alone carry them). `describe(move)`
words a move as `engine.describe.describe_move` does, a pawn said by its name ("R2
track:4 -> track:11, bumps B1 (track:11)"). Track boards only (grid chips have no names).
"""

from __future__ import annotations

from sorry_rules.engine.describe import again_words, describe_events, describe_move
from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH


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
    """The square of every named pawn: `where[c][i]` is where pawn i+1 of colour c is."""

    def __init__(self, game, where, labels):
        self.game = game
        self.where = tuple(tuple(squares) for squares in where)
        self.labels = tuple(labels)

    @classmethod
    def start(cls, game, placement, labels=None) -> "PawnNames":
        """Names for `placement` (a colour's pawns numbered in its placement's order)."""
        return cls(game, placement, labels or initials(game.colours))

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
    def after(self, move, placement) -> "PawnNames":
        where = [list(squares) for squares in self.where]
        _carry(where, move.events or (), self.game.layout.start)
        return PawnNames(self.game, _reconciled(where, placement), self.labels)

    # ---- words ------------------------------------------------------------------------------
    def describe(self, move) -> str:
        """`move` in words with pawn names (moves that move no pawn as the engine says them)."""
        if move.kind in ("forfeit", "pass", "discard", "redraw", "action") or not move.events:
            return describe_move(self.game, move)
        text = self.describe_events(move.events)
        return text + again_words(self.game) if move.draw_again else text

    def describe_events(self, events) -> str:
        """'R2 track:12 -> track:19, bumps B1 (track:19)' of a move's events, in order."""
        return describe_events(self.game, events, _Following(self))


class _Following:
    """The names of `engine.describe.describe_events`, carried along the events it words."""

    def __init__(self, names: PawnNames):
        self.names = names
        self.where = [list(squares) for squares in names.where]  # followed event by event
        self.moved: dict = {}  # per colour, the pawn its last step moved

    def pawn(self, c: int, sq: int, prefer=None, avoid=None) -> str:
        i = _pick(self.where[c], sq, prefer, avoid)
        return f"{self.names.labels[c]}?" if i is None else self.names.name(c, i)

    def slider(self, c: int, frm: int) -> str:
        return self.pawn(c, frm, self.moved.get(c))

    def bumped(self, c: int, at: int, subject: bool) -> str:
        return self.pawn(c, at, avoid=self.moved.get(c))

    def follow(self, event) -> None:
        _carry(self.where, (event,), self.names.game.layout.start, self.moved)


def _pick(squares: list, sq: int, prefer, avoid=None):
    """The index of a pawn on `sq`: `prefer` if it is there, else the lowest index other than
    `avoid` (`avoid` itself when it is the only one); None when no pawn is there."""
    found = [i for i, at in enumerate(squares) if at == sq]
    if not found:
        return None
    if prefer in found:
        return prefer
    others = [i for i in found if i != avoid]
    return others[0] if others else found[0]


def _carry(where: list, events, start: tuple, moved: dict | None = None) -> None:
    """Move the names in `where` (per colour, a list of squares) along `events`; `moved`
    remembers, per colour, the pawn its last step moved (a slide takes that pawn along, a
    bump on its square hits the other one)."""
    moved = {} if moved is None else moved
    for event in events:
        kind = event[0]
        if kind in STEP_KINDS or kind == SLIDE or kind == "send":
            _, c, frm, to = event
            i = _pick(where[c], frm, moved.get(c) if kind == SLIDE else None)
            if i is not None:
                where[c][i] = to
                if kind != "send":
                    moved[c] = i
        elif kind == BUMP:
            _, c, at = event
            i = _pick(where[c], at, None, avoid=moved.get(c))
            if i is not None:
                where[c][i] = start[c]
        elif kind == SWITCH:
            _, c, a, o, b = event
            i, j = _pick(where[c], a, None), _pick(where[o], b, None)
            if i is not None and j is not None:
                where[c][i], where[o][j] = b, a
                moved[c] = i


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
