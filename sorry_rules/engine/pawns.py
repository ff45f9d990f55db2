"""Pawn selectors and destinations: choosing pawns by owner, zone, marks and being alone, and
the primitives that act on the chosen pawn (send it, move it, mark it, unmark it).

A `Selector` is plain data built by the compiler from the DSL (docs/REFERENCE.md section
2.4): `owner[p][c]` says whether colour c's pawns are chosen for player p (own, partner,
opponent, other, controlled, any), `zones` the zones allowed (start, home, track, safety,
start_exit; empty: any), `marked` / `unmarked` the mark kinds a chosen pawn must carry /
must not carry, and `alone` whether it must be the only pawn on its square.

Contract:
- `select(sel, layout, p, pos, marks, moved)` lists the chosen pawns as `(colour, square,
  carried)`: one per square below X holding such pawns, and one per distinct kind of pawn on
  Start or Home (`carried`: the (mark kind, by) such a pawn carries, for the "carry" events),
  or with `every` one per pawn chosen there;
  `pos[c]` lists colour c's squares (a Board or a PlacementView), `marks` as `State.marks`,
  `moved` {(colour, square): pawns} the move being followed moved there (`events.moved_to`),
  or, for a `bumped` selector, sent back there (`events.bumped_to`; `followed` picks which).
  Named squares (`in star`, `in opponent start_exit`) count as places beside the zones;
  `farthest` / `nearest` keep, of the pawns chosen, those fewest / most steps from Home.
- `count(sel, layout, p, pos, marks, moved)` is how many pawns are chosen (pawns sharing a
  square counted one by one; with `moved`, only those the move brought there); for a
  `moved_only` selector `count_moved(sel, layout, p, moved)` gives the same without the
  position (a move's events tell it all).
- The primitives `send`, `move`, `mark` and `unmark` take their bound arguments, then `p` and
  a `Board`, and return outcomes as every `Mechanics` primitive (never mutating the board).
  `send` puts the pawn on its destination without it moving by itself: to its Start it is a
  bump ("bump" event, counted by every bump fact); elsewhere a ("send", colour, from, to)
  event, illegal onto an occupied square. `move` is the pawn's own move ("move" step): it
  lands as a step does (bumps, slides). A pawn in Home is never sent or moved (R33); a pawn
  whose marks make it untouchable is never sent; one that is immobile never moves; a
  destination that is the pawn's own square is no move. With `every` in the selector, `send`,
  `mark` and `unmark` give one outcome acting on every chosen pawn they can act on (none:
  no outcome) instead of one outcome per pawn.
"""

from __future__ import annotations

from typing import NamedTuple

from sorry_rules.engine.events import BUMP
from sorry_rules.engine.option import MOVE as PLAYED, Option
from sorry_rules.engine.marks import CARRY, MARK, SEND, UNMARK, count_on, shared_kinds, zone

MOVE = "move"
OWNERS = ("own", "partner", "opponent", "other", "controlled", "any")
ZONES = ("start", "home", "track", "safety", "start_exit")


class Selector(NamedTuple):
    owner: tuple          # owner[p][c]: colour c's pawns may be chosen by player p
    zones: frozenset      # allowed zones (ZONES); empty: anywhere (unless `squares`)
    marked: tuple         # mark kind indices a chosen pawn carries
    unmarked: tuple       # mark kind indices a chosen pawn does not carry
    alone: bool           # the pawn is the only one on its square
    squares: tuple | None = None  # squares[c]: the named squares a colour-c pawn may stand on (besides `zones`)
    moved: bool = False   # only pawns the move being followed moved (`Position.moved`, or the move's events)
    rank: str | None = None  # "farthest" / "nearest": only the chosen pawns fewest / most steps from Home
    every: bool = False   # send, mark, unmark: one option acting on every chosen pawn, not one option per pawn
    unmoved: bool = False  # only pawns the move being followed did not move (all of them when none moved)
    bumped: bool = False  # with `moved`: the pawns chosen are those the move sent back to Start (`Position.bumped`)


def followed(sel: Selector, pos) -> dict:
    """The pawns of the move being followed that `sel`'s `moved` reads on a `Position`: those it
    sent back to Start for a `bumped` selector (`events.bumped_to`), else those it moved
    (`events.moved_to`)."""
    return pos.bumped if sel.bumped else pos.moved


def owner_table(mechanics, owner: str) -> tuple:
    """owner[p][c] for one OWNERS word; relations judged from the player p."""
    C = mechanics.layout.C
    if owner == "any":
        return tuple(tuple(True for _ in range(C)) for _ in range(C))
    if owner == "controlled":
        return tuple(tuple(c in mechanics.control_of[p] for c in range(C)) for p in range(C))
    return mechanics.relation_table(owner)


def _in_zone(layout, sel: Selector, c: int, sq: int) -> bool:
    """Whether a colour-c pawn on sq stands where `sel` allows: in one of its zones or on one
    of its named squares (anywhere when it names neither)."""
    zones, squares = sel.zones, sel.squares
    if not zones and squares is None:
        return True
    if zones and (zone(layout, c, sq) in zones or ("start_exit" in zones and sq == layout.start_exit[c])):
        return True
    return squares is not None and sq in squares[c]


def _ranked(sel: Selector, layout, chosen: list) -> list:
    """The chosen pawns fewest (`farthest`) or most (`nearest`) steps from their Home."""
    if sel.rank is None or not chosen:
        return chosen
    far = sel.rank == "farthest"
    steps = [layout.distance_home(c, sq) for c, sq, _ in chosen]
    best = min(steps) if far else max(steps)
    return [pawn for pawn, n in zip(chosen, steps) if n == best]


def _alone(pos, c: int, sq: int, exclusive: int) -> bool:
    if sq >= exclusive:
        return pos[c].count(sq) == 1
    return sum(squares.count(sq) for squares in pos) == 1


def _marks_fit(sel: Selector, marks: tuple, c: int, sq: int) -> bool:
    for k in sel.marked:
        if not count_on(marks, k, c, sq):
            return False
    for k in sel.unmarked:
        if count_on(marks, k, c, sq):
            return False
    return True


def _pawns_at(sel: Selector, pos, moved, c: int, sq: int) -> int:
    """How many of colour c's pawns on `sq` a selector with `moved` may choose: those the move
    brought there; with `unmoved`, the others; without either, all of them."""
    if sel.moved:
        return moved[(c, sq)]
    here = pos[c].count(sq)
    return here - moved.get((c, sq), 0) if sel.unmoved and moved else here


def _left_out(sel: Selector, pos, moved, c: int, sq: int) -> bool:
    """Whether `moved` / `unmoved` leave out every colour-c pawn on `sq`."""
    if sel.moved:
        return (c, sq) not in moved
    return bool(sel.unmoved and moved) and moved.get((c, sq), 0) >= pos[c].count(sq)


def select(sel: Selector, layout, p: int, pos, marks: tuple, moved=None) -> list:
    if sel.marked and not any(marks) or sel.moved and not moved:
        return []  # no marks to carry, no pawn moved
    out = []
    X = layout.X
    row = sel.owner[p]
    for c, squares in enumerate(pos):
        if not squares or not row[c]:
            continue
        for sq in sorted(set(squares)):
            if not _in_zone(layout, sel, c, sq) or (sel.alone and not _alone(pos, c, sq, X)) or \
                    ((sel.moved or sel.unmoved) and _left_out(sel, pos, moved, c, sq)):
                continue
            if sq < X:
                if not marks or _marks_fit(sel, marks, c, sq):
                    out.append((c, sq, ()))
                continue
            if sel.every:
                out.extend((c, sq, carried) for carried in _every_shared(sel, marks, c, sq,
                                                                         _chosen_here(sel, pos, moved, marks, c, sq)))
                continue
            for carried in (shared_kinds(marks, c, sq, squares.count(sq)) if marks else [()]):
                has = {k for k, _ in carried}
                if all(k in has for k in sel.marked) and not any(k in has for k in sel.unmarked):
                    out.append((c, sq, carried))
    return _ranked(sel, layout, out)


def _chosen_here(sel: Selector, pos, moved, marks: tuple, c: int, sq: int) -> int:
    """How many of colour c's pawns on `sq` `sel` chooses: those `_pawns_at` gives, no more
    than carry each `marked` kind or lack each `unmarked` one (marks counted per kind)."""
    here = _pawns_at(sel, pos, moved, c, sq)
    if marks:
        for k in sel.marked:
            here = min(here, count_on(marks, k, c, sq))
        for k in sel.unmarked:
            here = min(here, pos[c].count(sq) - count_on(marks, k, c, sq))
    return max(here, 0)


def _every_shared(sel: Selector, marks: tuple, c: int, sq: int, chosen: int) -> list:
    """`every` on a shared square (Start, Home) where `sel` chooses `chosen` colour-c pawns
    (`_chosen_here`): the marks each carries, one entry a pawn: each `marked` kind, no
    `unmarked` one, and the other kinds on the first chosen pawns, as many as carry them."""
    bys = {k: sorted(e[2] for e in entries if e[0] == c and e[1] == sq) for k, entries in enumerate(marks)}
    return [tuple((k, by[i]) for k, by in bys.items() if i < len(by) and k not in sel.unmarked) for i in range(chosen)]


def moved_only(sel) -> bool:
    """Whether `count` of `sel` is decided by the pawns a move moved alone (`count_moved`): a
    `moved` selector that reads no marks, no being alone and no rank (`sel`: a `Selector`, or
    the DSL's selector as written, which has the same fields)."""
    return (sel.moved or sel.bumped) and not sel.alone and sel.rank is None and not sel.marked and not sel.unmarked


def count_moved(sel: Selector, layout, p: int, moved: dict) -> int:
    """`count` of a `moved_only` selector, from `moved` alone ({(colour, square): pawns} the
    move brought there and that stand there after it: `events.moved_to`)."""
    row = sel.owner[p]
    return sum(n for (c, sq), n in moved.items() if row[c] and _in_zone(layout, sel, c, sq))


def count(sel: Selector, layout, p: int, pos, marks: tuple, moved=None) -> int:
    if sel.marked and not any(marks) or sel.moved and not moved:
        return 0
    total = 0
    X = layout.X
    row = sel.owner[p]
    if sel.rank is not None:  # the pawns at the extreme: count them one by one
        return sum(_pawns_at(sel, pos, moved, c, sq)
                   for c, sq, _ in _ranked(sel, layout, select(sel._replace(rank=None), layout, p, pos, marks, moved)))
    for c, squares in enumerate(pos):
        if not squares or not row[c]:
            continue
        for sq in set(squares):
            if not _in_zone(layout, sel, c, sq) or (sel.alone and not _alone(pos, c, sq, X)) or \
                    ((sel.moved or sel.unmoved) and _left_out(sel, pos, moved, c, sq)):
                continue
            total += _chosen_here(sel, pos, moved, marks, c, sq)
    return total


def destination(layout, dest, c: int) -> int:
    """The square of a destination for a colour-c pawn: "start", "home", "start_exit", or
    ("track", n) / ("safety", k)."""
    if dest == "start":
        return layout.start[c]
    if dest == "home":
        return layout.home[c]
    if dest == "start_exit":
        return layout.start_exit[c]
    kind, n = dest
    return n if kind == "track" else layout.T + c * layout.L + n - 1


def _carry(c: int, sq: int, carried) -> tuple:
    return tuple((CARRY, c, sq, k, by) for k, by in carried)


# ---- makers over a Position (engine.track): options of the card (engine.option) ----------------------------------
def send(track, sel: Selector, dest, p: int, flags: int, card):
    """The maker of `send SELECTOR to DEST` (module contract)."""
    layout, X, start, home, kinds = track.layout, track.X, track.start, track.layout.home, track.kinds

    def gen(pos, out):
        guard, taken, chosen = pos.guard, set(), []
        for c, sq, carried in select(sel, layout, p, pos.pos, pos.marks, followed(sel, pos)):
            to = destination(layout, dest, c)
            if to == sq or (c, sq) in guard or sq == home[c] or any(kinds[k].untouchable for k, _ in carried):
                continue
            if to < X and (pos.occ[to] >= 0 or to in taken):
                continue
            events = _carry(c, sq, carried) + ((BUMP, c, sq) if to == start[c] else (SEND, c, sq, to),)
            if sel.every:  # every pawn chosen: on a square below X that holds several, each of them chosen
                events *= _pawns_at(sel, pos.pos, followed(sel, pos), c, sq) if sq < X else 1
                if to < X:
                    taken.add(to)
            chosen.append(events)
        _each_or_every(sel, chosen, lambda events: track.option(events, flags, card), out)
    return gen


def move(track, sel: Selector, dest, p: int, flags: int, card):
    """The maker of `move SELECTOR to DEST`: the pawn's own move, landing as a step does."""
    layout, home, kinds = track.layout, track.layout.home, track.kinds

    def gen(pos, out):
        still = pos.still
        for c, sq, carried in select(sel, layout, p, pos.pos, pos.marks, followed(sel, pos)):
            to = destination(layout, dest, c)
            if to == sq or sq == home[c] or (c, sq) in still or any(kinds[k].immobile for k, _ in carried):
                continue
            for events in track.landings(pos, c, sq, to, MOVE):
                out.append(track.option(_carry(c, sq, carried) + tuple(events), flags, card))
    return gen


def _each_or_every(sel: Selector, chosen: list, option, out: list) -> None:
    """`option(events)` of each chosen pawn's event tuple, or with `every` one of them all
    (none chosen: none)."""
    if sel.every:
        if chosen:
            out.append(option(sum(chosen, ())))
    else:
        out.extend(option(events) for events in chosen)


def mark(track, sel: Selector, k: int, p: int, flags: int, card):
    """The maker of `mark KIND SELECTOR`: a mark on a chosen pawn, one option each (no pawn
    moves); with `every`, on all of them in one option. A mark that would change nothing is
    not placed: in Start or Home on a pawn that carries it already (`marks.fit`), elsewhere
    on a pawn that carries it placed by the same player (a mark placed by another player is
    taken over: its placer changes)."""
    layout, X = track.layout, track.layout.X

    def gen(pos, out):
        placed = pos.marks[k] if pos.marks else ()
        chosen = select(sel, layout, p, pos.pos, pos.marks, followed(sel, pos))
        _each_or_every(sel, [((MARK, c, sq, k, p),) for c, sq, carried in chosen
                             if not (any(kind == k for kind, _ in carried) if sq >= X else (c, sq, p) in placed)],
                       lambda events: Option(card, events, flags, PLAYED), out)
    return gen


def unmark(track, sel: Selector, k: int, p: int, flags: int, card):
    """The maker of `unmark KIND SELECTOR`: one mark taken off each chosen pawn carrying it."""
    layout = track.layout

    def gen(pos, out):
        marks, X = pos.marks, layout.X
        # in Start or Home a chosen kind of pawn carries the mark or not (`carried`); elsewhere the square says
        chosen = select(sel, layout, p, pos.pos, marks, followed(sel, pos))
        _each_or_every(sel, [((UNMARK, c, sq, k, p),) for c, sq, carried in chosen
                             if (any(kind == k for kind, _ in carried) if sq >= X else count_on(marks, k, c, sq))],
                       lambda events: Option(card, events, flags, PLAYED), out)
    return gen
