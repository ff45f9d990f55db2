"""A split whose parts each have their own direction and pawn (`split N into forward,
backward opponent`, docs/REFERENCE.md section 2.1): the parts are played in the order
written, each part >= 1 step and all N used, each judged on the board the previous part
left (bumps and slides per part, as RULES A2/A3 say of the 7).

Which pawn a part may move: `None`, a pawn of the player's colours that no earlier part
moved; `"any"`, any pawn of the player's colours (the same again included); a relation
(`own`, `partner`, `opponent`, `other`), a pawn of that relation to the player's colour p,
whoever controls it, that no earlier part moved.

Contract: `split_parts(m, steps, parts, p, board)` returns every outcome (see
`engine.mechanics`) and never changes `board`; parts move along the plain tables, or along
the routes of `geometry:` (turns, bounces, pawns that cannot be passed) when the variant
has them. Events are `("split", c, frm, to)` per part, like the 7's.
"""

from __future__ import annotations


def split_parts(m, steps: int, parts: tuple, p: int, board) -> list:
    out: list = []
    X = m.X
    colours_of = [_colours(m, p, who) for _, who in parts]

    def extend(b, i: int, remaining: int, used: frozenset, events: list) -> None:
        direction, who = parts[i]
        last = i == len(parts) - 1
        sizes = (remaining,) if last else range(1, remaining - (len(parts) - 1 - i) + 1)
        for c in colours_of[i]:
            squares = b.pos[c]
            for index in range(len(squares)):
                sq = squares[index]
                if sq >= X or (who != "any" and (c, index) in used):
                    continue
                for n in sizes:
                    for nb, nevents in _landings(m, b, direction, n, c, sq, events):
                        if last:
                            out.append((nb.placement(), tuple(nevents), 0))
                        else:  # pawns keep their index in `pos[c]` when they move
                            extend(nb, i + 1, remaining - n, used | {(c, index)}, nevents)

    if steps >= len(parts):
        extend(board, 0, steps, frozenset(), [])
    return out


def _ways(m, direction: str, n: int, c: int, sq: int):
    if m.routes is not None:
        return m.routes.options(direction, n)[c][sq]
    to = (m.layout.forward(n) if direction == "forward" else m.layout.backward(n))[c][sq]
    return ((to, (), ()),) if to >= 0 else ()


def _landings(m, b, direction: str, n: int, c: int, sq: int, events: list):
    """(board, events) after colour c's pawn on `sq` goes each distinct way of n steps."""
    X, ends = m.X, set()
    for to, passed, _ in _ways(m, direction, n, c, sq):
        if to in ends or (to < X and to != sq and b.occ[to] == c):
            continue
        if passed and not m.routes.passable(c, b.occ, sq, passed):
            continue
        ends.add(to)
        nb, nevents = b.copy(), list(events)
        if to == sq:  # back on the square it left (a bounce)
            nevents.append(("split", c, sq, to))
            if m.slide(nb, c, to, nevents):
                yield nb, nevents
        elif m.land(nb, c, sq, to, nevents, "split"):
            yield nb, nevents


def _colours(m, p: int, who) -> tuple:
    if who is None or who == "any":
        return tuple(m.control_of[p])
    return tuple(o for o in range(m.layout.C) if m.matches(p, o, who))
