"""The integer tables generated move functions (`compiler.codegen`) read for `geometry:`.

A route step (`engine.routes.step`) is, per colour and square, a short list of ways, each
an end square and the squares passed on the way; which ways are taken depends on the board
only through the pawns on the squares passed. So the tables hold just integers:

- `step_ways(m, direction, steps)[c][sq]`: a tuple of `(to, passed)` per distinct way of a
  colour-c pawn on exclusive square sq, in `Routes.options` order, where `passed` keeps only
  the squares (other than sq) on which some pawn could stop colour c (`Routes.no_pass`);
  None when a way could not be judged by the generated template (two ways to one end with
  pawns that cannot be passed, or a way back onto a track square that may slide).
- `split_ways(m, steps)[c][sq][n]`: the same for n forward steps (n = 1..steps; index 0
  is empty), the ways of the split along routes (`engine.routes.split`); None as above.
- `blockers(m, c)[s][o]`: whether a colour-o pawn on exclusive square s stops colour c
  passing (`Routes.passable`).

Contract: with these tables, "every way whose `passed` squares hold no blocking pawn, first
way per end square" is exactly the ways `engine.routes.step` lands. `step_ways` is computed
once per mechanics, direction and steps, and remembered (the writers ask per card and colour).
"""

from __future__ import annotations

import weakref

#: mechanics -> {(direction, steps): step_ways' answer}
_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def blockers(m, c: int) -> tuple:
    routes, T, C = m.routes, m.T, m.layout.C
    return tuple(tuple(bool(routes.walls and routes.no_pass[c][o][0 if s < T else 1]) for o in range(C))
                 for s in range(m.X))


def step_ways(m, direction: str, steps: int) -> tuple | None:
    known = _KNOWN.setdefault(m, {})
    key = (direction, int(steps))
    if key not in known:
        known[key] = _step_ways(m, direction, int(steps))
    return known[key]


def _step_ways(m, direction: str, steps: int) -> tuple | None:
    routes, X = m.routes, m.X
    table = routes.options(direction, steps)
    out = []
    for c in range(m.layout.C):
        block = blockers(m, c)
        rows = []
        for sq in range(X):
            ways, ends = [], set()
            for to, passed, _ in table[c][sq]:
                checked = tuple(s for s in passed if s != sq and s < X and any(block[s]))
                if to in ends:
                    if routes.walls:
                        return None  # which way reaches `to` first depends on the board
                    continue
                if to == sq and sq < m.T and m.slide_here[c][sq] is not None:
                    return None
                ends.add(to)
                ways.append((int(to), checked))
            rows.append(tuple(ways))
        out.append(tuple(rows))
    return tuple(out)


def split_ways(m, steps: int) -> tuple | None:
    tables = [step_ways(m, "forward", n) for n in range(1, steps + 1)]
    if any(table is None for table in tables):
        return None
    return tuple(tuple(((),) + tuple(table[c][sq] for table in tables) for sq in range(m.X)) for c in range(m.layout.C))
