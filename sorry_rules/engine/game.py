"""The engine's public face for track games: immutable states, legal moves, applying moves,
drawing, the outcome.

`State` is a snapshot of a game and `Move` one legal move as people and tools look at it
(the placement after it included). Both are views of the one engine: `legal_moves(state)`
and `apply(state, move)` set a `engine.table.Table` up from the state, ask it, and read the
answer back. Games played by a loop (`players.runner`) keep their `Table` from ply to ply and
build no `State` or `Move` unless somebody looks. The turn flow (R5, R11, R17, R19, R34,
R35, A13, A16, A21, P4, P5, turn policies, filters, consequences, the winner) is
`engine.table`'s; the movement rules are `engine.track`'s.

Contract: `State` is immutable; `apply` never mutates its argument; the same state and the
same moves give the same result on every machine (the RNG lives in the state). The engine
never prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine import marks as _marks
from sorry_rules.engine import rng as _rng
from sorry_rules.engine.board import TRACK
from sorry_rules.engine.placement import PlacementView
from sorry_rules.engine.position import Position
from sorry_rules.engine.queries import Obstacles, TracedMove, chance
from sorry_rules.engine.settings import MovementRules, TurnRules
from sorry_rules.engine.option import DRAW_AGAIN, FORFEIT, MOVE, PASS, PASS_KIND, Option
from sorry_rules.engine.table import Table
from sorry_rules.engine.turnpolicy import REDRAW


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
    finished: tuple = ()  # seats whose side has finished, in the order they did (`places` > 1); () otherwise


class Move(NamedTuple):
    card: int | None      # the card played or discarded
    placement: tuple      # the whole placement after the move, bumps and slides applied
    events: tuple         # the resolved steps, bumps, slides and switches, in order (engine.events)
    draw_again: bool      # the player draws (or, in hand play, plays) another card
    kind: str             # "move", "pass", "forfeit", "discard", "redraw" or "action" (engine.turnpolicy)
    cards: tuple = ()     # the other cards an `action` plays (discards) with `card`; a forfeit's or a redraw's other cards drawn
    label: str = ""       # the turn rule behind a `redraw` or `action` move
    marks: tuple = ()     # the marks after the move (as State.marks), for a variant with marks


def option_of(move: Move) -> Option:
    """The table's option a public `Move` stands for."""
    flags = (DRAW_AGAIN if move.draw_again else 0) | (PASS if move.kind == "pass" else 0)
    return Option(move.card, move.events, flags, move.kind, 0, move.cards, move.label)


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int


@dataclass(frozen=True)
class Outcome:
    winner: int                   # winning seat
    winning_seats: tuple          # the winner and their partners
    scores: dict                  # seat -> (total, tuple[ScoreLine])
    places: tuple = ()            # per seat, its place (1: the winner's side; sides that did not finish share the last)


class Game:
    """A compiled track variant: plain frozen data (settings, tables) and compiled makers.
    Built by `sorry_rules.compiler.compile_variant`; nothing reachable from it is a rule-file
    model or a DSL tree.

    `card_makers[card](p, flags)` makes the generator of a card's plays for player colour p
    (`engine.track`); `program(card, p)` is that generator, made once. `card_options[card]`
    is, per top-level alternative of the card's effect, `(Origin, maker)`: the same plays
    split by the alternative that gives them; only the queries (`traced_moves`) run them."""

    board_kind = TRACK   # the public query players and tools dispatch on (engine.board)
    state_type = State
    move_type = Move

    def __init__(self, *, name, layout, mechanics, card_names, card_makers, card_sources,
                 deck, pawns, placed, turn: TurnRules, rules: MovementRules, team_of, seating,
                 players_min, players_max, win, scoring, content_hash, win_on_home_only=False,
                 card_options=(), filters=(), after=(), counters=(), counter_ranges=(), marks=(), redraw=None, actions=(),
                 dice=None, places: int = 1, forward_only: bool = False, mark_placers=()):
        self.name = name
        #: no move of the game takes a pawn backward or puts it on a track square of its choosing
        #: (`compiler.build`): a pawn stands only on the squares of its colour's forward route
        self.forward_only = forward_only
        self._routes_of: dict = {}
        self.layout = layout
        self.mechanics = mechanics          # engine.track.Track
        self.colours = layout.colours
        self.card_names = tuple(card_names)
        self.card_index = {n: i for i, n in enumerate(card_names)}
        self.card_makers = tuple(card_makers)
        self.card_sources = tuple(card_sources)
        self.card_options = tuple(card_options)
        self.deck = tuple(deck)             # the cards of the pile; with dice, the bag of every outcome (engine.dice)
        self.dice = dice                    # engine.dice.Dice, or None: a turn's source is the deck
        self.places = places                # places played for: 1 ends the game at the first win (R35)
        #: what a turn takes, in words: a "card" (drawn or from a hand) or a "throw" of the dice
        self.source_noun = "card" if dice is None else "throw"
        self.pawns = pawns
        self.placed = placed  # per colour, the squares its pawns begin on outside Start (`Layout.setup_squares`)
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
        self.after_on_events = bool(self.after) and all(c.on_events is not None for c in self.after)
        self.after_then = tuple(c for c in self.after if c.then is not None)     # consequences that move pawns
        self.after_forfeit = tuple(c for c in self.after if c.forfeits)          # consequences of a forfeit
        # the kinds of play whose consequences are judged and that may then find a winner (`Table._made`)
        self.made_kinds = frozenset((MOVE, PASS_KIND) + ((FORFEIT, REDRAW) if self.after_forfeit else ()))
        self.ends_turns = any(c.ends_turn for c in self.after)                     # some may end a turn
        # whether two ways of playing a card that lead to one placement may still differ by the counters or extra
        # cards their consequences give (a consequence of those that reads the move's events or the board after it)
        self.after_tells_apart = any((c.adds or c.draw_again or c.ends_turn) and (c.on_events is None or c.on_events[2])
                                     for c in self.after)
        self.forfeit_on_events = all(c.on_events is not None for c in self.after_forfeit)
        # per card: the filters, consequences and consequences of a forfeit that concern it (its `cards:`)
        self.filters_of = _concerning(self.filters, len(self.card_names))
        self.after_of = _concerning(self.after, len(self.card_names))
        self.after_forfeit_of = _concerning(self.after_forfeit, len(self.card_names))
        #: followers[(i, p)]: the generator of the i-th `then:` effect (after_then) for player colour p, made on first use
        self.followers: dict = {}
        self.counters = tuple(counters)     # (name, start value, label) per declared counter
        #: (lowest, highest) value per declared counter, in order: a move's changes are clamped to it
        self.counter_ranges = tuple(counter_ranges)
        self.marks = tuple(marks)           # engine.marks.MarkKind per declared mark kind
        #: per declared mark kind, the (placing player colour, pawn colour) pairs some rule may mark: a `mark` effect's
        #: selector, an `after:` consequence's `mark:` (what a position's marks are checked against)
        self.mark_placers = tuple(mark_placers)
        #: whether a card's one option is judged beyond listing it (filters; marks tell results apart)
        self.judged = bool(self.filters) or bool(self.marks)
        self.team_of = team_of
        self.seating = seating
        self.players_min = players_min
        self.players_max = players_max
        self.win = win
        self.win_on_home_only = win_on_home_only
        self._setup_wins: dict[tuple, bool] = {}
        self.scoring = scoring
        self.content_hash = content_hash
        #: programs[card][p]: the generator of `card`'s options for player colour p, once made (`program`)
        self.programs = [[None] * layout.C for _ in card_names]
        #: forfeits[card][draw_again]: the forfeit option of `card` (drawing again: a forfeited 2)
        self.forfeits = tuple((Option(card, (), 0, "forfeit"), Option(card, (), DRAW_AGAIN, "forfeit"))
                              for card in range(len(card_names)))

    def reaches(self, c: int, sq: int) -> bool:
        """Whether a colour-c pawn may ever stand on track square `sq`: always, unless every
        move of the game goes forward from the start exit (`forward_only`), in which case only
        the squares of c's forward route do (Ludo's square before a colour's start square, past
        the turn into its home column, never holds one of its tokens)."""
        if not self.forward_only or sq >= self.layout.T:
            return True
        route = self._routes_of.get(c)
        if route is None:
            route = self._routes_of[c] = self._forward_route(c)
        return sq in route

    def _forward_route(self, c: int) -> frozenset:
        """The track squares a colour-c pawn passes going forward from its start exit, one step
        at a time (the turns of `geometry:` taken), slide ends included."""
        layout, routes, slides = self.layout, self.mechanics.routes, self.mechanics.slide_here[c]
        seen, queue = set(), [layout.start_exit[c]]
        while queue:
            sq = queue.pop()
            if sq in seen or not 0 <= sq < layout.T:
                continue
            seen.add(sq)
            if slides[sq] is not None:
                queue.append(slides[sq].end)
            if routes is None:
                queue.append(layout.step_forward(c, sq))
            else:
                queue.extend(way[0] for mask in routes.masks() for way in routes.options("forward", 1, mask)[c][sq])
        return frozenset(seen)

    def program(self, card: int, p: int):
        """`gen(pos, out)`: the options of `card` for player colour p (made on first use)."""
        gen = self.programs[card][p]
        if gen is None:
            gen = self.programs[card][p] = self.card_makers[card](p, 0, card)
        return gen

    def table(self, state) -> Table:
        """A `Table` set up from `state` (changed in place by its `play`; `state` is not)."""
        return Table(self, state)

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
        return self.layout.placement_at_start(self.pawns, self.placed, seats)

    @property
    def default_players(self) -> int:
        """The players seated when no count is given: the most the variant takes."""
        return self.players_max

    def new_game(self, seed, players: int | None = None, seats: tuple | None = None, first: int | None = None) -> State:
        """A fresh game: shuffled deck, hands dealt (hand play), first seat chosen (R3)."""
        if seats is None:
            seats = self.seats_for(players if players is not None else self.default_players)
        seats = tuple(seats)
        deck = self.deck if self.dice is None else None  # dice are thrown with replacement: no pile
        state, pile, first, hands = deal(seed, deck, len(seats), self.first, first,
                                         self.hand_size if self.hand_play else None)
        return State(self.initial_placement(seats), seats, first, None, hands, pile, (), state, None, 0,
                     self.initial_counters(), 0, _marks.empty(self.marks))

    def position(self, placement, seats, turn: int, card: int | None = None, hand: tuple | None = None,
                 counters: tuple | None = None, marks: tuple | None = None, drawn: tuple = (),
                 redraws: int = 0, finished: tuple = (), bonus: int = 0) -> State:
        """A state for asking about one position (the moves oracle): no pile, no discards;
        `counters` as `State.counters` (default: every counter at its start value), `marks`
        as `State.marks` (default: none placed); `drawn`, `redraws`, `finished` and `bonus` as
        `State.drawn`, `State.redraws`, `State.finished` and `State.bonus`."""
        hands = None
        if hand is not None:
            hands = tuple(tuple(hand) if i == turn else () for i in range(len(seats)))
        counters = self.initial_counters() if counters is None else tuple(counters)
        marks = _marks.empty(self.marks) if marks is None else tuple(marks)
        return State(tuple(placement), tuple(seats), turn, card, hands, (), (), 0, None, 0, counters, bonus, marks,
                     tuple(drawn), redraws, tuple(finished))

    def dealt(self, state: State, pile, hands, discard, rng: int) -> Table:
        """A table of `state` (a position as its player sees it: `position(...)`) with the cards
        it cannot see as a player guesses them: `hands` every seat's hand (hand play; None
        for draw play), `pile` the draw pile (drawn from its end), `discard` the public
        discards and `rng` the state that reshuffles them (search: `players.sampling`)."""
        hands = None if hands is None else tuple(map(tuple, hands))
        return Table(self, state._replace(pile=tuple(pile), hands=hands, discard=tuple(discard), rng=rng))

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
        table = self.table(state)
        table.draw()
        return state._replace(card=table.card, drawn=table.drawn, pile=tuple(table.pile), discard=tuple(table.discard),
                              rng=table.rng)

    # ---- moves -------------------------------------------------------------------------------
    def legal_moves(self, state: State) -> list:
        """Every legal move of the player to move; a single forfeit/discard list when stuck."""
        if self.needs_draw(state):
            raise IllegalMoveError("draw a card first")
        table = self.table(state)
        return [table.move(option) for option in table.options()]

    def board(self, state: State) -> Position:
        """The position of `state` the card makers start from (with its marks and counters)."""
        pos = Position(self.layout, state.placement, self.marks, state.marks)
        pos.counters = state.counters
        return pos

    # ---- queries (authoring tools and tests; never on the play path) -----------------------
    def turn_mask(self, state: State) -> int:
        """The `geometry:` turns with a condition that are there for the player to move in
        `state` (`engine.routes.Routes.mask_of`); -1 on a board without routes."""
        routes = self.mechanics.routes
        return -1 if routes is None else routes.mask_of(state.seats[state.turn], self.board(state))

    def traced_moves(self, state: State) -> list:
        """`legal_moves(state)`, each as a `TracedMove` naming every top-level alternative of
        its card's effect that yields it (`Origin`s; none for a forfeit or a discard). The
        traced makers are run here only, so play pays nothing for them."""
        moves = self.legal_moves(state)
        p = state.seats[state.turn]
        pos = self.board(state)
        by_card: dict = {}
        traced = []
        for move in moves:
            if move.kind not in ("move", "pass") or move.card is None:
                traced.append(TracedMove(move, ()))
                continue
            if move.card not in by_card:
                table = self.table(state) if self.after_then else None
                by_card[move.card] = [(origin, self._option_keys(maker, p, pos, state.placement, move.card, table))
                                      for origin, maker in self.card_options[move.card]]
            key = (move.placement, move.kind, move.draw_again) + ((move.marks,) if self.marks else ())
            traced.append(TracedMove(move, tuple(origin for origin, keys in by_card[move.card] if key in keys)))
        return traced

    def _option_keys(self, maker, p: int, pos: Position, placement, card=None, table=None) -> set:
        """The results of the options `maker` gives player colour p on `pos` (with `table`:
        followed by the effects of the consequences with `then:`, as the table lists them)."""
        keys = set()
        options: list = []
        maker(p, 0, card)(pos, options)
        if table is not None:
            options = table.followed(p, options)
        for option in options:
            events, flags = option.events, option.flags
            if events:
                after, marks = pos.after(events)
                keys.add((after, "move", bool(flags & DRAW_AGAIN)) + ((marks,) if self.marks else ()))
            elif flags & PASS:
                keys.add((placement, "pass", bool(flags & DRAW_AGAIN)) + ((pos.marks,) if self.marks else ()))
        return keys

    def filtered_moves(self, state: State) -> list:
        """The moves the filters removed from the player's candidates in `state`, each as
        `(move, label of the filter that removed it)`, one a result, leaving out a result
        another way of playing the same card keeps; [] without filters."""
        if not self.filters or state.winner is not None:
            return []
        table = self.table(state)
        p = state.seats[state.turn]
        if self.hand_play:
            candidates = table.hand_candidates(p, state.hands[state.turn], raw=True) if state.hands[state.turn] else []
        else:
            cards = sorted(set((state.card,) + state.drawn)) if state.card is not None else []
            candidates = table.cards_options(p, cards, raw=True) if len(cards) > 1 else \
                [o for card in cards for o in table.listed(p, card) if o.kind in ("move", "pass")]
        kept, removed = table.filtered(p, candidates)
        moves = [(table.move(o), f.label) for o, f in removed]
        shown = {(o[0], m.placement, m.kind, m.marks, m.cards, m.label) for o, m in ((o, table.move(o)) for o in kept)}
        out, seen = [], set()
        for (option, _), (move, label) in zip(removed, moves):
            key = (option[0], move.placement, move.kind, move.marks, move.cards, move.label)
            if key not in shown and key not in seen:
                seen.add(key)
                out.append((move, label))
        return out

    def consequences(self, state: State, move: Move) -> tuple:
        """The consequences (`after:`, `engine.moverules.Consequence`s: `label`, `draw_again`,
        ...) that playing `move` in `state` triggers, in order."""
        return self.followed_by(state, move)[0]

    def unplayed(self, state: State, move: Move) -> tuple:
        """The consequences with a `then:` effect that `move` triggers but whose effect had no
        way to be played there (no pawn could move 20), in order: what the move lost."""
        return self.followed_by(state, move)[1]

    def followed_by(self, state: State, move: Move) -> tuple:
        """(`consequences(state, move)`, `unplayed(state, move)`), judged once."""
        if not self.after or move.kind not in ("move", "pass", "forfeit", "redraw"):
            return (), ()
        fired, followed = self._fired(state, move)
        if not self.after_then:
            return fired, ()
        # a consequence with `then:` is judged on the move as listed, before its follow-ups: the move's label names those
        # played; one whose effect was not played counts only for its counters, marks and extra turn, where it has some
        return (tuple(c for c in self.after if (c.then is None and c in fired) or (c.then is not None and (
                    c.label in followed or (c in fired and (c.adds or c.marks or c.draw_again))))),
                tuple(c for c in self.after if c.then is not None and c in fired and c.label not in followed))

    def _fired(self, state: State, move: Move) -> tuple:
        """(the consequences `move` triggers in `state`, as play judges them; the labels of the
        `then:` follow-ups its label names)."""
        fired = self.table(state).consequences(state.seats[state.turn], option_of(move))[2]
        return fired, set(move.label.split("; ")) if move.label else set()

    def marks_after(self, state: State, move: Move) -> tuple:
        """The marks once `move` is applied in `state` (its consequences and the next
        player's turn beginning included): `State.marks` of `apply(state, move)`."""
        if not self.marks:
            return ()
        return self.apply(state, move).marks if state.winner is None else state.marks

    def obstacles(self, placement, marks: tuple = (), mask: int = -1) -> Obstacles:
        """Per-primitive answers to "why can this pawn not move" on `placement` with the
        marks `marks` (`State.marks`; see `engine.queries.Obstacles`) and the turns of
        `geometry:` that `mask` says are there (`turn_mask`; -1: every turn)."""
        return Obstacles(self.mechanics, tuple(placement), tuple(marks), mask)

    def chance(self, state: State) -> tuple:
        """The distribution of the next card drawn in `state`: ((card, Fraction), ...) over
        the draw pile, or over the discards when the pile is empty (they are reshuffled,
        R34, A16); () when both are empty; with dice, over the bag of their outcomes. Every
        order of the pile counts as equally likely (what a player knows), although the state's
        RNG fixes the actual order."""
        if self.dice is not None:  # every throw from the whole bag of the dice
            return chance(self.deck, ())
        return chance(state.pile, state.discard)

    def win_holds(self, colour: int, placement, counters=(), marks=()) -> bool:
        """Whether `colour`'s win condition holds on `placement` with the counters
        `counters` (`State.counters`; () for a variant without counters) and the marks
        `marks` (`State.marks`)."""
        return bool(self.win(colour, PlacementView(placement), self.env(counters, marks)))

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
        table = self.table(state)
        table.play(option_of(move))
        return table.state()

    def env(self, counters, marks):
        """The environment of win and score expressions: counters and marks when the
        variant has them (None otherwise: nothing to read)."""
        if not counters and not self.marks:
            return None
        return {"@counters": counters, "@marks": marks} if self.marks else {"@counters": counters}

    def wins_at_setup(self, seats) -> bool:
        """Whether a seat's win condition already holds before any pawn reached Home. A
        condition that counts only Home and pawns keeps its value until a pawn reaches
        Home, so checking it only then is exact unless it held from the start; then every
        move is checked, as without the shortcut."""
        known = self._setup_wins.get(seats)
        if known is None:
            view = PlacementView(self.initial_placement(seats))
            known = self._setup_wins[seats] = any(self.win(c, view, None) for c in seats)
        return known

    # ---- the end -----------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Winner, the winning team's seats, every seat's place and score, once the game is over."""
        if state.winner is None:
            return None
        seats = state.seats
        winning_colours = self.team_of[seats[state.winner]]
        winning = tuple(i for i, c in enumerate(seats) if c in winning_colours)
        places = self.places_of(seats, state.finished or winning)
        view = PlacementView(state.placement)
        env = self.env(state.counters, state.marks)
        scores = {}
        for seat, colour in enumerate(seats):
            lines = []
            for label, for_winner, formula in self.scoring:
                if for_winner and seat not in winning:
                    continue
                lines.append(ScoreLine(label, formula(colour, view, env)))
            scores[seat] = (sum(line.points for line in lines), tuple(lines))
        return Outcome(state.winner, winning, scores, places)

    def places_of(self, seats: tuple, finished: tuple) -> tuple:
        """Per seat its place: the sides of the `finished` seats in the order they finished
        (partners share their side's place), then every other side sharing the next place."""
        side_place: dict = {}
        for seat in finished:
            side_place.setdefault(self.team_of[seats[seat]], len(side_place) + 1)
        last = len(side_place) + 1
        return tuple(side_place.get(self.team_of[c], last) for c in seats)

    def standing(self, state: State) -> dict:
        """Every seat's points so far from the score components that count for every player
        (winner-only components wait for `outcome`), and once the game is won the final scores
        (`outcome`'s totals); {} when the variant does not score."""
        if not self.scoring:
            return {}
        if state.winner is not None:
            return {seat: total for seat, (total, _) in self.outcome(state).scores.items()}
        view = PlacementView(state.placement)
        env = self.env(state.counters, state.marks)
        return {seat: sum(formula(colour, view, env) for _, for_winner, formula in self.scoring if not for_winner)
                for seat, colour in enumerate(state.seats)}


def deal(seed, deck: tuple | None, seats: int, first_rule: str, first: int | None, hand_size: int | None) -> tuple:
    """(RNG state, pile, first seat, hands) of a new game of `seats` seats: `deck` shuffled
    by `seed` (no pile when `deck` is None), the first seat `first`, else drawn when
    `first_rule` is "random" (R3, S5; seat 0 otherwise), then `hand_size` cards dealt one at a
    time round the table from the pile's end (S4; hands None when `hand_size` is None)."""
    state = _rng.seed_state(seed)
    pile: tuple = ()
    if deck is not None:
        state, pile = _rng.shuffled(state, deck)
    if first is None:
        if first_rule == "random":
            state, first = _rng.below(state, seats)
        else:
            first = 0
    if hand_size is None:
        return state, pile, first, None
    dealt: list = [[] for _ in range(seats)]
    rest = list(pile)
    for _ in range(hand_size):
        for hand in dealt:
            if rest:
                hand.append(rest.pop())
    return state, tuple(rest), first, tuple(tuple(h) for h in dealt)


def _concerning(rules: tuple, cards: int) -> tuple:
    """Per card index, the filters or consequences of `rules` whose `cards` include it (all
    cards when None), in order."""
    return tuple(tuple(r for r in rules if r.cards is None or card in r.cards) for card in range(cards))
