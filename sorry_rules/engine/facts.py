"""Facts about a move, read from its events (`engine.events`): what filters and
consequences judge (docs/REFERENCE.md section 2.3).

Contract: every fact is `fact(layout, events, colours) -> int`, the number of pawns of the
colours `colours` (a tuple of colour indices) the fact is true of in `events`; pure, cheap,
and only ever run for rule files that use facts. `FACTS` maps the DSL name to the function;
the compiler knows nothing else about them. `READS` maps it to the event kinds it reads
(a move without events of those kinds has the fact 0).
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH


def bumps(layout, events, colours) -> int:
    """Pawns of `colours` sent back to Start (by landing, a slide or a Sorry!)."""
    return sum(1 for e in events if e[0] == BUMP and e[1] in colours)


def slides(layout, events, colours) -> int:
    """Slides taken by pawns of `colours`."""
    return sum(1 for e in events if e[0] == SLIDE and e[1] in colours)


def reaches_home(layout, events, colours) -> int:
    """Pawns of `colours` that reach their Home by a step of the move."""
    home = layout.home
    return sum(1 for e in events if e[0] in STEP_KINDS and e[1] in colours and e[3] == home[e[1]])


def enters_safety(layout, events, colours) -> int:
    """Steps of pawns of `colours` from the track into a square of their safety zone."""
    T, X = layout.T, layout.X
    return sum(1 for e in events if e[0] in STEP_KINDS and e[1] in colours and e[2] < T <= e[3] < X)


def switches(layout, events, colours) -> int:
    """Pawns of `colours` that change squares by a switch (either side of it)."""
    return sum((e[1] in colours) + (e[3] in colours) for e in events if e[0] == SWITCH)


def moves(layout, events, colours) -> int:
    """Moves pawns of `colours` make on their own, not squares: one per step event (a start,
    a step of any length, a Sorry! placement, a `move`; each part of a split)."""
    return sum(1 for e in events if e[0] in STEP_KINDS and e[1] in colours)


def leaves_start(layout, events, colours) -> int:
    """Pawns of `colours` that leave their Start by a step of the move (a start, a Sorry!
    placement, a `move` out of Start)."""
    start = layout.start
    return sum(1 for e in events if e[0] in STEP_KINDS and e[1] in colours and e[2] == start[e[1]])


FACTS = {"bumps": bumps, "slides": slides, "reaches_home": reaches_home, "enters_safety": enters_safety,
         "switches": switches, "moves": moves, "leaves_start": leaves_start}

#: the event kinds each fact reads
READS = {"bumps": frozenset({BUMP}), "slides": frozenset({SLIDE}), "reaches_home": frozenset(STEP_KINDS),
         "enters_safety": frozenset(STEP_KINDS), "switches": frozenset({SWITCH}), "moves": frozenset(STEP_KINDS),
         "leaves_start": frozenset(STEP_KINDS)}
assert tuple(READS) == tuple(FACTS)
