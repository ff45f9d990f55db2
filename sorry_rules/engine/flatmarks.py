"""Marks for the flat move functions (`compiler.markloopgen`) and their loop (`players.markloop`).

The flat flavour of a variant with marks is `table[card][colour](P, occ, KP, M)`: the flat
position of `engine.flatstate` and the marks `M` (`State.marks`, read, never changed). It
covers the marks whose pawns never move while marked, so that a mark is data the functions
read, not something they follow (`modes`):

- "shield": a kind both immobile and untouchable, on pawns of squares below X (placed by
  `mark` effects only): the pawn neither moves nor is moved while marked, so the mark stays
  on its square until it ends (`until: next_turn`) or is taken off (`unmark`);
- "start": a kind neither immobile nor untouchable that ends when its pawn leaves Start
  (`until: leaves_start` or `moves`), on pawns in Start (placed by `after: ... mark: bumped`
  only): a marked pawn in Start either stays there or leaves, and the mark goes with it.

Any other kind has no flat flavour (`modes` gives None). A candidate whose marks after it
differ from `M` has the key `(key, marks after, carry events)` instead of the integer key:
the carry events ("carry", as `engine.marks` defines them) of a pawn leaving Start, to put
before its `Move`'s events (() for an outcome of the interpreter's, code 1, whose events hold
them already). Two candidates of one list are the same outcome exactly when their keys are
equal: a tuple key never equals an integer key, and the marks after an outcome are part of it.

`MarkedFlatMoves` is `FlatMoves` with the mark kinds, their modes and `move(candidate,
placement, card, marks)`, the exact `Move` (carry events and marks after included);
`marked_namespace` adds to the generated module's namespace: `SQSHIELDS(M)` (the squares of
pawns that may not move, and of those that may not be moved), `CARRIED(M, c, cr)` (the marks
once colour c's pawn with the carry events `cr` left Start), `MB(P, M)` (the interpreter's
marked board of flat lists) and `guarded_land` (`MarkedSlides.land_guarded`).
"""

from __future__ import annotations

from sorry_rules.engine import marks as engine_marks
from sorry_rules.engine.events import STEP_KINDS
from sorry_rules.engine.flatstate import FlatMoves, Slides, freeze

SHIELD = "shield"
START = "start"
#: the lifetimes that end a mark when its pawn leaves Start
_ENDS_ON_LEAVING = ("leaves_start", "moves")
_ENTER = STEP_KINDS[0]


def modes(kinds) -> tuple | None:
    """The mode of each mark kind (module docstring), or None when one kind has neither."""
    out = []
    for kind in kinds:
        if kind.immobile and kind.untouchable:
            out.append(SHIELD)
        elif not kind.immobile and not kind.untouchable and kind.until in _ENDS_ON_LEAVING:
            out.append(START)
        else:
            return None
    return tuple(out)


def fits(kind_modes: tuple, layout, marks: tuple) -> bool:
    """Whether `marks` (`State.marks`) keep to the modes: a shield mark on a square below X,
    a start mark on its colour's Start."""
    for mode, entries in zip(kind_modes, marks):
        for c, sq, _ in entries:
            if (sq >= layout.X) if mode == SHIELD else (sq != layout.start[c]):
                return False
    return True


class MarkedSlides(Slides):
    """`Slides` with untouchable pawns (`guard`: their squares) as `engine.marks.MarkedMechanics`
    treats them: no landing on one, a slide spares one and may not end on it."""

    def land_guarded(self, c: int, frm: int, to: int, occ: list, key: int, guard: frozenset):
        """`Slides.land` with the pawns on the squares `guard` untouchable."""
        if to in guard:
            return None
        info = self.slide_here[c][to]
        weights, start = self.weights, self.start
        key += weights[c][info.end] - weights[c][frm]
        bumps = []
        o = occ[to]
        if o >= 0:
            if o == c or not self.bumpable[c][o]:
                return None
            bumps.append((o, to))
            key += weights[o][start[o]] - weights[o][to]
        spares = self.spares[c]
        for sq in info.swept:
            o = -1 if sq == frm else occ[sq]
            if o >= 0:
                if spares[o] or sq in guard:
                    if sq == info.end:
                        return None
                    continue
                bumps.append((o, sq))
                key += weights[o][start[o]] - weights[o][sq]
        return key, info.end, tuple(bumps)


def marked_namespace(scope: dict, kinds: tuple, mechanics, slides: MarkedSlides) -> dict:
    """`scope` (a flat namespace, `flatstate.flat_namespace`, over `fastmoves.namespace` with
    the mark kinds) with the helpers of the module docstring; each remembers its answers for
    the marks it was last asked about (the loop keeps one marks object while none change)."""
    layout, X = mechanics.layout, mechanics.X
    shielded: list = [None, None]

    def square_shields(M: tuple) -> tuple:
        if shielded[0] is not M:
            still, guard = engine_marks.shields(kinds, M)
            shielded[0], shielded[1] = M, (frozenset(sq for _, sq in still), frozenset(sq for _, sq in guard))
        return shielded[1]

    carried: list = [None, {}]

    def carried_off(M: tuple, c: int, cr: tuple) -> tuple:
        if carried[0] is not M:
            carried[0], carried[1] = M, {}
        known = carried[1].get((c, cr))
        if known is None:  # where the pawn goes does not matter: its start marks end as it leaves
            step = (_ENTER, c, layout.start[c], layout.start_exit[c])
            known = carried[1][(c, cr)] = engine_marks.replay(kinds, layout, M, cr + (step,))
        return known

    scope.update({
        "SQSHIELDS": square_shields, "CARRIED": carried_off, "guarded_land": slides.land_guarded,
        "MB": lambda P, M: engine_marks.MarkedBoard.with_marks(freeze(P), X, kinds, M),
    })
    return scope


def carry_events(events: tuple) -> tuple:
    """The "carry" events of `events` (an interpreter's outcome's: they come first)."""
    return tuple(e for e in events if e[0] == engine_marks.CARRY)


class MarkedFlatMoves(FlatMoves):
    """`FlatMoves` of a variant with marks (module docstring)."""

    __slots__ = ("kinds", "modes")

    def __init__(self, table: tuple, source: str, weights: tuple, mechanics, kinds: tuple, kind_modes: tuple):
        super().__init__(table, source, weights, mechanics)
        self.kinds = kinds
        self.modes = kind_modes

    def marked_move(self, candidate: tuple, placement: tuple, card: int, marks: tuple):
        """The engine's `Move` of a candidate listed with the marks `marks` from `placement`:
        its events with the carry events first, its marks after it."""
        move = self.move(candidate, placement, card)
        key = candidate[0]
        if key.__class__ is not tuple:
            return move._replace(marks=marks)
        if candidate[2] == 1:
            return move._replace(marks=key[1])
        return move._replace(events=key[2] + move.events, marks=key[1])
