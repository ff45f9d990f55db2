"""The engine of grid games played from hands (SEQUENCE.md S4-S13).

Turn flow: the player to move holds a hand; `legal_moves` lists the options of a grid table
(`engine.gridtable`'s contract: plays, exchanges of dead cards, a pass) as `Move`s, and
`apply` plays one as the table does.

Seats may share a colour (a team has one chip colour, S1, S2): `seats[i]` is a colour.

Contract: `GridState` is immutable and `apply` never mutates its argument; the same seed and
choices give the same game on every machine (the RNG lives in the state). No I/O.
"""

from __future__ import annotations

from typing import NamedTuple

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine.board import GRID
from sorry_rules.engine.game import Move, deal
from sorry_rules.engine.gridmechanics import GridView
from sorry_rules.engine.gridtable import GridTable


class GridState(NamedTuple):
    placement: tuple      # per colour: sorted tuple of cells holding its chips
    seats: tuple          # colour of each seat, in turn order (a colour may sit at several seats)
    turn: int             # seat to play
    hands: tuple          # per seat: tuple of card indices
    pile: tuple           # draw pile; the next card is the last element
    discard: tuple        # discard pile, oldest first
    rng: int              # RNG state for reshuffles
    winner: int | None    # the seat whose move won, once the game is won
    plies: int            # moves applied so far (exchanges and passes included)
    exchanged: bool       # the player to move has made this turn's exchange
    passes: int           # passes in a row
    over: bool            # the game has ended (won, or drawn by passing)


class GridGame:
    """A compiled grid variant: the board, per card its compiled effect, the deck, the turn
    settings and the win condition (see the module contract).

    `card_programs[card](p, view)` gives the outcomes `(placement, events)` of the card for
    colour p; `card_shapes[card]` the shape of a card whose effect is one primitive
    (`gridmechanics.SHAPE_*`, the same outcomes in the same order) or None; `win(colour, view,
    env)` is the compiled win condition, a function of the sides and of the counts named in
    `win_reads` (`sequences`, `chips`) of the view's colours; `hand_sizes[n]` the hand size
    with n players; `seating[n]` the colours of the seats with n players."""

    board_kind = GRID   # the public query players and tools dispatch on (engine.board)
    move_type = Move

    def __init__(self, *, name, grid, card_names, card_programs, card_sources, deck, team_of, seating,
                 hand_sizes, players_min, players_max, first, exchange: bool, win, content_hash, card_shapes=None,
                 win_reads=frozenset({"sequences", "chips"})):
        self.name = name
        self.layout = self.grid = grid
        self.colours = grid.colours
        self.card_names = tuple(card_names)
        self.card_index = {n: i for i, n in enumerate(card_names)}
        self.card_programs = tuple(card_programs)
        self.card_sources = tuple(card_sources)
        self.deck = tuple(deck)
        self.team_of = team_of
        self.seating = seating
        self.hand_sizes = hand_sizes
        self.players_min, self.players_max = players_min, players_max
        self.first = first
        self.exchange = exchange
        self.win = win
        # for the table (engine.gridtable): per card its shape (gridmechanics.SHAPE_*) or None,
        # and the count functions the win condition reads (it reads no other part of a position)
        self.card_shapes = tuple(card_shapes) if card_shapes is not None else (None,) * len(self.card_names)
        self.win_reads = frozenset(win_reads)
        self.content_hash = content_hash
        self.hand_play = True
        self.scoring = ()
        self.state_type = GridState

    # ---- setting up ----------------------------------------------------------------------
    def player_counts(self) -> str:
        return ", ".join(str(n) for n in sorted(self.seating))

    def seats_for(self, players: int) -> tuple:
        """The colours of the seats for `players` players (the rule file's seating table)."""
        names = self.seating.get(players)
        if names is None:
            raise IllegalMoveError(f"{self.name} is for {self.player_counts()} players, not {players}")
        return tuple(self.colours.index(n) for n in names)

    @property
    def default_players(self) -> int:
        """The players seated when no count is given: the fewest the seating table lists."""
        return min(self.seating)

    def new_game(self, seed, players: int | None = None, seats: tuple | None = None, first: int | None = None) -> GridState:
        """A fresh game: shuffled deck, hands dealt one card at a time round the table (S4),
        first seat chosen by the seed (S5)."""
        if seats is None:
            seats = self.seats_for(players if players is not None else self.default_players)
        seats = tuple(seats)
        state, pile, first, hands = deal(seed, self.deck, len(seats), self.first, first, self.hand_sizes[len(seats)])
        placement = tuple(() for _ in self.colours)
        return GridState(placement, seats, first, hands, pile, (), state, None, 0, False, 0, False)

    def position(self, placement, seats, turn: int, hand, exchanged: bool = False) -> GridState:
        """A state for asking about one position (the moves oracle): no pile, no discards."""
        hands = tuple(tuple(hand) if i == turn else () for i in range(len(seats)))
        return GridState(tuple(placement), tuple(seats), turn, hands, (), (), 0, None, 0, exchanged, 0, False)

    def dealt(self, state: GridState, pile, hands, discard, rng: int) -> GridTable:
        """`Game.dealt` of a grid game: a table of `state` with the guessed `pile`, `hands` (every
        seat's), `discard` and `rng` (search: `players.sampling`)."""
        return GridTable(self, state._replace(pile=tuple(pile), hands=tuple(map(tuple, hands)), discard=tuple(discard),
                                              rng=rng))

    def view(self, state: GridState) -> GridView:
        return GridView(state.placement, frozenset(state.seats), self.grid)

    # ---- moves ---------------------------------------------------------------------------
    def plays(self, state: GridState, card: int) -> list:
        """The moves of `card` for the player to move, one per distinct result."""
        outcomes = self.card_programs[card](state.seats[state.turn], self.view(state))
        if self.card_shapes[card] is not None:  # one primitive: its outcomes are distinct
            return [Move(card, placement, events, False, events[0][0]) for placement, events in outcomes]
        moves, seen = [], set()
        for placement, events in outcomes:
            if placement in seen:
                continue
            seen.add(placement)
            moves.append(Move(card, placement, events, False, events[0][0]))
        return moves

    def table(self, state: GridState) -> GridTable:
        """A `GridTable` set up from `state` (changed in place by its `play`; `state` is not)."""
        return GridTable(self, state)

    def legal_moves(self, state: GridState) -> list:
        """Plays, then exchanges of dead cards, then a pass when there is neither (S9)."""
        table = self.table(state)
        return [table.move(option) for option in table.options()]

    def needs_draw(self, state: GridState) -> bool:
        """Never: grid games are played from hands and draw inside `apply`."""
        return False

    def draw(self, state: GridState) -> GridState:
        return state

    # ---- applying ------------------------------------------------------------------------
    def apply(self, state: GridState, move: Move) -> GridState:
        """Play `move` (one of `legal_moves(state)`), see `engine.gridtable`'s contract."""
        if state.over:
            raise IllegalMoveError("the game is over")
        table = self.table(state)
        table.play((move.card, move.events, 0, move.kind))
        return table.state()

    def win_holds(self, colour: int, placement, seats) -> bool:
        """Whether the win condition holds for `colour` on `placement` (a query for players:
        "would this chip win?"), with the colours of `seats` seated."""
        return bool(self.win(colour, GridView(placement, frozenset(seats), self.grid), None))

    # ---- the end -------------------------------------------------------------------------
    def winning_colour(self, state: GridState) -> int | None:
        """The colour (and so the team) that won, or None (game on, or drawn)."""
        return None if state.winner is None else state.seats[state.winner]

    def standing(self, state: GridState) -> dict:
        """Every seat's points so far, as `Game.standing`: {} (a grid game scores no points)."""
        return {}

    def sequences(self, placement, colour: int) -> int:
        return self.grid.sequences(placement[colour])
