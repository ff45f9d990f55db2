"""The open rule vocabulary of a variant compiled for the engine: `counters:`, `filters:`
(with `rules.must_bump` as sugar for one of them) and `after:` (docs/REFERENCE.md section 7).

Contract:
- `check_vocab(v, out)` adds located problems: a counter named like a DSL word (SR520), an
  `add:` to a counter not declared (SR521), an unknown card in `cards:` (SR502);
  `counter_warnings(v, asts, out, every_text)` warns (SR522) of a counter never changed or never read.
- `vocab_texts(v)` lists the DSL texts as `(path, text, kind)` with kind "move_bool" or
  "move_int" (compiled where facts of a move may be read); `build.dsl_texts` includes them.
- `compile_vocab(v, compiled, card_index, programs, asts)` returns `(filters, after, counters)`
  for `engine.game.Game` from the compiled closures (`compiled[path]`); every `add:` amount
  is bounded so that the counter it changes stays within its `min`..`max` (`counter_ranges`,
  bound into the game as `Game.counter_ranges`), whatever its formula gives; a variant that uses
  none of it gets three empty tuples, so play pays nothing. A filter whose tree (`asts[path]`)
  reads only facts of the move, counters, numbers and counts of the pawns it moved
  (`events_only`) also gets its test on events alone
  (`MoveFilter.on_events`, with the event kinds it reads), for the table (`engine.table`); so does a
  consequence whose condition and additions all read only those (`Consequence.on_events`).
"""

from __future__ import annotations

import re

from sorry_rules import dsl
from sorry_rules.base.errors import ProblemCollector
from sorry_rules.base.resources import grammar_text
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.compiler.checks import unknown_cards
from sorry_rules.compiler.vocabulary import COUNTS, FACTS, GROUPS, LITERALS, MOVE, THROW_FACTS
from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH
from sorry_rules.engine.facts import READS
from sorry_rules.engine.moverules import Consequence, MoveFilter, recipients
from sorry_rules.engine.pawns import moved_only
from sorry_rules.engine.placement import PlacementView
from sorry_rules.engine.squares import BUILT_IN

#: `rules.must_bump: true` is this filter (H17), written before the file's own `filters:`.
MUST_BUMP = "bumps(opponents) > 0"
MUST_BUMP_LABEL = "rules.must_bump: a move that bumps an opponent is required"
#: DSL words a counter, a mark or a square may not be named like: the functions, groups and
#: literals of expressions, the built-in squares, and every word of the grammar (`moved`, `every`, `and`, ...)
RESERVED = COUNTS + FACTS + THROW_FACTS + GROUPS + LITERALS + ("sum", "max", "min", "count", "can") + BUILT_IN + tuple(
    sorted(set(re.findall(r'"([a-z_]+)"', grammar_text()))))


def check_vocab(v, out: ProblemCollector) -> None:
    for name in v.counters:
        if name in RESERVED:
            out.at(("counters", name), "SR520", f"counter '{name}' has the name of a DSL word; rename it", key=True)
    for section, items in (("filters", v.filters), ("after", v.after)):
        for i, item in items.items():
            unknown_cards(v, out, (section, i, "cards"), item.cards)
            unknown_cards(v, out, (section, i, "except_cards"), getattr(item, "except_cards", None))
    for name, counter in v.counters.items():
        if counter.min > counter.max:
            out.at(("counters", name), "SR508", f"counter '{name}': min {counter.min} is more than max {counter.max}",
                   key=True)
        elif not counter.min <= counter.start <= counter.max:
            out.at(("counters", name), "SR508", f"counter '{name}': start {counter.start} is not within min "
                   f"{counter.min} and max {counter.max}", key=True)
    for i, item in v.after.items():
        for name in item.add:
            if name not in v.counters:
                known = ", ".join(v.counters) or "none declared under counters:"
                out.at(("after", i, "add", name), "SR521", f"unknown counter '{name}'"
                       f"{did_you_mean(name, list(v.counters))} (counters: {known})", key=True)


def counter_warnings(v, asts: dict, out: ProblemCollector, every_text: bool = True) -> None:
    """A warning (SR522) for each declared counter that no `after:` changes or that no DSL
    text reads; `asts` maps each DSL text's path to its tree (None where it failed);
    `every_text`: every text compiled (else a text that failed may read it: not said)."""
    read = {node.function for ast in asts.values() if ast is not None for node in dsl.walk(ast)
            if isinstance(node, dsl.Call)}
    changed = {name for c in v.after.values() for name in c.add}
    for name in v.counters:
        if name not in changed:
            out.at(("counters", name), "SR522", f"counter '{name}' is never changed (no after: adds to it)",
                   severity="warning", key=True)
        elif name not in read and every_text:
            out.at(("counters", name), "SR522", f"counter '{name}' is never read (no condition or formula uses "
                   f"{name}(...))", severity="warning", key=True)


def vocab_texts(v) -> list[tuple[tuple, str, str]]:
    texts = []
    for i, f in v.filters.items():
        key = "must" if f.must is not None else "prefer"
        texts.append((("filters", i, key), getattr(f, key), "move_bool"))
    for i, c in v.after.items():
        texts.append((("after", i, "when"), c.when, "move_bool"))
        texts.extend((("after", i, "add", name), str(amount), "move_int") for name, amount in c.add.items())
        if getattr(c, "then", None) is not None:
            texts.append((("after", i, "then"), c.then, "following"))
    return texts


#: The variables an expression judging a move is compiled with (facts allowed).
MOVE_VARIABLES = frozenset({MOVE})


def _on_move(expression):
    """(p, move, counters) -> value, from an expression closure (p, board, env)."""
    def judge(p, move, counters):
        return expression(p, PlacementView(move.placement), {"@events": move.events, "@counters": counters,
                                                             "@marks": move.marks, "@card": move.card})
    return judge


#: the nodes a condition judged on a move's events alone may hold besides facts and counters
_ON_EVENTS = (dsl.Number, dsl.Bool, dsl.Not, dsl.Neg, dsl.BinOp, dsl.Name)


#: the event kinds that tell which pawns a move moved (`engine.events.moved_to`)
MOVED_READS = frozenset(STEP_KINDS) | {SWITCH, SLIDE, BUMP}


def events_only(ast, counters, stacked: bool = False) -> frozenset | None:
    """The event kinds a move condition reads (`facts.READS`) when it reads nothing but facts
    of the move, the counters named `counters`, numbers and counts of the pawns the move moved
    (`count(pawns ... moved ...)` by owner and place: `engine.pawns.moved_only`; not where
    squares hold several pawns, `stacked`: which pawn left such a square takes the board,
    `events.moved_to`), so that it can be judged on the move's events alone; None when it
    reads anything else (the board after the move, marks)."""
    kinds: set = set()
    for node in dsl.walk(ast):
        if isinstance(node, dsl.Call) and node.function in READS:
            kinds |= READS[node.function]
        elif isinstance(node, dsl.CountPawns) and moved_only(node.selector) and not stacked:  # the selector as written
            kinds |= MOVED_READS
        elif not (isinstance(node, dsl.Call) and (node.function in counters or node.function in THROW_FACTS)) \
                and not isinstance(node, _ON_EVENTS):
            return None
    return frozenset(kinds)


def _on_events(expression):
    """(p, events, counters, card) -> value, from an expression closure that reads no board and
    no marks (`events_only`): `_on_move`'s judgement from the move's events and card."""
    def judge(p, events, counters, card):
        return expression(p, None, {"@events": events, "@counters": counters, "@card": card})
    return judge


def _filter(cards, prefer: bool, expression, ast, counters, label: str, stacked: bool) -> MoveFilter:
    """A `MoveFilter`, with its test on events alone where `ast` allows it (`events_only`)."""
    reads = None if ast is None else events_only(ast, counters, stacked)
    if reads is None:
        return MoveFilter(cards, prefer, _on_move(expression), label)
    return MoveFilter(cards, prefer, _on_move(expression), label, _on_events(expression), reads)


def _consequence_on_events(i, c, compiled: dict, asts: dict, names: list, ranges: tuple, stacked: bool) -> tuple | None:
    """`Consequence.on_events` of consequence `i` (`c`): its condition and additions judged on
    events alone, and the event kinds they read, where every one of their trees reads only
    facts, counters and numbers (`events_only`); else None."""
    paths = [("after", i, "when")] + [("after", i, "add", name) for name in c.add]
    reads = [None if asts.get(path) is None else events_only(asts[path], names, stacked) for path in paths]
    if None in reads:
        return None
    adds = tuple((names.index(name), _within(names.index(name), ranges, _on_events(compiled[("after", i, "add", name)])))
                 for name in c.add)
    if c.add and getattr(c, "to", "mover").startswith("bumped"):  # the recipients are read on the move's events
        reads.append(MOVED_READS)
    return _on_events(compiled[paths[0]]), adds, frozenset().union(*reads)


def counter_ranges(v) -> tuple:
    """Per declared counter, in order, its (lowest, highest) value: what `Game.counter_ranges` holds."""
    return tuple((counter.min, counter.max) for counter in v.counters.values())


def _within(index: int, ranges: tuple, amount):
    """An `add:` amount (p, x, counters[, card]) -> int no larger than the width of counter
    `index`'s range (however large the formula's value: a counter squared), which changes
    nothing once each addition stops at the bounds (`engine.moverules`)."""
    low, high = ranges[index]
    widest = high - low

    def bounded(p, x, counters, *card):
        return min(max(amount(p, x, counters, *card), -widest), widest)
    return bounded


def _scope(cards, card_index, excepted=None):
    """The card indices of the card names `cards` (None: every card) less those of `excepted`
    (None: none); `card_index` maps a name to its index, or (dice) a face to the indices of
    every throw showing it."""
    if cards is None and not excepted:
        return None
    found = _indices(card_index.keys() if cards is None else cards, card_index)
    return frozenset(found - _indices(excepted or (), card_index))


def _indices(names, card_index) -> set:
    found = set()
    for c in names:
        index = card_index.get(c)
        if isinstance(index, tuple):
            found.update(index)
        elif index is not None:
            found.add(index)
    return found


def _marked_pawns(k: int, which: str, mechanics) -> tuple:
    """(mark kind index, "bumped" | "moved", None or table[p][c]: colour c's pawns are marked when
    player colour p moves) of an `after: mark:` entry (`rules.vocab.MarkedPawns`)."""
    kind, _, relation = which.partition(" ")
    return k, kind, mechanics.relation_table(relation) if relation else None


def _recipients(to: str, mechanics, start: tuple):
    """`Consequence.to` of an `after:` entry's `to:` (`rules.vocab.CounterTarget`); None for the mover."""
    if to == "mover":
        return None
    kind, _, relation = to.partition(" ")
    bumped = kind == "bumped"
    if not bumped:  # a relation to the mover, or every player
        relation = "" if to == "every" else to
    return recipients(bumped, mechanics.relation_table(relation) if relation else None, start)


def compile_vocab(v, compiled: dict, card_index: dict, programs, asts: dict) -> tuple[tuple, tuple, tuple]:
    filters = []
    names = list(v.counters)
    stacked = programs.layout.stacked
    if v.rules.must_bump:
        tree = dsl.parse_expr(MUST_BUMP)
        must_bump = programs.expression(tree, bool, variables=MOVE_VARIABLES)
        filters.append(_filter(None, True, must_bump, tree, names, MUST_BUMP_LABEL, stacked))
    for i, f in v.filters.items():
        key = "must" if f.must is not None else "prefer"
        label = f.label or f"filters.{i}: {key} {getattr(f, key)}"
        path = ("filters", i, key)
        scope = _scope(f.cards, card_index, getattr(f, "except_cards", None))
        filters.append(_filter(scope, key == "prefer", compiled[path], asts.get(path), names, label, stacked))
    after = []
    ranges = counter_ranges(v)
    for i, c in v.after.items():
        adds = tuple((names.index(name), _within(names.index(name), ranges, _on_move(compiled[("after", i, "add", name)])))
                     for name in c.add)
        label = c.label or f"after.{i}: when {c.when}"
        marks = tuple(_marked_pawns(list(v.marks).index(name), which, programs.m) for name, which in c.mark.items())
        scope = _scope(c.cards, card_index, getattr(c, "except_cards", None))
        after.append(Consequence(scope, _on_move(compiled[("after", i, "when")]), adds,
                                 c.draw_again, label, marks,
                                 _consequence_on_events(i, c, compiled, asts, names, ranges, stacked),
                                 compiled.get(("after", i, "then")), getattr(c, "forfeits", False),
                                 getattr(c, "ends_turn", False), _recipients(getattr(c, "to", "mover"), programs.m,
                                                                             programs.layout.start)))
    counters = tuple((name, counter.start, counter.label or name.replace("_", " ")) for name, counter in v.counters.items())
    return tuple(filters), tuple(after), counters
