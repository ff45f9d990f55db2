"""Pawn selectors of the DSL (`dsl.Selector`) compiled into the engine's `engine.pawns.Selector`.

Contract: `compile_selector(compiler, selector, moved_ok)` returns the engine's
selector or raises `CompileError` at the offending word: a mark name the variant does not
declare under `marks:` (SR302, listing the declared ones), a square name the board does not
have (SR302, listing its named squares), `moved`, `unmoved` or `bumped` where no move is being followed
(SR304: only in the second part of a card's `A then B`, in `after:` `then:` effects and in the
conditions of filters and consequences; `bumped` is the engine's `moved` read from the
pawns the move sent back to Start, `engine.pawns.followed`), `every`
outside `send`, `mark` and `unmark` (SR304, `every_ok`).
`compiler` gives `m` (the mechanics) and `mark_names` (the declared mark kinds, in order). An
owner left out is `controlled` (for every primitive and for `count(pawns ...)`).
A named square item (`in star`, `in opponent start_exit`) becomes, per pawn colour, the set
of squares where that colour's pawns count as being there (`layout.named`; a relation is
judged from the pawn's colour to the colour of the square's side).
"""

from __future__ import annotations

from sorry_rules.compiler.vocabulary import CompileError, unknown
from sorry_rules.engine.pawns import ZONES, Selector, owner_table

EVERY_WHERE = ("'every' acts on all the chosen pawns at once: only 'send', 'mark' and 'unmark' take it (not 'move', "
               "'enter', 'forward', 'backward', 'split' or count(pawns ...), which counts them all anyway)")
MOVED_WHERE = ("'{word}' chooses among the pawns of the move being followed: it may be read only in the second part of "
               "a card's 'A then B' (the pawns A moved), in after: then: effects and in the conditions of filters: and after:")


def mark_index(compiler, name: str, pos: int, read: bool = True) -> int:
    """The index of the declared mark `name` (CompileError at `pos` when none is declared so);
    `read`: a selector reads it (`marked`, `unmarked`), as SR562 counts."""
    names = compiler.mark_names
    if name not in names:
        known = names or ("none: declare marks under marks:",)
        raise CompileError(pos, unknown("mark", name, known))
    if read:
        compiler.marks_read.add(name)
    return names.index(name)


def _squares(compiler, items: tuple):
    """squares[c]: the squares of the named-square items where a colour-c pawn counts as being."""
    m = compiler.m
    layout = m.layout
    named = getattr(layout, "named", {})
    per_colour = [set() for _ in range(layout.C)]
    for relation, name, pos in items:
        if name not in named:
            if relation is None:  # `in NAME`: a zone was as likely meant
                zones = tuple(zone for zone in ZONES if zone not in named)
                raise CompileError(pos, unknown("zone or square", name, zones + tuple(named)))
            raise CompileError(pos, unknown("square", name, tuple(named)))
        for c in range(layout.C):
            per_colour[c].update(sq for sq, owner in named[name] if relation is None or m.matches(c, owner, relation))
    return tuple(frozenset(found) for found in per_colour)


def pairs_of(owner: tuple) -> set:
    """{(p, c)} of an owner table (`owner[p][c]`): player colour p may choose colour c's pawns."""
    return {(p, c) for p, row in enumerate(owner) for c, chosen in enumerate(row) if chosen}


def compile_selector(compiler, selector, moved_ok: bool, every_ok: bool = False) -> Selector:
    owner = selector.owner or "controlled"
    if selector.every and not every_ok:
        raise CompileError(selector.pos, EVERY_WHERE, "SR304")
    marked = tuple(mark_index(compiler, name, pos) for name, pos in selector.marked)
    unmarked = tuple(mark_index(compiler, name, pos) for name, pos in selector.unmarked)
    if (selector.moved or selector.unmoved or selector.bumped) and not moved_ok:
        word = "moved" if selector.moved else "unmoved" if selector.unmoved else "bumped"
        raise CompileError(selector.pos, MOVED_WHERE.format(word=word), "SR304")
    squares = _squares(compiler, selector.squares) if selector.squares else None
    return Selector(owner_table(compiler.m, owner), frozenset(selector.zones), marked, unmarked, selector.alone, squares,
                    selector.moved or selector.bumped, selector.rank, selector.every, selector.unmoved, selector.bumped)
