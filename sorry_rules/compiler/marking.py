"""Marks on pawns (`marks:`) and alternatives added to cards (`also:`), compiled for the engine
(docs/REFERENCE.md section 1, "Marks and added alternatives").

Contract:
- `check_marks(v, out)` adds located problems: `marks:` or `also:` on a grid board
  (SR512), a mark named like a DSL word (SR560), an
  `after: ... mark:` of a mark not declared (SR561), an unknown card in `also: ... cards:`
  (SR502).
- `mark_kinds(v)` is the engine's `MarkKind` per declared mark, in order (() without marks).
- `mark_placers(v, placed, after)` is `Game.mark_placers`: per mark kind, the (player colour,
  pawn colour) pairs some `mark` effect or `after:` consequence may mark.
- `also_texts(v)` lists the DSL texts of `also:` as `(path, text, "effect")`.
- `alternatives(v, asts)` maps each card name to the names of the `also:` entries it gets,
  in file order: a card named in `cards`, or (with `having`) whose effect uses one of those
  primitives anywhere outside conditions (`asts` maps `("cards", name)` to the card's tree).
- `draws_again_after(ast)`: whether a card's effect ends in `then draw_again` (or `then
  (draw_again if C)`), the extra draw its added alternatives share.
- `with_alternatives(ast, extra)` is a card's effect with the alternatives it gets, and
  `declining_without(ast, extra)` the card's own effect as they change it: a conditional
  `pass if C` becomes `pass if C and not can(extra)`, since an added alternative is a move
  that must be made when it can be (R17; the 11 is declined only where its plays are all
  switches, A21); an alternative that only switches is one more switch wherever C asks
  `can(switch ...)`.
- `mark_warnings(v, placed, read, out, every_text)` warns (SR562) of a mark nothing places or nothing
  reads (`placed`, `read`: names used by `mark` effects and selectors; `after:` marks count
  as placing, `immobile`/`untouchable` as reading).
"""

from __future__ import annotations

from dataclasses import replace

from sorry_rules import dsl
from sorry_rules.base.errors import ProblemCollector
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.compiler.checks import unknown_cards
from sorry_rules.compiler.selectors import pairs_of
from sorry_rules.compiler.vocab import RESERVED
from sorry_rules.engine.marks import MarkKind

_PRIMITIVES = {"enter": (dsl.Enter,), "forward": (dsl.Forward, dsl.ForwardBy), "backward": (dsl.Backward, dsl.BackwardBy),
               "split": (dsl.Split,), "switch": (dsl.Switch,), "sorry": (dsl.Sorry,)}


def check_marks(v, out: ProblemCollector) -> None:
    if v.board.kind == "grid":
        for section in ("marks", "also"):
            if getattr(v, section):
                out.at((section,), "SR512", f"{section}: is a rule of pawns on a race track; a grid board has none",
                       key=True)
        return
    for name in v.marks:
        if name in RESERVED:
            out.at(("marks", name), "SR560", f"mark '{name}' has the name of a DSL word; rename it", key=True)
    for i, item in v.after.items():
        for name in item.mark:
            if name not in v.marks:
                known = ", ".join(v.marks) or "none declared under marks:"
                out.at(("after", i, "mark", name), "SR561", f"unknown mark '{name}'"
                       f"{did_you_mean(name, list(v.marks))} (marks: {known})", key=True)
    for i, item in v.also.items():
        unknown_cards(v, out, ("also", i, "cards"), item.cards)


def mark_kinds(v) -> tuple:
    return tuple(MarkKind(name, m.label or name.replace("_", " "), m.until, m.one_per_player, m.immobile, m.untouchable,
                          m.symbol) for name, m in v.marks.items())


def mark_placers(v, placed: dict, after: tuple) -> tuple:
    """Per declared mark kind, the frozenset of (player colour, pawn colour) pairs some rule
    may mark: `placed` (mark name -> pairs of the `mark` effects' selectors) and the `after:`
    consequences' `mark:` entries (every pair where no relation narrows them)."""
    C = len(v.colours)
    pairs = [set(placed.get(name, ())) for name in v.marks]
    for consequence in after:
        for k, _, only in consequence.marks:
            pairs[k] |= {(p, c) for p in range(C) for c in range(C)} if only is None else pairs_of(only)
    return tuple(frozenset(found) for found in pairs)


def also_texts(v) -> list[tuple[tuple, str, str]]:
    return [(("also", name, "effect"), item.effect, "effect") for name, item in v.also.items()]


def _uses(ast, having) -> bool:
    """Whether `ast` uses one of the primitives `having` outside the conditions of guards."""
    if isinstance(ast, dsl.Guard):
        return _uses(ast.effect, having)
    if isinstance(ast, dsl.Choice):
        return any(_uses(o, having) for o in ast.options)
    if isinstance(ast, dsl.Then):
        return _uses(ast.first, having) or _uses(ast.second, having)
    return any(type(ast) in _PRIMITIVES[word] for word in having)


def alternatives(v, asts: dict) -> dict:
    out: dict = {}
    for card in v.cards:
        ast = asts.get(("cards", card))
        for name, item in v.also.items():
            named = item.cards is not None and card in item.cards
            having = item.having is not None and ast is not None and _uses(ast, item.having)
            every = item.cards is None and item.having is None
            if named or having or every:
                out.setdefault(card, []).append(name)
    return out


def draws_again_after(ast) -> bool:
    """Whether `ast` is `A then draw_again` or `A then (draw_again if C)`: a card's extra draw
    after whatever way it is played (R19), which the alternatives added to it share."""
    if not isinstance(ast, dsl.Then):
        return False
    second = ast.second
    return isinstance(second, dsl.DrawAgain) or (isinstance(second, dsl.Guard) and isinstance(second.effect, dsl.DrawAgain))


def with_alternatives(ast, extra: list):
    """`ast | extra...` (inside a trailing `then draw_again`, guarded or not: a 2 played the new
    way draws again too), its conditional passes declining only where no `extra` can be played."""
    if draws_again_after(ast):
        return replace(ast, first=with_alternatives(ast.first, extra))
    ast = declining_without(ast, extra)
    options = ast.options if isinstance(ast, dsl.Choice) else (ast,)
    return dsl.Choice(ast.pos, tuple(options) + tuple(extra))


def _only_switches(ast) -> bool:
    """Whether every play of `ast` is a switch (guards and a trailing `then draw_again` aside)."""
    if isinstance(ast, dsl.Switch):
        return True
    if isinstance(ast, dsl.Guard):
        return _only_switches(ast.effect)
    if isinstance(ast, dsl.Choice):
        return all(_only_switches(option) for option in ast.options)
    if draws_again_after(ast):
        return _only_switches(ast.first)
    return False


def declining_without(ast, extra: list):
    """`ast` with each top-level `pass if C` changed for the added alternatives `extra` (`ast`
    itself when none changes it): an alternative that only switches joins the card's own
    switches wherever C asks for them (`can(switch opponent)` reads `can(switch opponent |
    switch partner)`: a switch may be declined, R24, A14, A21); any other makes the pass
    `pass if C and not can(extra)` (a card that can play it may not be declined)."""
    switches = tuple(e for e in extra if _only_switches(e))
    moves = [e for e in extra if not _only_switches(e)]
    if not moves and not switches:
        return ast
    if draws_again_after(ast):
        first = declining_without(ast.first, extra)
        return ast if first is ast.first else replace(ast, first=first)
    if isinstance(ast, dsl.Choice):
        options = tuple(declining_without(option, extra) for option in ast.options)
        return ast if all(a is b for a, b in zip(options, ast.options)) else dsl.Choice(ast.pos, options)
    if isinstance(ast, dsl.Guard) and isinstance(ast.effect, dsl.Pass):
        condition = _asking_switches(ast.condition, switches) if switches else ast.condition
        if moves:
            added = moves[0] if len(moves) == 1 else dsl.Choice(moves[0].pos, tuple(moves))
            blocked = dsl.Not(ast.condition.pos, dsl.Can(added.pos, added))
            condition = dsl.BinOp(ast.condition.pos, "and", condition, blocked)
        return ast if condition is ast.condition else dsl.Guard(ast.pos, ast.effect, condition)
    return ast


def _asking_switches(expr, switches: tuple):
    """`expr` with each `can(S)` whose S only switches made `can(S | switches...)` (`expr`
    itself when it asks for no switch)."""
    for node in [n for n in dsl.walk(expr) if isinstance(n, dsl.Can) and _only_switches(n.effect)]:
        expr = dsl.replaced(expr, node, dsl.Can(node.pos, dsl.Choice(node.effect.pos, (node.effect,) + switches)))
    return expr


def mark_warnings(v, placed: set, read: set, out: ProblemCollector, every_text: bool = True) -> None:
    """A warning (SR562) for each mark never placed or never read; `every_text`: every DSL
    text compiled (else a text that failed may place or read it: not said)."""
    if not every_text:
        return
    placed = set(placed) | {name for c in v.after.values() for name in c.mark}
    read = read | {name for name, m in v.marks.items() if m.immobile or m.untouchable}
    for name in v.marks:
        if name not in placed:
            out.at(("marks", name), "SR562", f"mark '{name}' is never placed (no `mark {name} ...` effect and no after: "
                   "mark:)", severity="warning", key=True)
        elif name not in read:
            out.at(("marks", name), "SR562", f"mark '{name}' is never read (no selector says `marked {name}` or "
                   f"`unmarked {name}`, and it is neither immobile nor untouchable)", severity="warning", key=True)
