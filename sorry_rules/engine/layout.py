"""The compiled board: integer squares, destination tables, slides and position notation.

Square ids (one integer space shared by all colours):
  0 .. T-1                 track squares (T = side_length * colours), clockwise
  T + c*L + (k-1)          safety square k (1..L) of colour c
  X + c   (X = T + C*L)    Home of colour c
  X + C + c                Start of colour c
Squares below X hold `hold[sq]` pawns (one on a Sorry! board: exclusive), of one colour unless
`share[sq]`; Home and Start hold any number (`engine.squares`: named squares and their tables).

Contract: tables are pure functions of the board spec and the home rule (`past_home`:
"illegal" R33, "stop" H19, "bounce" H32: the steps left at Home are counted back down the
safety zone, and a bounce out of the zone is -1; "start": the pawn's Start); `forward(n)[c][sq]`
is where a colour-c pawn on `sq` ends after n forward steps (R13, R31, R33), or -1, and
`backward(n)[c][sq]` likewise (R30, A12). Building one table costs O(colours x squares)
whatever n, and tables are cached per layout (never in a global cache that would keep
every layout ever compiled alive).
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_rules.base.errors import PositionError
from sorry_rules.engine.squares import square_tables


@dataclass(frozen=True)
class SlideInfo:
    colour: int          # owner of the slide
    triangle: int        # track square a pawn must land on exactly
    end: int             # end circle
    swept: tuple         # triangle+1 .. end, in order; a jump's (`sweep: end`): its end alone
    on: tuple | None = None  # the relations to its colour whose pawns take it; None: `rules.slide_on`
    jump: bool = False       # `sweep: end`: the pawn passes over the squares between


class _Tables(dict):
    """steps -> per-colour rows, built by `row(c, steps)` on first use."""

    def __init__(self, row, colours: int):
        super().__init__()
        self.row, self.colours = row, colours

    def __missing__(self, steps: int) -> tuple:
        table = self[steps] = tuple(self.row(c, steps) for c in range(self.colours))
        return table


class Layout:
    """Board geometry of one variant, with precomputed movement tables: the race-track
    board kind (`sorry_rules.engine.board.TrackBoard`). `slides`: `(from, to)` or `(from, to,
    sweep)` offsets of each side's slides (`sweep` "end": a jump, which sweeps its end alone)."""

    def __init__(self, colours: list[str], side_length: int, start_exit: int, safety_entry: int,
                 safety_length: int, slides: list[tuple], overshoot_stops: bool,
                 past_home: str | None = None, hold: int = 1, squares: tuple = (), pawns: int = 12,
                 home_hold: int | None = None, slide_on: tuple = ()):
        self.colours = tuple(colours)
        self.C = C = len(colours)
        self.side = side_length
        self.T = T = side_length * C
        self.L = L = safety_length
        self.X = X = T + C * L
        self.size = X + 2 * C
        self.home = tuple(X + c for c in range(C))
        self.start = tuple(X + C + c for c in range(C))
        self.start_exit = tuple((c * side_length + start_exit) % T for c in range(C))
        self.safety_entry = tuple((c * side_length + safety_entry) % T for c in range(C))
        self.past_home = past_home or ("stop" if overshoot_stops else "illegal")
        self.overshoot_stops = self.past_home == "stop"
        slide_at: list[SlideInfo | None] = [None] * T
        for c in range(C):
            for i, (frm, to, *sweep) in enumerate(slides):
                triangle = (c * side_length + frm) % T
                jump = bool(sweep) and sweep[0] == "end"
                swept = tuple((c * side_length + k) % T for k in range(to if jump else frm + 1, to + 1))
                slide_at[triangle] = SlideInfo(c, triangle, swept[-1], swept, slide_on[i] if i < len(slide_on) else None,
                                               jump)
        self.slide_at = tuple(slide_at)
        tables = square_tables(self, hold, squares, pawns, home_hold)
        self.hold, self.share, self.capture, self.stacked = tables.hold, tables.share, tables.capture, tables.stacked
        self.safe = tables.safe
        self.several = tables.several
        self.counted = tables.counted
        self.named, self.names_at = tables.named, tables.names_at
        self.square_symbols, self.square_labels = tables.symbols, tables.labels
        # forward(n)[c][sq] / backward(n)[c][sq]: destination after n steps, or -1. Tables
        # are built on first use and cached per layout (a plain dict lookup on the hot path).
        self.forward = _Tables(self._forward_row, C).__getitem__
        self.backward = _Tables(self._backward_row, C).__getitem__

    # ---- single steps ------------------------------------------------------------------
    def colour_of_square(self, sq: int) -> int | None:
        """Owner of a safety, Home or Start square; None for track squares."""
        if sq < self.T:
            return None
        if sq < self.X:
            return (sq - self.T) // self.L
        return (sq - self.X) % self.C

    def step_forward(self, c: int, sq: int) -> int:
        """The square one forward step after `sq` for a colour-c pawn (the safety zone after
        its safety entry, Home after the last safety square), or -1 from Home or Start."""
        T, L = self.T, self.L
        if sq < T:
            if sq == self.safety_entry[c]:
                return T + c * L if L else self.home[c]
            return (sq + 1) % T
        if sq < self.X:
            k = sq - T - c * L + 1
            return sq + 1 if k < L else self.home[c]
        return -1

    def step_backward(self, c: int, sq: int) -> int:
        """The square one backward step before `sq` for a colour-c pawn (out of the safety
        zone onto the track at its entry, A12), or -1 from Home or Start."""
        T, L = self.T, self.L
        if sq < T:
            return (sq - 1) % T
        if sq < self.X:
            k = sq - T - c * L + 1
            return self.safety_entry[c] if k == 1 else sq - 1
        return -1

    # ---- tables ------------------------------------------------------------------------
    # Each colour's forward moves follow one route: from the track square after its safety
    # entry all the way round to the safety entry, then safety 1..L, then Home. A table is
    # built in O(colours x squares) from a square's index on that route, whatever `steps`.
    def _forward_row(self, c: int, steps: int) -> tuple[int, ...]:
        T, L = self.T, self.L
        entry = self.safety_entry[c]
        route = [(entry + 1 + i) % T for i in range(T)] + [T + c * L + k for k in range(L)] + [self.home[c]]
        last = len(route) - 1  # Home
        row = [-1] * self.size
        if steps <= 0:
            return tuple(row)
        # Home, Start and other colours' zones: -1; route index i (below Home) ends at i + steps
        reached = max(0, last + 1 - steps)  # the route indexes i with i + steps <= last
        for sq, to in zip(route[:reached], route[steps:]):
            row[sq] = to
        if self.past_home == "bounce":  # back down the zone (route indexes T .. T+L-1); below it: -1
            for index in range(reached, last):
                back = 2 * last - index - steps
                row[route[index]] = route[back] if back >= T else -1
        else:
            beyond = self.home[c] if self.overshoot_stops else self.start[c] if self.past_home == "start" else -1
            for sq in route[reached:last]:
                row[sq] = beyond
        return tuple(row)

    def _backward_row(self, c: int, steps: int) -> tuple[int, ...]:
        T, L = self.T, self.L
        entry = self.safety_entry[c]
        row = [-1] * self.size
        for sq in range(T):
            row[sq] = (sq - steps) % T
        for k in range(1, L + 1):  # safety k: down the zone, then out onto the track (R30, A12)
            row[T + c * L + k - 1] = T + c * L + k - 1 - steps if steps < k else (entry - (steps - k)) % T
        return tuple(row)

    def placement_at_start(self, pawns: int, placed: tuple, seats=None) -> tuple:
        """The placement a game begins with: `pawns` a colour, those of `placed[c]` (squares,
        `setup_squares`) on them and the rest in Start, for the colours of `seats` (None:
        every colour; the others have no pawns)."""
        return tuple(tuple(sorted([self.start[c]] * (pawns - len(placed[c])) + list(placed[c])))
                     if seats is None or c in seats else () for c in range(self.C))

    def setup_squares(self, on_exit: int, squares=()) -> tuple:
        """Per colour, the squares its pawns begin on outside Start (`setup`): `on_exit` on
        the start exit, one on each of `squares` (an offset of the colour's own side,
        `start_exit`, `home` or `safety:K`)."""
        def square(c: int, item) -> int:
            if isinstance(item, int):
                return (c * self.side + item) % self.T
            return self.start_exit[c] if item == "start_exit" else self.parse(c, item)
        return tuple(tuple(sorted([self.start_exit[c]] * on_exit + [square(c, item) for item in squares]))
                     for c in range(self.C))

    def distance_home(self, c: int, sq: int) -> int:
        """Forward steps from `sq` to Home for colour c (Start counts as before the start exit)."""
        if sq == self.home[c]:
            return 0
        if sq == self.start[c]:
            return 1 + self.distance_home(c, self.start_exit[c])
        if sq >= self.T:
            return self.L - (sq - self.T - c * self.L + 1) + 1
        along = (self.safety_entry[c] - sq) % self.T
        return along + self.L + 1

    # ---- notation ----------------------------------------------------------------------
    def name(self, sq: int) -> str:
        """RULES.md position notation of a square (colour implied by the pawn)."""
        if sq < self.T:
            return f"track:{sq}"
        if sq < self.X:
            return f"safety:{(sq - self.T) % self.L + 1}"
        return "home" if sq < self.X + self.C else "start"

    def parse(self, c: int, text: str) -> int:
        """Square of a colour-c pawn written in position notation. Raises PositionError."""
        if not isinstance(text, str):
            raise PositionError(f"position {text!r} is not text (use start, home, track:N or safety:K)")
        word = text.strip().lower()
        if word == "start":
            return self.start[c]
        if word == "home":
            return self.home[c]
        kind, sep, number = word.partition(":")
        if sep and number.isascii() and number.isdigit():  # "²".isdigit() is true, int("²") fails
            n = int(number) if len(number) <= 9 else 10**9
            if kind == "track":
                if n >= self.T:
                    raise PositionError(f"{text!r}: the track has squares 0..{self.T - 1}")
                return n
            if kind == "safety":
                if not 1 <= n <= self.L:
                    raise PositionError(f"{text!r}: the safety zone has squares 1..{self.L}")
                return self.T + c * self.L + n - 1
        raise PositionError(f"unknown position {text!r} (use start, home, track:N or safety:K)")
