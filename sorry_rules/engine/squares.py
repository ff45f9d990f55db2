"""Squares that hold several pawns and named squares, as per-square tables of a track layout.

A rule file says how many pawns a track or safety square holds (`board.hold`, 1 on a Sorry!
board) and names squares of every side (`board.squares`: `star`, `safe`, any word) with what
they change: whether a landing captures there (`capture`), whether pawns of several colours
may stand there together (`share`) and how many pawns they hold (`hold`). The compiler gives
`Layout` the `SquareName`s; `Layout` keeps the tables below, which the landing rule
(`engine.track.Track.landing`), the position (`engine.position`), selectors (`engine.pawns`)
and the front ends read.

Contract (`square_tables(layout, hold, names)`):
- `hold[sq]`: pawns square sq holds, all colours together (Start: every pawn; Home: every pawn
  of its colour, or `home_hold`);
- `share[sq]`: pawns of several colours may stand on sq together;
- `capture[sq]`: None (a landing there bumps as `rules.bump` says) or the frozenset of step
  kinds (`engine.events.STEP_KINDS`) that may bump there (empty: none);
- `safe[sq]`: None, or the frozenset of colours whose pawns are never captured on sq (their
  relation to the colour of sq's side is in a name's `safe`);
- `named[name]`: ((square, owner colour), ...) of every square of that name, in square order;
  the built-in names `start_exit` and `safety_entry` are always there;
- `names_at[sq]`: the declared names of square sq (track squares only; () for the others);
- `counted`: the squares below it are counted one by one by the position (`Position.cnt`): X,
  or X + C when a Home holds fewer pawns than its colour has (Homes are squares X .. X+C-1);
- `several`: whether any square may hold two pawns or a Home is counted;
- `stacked`: `several`, or a square where a landing captures otherwise than `rules.bump`
  says (`capture`, `safe`): the engine then judges every landing square by square (`Track.arrive`);
  else every table is the Sorry! board's and the engine plays as it always has: one pawn a
  square.
"""

from __future__ import annotations

from typing import NamedTuple

BUILT_IN = ("start_exit", "safety_entry")


class SquareName(NamedTuple):
    """One name of `board.squares`, for the engine."""

    name: str
    offsets: tuple          # offsets on every side
    capture: object         # True (as rules.bump), False (never) or a tuple of step kinds
    share: bool             # several colours may stand there together
    hold: int | None        # pawns it holds (None: the board's)
    label: str
    symbol: str
    safe: tuple = ()        # per side colour c, the colours whose pawns are never captured there (() : none)


class SquareTables(NamedTuple):
    counted: int
    hold: tuple
    share: tuple
    capture: tuple
    safe: tuple
    named: dict
    names_at: tuple
    stacked: bool
    several: bool
    symbols: dict           # name -> one character (the screen's glyph)
    labels: dict            # name -> words


def square_tables(layout, hold: int, names: tuple = (), pawns: int = 12, home_hold: int | None = None) -> SquareTables:
    """The per-square tables of `layout` (module contract); `pawns` per colour bound what a
    square can ever hold."""
    size, T, X, C, S = layout.size, layout.T, layout.X, layout.C, layout.side
    every = pawns * C
    homes = pawns if home_hold is None else min(home_hold, pawns)
    holds = [min(hold, every)] * X + [homes] * C + [every] * (size - X - C)
    share = [False] * size
    capture: list = [None] * size
    safe: list = [None] * size
    named = {"start_exit": tuple((sq, c) for c, sq in enumerate(layout.start_exit)),
             "safety_entry": tuple((sq, c) for c, sq in enumerate(layout.safety_entry))}
    names_at: list = [() for _ in range(size)]
    symbols, labels = {}, {}
    for entry in names:
        squares = []
        for c in range(C):
            for offset in entry.offsets:
                sq = (c * S + offset) % T
                squares.append((sq, c))
                names_at[sq] = names_at[sq] + (entry.name,)
                if entry.hold is not None:
                    holds[sq] = min(entry.hold, every)
                share[sq] = share[sq] or entry.share
                if entry.capture is not True:
                    kinds = frozenset() if entry.capture is False else frozenset(entry.capture)
                    capture[sq] = kinds if capture[sq] is None else capture[sq] & kinds
                if entry.safe:
                    safe[sq] = entry.safe[c] if safe[sq] is None else safe[sq] | entry.safe[c]
        named[entry.name] = tuple(sorted(squares))
        symbols[entry.name] = entry.symbol
        labels[entry.name] = entry.label or entry.name.replace("_", " ")
    share = [shared and holds[sq] > 1 for sq, shared in enumerate(share)]  # a square of one pawn shares nothing
    counted = X + C if homes < pawns else X
    several = any(h > 1 for h in holds[:X]) or any(share) or counted > X
    stacked = several or any(kinds is not None for kinds in capture) or any(safe)
    return SquareTables(counted, tuple(holds), tuple(share), tuple(capture), tuple(safe), named, tuple(names_at), stacked,
                        several, symbols, labels)
