"""The engine: immutable game states, legal moves, applying moves, drawing, the outcome.

Turn flow (RULES R5, R11, R17, R19, R34, R35, A13, A16, A21, P4, P5):
- draw play: `draw` takes the top card (reshuffling the discards when the pile is empty);
  `legal_moves` lists what that card allows; `apply` plays the chosen move, discards the
  card, and passes the turn unless the move grants another draw.
- hand play: `legal_moves` lists every move of every card in the player's hand (a card
  that cannot move a pawn is not playable, even if it offers a pass; an explicit pass
  survives only when every playable card also offers one, A21); when no card can move, the
  moves are discards, one per distinct card (P5), none drawing again (A13). `apply` plays or
  discards the card, then refills the hand from the pile (reshuffling the discards, A16);
  a move that draws again keeps the turn, so the player plays once more from the refilled
  hand (A13).
- a card with no legal move gives a single `forfeit` move (no choice to make).
- turn policies (`engine.turnpolicy`, used only when the rule file has them): `take` > 1
  draws that many cards at once (`State.card` and `State.drawn`); the player plays one
  (card and move are one choice) and every other drawn card is discarded with it; stuck, all
  are discarded. `redraw` turns a stuck turn into a `redraw` move (discard, take another
  card, same turn), at most N a turn (`State.redraws`). Hand `actions` are `action` moves
  beside the card moves (a card and other cards of the hand discarded, as many drawn); a
  hand with an action is not stuck, so P5's free discard is not offered then.
- the game ends at once when a player's win condition holds (checked after every move, the
  mover first, then the other seats in order).

Contract: `State` is immutable; `apply` never mutates its argument; the same state and the
same moves give the same result on every machine (the RNG lives in the state). The engine
never prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine import rng as _rng
from sorry_rules.engine.board import TRACK
from sorry_rules.engine import marks as _marks
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS, Board
from sorry_rules.engine.moverules import filter_moves, run_consequences
from sorry_rules.engine.placement import PlacementView
from sorry_rules.engine.queries import Obstacles, TracedMove, chance
from sorry_rules.engine.settings import MovementRules, TurnRules
from sorry_rules.engine.turnpolicy import REDRAW, action_moves, redraw_moves, take_cards


#: `_new(State, fields)` / `_new(Move, fields)` build the named tuples from all their fields
#: without the Python-level `__new__` of NamedTuple (the hot path: every move and every ply).
_new = tuple.__new__


def take_card(pile: tuple, discard: tuple, rng: int) -> tuple:
    """The top card of `pile` (its last element) as `(pile, discard, rng, card)`; an empty pile
    is first refilled by shuffling the discards (R34, A16, S8); card is None when both are empty."""
    if not pile:
        if not discard:
            return pile, discard, rng, None
        rng, pile = _rng.shuffled(rng, discard)
        discard = ()
    return pile[:-1], discard, rng, pile[-1]


class State(NamedTuple):
    placement: tuple      # per colour: sorted tuple of squares (empty for colours not playing)
    seats: tuple          # colour index of each seat, in turn order
    turn: int             # seat to play
    card: int | None      # the drawn card waiting to be played (draw play)
    hands: tuple | None   # per seat: tuple of card indices (hand play)
    pile: tuple           # draw pile; the next card is the last element
    discard: tuple        # discard pile, oldest first
    rng: int              # RNG state for reshuffles
    winner: int | None    # winning seat once the game is over
    plies: int            # moves applied so far
    counters: tuple = ()  # per colour: the values of the rule file's counters (() without counters)
    bonus: int = 0        # extra cards the player to move has still to take (consequences)
    marks: tuple = ()     # per declared mark kind: sorted ((colour, square, by), ...) (engine.marks; () without marks)
    drawn: tuple = ()     # the other cards drawn with `card` this turn (turn.take > 1); () otherwise
    redraws: int = 0      # extra cards taken this turn by turn.redraw (0 without it)


class Move(NamedTuple):
    card: int | None      # the card played or discarded
    placement: tuple      # the whole placement after the move, bumps and slides applied
    events: tuple         # the resolved steps, bumps, slides and switches, in order (engine.events)
    draw_again: bool      # the player draws (or, in hand play, plays) another card
    kind: str             # "move", "pass", "forfeit", "discard", "redraw" or "action" (engine.turnpolicy)
    cards: tuple = ()     # the other cards an `action` plays (discards) with `card`
    label: str = ""       # the turn rule behind a `redraw` or `action` move
    marks: tuple = ()     # the marks after the move (as State.marks), for a variant with marks


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int


@dataclass(frozen=True)
class Outcome:
    winner: int                   # winning seat
    winning_seats: tuple          # the winner and their partners
    scores: dict                  # seat -> (total, tuple[ScoreLine])


class Game:
    """A compiled variant: plain frozen data (settings, tables) and compiled closures.
    Built by `sorry_rules.compiler.compile_variant`; nothing reachable from it is a rule-file
    model or a DSL tree.

    `card_options[card]` is, per top-level alternative of the card's effect, `(Origin,
    program)`: the same moves as `card_programs[card]`, split by the alternative that gives
    them; only the queries (`traced_moves`) run them."""

    board_kind = TRACK   # the public query players and tools dispatch on (engine.board)

    def __init__(self, *, name, layout, mechanics, card_names, card_programs, card_sources,
                 deck, pawns, on_start_exit, turn: TurnRules, rules: MovementRules, team_of, seating,
                 players_min, players_max, win, scoring, content_hash, win_on_home_only=False,
                 card_options=(), filters=(), after=(), counters=(), marks=(), redraw=None, actions=()):
        self.name = name
        self.layout = layout
        self.mechanics = mechanics
        self.colours = layout.colours
        self.card_names = tuple(card_names)
        self.card_index = {n: i for i, n in enumerate(card_names)}
        self.card_programs = tuple(card_programs)
        self.card_sources = tuple(card_sources)
        self.card_options = tuple(card_options)
        self.deck = tuple(deck)
        self.pawns = pawns
        self.on_start_exit = on_start_exit
        self.turn = turn
        self.hand_play = turn.hand_play
        self.hand_size = turn.hand_size
        self.first = turn.first
        self.take = turn.take
        self.redraw = redraw                # engine.turnpolicy.Redraw or None
        self.actions = tuple(actions)       # engine.turnpolicy.HandAction
        self.rules = rules
        self.must_bump = rules.must_bump
        self.filters = tuple(filters)       # engine.moverules.MoveFilter, rules.must_bump's first
        self.after = tuple(after)           # engine.moverules.Consequence
        self.counters = tuple(counters)     # (name, start value, label) per declared counter
        self.marks = tuple(marks)           # engine.marks.MarkKind per declared mark kind
        self.team_of = team_of
        self.seating = seating
        self.players_min = players_min
        self.players_max = players_max
        self.win = win
        self.win_on_home_only = win_on_home_only
        self._setup_wins: dict[tuple, bool] = {}
        self.scoring = scoring
        self.content_hash = content_hash
        self._X = layout.X
        self.fast_moves = None  # engine.fastmoves.FastMoves: generated move functions (compiler.codegen), or None

    def features(self) -> frozenset:
        """The constructs this game uses, by name ("board:track", "turn:draw" or "turn:hand",
        "filters", "after", "counters", "marks", "actions", "turn.take", "turn.redraw",
        "geometry", and "rules.<field>" for every `MovementRules` field):
        what the generated move functions (`compiler.codegen.COVERED`) must cover to be used."""
        used = {"board:track", "turn:hand" if self.hand_play else "turn:draw"}
        used.update(f"rules.{name}" for name in vars(self.rules))
        used.update(name for name in ("filters", "after", "counters", "marks", "actions") if getattr(self, name))
        if self.take > 1:
            used.add("turn.take")
        if self.redraw is not None:
            used.add("turn.redraw")
        geometry = self.mechanics.geometry  # past_home illegal/stop lives in the layout's tables
        if self.mechanics.routes is not None or geometry.turns or geometry.blockers or geometry.past_home == "bounce":
            used.add("geometry")
        return frozenset(used)

    def use_fast_moves(self, fast) -> None:
        """Play with generated move functions (`engine.fastmoves.FastMoves`, the same moves as
        the interpreter's) or, with None, with the interpreter alone (the reference path)."""
        self.fast_moves = fast

    def _results(self, p: int, card: int, placement, board: Board | None, marks: tuple = ()) -> tuple[list, int]:
        """`_moves_of` for a card, by its generated function when there is one; `marks` are
        the position's (`State.marks`), which the generated functions of a variant with marks take."""
        fast = self.fast_moves
        if fast is not None:
            function = fast.table[card][p]
            if function is not None:
                return function(placement, marks) if fast.takes_marks else function(placement)
        return self._moves_of(p, board if board is not None else self.board_of(placement, marks), card, placement)

    # ---- setting up ----------------------------------------------------------------------
    def seats_for(self, players: int) -> tuple:
        """Colour indices seated for a game of `players` players: the variant's seating table,
        else spread evenly round the board (2 of 4 sit opposite: adjacent colours are not
        equal, see docs/REFERENCE.md)."""
        if not self.players_min <= players <= self.players_max:
            raise IllegalMoveError(f"{self.name} is for {self.player_counts()} players, not {players}")
        names = self.seating.get(players)
        if names is not None:
            return tuple(self.colours.index(n) for n in names)
        colours = len(self.colours)
        return tuple(i * colours // players for i in range(players))

    def player_counts(self) -> str:
        """How many players the variant takes, in words: "4", or "2-4"."""
        if self.players_min == self.players_max:
            return str(self.players_min)
        return f"{self.players_min}-{self.players_max}"

    def initial_placement(self, seats) -> tuple:
        layout = self.layout
        placement = []
        for c in range(layout.C):
            if c in seats:
                squares = [layout.start[c]] * (self.pawns - self.on_start_exit) + [layout.start_exit[c]] * self.on_start_exit
                placement.append(tuple(sorted(squares)))
            else:
                placement.append(())
        return tuple(placement)

    def new_game(self, seed, players: int | None = None, seats: tuple | None = None, first: int | None = None) -> State:
        """A fresh game: shuffled deck, hands dealt (hand play), first seat chosen (R3)."""
        if seats is None:
            seats = self.seats_for(players if players is not None else self.players_max)
        seats = tuple(seats)
        state = _rng.seed_state(seed)
        state, pile = _rng.shuffled(state, self.deck)
        if first is None:
            if self.first == "random":
                state, first = _rng.below(state, len(seats))
            else:
                first = 0
        hands = None
        if self.hand_play:
            dealt = [[] for _ in seats]
            pile = list(pile)
            for _ in range(self.hand_size):
                for i in range(len(seats)):
                    if pile:
                        dealt[i].append(pile.pop())
            pile = tuple(pile)
            hands = tuple(tuple(h) for h in dealt)
        return State(self.initial_placement(seats), seats, first, None, hands, pile, (), state, None, 0,
                     self.initial_counters(), 0, _marks.empty(self.marks))

    def position(self, placement, seats, turn: int, card: int | None = None, hand: tuple | None = None,
                 counters: tuple | None = None, marks: tuple | None = None, drawn: tuple = (),
                 redraws: int = 0) -> State:
        """A state for asking about one position (the moves oracle): no pile, no discards;
        `counters` as `State.counters` (default: every counter at its start value), `marks`
        as `State.marks` (default: none placed); `drawn` and `redraws` as `State.drawn` and
        `State.redraws`."""
        hands = None
        if hand is not None:
            hands = tuple(tuple(hand) if i == turn else () for i in range(len(seats)))
        counters = self.initial_counters() if counters is None else tuple(counters)
        marks = _marks.empty(self.marks) if marks is None else tuple(marks)
        return State(tuple(placement), tuple(seats), turn, card, hands, (), (), 0, None, 0, counters, 0, marks,
                     tuple(drawn), redraws)

    def initial_counters(self) -> tuple:
        """Every colour's counters at the start of a game: () when the variant has none."""
        if not self.counters:
            return ()
        starts = tuple(start for _, start, _ in self.counters)
        return tuple(starts for _ in range(self.layout.C))

    # ---- chance ------------------------------------------------------------------------------
    def needs_draw(self, state: State) -> bool:
        return not self.hand_play and state.card is None and state.winner is None

    def draw(self, state: State) -> State:
        """Draw the top card for the player to move (R5; R34 reshuffle when the pile is empty);
        with `turn.take` > 1 that many, one by one (reshuffling between draws when needed)."""
        if state.winner is not None or self.hand_play or state.card is not None:
            raise IllegalMoveError("no card is to be drawn now")
        if self.take > 1:
            pile, discard, rng, cards = take_cards(take_card, state.pile, state.discard, state.rng, self.take)
            if not cards:
                raise IllegalMoveError("the draw pile and the discards are both empty")
            return state._replace(card=cards[0], pile=pile, discard=discard, rng=rng, drawn=cards[1:])
        pile, discard, rng, card = take_card(state.pile, state.discard, state.rng)
        if card is None:
            raise IllegalMoveError("the draw pile and the discards are both empty")
        return _new(State, (state.placement, state.seats, state.turn, card, state.hands, pile, discard, rng, state.winner,
                            state.plies, state.counters, state.bonus, state.marks, state.drawn, state.redraws))

    # ---- moves -------------------------------------------------------------------------------
    def player(self, state: State) -> int:
        """Colour index of the player to move."""
        return state.seats[state.turn]

    def card_moves(self, state: State, card: int) -> list:
        """What `card` would allow the player to move in `state` (forfeit included)."""
        p = state.seats[state.turn]
        board = self.board(state) if self.fast_moves is None else None  # generated: no board needed
        moves, flags = self._results(p, card, state.placement, board, state.marks)
        if self.filters:
            moves = filter_moves(self.filters, p, moves, state.counters)[0]
        if not moves:
            return [Move(card, state.placement, (), bool(flags & DRAW_AGAIN), "forfeit")]
        return moves

    def legal_moves(self, state: State) -> list:
        """Every legal move of the player to move; a single forfeit/discard list when stuck."""
        if state.winner is not None:
            return []
        if not self.hand_play:
            if state.card is None:
                raise IllegalMoveError("draw a card first")
            moves = self._drawn_moves(state) if state.drawn else self.card_moves(state, state.card)
            if self.redraw is not None and moves[0].kind == "forfeit":
                return redraw_moves(self.redraw, state, state.seats[state.turn], (state.card,), Move) or moves
            return moves
        return self._hand_moves(state)

    def board(self, state: State) -> Board:
        """The working board of `state` the card programs start from (with its marks when the
        variant has marks: `engine.marks.MarkedBoard`)."""
        return self.board_of(state.placement, state.marks)

    def board_of(self, placement, marks: tuple) -> Board:
        """`board` of a placement and its marks."""
        if self.marks:
            return _marks.MarkedBoard.with_marks(placement, self._X, self.marks, marks)
        return Board.of(placement, self._X)

    def _drawn_moves(self, state: State) -> list:
        """The moves of every card drawn this turn (`turn.take` > 1), chosen among as from a
        hand (`_cards_moves`; the filters judge them together); stuck: one forfeit that
        discards them all, with no extra draw."""
        p = state.seats[state.turn]
        board = self.board(state) if self.fast_moves is None else None  # generated: no board needed
        moves = self._cards_moves(p, board, (state.card,) + state.drawn, state.placement, state.marks)
        if self.filters:
            moves = filter_moves(self.filters, p, moves, state.counters)[0]
        return moves or [Move(state.card, state.placement, (), False, "forfeit")]

    def _moves_of(self, p: int, board: Board, card: int, placement) -> tuple[list, int]:
        """Deduplicated moves of one card (A24: one move per distinct result), and the flags
        of outcomes that move nothing (a forfeited 2 still draws again)."""
        if self.marks:
            return self._marked_moves_of(p, board, card, placement)
        moves = []
        seen = set()
        spare_flags = 0
        for result, events, flags in self.card_programs[card](p, board):
            if events:
                kind = "move"
            elif flags & PASS:
                result, kind = placement, "pass"
            else:
                spare_flags |= flags
                continue
            key = (result, kind, bool(flags & DRAW_AGAIN))  # what the Move carries (A24)
            if key in seen:
                continue
            seen.add(key)
            moves.append(_new(Move, (card, result, events, bool(flags & DRAW_AGAIN), kind, (), "", ())))
        return moves, spare_flags

    def _marked_moves_of(self, p: int, board, card: int, placement) -> tuple[list, int]:
        """`_moves_of` for a variant with marks: a move also carries the marks after it, and
        two moves with the same placement but different marks are different results."""
        moves = []
        seen = set()
        spare_flags = 0
        kinds, layout, before = self.marks, self.layout, board.marks
        for result, events, flags in self.card_programs[card](p, board):
            if events:
                kind = "move"
                marks = _marks.fit(_marks.replay(kinds, layout, before, events), result, self._X)
            elif flags & PASS:
                result, kind, marks = placement, "pass", before
            else:
                spare_flags |= flags
                continue
            key = (result, kind, bool(flags & DRAW_AGAIN), marks)
            if key in seen:
                continue
            seen.add(key)
            moves.append(_new(Move, (card, result, events, bool(flags & DRAW_AGAIN), kind, (), "", marks)))
        return moves, spare_flags

    def _cards_moves(self, p: int, board: Board, cards, placement, marks: tuple = ()) -> list:
        """The moves of a choice of cards (a hand, or the cards drawn together): a card that
        cannot move a pawn is no play, even if it offers a pass (P4); a pass survives only
        when every playable card offers one (A21)."""
        moves = []
        declinable = True
        for card in sorted(set(cards)):
            card_moves, _ = self._results(p, card, placement, board, marks)
            if not any(m.kind == "move" for m in card_moves):
                continue  # a card that cannot move is no play (P4); a bare pass is no move (A21)
            declinable = declinable and any(m.kind == "pass" for m in card_moves)
            moves.extend(card_moves)
        if not declinable:
            moves = [m for m in moves if m.kind != "pass"]
        return moves

    def _hand_moves(self, state: State) -> list:
        p = state.seats[state.turn]
        hand = state.hands[state.turn]
        if not hand:
            return [Move(None, state.placement, (), False, "forfeit")]
        board = self.board(state) if self.fast_moves is None else None  # generated: no board needed
        moves = self._cards_moves(p, board, hand, state.placement, state.marks)
        if self.actions:
            moves.extend(action_moves(self.actions, state, p, hand, Move))
        if self.filters:
            moves = filter_moves(self.filters, p, moves, state.counters)[0]
        if not moves:
            if self.redraw is not None:
                moves = redraw_moves(self.redraw, state, p, hand, Move)
            return moves or [Move(card, state.placement, (), False, "discard") for card in sorted(set(hand))]
        return moves

    # ---- queries (authoring tools and tests; never on the play path) -----------------------
    def candidate_moves(self, state: State, card: int) -> list:
        """The moves `card` offers the player to move before the filters (`rules.must_bump`,
        `filters:`) remove any (deduplicated as `legal_moves` does; no forfeit entry). Equal
        to `card_moves` when the variant has no filter or nothing is filtered."""
        p = state.seats[state.turn]
        return self._moves_of(p, self.board(state), card, state.placement)[0]

    def traced_moves(self, state: State) -> list:
        """`legal_moves(state)`, each as a `TracedMove` naming every top-level alternative of
        its card's effect that yields it (`Origin`s; none for a forfeit or a discard). The
        traced programs are run here only, so play pays nothing for them."""
        moves = self.legal_moves(state)
        p = state.seats[state.turn]
        board = self.board(state)
        by_card: dict = {}
        traced = []
        for move in moves:
            if move.kind not in ("move", "pass") or move.card is None:
                traced.append(TracedMove(move, ()))
                continue
            if move.card not in by_card:
                by_card[move.card] = [(origin, self._option_keys(program, p, board, state.placement))
                                      for origin, program in self.card_options[move.card]]
            key = (move.placement, move.kind, move.draw_again) + ((move.marks,) if self.marks else ())
            traced.append(TracedMove(move, tuple(origin for origin, keys in by_card[move.card] if key in keys)))
        return traced

    def _option_keys(self, program, p: int, board: Board, placement) -> set:
        keys = set()
        marked = bool(self.marks)
        for result, events, flags in program(p, board):
            if events:
                key = (result, "move", bool(flags & DRAW_AGAIN))
                after = _marks.fit(_marks.replay(self.marks, self.layout, board.marks, events), result, self._X) if marked else ()
                keys.add(key + (after,) if marked else key)
            elif flags & PASS:
                key = (placement, "pass", bool(flags & DRAW_AGAIN))
                keys.add(key + (board.marks,) if marked else key)
        return keys

    def filtered_moves(self, state: State) -> list:
        """The moves the filters removed from the player's candidates in `state`, each as
        `(move, label of the filter that removed it)`; [] without filters."""
        if not self.filters or state.winner is not None:
            return []
        p = state.seats[state.turn]
        if self.hand_play:
            cards = sorted(set(state.hands[state.turn]))
        else:
            cards = sorted(set((state.card,) + state.drawn)) if state.card is not None else []
        candidates = [m for card in cards for m in self.candidate_moves(state, card)]
        return [(m, f.label) for m, f in filter_moves(self.filters, p, candidates, state.counters)[1]]

    def consequences(self, state: State, move: Move) -> tuple:
        """The consequences (`after:`, `engine.moverules.Consequence`s: `label`, `draw_again`,
        ...) that playing `move` in `state` triggers, in order."""
        if not self.after or move.kind not in ("move", "pass"):
            return ()
        return run_consequences(self.after, state.seats[state.turn], move, state.counters)[2]

    def marks_after(self, state: State, move: Move) -> tuple:
        """The marks once `move` is applied in `state` (its consequences and the next
        player's turn beginning included): `State.marks` of `apply(state, move)`."""
        if not self.marks:
            return ()
        return self.apply(state, move).marks if state.winner is None else state.marks

    def obstacles(self, placement, marks: tuple = ()) -> Obstacles:
        """Per-primitive answers to "why can this pawn not move" on `placement` with the
        marks `marks` (`State.marks`; see `engine.queries.Obstacles`)."""
        return Obstacles(self.mechanics, tuple(placement), tuple(marks))

    def chance(self, state: State) -> tuple:
        """The distribution of the next card drawn in `state`: ((card, Fraction), ...) over
        the draw pile, or over the discards when the pile is empty (they are reshuffled,
        R34, A16); () when both are empty. Every order of the pile counts as equally likely
        (what a player knows), although the state's RNG fixes the actual order."""
        return chance(state.pile, state.discard)

    def win_holds(self, colour: int, placement, counters=(), marks=()) -> bool:
        """Whether `colour`'s win condition holds on `placement` with the counters
        `counters` (`State.counters`; () for a variant without counters) and the marks
        `marks` (`State.marks`)."""
        return bool(self.win(colour, PlacementView(placement), self._env(counters, marks)))

    @staticmethod
    def view(placement) -> PlacementView:
        """A read-only view of `placement` for the compiled win and score expressions
        (`game.win(colour, game.view(placement), None)`)."""
        return PlacementView(placement)

    # ---- applying ----------------------------------------------------------------------------
    def apply(self, state: State, move: Move) -> State:
        """Play `move` (one of `legal_moves(state)`): new placement, card discarded, hand
        refilled, winner checked, turn passed unless the move draws again."""
        if state.winner is not None:
            raise IllegalMoveError("the game is over")
        pile, discard, rng, hands = state.pile, state.discard, state.rng, state.hands
        if move.card is not None:
            discard = discard + (move.card,)
        if move.cards or state.drawn:
            discard = discard + move.cards + (self._unplayed(state, move) if state.drawn else ())
        if self.hand_play:
            pile, discard, rng, hands = self._refill(state, move, pile, discard, rng)
        placement = move.placement
        counters, bonus, marks = state.counters, state.bonus, state.marks
        if self.marks and move.kind == "move":
            marks = move.marks
        if self.after and move.kind in ("move", "pass"):
            counters, extra, fired = run_consequences(self.after, state.seats[state.turn], move, counters)
            bonus += extra
            if self.marks and fired:
                marks = _marks.consequence_marks(self.marks, self.layout, marks, fired, state.seats[state.turn], move.events,
                                                 move.placement)
        winner = None
        if move.kind == "move" and (not self.win_on_home_only or self._reaches_home(move.events)
                                    or self._wins_at_setup(state.seats)):
            winner = self._winner(placement, state.seats, state.turn, counters, marks)
        if winner is not None or move.draw_again:
            turn = state.turn
        elif bonus:
            turn, bonus = state.turn, bonus - 1
        else:
            turn = (state.turn + 1) % len(state.seats)
        if self.marks and turn != state.turn:
            marks = _marks.turn_begins(self.marks, marks, state.seats[turn])
        redraws = 0 if self.redraw is None or turn != state.turn else state.redraws + (move.kind == REDRAW)
        return _new(State, (placement, state.seats, turn, None, hands, pile, discard, rng, winner, state.plies + 1, counters,
                            bonus, marks, (), redraws))

    def _refill(self, state: State, move: Move, pile, discard, rng) -> tuple:
        """Hand play: the cards `move` plays leave the hand and as many are drawn (the discards
        reshuffled when the pile is empty, A16); returns `(pile, discard, rng, hands)`."""
        hands = state.hands
        hand = list(hands[state.turn])
        if move.card is not None:
            for card in (move.card,) + move.cards:
                if card not in hand:
                    raise IllegalMoveError(f"card {self.card_names[card]} is not in the hand")
                hand.remove(card)
            for _ in range(1 + len(move.cards)):
                pile, discard, rng, drawn = take_card(pile, discard, rng)
                if drawn is not None:
                    hand.append(drawn)
        return pile, discard, rng, hands[: state.turn] + (tuple(hand),) + hands[state.turn + 1:]

    def _unplayed(self, state: State, move: Move) -> tuple:
        """The cards drawn this turn other than the one `move` plays (draw play, `turn.take`
        > 1), discarded with it, in the order drawn."""
        cards = list((state.card,) + state.drawn)
        if move.card not in cards:
            raise IllegalMoveError(f"card {self.card_names[move.card]} was not drawn this turn")
        cards.remove(move.card)
        return tuple(cards)

    def _env(self, counters, marks):
        """The environment of win and score expressions: counters and marks when the
        variant has them (None otherwise: nothing to read)."""
        if not counters and not self.marks:
            return None
        return {"@counters": counters, "@marks": marks} if self.marks else {"@counters": counters}

    def _wins_at_setup(self, seats) -> bool:
        """Whether a seat's win condition already holds before any pawn reached Home. A
        condition that counts only Home and pawns keeps its value until a pawn reaches
        Home, so checking it only then is exact unless it held from the start; then every
        move is checked, as without the shortcut."""
        known = self._setup_wins.get(seats)
        if known is None:
            view = PlacementView(self.initial_placement(seats))
            known = self._setup_wins[seats] = any(self.win(c, view, None) for c in seats)
        return known

    def _reaches_home(self, events) -> bool:
        home = self.layout.home
        return any(len(e) == 4 and e[3] == home[e[1]] for e in events)

    def _winner(self, placement, seats, mover: int, counters=(), marks=()) -> int | None:
        view = PlacementView(placement)
        env = self._env(counters, marks)
        n = len(seats)
        for k in range(n):
            seat = (mover + k) % n
            if self.win(seats[seat], view, env):
                return seat
        return None

    # ---- the end -----------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Winner, the winning team's seats and every seat's score, once the game is over."""
        if state.winner is None:
            return None
        seats = state.seats
        winning_colours = self.team_of[seats[state.winner]]
        winning = tuple(i for i, c in enumerate(seats) if c in winning_colours)
        view = PlacementView(state.placement)
        env = self._env(state.counters, state.marks)
        scores = {}
        for seat, colour in enumerate(seats):
            lines = []
            for label, for_winner, formula in self.scoring:
                if for_winner and seat not in winning:
                    continue
                lines.append(ScoreLine(label, formula(colour, view, env)))
            scores[seat] = (sum(line.points for line in lines), tuple(lines))
        return Outcome(state.winner, winning, scores)

    def standing(self, state: State) -> dict:
        """Every seat's points so far from the score components that count for every player
        (winner-only components wait for `outcome`); {} when the variant does not score."""
        if not self.scoring:
            return {}
        view = PlacementView(state.placement)
        env = self._env(state.counters, state.marks)
        return {seat: sum(formula(colour, view, env) for _, for_winner, formula in self.scoring if not for_winner)
                for seat, colour in enumerate(state.seats)}

