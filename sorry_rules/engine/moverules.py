"""Filters on moves and consequences of moves (the rule file's `filters:` and `after:`),
compiled to plain data and closures; the engine runs them only when a rule file has some.

A compiled condition is `test(p, move, counters) -> bool|int`: `p` is the colour of the
player to move, `move` an `engine.game.Move`, `counters` the per-colour counter values
before the move (`State.counters`); judged on the move's events alone it is
`test(p, events, counters, card)` (`on_events`).

Contract:
- A `MoveFilter` judges only the moves of its `cards` (None: every move). `must`: a move in
  scope for which the test fails is removed. `prefer`: when the test holds for a move in
  scope, the moves in scope for which it fails are removed; with `cards`, each listed
  card's moves are judged on their own (a card none of whose moves passes keeps them all),
  without, every move together (`engine.table.Table.filtered` applies the filters in order).
- `run_consequences(after, p, move, counters, ranges, seats)`: every consequence whose
  `cards` include the move's card and whose `when` holds, all judged on the move and the
  counters before any of them, contributes its counter additions (applied in file order,
  each stopping at the counter's (lowest, highest) in `ranges`: `Game.counter_ranges`) and
  its extra card. The additions go to the mover's counters, or to those of the players its
  `to` names (`recipients`: seated players of a relation to the mover, or the owner of each
  pawn the move sent back to Start, once a pawn).
  Returns `(counters after, extra cards, the consequences that fired)`; the engine then
  places the marks of the fired consequences (`engine.marks.consequence_marks`).
- `run_on_events(after, p, card, events, counters, ranges, seats)`: the same judged on a move's card
  and events alone, for consequences that all have `on_events` (decided by the compiler);
- a consequence with `then` (a maker, as `compiler.plays`') has the moving player play that
  effect right after the move, as part of it (`engine.table.Table.followed`); one with
  `forfeits` also follows a forfeited card or throw (no facts: every fact is 0).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from sorry_rules.engine.events import bumped_to


class MoveFilter(NamedTuple):
    cards: frozenset | None   # card indices in scope; None: every card
    prefer: bool              # prefer (True) or must (False)
    test: Callable            # (p, move, counters) -> bool
    label: str                # words for why / explain
    on_events: Callable | None = None  # (p, events, counters, card) -> bool, the same test judged on the move's
    #                                    events alone, where it reads nothing else (facts, counters, numbers)
    reads: frozenset = frozenset()     # the event kinds `on_events` reads (`facts.READS`)


class Consequence(NamedTuple):
    cards: frozenset | None
    when: Callable            # (p, move, counters) -> bool
    adds: tuple               # ((counter index, amount(p, move, counters) -> int), ...)
    draw_again: bool
    label: str
    marks: tuple = ()         # ((mark kind index, "bumped" | "moved", None or table[p][c]: colour c's pawns only
    #   when p moves), ...): marks placed (engine.marks)
    on_events: tuple | None = None  # (when, adds, reads): `when` and `adds` judged on the move's events alone,
    #   (p, events, counters, card), where they read nothing else (facts, counters, numbers); `reads`: the event kinds
    #   they read (`facts.READS`)
    then: Callable | None = None  # maker of the effect the player plays right after the move (module contract)
    forfeits: bool = False    # also follows a forfeited card or throw
    ends_turn: bool = False   # the play ends the turn: the extra cards still due are not taken
    to: Callable | None = None  # whose counters `adds` change: `recipients(p, events, seats)`; None: the mover's


def recipients(bumped: bool, table: tuple | None, start: tuple) -> Callable:
    """`Consequence.to`: `(p, events, seats) -> ((colour, times), ...)`, the players whose
    counters the additions change and how many times each: with `bumped`, the owner of each
    pawn the move of `events` sent back to its Start and left there (`events.bumped_to`), once
    a pawn; else each seated colour; `table[p][o]` (a relation to the mover,
    `Track.relation_table`) narrows either to the colours o of that relation (None: any)."""
    if bumped:
        def owners(p, events, seats):
            return tuple((c, n) for (c, _), n in sorted(bumped_to(start, events).items())
                         if table is None or table[p][c])
        return owners

    def players(p, events, seats):
        return tuple((c, 1) for c in seats if table is None or table[p][c])
    return players


def run_consequences(after, p: int, move, counters, ranges: tuple = (), seats: tuple = ()) -> tuple[tuple, int, tuple]:
    fired = tuple(c for c in after if (c.cards is None or move.card in c.cards) and c.when(p, move, counters))
    if not fired:
        return counters, 0, ()
    changes = [(c.to, i, amount(p, move, counters)) for c in fired for i, amount in c.adds]
    return _settled(p, fired, changes, counters, ranges, move.events, seats)


def run_on_events(after, p: int, card: int, events: tuple, counters, ranges: tuple = (),
                  seats: tuple = ()) -> tuple[tuple, int, tuple]:
    """`run_consequences` for a move of `card` with `events`, every consequence judged by its
    `on_events` (call only when each has one)."""
    fired = tuple(c for c in after if (c.cards is None or card in c.cards) and c.on_events[0](p, events, counters, card))
    if not fired:
        return counters, 0, ()
    changes = [(c.to, i, amount(p, events, counters, card)) for c in fired for i, amount in c.on_events[1]]
    return _settled(p, fired, changes, counters, ranges, events, seats)


def _settled(p: int, fired: tuple, changes: list, counters, ranges: tuple, events: tuple,
             seats: tuple) -> tuple[tuple, int, tuple]:
    """(counters with the `changes` (`Consequence.to` or None: player p's, index, amount)
    added in order, each addition stopping at the counter's (lowest, highest) in `ranges`
    when given, the bonus turns the `fired` consequences give, `fired`)."""
    extra = sum(1 for c in fired if c.draw_again)
    if changes and all(to is None for to, _, _ in changes):  # the mover's counters alone: the common case
        mine = list(counters[p])
        for _, i, value in changes:
            value += mine[i]
            if ranges:
                low, high = ranges[i]
                value = low if value < low else high if value > high else value
            mine[i] = value
        counters = counters[:p] + (tuple(mine),) + counters[p + 1:]
    elif changes:
        rows: dict = {}
        for to, i, value in changes:
            for c, times in ((p, 1),) if to is None else to(p, events, seats):
                row = rows.get(c)
                if row is None:
                    row = rows[c] = list(counters[c])
                total = row[i] + value * times
                if ranges:
                    low, high = ranges[i]
                    total = low if total < low else high if total > high else total
                row[i] = total
        counters = tuple(tuple(rows[c]) if c in rows else values for c, values in enumerate(counters))
    return counters, extra, fired
