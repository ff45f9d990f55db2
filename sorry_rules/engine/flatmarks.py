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
differ from `M` has a tuple key instead of the integer key: `(key, carry events)` for a pawn
leaving Start with marks (the "carry" events of `engine.marks`, to put before its `Move`'s
events; the marks after it are those of `M` less the marks it carries off, `CARRIED`), or
`(key, marks after, carry events)` for an outcome of the interpreter's (code 1, whose events
hold the carry events already) or a mark (`MARK_CODE`). Two candidates of one list are the
same outcome exactly when their keys are equal: a tuple key never equals an integer key, and
the marks after an outcome are part of its key or follow from its carry events.

`MarkedFlatMoves` is `FlatMoves` with the mark kinds, their modes, `eventful_after` and
`marked_move(candidate, placement, card, marks)`, the exact `Move` (carry events and marks
after included); `QUIET_CODES` are the candidate codes of moves that neither bump nor slide;
`events(candidate, occ)` and `consequence_marks(marks, fired, p, events, P)` give the
`Move`'s events and the marks its consequences place without building it, for consequences
judged on events (`moverules.Consequence.on_events`: then `judged` is their
`moverules.OnEvents`, else None); `marked_namespace` adds to the
generated module's namespace: `SQSHIELDS(M)` (the squares of
pawns that may not move, and of those that may not be moved), `CARRIED(M, c, cr)` (the marks
once colour c's pawn with the carry events `cr` left Start), `MB(P, M)` (the interpreter's
marked board of flat lists) and `guarded_land` (`MarkedSlides.land_guarded`).
"""

from __future__ import annotations

from sorry_rules.engine import marks as engine_marks
from sorry_rules.engine.events import STEP_KINDS
from sorry_rules.engine import flatstate
from sorry_rules.engine.fastmoves import carry_options
from sorry_rules.engine.flatfilters import candidate_events
from sorry_rules.engine.flatstate import FlatMoves, Slides, freeze
from sorry_rules.engine.game import Move

#: the candidate code of an outcome that marks one pawn below X and moves nothing:
#: `(key, draw_again, MARK_CODE, event)`, the event ("mark", colour, square, kind, by)
MARK_CODE = 20
#: the codes of candidates whose move neither bumps nor slides: `flatstate.QUIET_CODES` and a mark
QUIET_CODES = flatstate.QUIET_CODES | {MARK_CODE}
SHIELD = "shield"
START = "start"
#: the lifetimes that end a mark when its pawn leaves Start
_ENDS_ON_LEAVING = ("leaves_start", "moves")
_ENTER = STEP_KINDS[0]
_new = tuple.__new__


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
        return self.land(c, frm, to, occ, key, guard)


class _PerMarks:
    """Answers remembered per marks value (the loop asks about one marks object many times,
    and about equal ones again later): `table(M)` is the dict of answers for `M`."""

    def __init__(self, size: int = 4096):
        self.tables: dict = {}
        self.size = size
        self.last = None
        self.last_table: dict = {}

    def table(self, M: tuple) -> dict:
        if self.last is not M:
            known = self.tables.get(M)
            if known is None:
                if len(self.tables) >= self.size:
                    self.tables.clear()
                known = self.tables[M] = {}
            self.last, self.last_table = M, known
        return self.last_table


def _marked_by(memory: _PerMarks, kinds: tuple, layout):
    """`MARKED_BY(M, events)`: the marks after "mark" events (`engine.marks.replay`), remembered per marks value."""
    def marked_by(M: tuple, events: tuple) -> tuple:
        known = memory.table(M)
        after = known.get(events)
        if after is None:
            after = known[events] = engine_marks.replay(kinds, layout, M, events)
        return after
    return marked_by


def marked_namespace(scope: dict, kinds: tuple, mechanics, slides: MarkedSlides) -> dict:
    """`scope` (a flat namespace, `flatstate.flat_namespace`, over `fastmoves.namespace` with
    the mark kinds) with the helpers of the module docstring, and `CARRIES` (as the
    namespace's, remembered per marks value) and `MARKED(M, event)` (the marks after one
    "mark" event of a pawn below X); each remembers its answers per marks value."""
    layout, X = mechanics.layout, mechanics.X
    memory = _PerMarks()

    def square_shields(M: tuple) -> tuple:
        known = memory.table(M)
        shields = known.get("shields")
        if shields is None:
            still, guard = engine_marks.shields(kinds, M)
            shields = known["shields"] = (frozenset(sq for _, sq in still), frozenset(sq for _, sq in guard))
        return shields

    by_pawns: dict = {}  # (c, sq, pawns there, chosen, their marks' placers per kind) -> carries

    def carries(M: tuple, c: int, sq: int, squares, chosen: tuple = ((), ())) -> tuple:
        known = memory.table(M)
        key = (c, sq, squares.count(sq), chosen)
        options = known.get(key)
        if options is None:  # the answer reads only the marks of c's pawns on sq
            here = key + (tuple(tuple(e[2] for e in entries if e[0] == c and e[1] == sq) for entries in M),)
            options = by_pawns.get(here)
            if options is None:
                if len(by_pawns) >= 4096:
                    by_pawns.clear()
                options = by_pawns[here] = carry_options(kinds, M, c, sq, key[2], chosen)
            known[key] = options
        return options

    def carried_off(M: tuple, c: int, cr: tuple) -> tuple:
        known = memory.table(M)
        after = known.get((c, cr))
        if after is None:  # where the pawn goes does not matter: its start marks end as it leaves
            step = (_ENTER, c, layout.start[c], layout.start_exit[c])
            after = known[(c, cr)] = engine_marks.replay(kinds, layout, M, cr + (step,))
        return after

    def marked(M: tuple, event: tuple) -> tuple:
        known = memory.table(M)
        after = known.get(event)
        if after is None:
            after = known[event] = engine_marks.replay(kinds, layout, M, (event,))
        return after

    def marked_pawns(M: tuple) -> tuple:
        known = memory.table(M)
        pawns = known.get("pawns")
        if pawns is None:
            pawns = known["pawns"] = tuple(frozenset((c, sq) for c, sq, _ in entries if sq < X) for entries in M)
        return pawns

    def start_marked(M: tuple) -> tuple:
        known = memory.table(M)
        marked = known.get("start")
        if marked is None:
            here = {(c, sq) for entries in M for c, sq, _ in entries}
            marked = known["start"] = tuple((c, layout.start[c]) in here for c in range(layout.C))
        return marked

    scope.update({
        "START_MARKED": start_marked, "MARKED_BY": _marked_by(memory, kinds, layout), "NO_CARRY": ((),),
        "SMK": [None, None], "SQK": [None, None],
        "SQSHIELDS": square_shields, "CARRIES": carries, "CARRIED": carried_off, "MARKED": marked,
        "MARKED_PAWNS": marked_pawns, "guarded_land": slides.land_guarded, "E_MARK": engine_marks.MARK,
        "MB": lambda P, M: engine_marks.MarkedBoard.with_marks(freeze(P), X, kinds, M),
    })
    return scope


def carry_events(events: tuple) -> tuple:
    """The "carry" events of `events` (an interpreter's outcome's: they come first)."""
    return tuple(e for e in events if e[0] == engine_marks.CARRY)


class MarkedFlatMoves(FlatMoves):
    """`FlatMoves` of a variant with marks (module docstring)."""

    __slots__ = ("kinds", "modes", "carried", "marked_by", "layout", "judged")

    def __init__(self, table: tuple, source: str, weights: tuple, mechanics, kinds: tuple, kind_modes: tuple):
        super().__init__(table, source, weights, mechanics)
        self.kinds = kinds
        self.modes = kind_modes
        self.layout = mechanics.layout
        self.carried = None  # the namespace's CARRIED(M, c, cr), set by the compiler
        self.marked_by = None  # the namespace's MARKED_BY(M, events), set by the compiler
        # `moverules.OnEvents` of the variant's consequences where every one is judged on events, else None
        self.judged = None

    def events(self, candidate: tuple, occ: list) -> tuple:
        """The events of `marked_move(candidate, ...)` (carry events first), `occ` the
        occupancy of the position the candidate was listed for; no `Move` built."""
        if candidate[2] == MARK_CODE:
            return (candidate[3],)
        events = candidate_events(candidate, occ, self.slides, self.start)
        key = candidate[0]
        return key[1] + events if key.__class__ is tuple and len(key) == 2 else events

    def consequence_marks(self, marks: tuple, fired: tuple, p: int, events: tuple, P: list) -> tuple:
        """`engine.marks.consequence_marks` of a move with `events` played by `p`, `marks` the
        marks after it, `P` the flat position after it (read only)."""
        placing = engine_marks.consequence_events(self.layout, fired, p, events)
        if not placing:
            return marks
        return engine_marks.fit(self.marked_by(marks, placing), P, self.layout.X)

    def marked_move(self, candidate: tuple, placement: tuple, card: int, marks: tuple):
        """The engine's `Move` of a candidate listed with the marks `marks` from `placement`:
        its events with the carry events first, its marks after it."""
        after = self.marks_after(candidate, marks)
        if candidate[2] == MARK_CODE:
            return _new(Move, (card, placement, (candidate[3],), candidate[1], "move", (), "", after))
        move = self.move(candidate, placement, card)
        key = candidate[0]
        events = key[1] + move.events if key.__class__ is tuple and len(key) == 2 else move.events
        return _new(Move, (card, move.placement, events, move.draw_again, move.kind, (), "", after))

    def marks_after(self, candidate: tuple, marks: tuple) -> tuple:
        """The marks once `candidate`, listed with the marks `marks`, is played (its
        consequences aside)."""
        key = candidate[0]
        if key.__class__ is not tuple:
            return marks
        if len(key) == 3:
            return key[1]
        cr = key[1]
        return self.carried(marks, cr[0][1], cr)
