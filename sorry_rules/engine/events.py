"""The events of a move: what happened, in order, as cheap tuples (they are built on the
engine's hot path, so they stay tuples, not objects).

Every event is a tuple whose first element is its kind:

  (step, colour, from, to)        the moving pawn's own move; `step` is one of STEP_KINDS:
                                  "enter" (Start -> start exit), "forward", "backward",
                                  "split" (one part of a split), "sorry" (Start -> the
                                  square of the pawn it replaces), "move" (a pawn
                                  moved straight to a destination, `engine.pawns`)
  ("bump", colour, at)            a pawn sent back to its Start from square `at`; listed
                                  right after the step, slide or Sorry! that caused it, but
                                  a pawn of the mover's own colour that a landing bumps
                                  (`rules.bump` own) right before the step
  ("slide", colour, from, to)     a pawn taking a slide from its triangle to its end circle
  ("switch", colour_a, square_a, colour_b, square_b)
                                  two pawns swap squares; colour_a is the mover's

  ("send", colour, from, to)      a pawn put on a square other than its Start by another's
                                  move (`engine.pawns`; sent to Start it is a "bump")
  ("mark" | "unmark" | "carry", colour, square, mark kind, by)
                                  marks on pawns (`engine.marks`)

Squares are the board kind's integer squares (see `sorry_rules.engine.board`).

Contract: a move's `events` list its own steps first-to-last with their consequences
(bumps, slides) in the order they happened; replaying them from the position before the
move gives the move's placement. New kinds (issue 12's counters and marks, issue 13's
chips) are added here with their fields, and readers skip kinds they do not know.
"""

from __future__ import annotations

STEP_KINDS = ("enter", "forward", "backward", "split", "sorry", "move")
SPLIT = "split"
BUMP = "bump"
SLIDE = "slide"
SWITCH = "switch"
SEND = "send"
KINDS = STEP_KINDS + (BUMP, SLIDE, SWITCH)


def moved_pawns(events) -> set:
    """(colour, square before the move) of every pawn moved by its own step or a switch it
    made (not pawns bumped, slid or switched with)."""
    return {(e[1], e[2]) for e in events if e[0] in STEP_KINDS or e[0] == SWITCH}


def moved_to(start: tuple, events, before=None) -> dict:
    """{(colour, square): how many}: the pawns the move moved by their own step (or a switch
    they made) that stand where their count ended (R16: a move ends on the square its count
    reaches, before any slide): a pawn that then slid, or that a later event sent back, is not
    there any more and is left out; a pawn that was on the square before is not counted. What
    the selector item `moved` chooses (`engine.pawns`).

    A pawn leaving a square where the move brought a pawn of its colour is that pawn, unless
    the step is a split's part (each part moves a pawn of its own) and a pawn that stood there
    before the move still does (a square that holds several pawns): `before(colour, square)`
    says how many stood there (None: not known; where a square holds one pawn it never matters)."""
    where: dict = {}  # (colour, square) -> pawns of the move whose count ended there and that are still there
    stood: dict | None = None if before is None else {}  # (colour, square) -> pawns there before the move, still there
    for e in events:
        kind = e[0]
        if kind in STEP_KINDS or kind == SWITCH:
            c, frm, to = (e[1], e[2], e[3]) if kind != SWITCH else (e[1], e[2], e[4])
            _leave(where, stood, before, (c, frm), kind == SPLIT)
            where[(c, to)] = where.get((c, to), 0) + 1
        elif kind == SLIDE or kind == BUMP:
            _leave(where, stood, before, (e[1], e[2]), False)
    return {pawn: n for pawn, n in where.items() if n > 0}


def bumped_to(start: tuple, events) -> dict:
    """{(colour, its Start): how many}: the pawns the move sent back to their Start (a bump
    by a landing, a slide, a Sorry! or a `send ... to start`) that are still there: a pawn of
    that colour leaving its Start later in the move (by its own step or sent elsewhere) is one
    of them. What the selector item `bumped` chooses (`engine.pawns`)."""
    where: dict = {}
    for e in events:
        kind = e[0]
        if kind == BUMP:
            key = (e[1], start[e[1]])
            where[key] = where.get(key, 0) + 1
        elif (kind in STEP_KINDS or kind == SEND) and where.get((e[1], e[2])):  # it left its Start again
            where[(e[1], e[2])] -= 1
    return {pawn: n for pawn, n in where.items() if n > 0}


def _leave(where: dict, stood: dict | None, before, key: tuple, own_pawn: bool) -> None:
    """A pawn of colour and square `key` leaves it: one the move brought there, else one that
    stood there (`own_pawn`: one that stood there first, when one still does)."""
    if stood is not None and key not in stood:
        stood[key] = before(*key)
    if stood is not None and stood[key] > 0 and (own_pawn or not where.get(key)):
        stood[key] -= 1
    elif where.get(key):
        where[key] -= 1


def stood_before(after: tuple, events):
    """`before` for `moved_to` from the placement `after` the move (per colour, its pawns'
    squares) and the move's `events`: how many colour-c pawns stood on a square before it."""
    def before(c: int, sq: int) -> int:
        count = after[c].count(sq)
        for e in events:
            kind = e[0]
            if kind in STEP_KINDS or kind == SLIDE or kind == SEND:
                count += (e[1] == c and e[2] == sq) - (e[1] == c and e[3] == sq)
            elif kind == SWITCH:
                count += (e[1] == c and e[2] == sq) + (e[3] == c and e[4] == sq)
                count -= (e[1] == c and e[4] == sq) + (e[3] == c and e[2] == sq)
            elif kind == BUMP:
                count += e[1] == c and e[2] == sq
        return count
    return before
