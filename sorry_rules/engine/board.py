"""What the engine needs from a board kind. The race track (`engine.layout.Layout`) is the
first kind; a grid board (issue 13) is a second implementation of the same interface.

Squares are integers in one space shared by all colours. The first `X` squares are
*exclusive* (at most one piece each: `Board.occ` tracks them); squares from `X` on hold
any number of pieces (Home and Start of the track). A placement is, per colour, a sorted
tuple of the squares its pieces are on.

`BoardKind` is the part every board kind provides: the game (`engine.game.Game`), the
describers (`engine.describe`), position files and front ends use only these names.
`TrackBoard` adds what the track's movement primitives (`engine.mechanics.Mechanics`) and
the track analyses read: routes, slides and the safety zone.
"""

from __future__ import annotations

from typing import Protocol

#: `board_kind` of a compiled game: what players and tools dispatch on (never a variant name).
TRACK = "track"
GRID = "grid"


class BoardKind(Protocol):
    colours: tuple      # colour names, index = colour id
    C: int              # number of colours
    X: int              # squares 0..X-1 are exclusive
    size: int           # every square id is below this
    home: tuple         # home[c]: the square colour c's pieces finish on
    start: tuple        # start[c]: the square colour c's pieces wait on

    def name(self, sq: int) -> str:
        """Position notation of a square (RULES.md), the colour implied by the piece."""

    def parse(self, c: int, text: str) -> int:
        """Square of a colour-c piece written in position notation; PositionError if bad."""

    def distance_home(self, c: int, sq: int) -> int:
        """How far a colour-c piece on `sq` is from finishing (0 at Home)."""


class TrackBoard(BoardKind, Protocol):
    T: int              # track squares 0..T-1
    L: int              # safety squares per colour
    start_exit: tuple   # start_exit[c]: where `enter` puts a colour-c pawn
    slide_at: tuple     # slide_at[sq]: the SlideInfo whose triangle is track square sq, or None
    overshoot_stops: bool

    def forward(self, steps: int) -> tuple:
        """table[c][sq]: where a colour-c pawn on sq ends after `steps` steps, or -1."""

    def backward(self, steps: int) -> tuple:
        """Like `forward`, backward (R30, A12)."""

    def step_forward(self, c: int, sq: int) -> int:
        """The square one forward step after `sq` for a colour-c pawn, or -1 (Home, Start)."""

    def step_backward(self, c: int, sq: int) -> int:
        """The square one backward step before `sq` for a colour-c pawn, or -1."""
