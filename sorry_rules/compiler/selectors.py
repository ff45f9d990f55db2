"""Pawn selectors of the DSL (`dsl.Selector`) compiled into the engine's `engine.pawns.Selector`.

Contract: `compile_selector(compiler, selector, default_owner)` returns the engine's
selector or raises `CompileError` at the offending word: a mark name the variant does not
declare under `marks:` (SR302, listing the declared ones). `compiler` gives `m` (the
mechanics) and `mark_names` (the declared mark kinds, in order). An owner left out is
`default_owner` (`controlled` for every primitive and for `count(pawns ...)`).
"""

from __future__ import annotations

from sorry_rules.compiler.vocabulary import CompileError, unknown
from sorry_rules.engine.pawns import Selector, owner_table


def mark_index(compiler, name: str, pos: int) -> int:
    names = compiler.mark_names
    if name not in names:
        known = names or ("none: declare marks under marks:",)
        raise CompileError(pos, unknown("mark", name, known))
    compiler.marks_read.add(name)
    return names.index(name)


def compile_selector(compiler, selector, default_owner: str = "controlled") -> Selector:
    owner = selector.owner or default_owner
    marked = tuple(mark_index(compiler, name, pos) for name, pos in selector.marked)
    unmarked = tuple(mark_index(compiler, name, pos) for name, pos in selector.unmarked)
    return Selector(owner_table(compiler.m, owner), frozenset(selector.zones), marked, unmarked, selector.alone)
