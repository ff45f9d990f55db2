"""Players: one protocol for people and bots alike.

A player sees a `View` (its own seat, the board, its own hand; never other hands or the
order of the draw pile) and the list of legal moves, and returns the index of its choice.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from sorry_rules.engine.board import GRID
from sorry_rules.engine.rng import below, below_at, seed_state, stream_at


class View(NamedTuple):
    """What the player to move may see."""

    game: object
    seat: int
    colour: int
    placement: tuple
    seats: tuple
    card: int | None          # the drawn card (draw play)
    hand: tuple | None        # the player's own hand (hand play)
    discard: tuple            # the discard pile (public)
    pile_size: int
    plies: int
    exchanged: bool = False   # grid games: this turn's dead-card exchange was made
    drawn: tuple = ()         # the other cards drawn with `card` this turn (turn.take)
    redraws: int = 0          # extra cards this turn took by turn.redraw
    counters: tuple = ()      # every colour's counters (public: the scores shown)
    marks: tuple = ()         # the marks on the pawns (public: shown on the board)
    finished: tuple = ()      # the seats whose side has finished, in order (public; `places` > 1)


def view_of(game, state) -> View:
    seat = state.turn
    if game.board_kind == GRID:
        return View(game, seat, state.seats[seat], state.placement, state.seats, None, state.hands[seat],
                    state.discard, len(state.pile), state.plies, state.exchanged)
    hand = state.hands[seat] if state.hands is not None else None
    return View(game, seat, state.seats[seat], state.placement, state.seats, state.card, hand,
                state.discard, len(state.pile), state.plies, drawn=state.drawn, redraws=state.redraws,
                counters=state.counters, marks=state.marks, finished=state.finished)


def table_view(table) -> View:
    """`view_of` the state of a table (`Game.table`), for the player to move."""
    return view_of(table.game, table.state())


class Player(Protocol):
    name: str

    def choose(self, view: View, moves: list) -> int:
        """Index into `moves` of the chosen move."""


class RandomPlayer:
    """Uniformly random legal moves. Each choice is drawn from a stream seeded by the seed
    parts and the ply, so it depends only on the seed and the view (games replay, and a
    saved game resumes with the same choices)."""

    name = "random"

    def __init__(self, *seed_parts: object):
        self.base = seed_state("random-player", *seed_parts)

    def choose(self, view: View, moves: list) -> int:
        return below(stream_at(self.base, view.plies), len(moves))[1]

    def pick(self, table, options: list) -> int:
        """`choose` on a table: the same index, with no view and no moves built."""
        return below_at(self.base, table.plies, len(options))
