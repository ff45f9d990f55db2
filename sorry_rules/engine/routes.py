"""Movement geometry as data: the routes a pawn may take, and which pawns stop a pawn
passing or landing (the rule file's `geometry:`; docs/REFERENCE.md `geometry`).

The board is a graph of labelled edges per colour: `forward` (round the track, into the own
safety zone at the safety entry, up the zone to Home), `backward` (down the zone, out onto
the track at the entry, anticlockwise), a `turn` (an extra edge a rule file adds at one
square of the pawn's own side, taken by moves of one direction: into the safety zone, or
along the track past it), and `bounce` (past Home, back down the zone). `past_home` says what
a step from Home is: illegal (R33), stay in Home (H19), bounce (H32) or back to Start.

Contract:
- `Geometry` is plain frozen data built by the compiler; `Geometry()` is the standard
  board (no turns, no blockers, illegal past Home).
- `Routes(layout, geometry, relation)`: `routes.options(direction, steps, mask)[c][sq]` is
  the tuple of ways `(to, passed, notes)` a colour-c pawn on `sq` may go `steps` steps, the
  plain route first, with the turns there that `mask` says (turns with a condition are there
  only while it holds for the player to move: `mask_of(p, pos)`; by default every turn);
  `passed` lists the exclusive squares stood on between start and end (not the square
  left), `notes` what the way did beyond plain edges, in order: a turn's index (>= 0),
  BOUNCED or STOPPED (past Home). Tables are built on first use and kept per `Routes`; on a
  large board a colour's ways from a square are walked when first asked for (`table_row`),
  so a game walks only the squares its pawns stand on. The plain route equals
  `layout.forward/backward` (which handle `past_home` themselves), so play without turns or
  passing rules never builds them.
- `routes.passable(c, board, sq, passed)`: whether a colour-c pawn leaving `sq` may pass
  over every square of `passed` on `board` (blockers with `pass: false`).
- `landing_blocked(c, o)` (via `Geometry.blocks_landing`) is folded by `Mechanics` into its
  `bumpable` table: a blocker with `land: false` makes the pawn's square a wall, like an
  own pawn. Both are questions about one (moving colour, other pawn) pair, so a later
  property of single pawns (a mark) can answer the same questions.
- `step(...)` and `split(...)` are the forward/backward and split primitives on routes;
  `Mechanics` has a `Routes` (and uses them) only when `Geometry.routed`.
"""

from __future__ import annotations

from dataclasses import dataclass

FORWARD, BACKWARD, DOWN, STOPPED = 0, 1, 2, 3  # modes of a walking pawn
BOUNCED, STOPPED_NOTE = -1, -2                   # notes of a way besides the turns it took


@dataclass(frozen=True)
class Turn:
    """An extra edge at offset `at` of the pawn's own side, for moves going `moving`."""

    at: int                 # offset on the moving pawn's own side (0 .. side_length-1)
    moving: str             # "forward" | "backward": the moves that may take it
    onto: str               # "safety": up the own safety zone; "track": on along the track
    must: bool = False      # True: the only way on from there; False: one more way
    label: str = ""
    conditional: bool = False  # there only while a condition on the player to move holds (`Routes.mask_of`)


@dataclass(frozen=True)
class Blocker:
    """Pawns that stop a moving pawn from passing over them and/or landing on them."""

    relations: tuple = ("own", "partner", "opponent")  # the blocking pawn's relation to the mover
    colours: tuple | None = None                       # colour indexes; None: every colour
    on: str = "any"                                    # "track" | "safety" | "any": where it blocks
    passable: bool = True
    landable: bool = True
    label: str = ""
    group: int = 1                                     # pawns of one colour together that block (1: any pawn)

    def applies(self, relation: str, o: int) -> bool:
        return relation in self.relations and (self.colours is None or o in self.colours)


@dataclass(frozen=True)
class Geometry:
    past_home: str = "illegal"   # "illegal" (R33) | "stop" (H19) | "bounce" (H32) | "start" (back to Start)
    turns: tuple = ()            # Turn, in the order written
    blockers: tuple = ()         # Blocker, in the order written

    def blocks_landing(self, relation: str, o: int) -> bool:
        """Whether any pawn of colour o (of `relation` to the mover) blocks a landing."""
        return any(not b.landable and b.group <= 1 and b.applies(relation, o) for b in self.blockers)

    def group_landing(self, relation: str, o: int) -> int:
        """The fewest pawns of colour o together on a square that a mover of `relation` to o
        may not land on (a blockade, `group` 2 or more); 0: none."""
        return min((b.group for b in self.blockers if not b.landable and b.group > 1 and b.applies(relation, o)), default=0)

    @property
    def routed(self) -> bool:
        """Whether moves need the route primitives: a turn, a pawn that cannot be passed, or a
        bounce (which may end a move on the square it left)."""
        return bool(self.turns) or self.past_home == "bounce" or any(not b.passable for b in self.blockers)


#: table rows of up to this many entries are made whole, as tuples (the fastest lookup on the
#: hot path); longer ones (boards of many colours and long sides) entry by entry, as `Row`s
WHOLE_ROW = 1024


def table_row(make, size: int):
    """The row of `make(key)` for keys 0 .. size-1: a tuple when `size` <= WHOLE_ROW, else a
    `Row`. Either is indexed by key and never iterated."""
    return tuple(make(key) for key in range(size)) if size <= WHOLE_ROW else Row(make)


class Row(dict):
    """Entries made one by one: `row[key]` is `make(key)`, worked out on first use and kept
    (a table row indexed like the tuple it stands for, or tables by their key). Never
    iterated: only the keys asked for are in it."""

    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


class Routes:
    """Route tables and passing rules of one variant (see the module docstring)."""

    def __init__(self, layout, geometry: Geometry, relation: tuple):
        self.layout = layout
        self.geometry = geometry
        C, side, T = layout.C, layout.side, layout.T
        # turns_at[c][sq]: [(turn index, Turn), ...] of the turns at track square sq for colour c
        turns_at: list = [{} for _ in range(C)]
        for c in range(C):
            for i, turn in enumerate(geometry.turns):
                turns_at[c].setdefault((c * side + turn.at) % T, []).append((i, turn))
        self._turns_at = turns_at
        # the turns there only while a condition holds (`mask_of`): a mask has bit j set when the j-th of them is there
        self.conditional = tuple(i for i, turn in enumerate(geometry.turns) if turn.conditional)
        self.every = (1 << len(self.conditional)) - 1  # the mask with every conditional turn there
        self.conditions: tuple = ()  # per conditional turn, its condition `(p, pos, env) -> bool` (set by the compiler)
        # turn_ways(mask)[direction][leaving][c]: {track square: (whether a turn there is the only way on, ((turn index,
        # square it leads to, mode after it or None: the mode kept), ...))} of the turns a walk takes (`walk`)
        self._turn_ways_of = Row(self._turn_ways_table)
        self.turn_ways = self._turn_ways_of[self.every]
        # one_step[direction][c][sq]: one plain step on (`layout.step_forward` / `step_backward`)
        self.one_step = tuple(tuple([step(c, sq) for sq in range(layout.size)] for c in range(C))
                           for step in (layout.step_forward, layout.step_backward))
        # no_pass[c][o]: (on track, in a safety zone) -> a colour-o pawn there cannot be passed by colour c
        self.no_pass = tuple(tuple(self._no_pass(relation[c][o], o) for o in range(C)) for c in range(C))
        # group_pass[c][o]: (on track, in a safety zone) -> the fewest colour-o pawns together there that colour c
        # cannot pass (a blockade; 0: none), or None when no blocker counts pawns
        groups = [b for b in geometry.blockers if not b.passable and b.group > 1]
        self.group_pass = None if not groups else tuple(tuple(self._group_pass(groups, relation[c][o], o) for o in range(C))
                                                         for c in range(C))
        self.walls = any(not b.passable for b in geometry.blockers)  # False: every route may be passed
        every = self.every
        self.options = lambda direction, steps, mask=every: self._tables[direction, steps, mask]
        self._tables = Row(lambda key: self._table(*key))  # (direction, steps, mask) -> table

    def _turn_ways_table(self, mask: int) -> tuple:
        """`turn_ways` with the conditional turns of `mask` there (and every other turn)."""
        gone = {k for j, k in enumerate(self.conditional) if not mask >> j & 1}
        C = self.layout.C
        turns_at = [{sq: [(k, u) for k, u in here if k not in gone] for sq, here in self._turns_at[c].items()}
                    for c in range(C)]
        return tuple(tuple(tuple(self._turn_ways(c, turns_at[c], direction, leaving) for c in range(C))
                           for leaving in (False, True)) for direction in (FORWARD, BACKWARD))

    def masks(self) -> range:
        """Every mask of the conditional turns (one, `every`, when there are none)."""
        return range(self.every, self.every + 1) if not self.conditional else range(self.every + 1)

    def mask_of(self, p: int, pos) -> int:
        """The conditional turns there for player colour p to move on `pos` (its counters
        read by the conditions), as a mask."""
        env = {"@counters": pos.counters} if pos.counters else None
        mask = 0
        for j, when in enumerate(self.conditions):
            if when(p, pos, env):
                mask |= 1 << j
        return mask

    def _no_pass(self, relation: str, o: int) -> tuple:
        blockers = [b for b in self.geometry.blockers if not b.passable and b.group <= 1 and b.applies(relation, o)]
        return (any(b.on in ("track", "any") for b in blockers), any(b.on in ("safety", "any") for b in blockers))

    @staticmethod
    def _group_pass(groups: list, relation: str, o: int) -> tuple:
        mine = [b for b in groups if b.applies(relation, o)]
        return tuple(min((b.group for b in mine if b.on in (zone, "any")), default=0) for zone in ("track", "safety"))

    # ---- walking ---------------------------------------------------------------------------
    def _next(self, c: int, sq: int, mode: int) -> tuple:
        """(square, mode) one plain step on, or (-1, mode) where the route ends."""
        layout = self.layout
        if mode == STOPPED:
            return sq, mode
        if mode == FORWARD:
            if sq != layout.home[c]:
                return self.one_step[FORWARD][c][sq], mode
            past = self.geometry.past_home
            if past == "stop":
                return sq, STOPPED
            if past == "bounce" and layout.L:
                return layout.T + c * layout.L + layout.L - 1, DOWN
            if past == "start":
                return layout.start[c], STOPPED
            return -1, mode
        if mode == DOWN:
            first = layout.T + c * layout.L
            return (sq - 1 if sq > first else -1), mode
        return self.one_step[BACKWARD][c][sq], mode

    def _turned(self, c: int, sq: int, turn: Turn, direction: int) -> int:
        layout = self.layout
        if turn.onto == "safety":
            return layout.T + c * layout.L if layout.L else layout.home[c]
        return (sq + (1 if direction == FORWARD else -1)) % layout.T

    def _turn_ways(self, c: int, turns_at: dict, direction: int, leaving: bool) -> dict:
        """`turn_ways[direction][leaving][c]` (`__init__`) of colour c's turns `turns_at`: those
        taken by moves of `direction`; `leaving`, a pawn backing out of its safety zone, never
        turns back into it (H30)."""
        out = {}
        for at, here in turns_at.items():
            taken = [(k, u) for k, u in here
                     if (u.moving == "forward") == (direction == FORWARD) and not (leaving and u.onto == "safety")]
            if taken:
                out[at] = (any(u.must for _, u in taken),
                           tuple((k, self._turned(c, at, u, direction), FORWARD if u.onto == "safety" else None)
                                 for k, u in taken))
        return out

    def walk(self, c: int, sq: int, steps: int, direction: int, mask: int = -1) -> list:
        """Every way (to, passed, notes) `steps` steps from `sq`, the plain route first. Ways that
        stand on the same square in the same mode after the same squares are one way (the
        first one's notes), so the number of ways stays that of the distinct paths."""
        layout = self.layout
        X, home = layout.X, layout.home[c]
        if sq >= X or steps <= 0 or layout.colour_of_square(sq) not in (None, c):
            return []
        # a path is an id: paths[k] = (the id of the path before its last square, that square);
        # 0 is the empty path, so ways are told apart in O(1) whatever their length
        paths, ids = [(0, -1)], {}

        def grown(passed: int, at: int) -> int:
            """The id of path `passed` with square `at` after it."""
            key = (passed, at)
            found = ids.get(key)
            if found is None:
                found = ids[key] = len(paths)
                paths.append(key)
            return found

        heads = [(sq, direction, 0, ())]
        ways = self.turn_ways if mask < 0 else self._turn_ways_of[mask]
        turns = ways[direction][direction == BACKWARD and layout.T <= sq][c]
        plain = self.one_step[direction][c]
        for i in range(steps):
            if len(heads) == 1:  # one way on a plain stretch: a step of the plain table
                at, mode, passed, notes = heads[0]
                if mode == direction and at != home and at not in turns:
                    to = plain[at]
                    heads = [(to, mode, grown(passed, at) if i and at < X else passed, notes)] if to >= 0 else []
                    continue
            heads = self._stepped(c, heads, i, grown, turns)
        seen, out = set(), []
        for to, _, passed, notes in heads:
            if (to, passed) not in seen:
                seen.add((to, passed))
                out.append((to, _squares(paths, passed), notes))
        return out

    def _stepped(self, c: int, heads: list, i: int, grown, turns: dict) -> list:
        """The heads (square, mode, path id, notes) of `walk` one step on from `heads`, step i
        (`grown(path, square)`: the id of a path one square longer)."""
        X, moved, known = self.layout.X, [], set()
        for at, mode, passed, notes in heads:
            if i and at < X:
                passed = grown(passed, at)
            here = turns.get(at) if mode == FORWARD or mode == BACKWARD else None
            if here is None or not here[0]:
                to, next_mode = self._next(c, at, mode)
                if to >= 0 and (to, next_mode, passed) not in known:
                    known.add((to, next_mode, passed))
                    if next_mode != mode:
                        notes = notes + (BOUNCED if next_mode == DOWN else STOPPED_NOTE,)
                    moved.append((to, next_mode, passed, notes))
            if here is not None:
                for k, to, turned_mode in here[1]:
                    next_mode = mode if turned_mode is None else turned_mode
                    if (to, next_mode, passed) not in known:
                        known.add((to, next_mode, passed))
                        moved.append((to, next_mode, passed, notes + (k,)))
        return moved

    def _table(self, direction: str, steps: int, mask: int) -> tuple:
        mode, walk, size = FORWARD if direction == "forward" else BACKWARD, self.walk, self.layout.size
        return tuple(table_row(lambda sq, c=c: tuple(walk(c, sq, steps, mode, mask)), size) for c in range(self.layout.C))

    # ---- judging ---------------------------------------------------------------------------
    def passable(self, c: int, occ: list, sq: int, passed: tuple, pos=None) -> bool:
        """Whether colour c's pawn leaving `sq` may pass every square of `passed` (`occ`:
        the position's `occ`; `pos`, the position, where blockers count pawns)."""
        if not self.walls:
            return True
        return self.blocker_on(c, occ, sq, passed, pos) < 0

    def blocker_on(self, c: int, occ: list, sq: int, passed: tuple, pos=None) -> int:
        """The first square of `passed` whose pawn (or group of pawns, `pos` given) colour c
        may not pass, or -1."""
        no_pass, T, groups = self.no_pass[c], self.layout.T, self.group_pass
        for s in passed:
            o = occ[s]
            if o < 0 or s == sq:
                continue
            zone = 0 if s < T else 1
            if no_pass[o][zone]:
                return s
            if groups is not None and pos is not None:
                mine = groups[c]
                for o, n in pos.pawns_on(s):
                    if mine[o][zone] and n >= mine[o][zone]:
                        return s
        return -1

    def notes_of(self, direction: str, steps: int, c: int, frm: int, to: int, mask: int = -1) -> tuple | None:
        """The notes of the way a move of `steps` steps `frm` -> `to` took (the plain way
        first; `()` for plain edges only), with the turns of `mask` there (-1: any that leads
        there), or None when no way of that length leads there."""
        return next((notes for mask in ((mask,) if mask >= 0 else (self.every, *self.masks()))
                     for end, _, notes in self.options(direction, steps, mask)[c][frm] if end == to), None)

    def note_words(self, note: int) -> str:
        """A note of a way in words: the turn's label, or what happened past Home."""
        if note >= 0:
            return self.geometry.turns[note].label
        return "past Home it bounced back down the safety zone" if note == BOUNCED else "past Home it stopped in Home"


def _squares(paths: list, path: int) -> tuple:
    """The squares of path id `path` (`Routes.walk`), first to last."""
    out = []
    while path:
        path, square = paths[path]
        out.append(square)
    return tuple(reversed(out))
