"""Marks on pawns (the rule file's `marks:`): what they are, how they follow pawns through
a move's events, when they end, and how they change what a pawn may do or suffer.

The marks of a game (`State.marks`, `Move.marks`) are one entry per declared mark kind, in
declaration order; each is a sorted tuple of `(colour, square, by)`: a pawn of `colour` on
`square` carries the mark, placed by the player of colour `by`. A square below X holds one
pawn, so `(colour, square)` names it; Start and Home hold many alike pawns (A24), so there an
entry counts one marked pawn of that colour on that square. A variant without marks has
`State.marks == ()` and never runs any of this.

Events (`engine.events`) that concern marks, all of five fields:
  ("mark", colour, square, kind, by)    the pawn on `square` gets mark `kind`, placed by `by`
  ("unmark", colour, square, kind, by)  one mark `kind` is taken off the pawn on `square`
  ("carry", colour, square, kind, by)   the next pawn of `colour` to leave the shared square
                                        `square` (Start, Home) is one that carries `kind`
A pawn leaving a shared square without a "carry" is an unmarked one.

Contract:
- `replay(kinds, layout, marks, events)` is the marks after `events`: every mark follows its
  pawn (steps, slides, bumps to Start, switches, sends) and ends by its lifetime (`until`:
  "removed" never by itself; "leaves_start", "leaves_track", "leaves_safety" when the pawn
  leaves that zone; "moves" when the pawn changes square); a mark of a kind with
  `one_per_player` replaces the placer's earlier one; a mark placed on a pawn of a square
  below X that already carries it replaces it.
- `fit(marks, placement, X)` keeps at most as many marks of a kind on a Start or Home square
  as there are pawns there (every producer of marks ends with it).
- `consequence_marks(kinds, layout, marks, fired, p, move)` places the marks of fired
  consequences (`after: ... mark:`) on the pawns the move bumped or moved, of the colours
  their relation to the mover names (`consequence_events` lists them as "mark" events),
  fitted to the move's placement.
- `turn_begins(kinds, marks, colour)` drops the marks with `until: next_turn` placed by
  `colour` (called when `colour`'s turn begins).
- `MarkedBoard` is a `mechanics.Board` that also holds the marks before the primitive and
  the squares of pawns that may not move (`still`) or may not be moved (`guard`: not
  bumped, landed on, swept, switched, Sorry!'d or sent); `MarkedMechanics` is the
  `Mechanics` that honours them and lets a pawn in Start leave marked or unmarked (two
  results when both kinds are there). The compiler uses them only for variants with marks.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from sorry_rules.engine.events import BUMP, SEND, SLIDE, STEP_KINDS, SWITCH

MARK = "mark"
UNMARK = "unmark"
CARRY = "carry"
MOVES_PAWN = frozenset(STEP_KINDS + (SLIDE, SEND))
#: the events about marks themselves
MARK_EVENTS = frozenset({MARK, UNMARK, CARRY})


class MarkKind(NamedTuple):
    name: str
    label: str
    until: str              # the rule file's `until:` (rules.vocab), see the module contract
    one_per_player: bool    # a player's new mark of this kind replaces their earlier one
    immobile: bool          # a marked pawn cannot move
    untouchable: bool       # a marked pawn cannot be moved: bumped, landed on, swept, switched, Sorry!'d, sent
    symbol: str             # one character shown beside a marked pawn


def empty(kinds) -> tuple:
    return tuple(() for _ in kinds)


def zone(layout, c: int, sq: int) -> str:
    """"start", "home", "track" or "safety": where a colour-c pawn on `sq` is."""
    if sq < layout.T:
        return "track"
    if sq < layout.X:
        return "safety"
    return "home" if sq == layout.home[c] else "start"


def _ends(kind: MarkKind, layout, c: int, frm: int, to: int) -> bool:
    until = kind.until
    if until in ("removed", "next_turn"):
        return False
    if until == "moves":
        return frm != to
    left = until[len("leaves_"):]
    return zone(layout, c, frm) == left and zone(layout, c, to) != left


class _Replay:
    """Working lists of entries per kind while events are replayed."""

    def __init__(self, kinds, layout, marks):
        self.kinds, self.layout, self.marks = kinds, layout, marks
        self.entries = [list(m) for m in marks]
        self.carry: list = []  # (kind index, colour, square, by) announced for the next pawn to leave
        self.changed = False  # whether an entry was moved, ended, placed or taken off

    def move(self, c: int, frm: int, to: int) -> None:
        shared = frm >= self.layout.X
        for k, entries in enumerate(self.entries):
            if not entries:
                continue
            if shared:
                wanted = [x for x in self.carry if x[0] == k and x[1] == c and x[2] == frm]
                if not wanted:
                    continue
                moving = []
                for _ in wanted:
                    for entry in entries:
                        if entry[0] == c and entry[1] == frm and entry not in moving:
                            moving.append(entry)
                            break
            else:
                moving = [entry for entry in entries if entry[0] == c and entry[1] == frm]
            for entry in moving:
                self.changed = True
                entries.remove(entry)
                if not _ends(self.kinds[k], self.layout, c, frm, to):
                    entries.append((c, to, entry[2]))
        if shared:
            self.carry = [x for x in self.carry if not (x[1] == c and x[2] == frm)]

    def switch(self, c: int, a: int, o: int, b: int) -> None:
        for k, entries in enumerate(self.entries):
            kind = self.kinds[k]
            swapped = []
            for entry in entries:
                if entry[0] == c and entry[1] == a:
                    if not _ends(kind, self.layout, c, a, b):
                        swapped.append((c, b, entry[2]))
                elif entry[0] == o and entry[1] == b:
                    if not _ends(kind, self.layout, o, b, a):
                        swapped.append((o, a, entry[2]))
                else:
                    swapped.append(entry)
            self.changed = self.changed or swapped != entries
            self.entries[k] = swapped

    def mark(self, c: int, sq: int, k: int, by: int) -> None:
        self.changed = True
        entries = self.entries[k]
        if self.kinds[k].one_per_player:
            entries[:] = [e for e in entries if e[2] != by]
        if sq < self.layout.X:
            entries[:] = [e for e in entries if not (e[0] == c and e[1] == sq)]
        entries.append((c, sq, by))

    def unmark(self, c: int, sq: int, k: int) -> None:
        entries = self.entries[k]
        for entry in entries:
            if entry[0] == c and entry[1] == sq:
                self.changed = True
                entries.remove(entry)
                return

    def result(self) -> tuple:
        """The marks after the events: the marks before themselves when no entry changed."""
        if not self.changed:
            return self.marks
        return tuple(tuple(sorted(entries)) for entries in self.entries)


def replay(kinds, layout, marks: tuple, events) -> tuple:
    """The marks after `events` (see the module contract); `marks` itself when no entry changes."""
    if not events or not kinds:
        return marks
    work = _Replay(kinds, layout, marks)
    for e in events:
        kind = e[0]
        if kind in MOVES_PAWN:
            work.move(e[1], e[2], e[3])
        elif kind == BUMP:
            work.move(e[1], e[2], layout.start[e[1]])
        elif kind == SWITCH:
            work.switch(e[1], e[2], e[3], e[4])
        elif kind == MARK:
            work.mark(e[1], e[2], e[3], e[4])
        elif kind == UNMARK:
            work.unmark(e[1], e[2], e[3])
        elif kind == CARRY:
            work.carry.append((e[3], e[1], e[2], e[4]))
    return work.result()


def fit(marks: tuple, placement, exclusive: int) -> tuple:
    """`marks` with at most as many entries of each kind on a Start or Home square as there
    are pawns there (marking a pawn there that already carries the mark changes nothing);
    `marks` itself when none is dropped."""
    out, dropped = [], False
    for entries in marks:
        seen: dict = {}
        kept = []
        for entry in entries:
            c, sq = entry[0], entry[1]
            if sq >= exclusive:
                seen[(c, sq)] = seen.get((c, sq), 0) + 1
                if seen[(c, sq)] > placement[c].count(sq):
                    continue
            kept.append(entry)
        if len(kept) != len(entries):
            dropped = True
            out.append(tuple(kept))
        else:
            out.append(entries)
    return tuple(out) if dropped else marks


def turn_begins(kinds, marks: tuple, colour: int) -> tuple:
    """`marks` without those of kinds that last until `colour`'s next turn, placed by `colour`:
    `marks` itself when none ends (so that caches keyed on the marks' identity keep hitting)."""
    out = None
    for k, (kind, entries) in enumerate(zip(kinds, marks)):
        if kind.until == "next_turn" and any(e[2] == colour for e in entries):
            if out is None:
                out = list(marks)
            out[k] = tuple(e for e in entries if e[2] != colour)
    return marks if out is None else tuple(out)


def _pawns_of(layout, events, which: str) -> list:
    """(colour, square after the move) of the pawns the move bumped, or of those it moved
    (by their own steps, slides included)."""
    if which == "bumped":
        return [(e[1], layout.start[e[1]]) for e in events if e[0] == BUMP]
    ends: dict = {}
    for e in events:
        if e[0] in STEP_KINDS:
            ends[(e[1], e[3])] = (e[1], e[3])
        elif e[0] == SLIDE and (e[1], e[2]) in ends:
            del ends[(e[1], e[2])]
            ends[(e[1], e[3])] = (e[1], e[3])
    return list(ends.values())


def consequence_events(layout, fired, p: int, events) -> tuple:
    """The "mark" events of the marks the fired consequences place (by player `p`) on the
    pawns of a move with `events` they name, in file order."""
    return tuple((MARK, c, sq, k, p) for consequence in fired for k, which, only in consequence.marks
                 for c, sq in _pawns_of(layout, events, which) if only is None or only[p][c])


def consequence_marks(kinds, layout, marks: tuple, fired, p: int, events: tuple, placement) -> tuple:
    """`marks` with the marks the fired consequences place (by player `p`) on the pawns of
    the move of `events` they name, in file order; `placement` the placement after it."""
    events = consequence_events(layout, fired, p, events)
    return fit(replay(kinds, layout, marks, events), placement, layout.X) if events else marks


def count_on(marks: tuple, k: int, c: int, sq: int) -> int:
    """How many pawns of colour c on `sq` carry mark k."""
    return sum(1 for e in marks[k] if e[0] == c and e[1] == sq)


def shared_kinds(marks: tuple, c: int, sq: int, pawns: int) -> list:
    """The distinct kinds of pawn among `pawns` pawns of colour c on the shared square `sq`:
    each a tuple of (kind index, by) of the marks such a pawn carries. Marks there are
    counted per kind (a pawn with mark a may or may not carry mark b)."""
    choices = []
    for k, entries in enumerate(marks):
        bys = sorted(e[2] for e in entries if e[0] == c and e[1] == sq)
        if not bys:
            continue
        options = [(k, bys[0])]
        if len(bys) < pawns:
            options.append(None)
        choices.append(options)
    if not choices:
        return [()]
    return [tuple(x for x in combo if x is not None) for combo in product(*choices)]


NO_SHIELDS = (frozenset(), frozenset())


def shielding(kinds) -> bool:
    """Whether a mark of one of `kinds` may hold a pawn (immobile) or guard it (untouchable)."""
    return any(kind.immobile or kind.untouchable for kind in kinds)


def shields(kinds, marks: tuple, X: int) -> tuple[frozenset, frozenset]:
    """(still, guard): the (colour, square) of pawns that may not move and of those that may
    not be moved, on squares below X. Pawns in Start and Home are not in them: a square there
    holds marked and unmarked pawns alike, judged kind by kind (the marks a pawn that leaves
    carries)."""
    if not any(marks):
        return NO_SHIELDS
    still, guard = set(), set()
    for kind, entries in zip(kinds, marks):
        if kind.immobile:
            still.update((e[0], e[1]) for e in entries if e[1] < X)
        if kind.untouchable:
            guard.update((e[0], e[1]) for e in entries if e[1] < X)
    return frozenset(still), frozenset(guard)
