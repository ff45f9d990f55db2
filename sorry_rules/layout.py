"""The compiled board: integer squares, destination tables, slides and position notation.

Square ids (one integer space shared by all colours):
  0 .. T-1                 track squares (T = side_length * colours), clockwise
  T + c*L + (k-1)          safety square k (1..L) of colour c
  X + c   (X = T + C*L)    Home of colour c
  X + C + c                Start of colour c
Squares below X are exclusive (at most one pawn); Home and Start hold any number.

Contract: tables are pure functions of the board spec and the home rule; `forward(n)[c][sq]`
is where a colour-c pawn on `sq` ends after n forward steps (R13, R31, R33), or -1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .errors import PositionError


@dataclass(frozen=True)
class SlideInfo:
    colour: int          # owner of the slide
    triangle: int        # track square a pawn must land on exactly
    end: int             # end circle
    swept: tuple         # triangle+1 .. end, in order


class Layout:
    """Board geometry of one variant, with precomputed movement tables."""

    def __init__(self, colours: list[str], side_length: int, start_exit: int, safety_entry: int,
                 safety_length: int, slides: list[tuple[int, int]], overshoot_stops: bool):
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
        self.overshoot_stops = overshoot_stops
        slide_at: list[SlideInfo | None] = [None] * T
        for c in range(C):
            for frm, to in slides:
                triangle = (c * side_length + frm) % T
                swept = tuple((c * side_length + k) % T for k in range(frm + 1, to + 1))
                slide_at[triangle] = SlideInfo(c, triangle, swept[-1], swept)
        self.slide_at = tuple(slide_at)

    # ---- single steps ------------------------------------------------------------------
    def colour_of_square(self, sq: int) -> int | None:
        """Owner of a safety, Home or Start square; None for track squares."""
        if sq < self.T:
            return None
        if sq < self.X:
            return (sq - self.T) // self.L
        return (sq - self.X) % self.C

    def _step_forward(self, c: int, sq: int) -> int:
        T, L = self.T, self.L
        if sq < T:
            if sq == self.safety_entry[c]:
                return T + c * L if L else self.home[c]
            return (sq + 1) % T
        if sq < self.X:
            k = sq - T - c * L + 1
            return sq + 1 if k < L else self.home[c]
        return -1

    def _step_backward(self, c: int, sq: int) -> int:
        T, L = self.T, self.L
        if sq < T:
            return (sq - 1) % T
        if sq < self.X:
            k = sq - T - c * L + 1
            return self.safety_entry[c] if k == 1 else sq - 1
        return -1

    # ---- tables ------------------------------------------------------------------------
    @lru_cache(maxsize=None)
    def forward(self, steps: int) -> tuple[tuple[int, ...], ...]:
        """Per colour, per square: destination after `steps` forward steps, or -1.

        Built by composing the one-step table (O(size * log steps) per colour), so long
        moves on large boards stay cheap; `_walk_forward` is the step-by-step definition."""
        none = self.size  # an extra slot standing for -1 (absorbing)
        table = []
        for c in range(self.C):
            first = [none] * (self.size + 1)
            for sq in range(min(self.size, self.X)):
                if self._own_or_track(c, sq):
                    first[sq] = self._step_forward(c, sq)
            after = list(first)  # later steps: from Home a pawn stays (stop) or the move fails
            after[self.home[c]] = self.home[c] if self.overshoot_stops else none
            rest = _power(after, steps - 1) if steps > 0 else None
            row = tuple(-1 if rest is None or first[sq] == none or rest[first[sq]] == none else rest[first[sq]]
                        for sq in range(self.size))
            table.append(row)
        return tuple(table)

    @lru_cache(maxsize=None)
    def backward(self, steps: int) -> tuple[tuple[int, ...], ...]:
        """Per colour, per square: destination after `steps` backward steps, or -1."""
        none = self.size
        table = []
        for c in range(self.C):
            back = [none] * (self.size + 1)
            for sq in range(min(self.size, self.X)):
                if self._own_or_track(c, sq):
                    back[sq] = self._step_backward(c, sq)
            moved = _power(back, steps)
            row = tuple(moved[sq] if sq < self.X and self._own_or_track(c, sq) and moved[sq] != none else -1
                        for sq in range(self.size))
            table.append(row)
        return tuple(table)

    def _own_or_track(self, c: int, sq: int) -> bool:
        return sq < self.T or self.colour_of_square(sq) == c

    def _walk_forward(self, c: int, sq: int, steps: int) -> int:
        """Destination of `steps` forward steps, one step at a time (the definition the
        tables are checked against)."""
        home = self.home[c]
        if sq >= self.X or steps <= 0:
            return -1
        for _ in range(steps):
            if sq == home:
                return home if self.overshoot_stops else -1
            sq = self._step_forward(c, sq)
        return sq

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
        if sep and number.isdigit():
            n = int(number)
            if kind == "track":
                if n >= self.T:
                    raise PositionError(f"{text!r}: the track has squares 0..{self.T - 1}")
                return n
            if kind == "safety":
                if not 1 <= n <= self.L:
                    raise PositionError(f"{text!r}: the safety zone has squares 1..{self.L}")
                return self.T + c * self.L + n - 1
        raise PositionError(f"unknown position {text!r} (use start, home, track:N or safety:K)")


def _power(step: list[int], n: int) -> list[int]:
    """The map `step` (a list: index -> index) applied `n` >= 0 times, by repeated squaring."""
    result = list(range(len(step)))
    base = step
    while n > 0:
        if n & 1:
            result = [base[x] for x in result]
        n >>= 1
        if n:
            base = [base[x] for x in base]
    return result
