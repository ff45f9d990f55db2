"""Squares that hold several pawns and named squares (`board.hold`, `board.squares`), checked
against the rest of a variant and handed to the engine as `engine.squares.SquareName`s.

Contract:
- `check_squares(v, out)` adds located problems: an offset off the side (SR505); a square
  named like a DSL word (SR570); marks (`marks:`), which follow a pawn by its square, on a
  board whose squares may hold several pawns (SR571); and warns (SR551) of a blocker counting
  pawns (`geometry.blockers.*.group` 2 or more) where no square holds that many.
- `engine_squares(v, relation)` returns the `SquareName`s of `board.squares`, in the order
  written, each `safe` resolved into the colours it spares on each side.
"""

from __future__ import annotations

from sorry_rules.base.errors import ProblemCollector
from sorry_rules.compiler.vocab import RESERVED as DSL_WORDS
from sorry_rules.engine.pawns import OWNERS, ZONES
from sorry_rules.engine.squares import BUILT_IN, SquareName

#: words a square may not be named: selectors read `in NAME` beside the zones and owners
RESERVED = DSL_WORDS + OWNERS + ZONES + BUILT_IN + ("in", "marked", "unmarked", "alone", "moved", "unmoved", "bumped", "farthest",
                                                   "nearest", "pawns")


def holds_several(v) -> bool:
    """Whether a square of the variant's board may hold two pawns (`board.hold`, a named
    square's `hold`; a square colours `share` that holds one pawn shares nothing)."""
    b = v.board
    if getattr(b, "kind", "track") != "track":
        return False
    hold, squares = getattr(b, "hold", 1), getattr(b, "squares", {})
    return hold > 1 or any((s.hold or hold) > 1 for s in squares.values())  # `share` needs a square for two


def check_squares(v, out: ProblemCollector) -> None:
    b = v.board
    if getattr(b, "kind", "track") != "track":
        return
    side, hold, squares = b.side_length, getattr(b, "hold", 1), getattr(b, "squares", {})
    for name, square in squares.items():
        if name in RESERVED:
            out.at(("board", "squares", name), "SR570", f"square '{name}' has the name of a DSL word; rename it", key=True)
        for i, offset in enumerate(square.at):
            if offset >= side:
                out.at(("board", "squares", name, "at", i), "SR505", f"square '{name}': offset {offset} is off the side "
                       f"(offsets 0..{side - 1})", also=(("board", "side_length"),))
    if holds_several(v) and getattr(v, "marks", None):
        where = ("board", "hold") if hold > 1 else ("board", "squares")
        out.at(where, "SR571", f"this board's squares may hold several pawns, but marks: ({', '.join(v.marks)}) follow a "
               "pawn by its square, so they need squares that hold one pawn each", key=True, also=(("marks",),))
    most = max([hold] + [s.hold or hold for s in squares.values()])
    for name, blocker in getattr(getattr(v, "geometry", None), "blockers", {}).items():
        if blocker.group > 1 and blocker.group > most:
            out.at(("geometry", "blockers", name, "group"), "SR551", f"blocker '{name}' needs {blocker.group} pawns on "
                   f"one square, but no square holds more than {most}: it blocks nothing", severity="warning")


def engine_squares(v, relation: tuple) -> tuple:
    """The `SquareName`s of `board.squares`; `relation[c][o]` (own/partner/opponent) resolves
    each name's `safe` into the colours it spares on colour c's side."""
    b = v.board
    if getattr(b, "kind", "track") != "track":
        return ()
    return tuple(SquareName(name, tuple(s.at), s.capture if isinstance(s.capture, bool) else tuple(s.capture), s.share,
                            s.hold, s.label, s.symbol, _spared(s.safe, relation))
                 for name, s in getattr(b, "squares", {}).items())


def _spared(safe, relation: tuple) -> tuple:
    """Per side colour c, the colours whose relation to c is in `safe` (() when `safe` is empty)."""
    if not safe:
        return ()
    return tuple(frozenset(o for o, rel in enumerate(row) if rel in safe) for row in relation)
