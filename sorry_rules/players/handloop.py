"""A lean loop for random games of hand play and of draw play with turn policies: the same
game as `runner.play_game`, faster.

`play_random(game, state, players, ...)` plays exactly what `play_game` plays when every
player is a `RandomPlayer`, for the games `players.fastloop` does not cover: hand play (P3-P5,
A13, A16, A21: every card of the hand is tried), hand actions (`turn.actions`), `turn.take`
> 1 and `turn.redraw`. It lists the moves as `Game.legal_moves` does (the cards in sorted
order, a card that cannot move a pawn is no play, a pass kept only when every playable card
offers one, then the hand actions), makes the same choice (`below_at(base, plies, options)`,
asked only among two or more moves), and applies the move as `Game.apply` does (cards
discarded with it, the hand refilled from the pile, the discards reshuffled by the same
`rng.shuffled` when the pile runs out, consequences, winner checks, bonus and redraw
counts), so it reaches the same final `State`, records the same choices and makes the same
`on_turn` calls.

It keeps the state in a small mutable `_Run` and builds a `State` only for `on_turn`, for
the engine's own moves (below) and at the end. It asks the generated move functions for
candidates and builds only the chosen `Move`: the flat flavour (`FastMoves.flat`,
`engine.flatstate`; `_FlatRun`) where the game has it and no filters, over sorted pawn
lists and an occupancy list kept in place, the chosen candidate played on them in place,
its `Move` built only for `on_turn` or consequences (with neither, and no filters, the
game is played by `players.handflat`, which builds no `Move` at all); else the candidates flavour (`FastMoves.select`:
each card's moves told apart by exact placement keys). Both list the same candidates in
the same order. The rarer turns are listed by `Game.legal_moves` itself on a
position with the turn's cards: every turn of a game with filters (they judge `Move`s), and a
turn where no card can move (the redraw, discard or forfeit moves). It applies to track games
whose every card has a generated function, started with no card drawn (`applies`);
`play_game` uses it then (when `fastloop` does not apply), and its own loop otherwise
(tests/test_handloop.py plays both on many seeds).
"""

from __future__ import annotations

from operator import itemgetter

from sorry_rules.engine.fastmoves import PASS_CODE
from sorry_rules.engine.flatstate import freeze
from sorry_rules.engine.game import Move, State
from sorry_rules.engine.moverules import run_consequences
from sorry_rules.engine.rng import below_at
from sorry_rules.engine.turnpolicy import REDRAW, action_moves
from sorry_rules.players import fastloop, handflat
from sorry_rules.players.fastloop import reaches_home, setup_wins

_COVERED = frozenset({"board:track", "turn:draw", "turn:hand", "filters", "after", "counters", "actions",
                      "turn.take", "turn.redraw"})
_CODE = itemgetter(2)


def applies(game, state, players) -> bool:
    """Whether `play_random` plays this game: random players only, every card generated, no
    card waiting, no feature but those it covers."""
    return fastloop.lean_loop_applies(game, state, players, _COVERED)


def _playable(select, may_pass, cards, args: tuple) -> tuple[list, int]:
    """Several cards together (a hand, the cards drawn at once), as `Game.legal_moves` lists them:
    `[(card, candidates)]` of the cards that can move a pawn (P4), passes kept only when
    every one of them offers one (A21), and the number of candidates. `select[card](*args)`
    gives the card's candidates; `may_pass[card]`: whether they may include a pass
    (`FastMoves.passes`)."""
    groups = []
    total = 0
    declinable = True
    passing = False
    for card in cards:
        candidates = select[card](*args)[0]
        if not candidates:
            continue
        if not may_pass[card]:
            declinable = False
            groups.append((card, candidates))
            total += len(candidates)
            continue
        passes = list(map(_CODE, candidates)).count(PASS_CODE)
        if passes == len(candidates):
            continue
        declinable = declinable and passes > 0
        passing = passing or passes > 0
        groups.append((card, candidates))
        total += len(candidates)
    if passing and not declinable:
        groups = [(card, [c for c in candidates if c[2] != PASS_CODE]) for card, candidates in groups]
        total = sum(len(candidates) for _, candidates in groups)
    return groups, total


class _Run:
    """One game in progress: the state's fields as attributes (lists for the pile, the
    discards and the hands), and the game's constant tables."""

    def __init__(self, game, state: State, colours: tuple):
        self.game = game
        self.placement, self.seats, self.turn, self.plies = state.placement, state.seats, state.turn, state.plies
        self.counters, self.bonus, self.marks, self.redraws = state.counters, state.bonus, state.marks, state.redraws
        self.winner = None
        self.deck = handflat.Deck(state)
        self.hands = [list(hand) for hand in state.hands] if state.hands is not None else None
        fast = game.fast_moves
        self.key = fast.key(self.placement)
        self.select = [tuple(fast.select[card][c] for card in range(len(game.card_names))) for c in colours]
        self.to_move, self.may_pass = fast.move, fast.passes
        self.filters, self.after, self.actions, self.redraw = game.filters, game.after, game.actions, game.redraw
        self.action_cards = frozenset().union(*(action.cards for action in self.actions))
        self.home = game.layout.home
        self.check_always = not game.win_on_home_only or setup_wins(game, state.seats)

    def state(self) -> State:
        """The game's `State` now (between turns: no card drawn)."""
        hands = tuple(tuple(hand) for hand in self.hands) if self.hands is not None else None
        deck = self.deck
        return State(self.placement, self.seats, self.turn, None, hands, tuple(deck.pile), tuple(deck.discard), deck.rng,
                     self.winner, self.plies, self.counters, self.bonus, self.marks, (), self.redraws)

    # ---- the moves of a turn -------------------------------------------------------------
    def options(self, cards: list, drawn: list | None, colour: int) -> tuple[list, list, int]:
        """The legal moves of the turn as `Game.legal_moves` lists them, for the distinct
        `cards` in sorted order (the hand's, or those `drawn` this turn in draw play):
        `(groups, extra, total)`, the moves being every candidate of `groups`
        (`[(card, candidates)]`) then the `Move`s of `extra`. With filters, and when no card
        can move (the redraw, discard or forfeit moves), the engine lists them."""
        if self.filters:
            moves = self.game.legal_moves(self._position(drawn))
            return [], moves, len(moves)
        select, args = self._functions(colour)
        if drawn is None or len(drawn) > 1:
            groups, total = _playable(select, self.may_pass, cards, args)
        else:
            candidates = select[cards[0]](*args)[0]
            groups, total = ([(cards[0], candidates)] if candidates else []), len(candidates)
        extra = self._actions(colour) if drawn is None else []
        if not total and not extra:
            extra = self.game.legal_moves(self._position(drawn))
        return groups, extra, total + len(extra)

    def _functions(self, colour: int) -> tuple:
        """(select, args): the move functions of a player of `colour` by card, and what they
        are called with (`FastMoves.select`: the placement and its key)."""
        return self.select[colour], (self.placement, self.key)

    def _position(self, drawn: list | None = None) -> State:
        """The position of the turn for the engine's own moves and a turn policy's condition:
        the cards `drawn` (draw play) or the hand of the player to move, no pile."""
        if drawn is not None:
            card, hands, drawn = drawn[0], None, tuple(drawn[1:])
        else:
            card, drawn = None, ()
            hands = tuple(tuple(hand) if seat == self.turn else () for seat, hand in enumerate(self.hands))
        return State(self.placement, self.seats, self.turn, card, hands, (), (), 0, None, self.plies, self.counters,
                     self.bonus, self.marks, drawn, self.redraws)

    def _actions(self, colour: int) -> list:
        """The hand actions the hand allows (`turnpolicy.action_moves`)."""
        hand = self.hands[self.turn]
        if not self.action_cards or self.action_cards.isdisjoint(hand):
            return []
        return action_moves(self.actions, self._position(), colour, tuple(hand), Move)

    def pick(self, groups: list, extra: list, total: int, choice: int) -> Move:
        """The chosen move (the candidates' placement key follows it)."""
        listed = total - len(extra)
        if choice >= listed:
            return extra[choice - listed]
        for card, candidates in groups:
            if choice < len(candidates):
                candidate = candidates[choice]
                self.key = candidate[0]
                return self.to_move(candidate, self.placement, card)
            choice -= len(candidates)
        raise AssertionError("choice out of range")  # pragma: no cover (choice < total)

    # ---- applying ------------------------------------------------------------------------
    def apply(self, move: Move, drawn: list) -> None:
        """`Game.apply` on the run's fields; `drawn` the cards drawn this turn (draw play)."""
        self._discard(move.card, move.cards, drawn)
        self.placement = move.placement
        kind = move.kind
        if self.after and kind in ("move", "pass"):
            self._consequences(move)
        if kind == "move" and (self.check_always or reaches_home(move.events, self.home)):
            self._check_winner()
        self._next_turn(move.draw_again, kind == REDRAW)

    def _discard(self, card, cards: tuple, drawn: list) -> None:
        """The cards a move plays (`card`, or None, and `cards`) go to the discards, then the
        unplayed of those `drawn` together; a hand gives up the played and is refilled."""
        discard = self.deck.discard
        if card is not None:
            discard.append(card)
        if cards:
            discard.extend(cards)
        if len(drawn) > 1:
            unplayed = list(drawn)
            unplayed.remove(card)
            discard.extend(unplayed)
        if self.hands is not None and card is not None:
            self._refill((card,) + cards)

    def _consequences(self, move: Move) -> None:
        """The variant's consequences (`after:`) of a move or a pass: counters, bonus turns."""
        self.counters, extra, _ = run_consequences(self.after, self.seats[self.turn], move, self.counters)
        self.bonus += extra

    def _next_turn(self, draw_again: bool, redrew: bool) -> None:
        """The turn passes on unless won, drawn again or a bonus turn is due (`Game.apply`)."""
        turn = self.turn
        if self.winner is None and not draw_again:
            if self.bonus:
                self.bonus -= 1
            else:
                self.turn = (turn + 1) % len(self.seats)
        self.redraws = 0 if self.redraw is None or turn != self.turn else self.redraws + redrew
        self.plies += 1

    def _refill(self, played: tuple) -> None:
        """The cards `played` leave the hand and as many are drawn (as in `Game.apply`)."""
        hand = self.hands[self.turn]
        for card in played:
            hand.remove(card)
        for _ in range(len(played)):
            card = self.deck.take()
            if card is not None:
                hand.append(card)

    def _check_winner(self) -> None:
        """The first seat whose win condition holds, the mover first (as in `Game.apply`)."""
        seats, count, win_holds = self.seats, len(self.seats), self.game.win_holds
        for k in range(count):
            seat = (self.turn + k) % count
            if win_holds(seats[seat], self.placement, self.counters):
                self.winner = seat
                return


class _FlatRun(_Run):
    """`_Run` over the flat flavour (`FastMoves.flat`, `engine.flatstate`), for games with no
    filters: the position kept in place as sorted pawn lists and an occupancy list, every
    card's candidates listed from it (the same lists as `FastMoves.select`), the chosen
    candidate played on it in place. A `Move` is built for the chosen candidate only where
    something reads it (`moves`: an `on_turn`, or consequences), the placement only where
    it is read (winner checks, the engine's own moves, states); the other moves (hand
    actions, the engine's) are applied as `_Run` does and the flat position rebuilt."""

    def __init__(self, game, state: State, colours: tuple, moves: bool):
        super().__init__(game, state, colours)
        flat = game.fast_moves.flat
        self.flat = flat
        self.P, self.occ, _ = flat.position(state.placement)
        self.flat_select = [tuple(flat.table[card][c] for card in range(len(game.card_names))) for c in colours]
        self.moves = moves or bool(self.after)
        self.chosen = None

    @property
    def placement(self) -> tuple:
        """The placement now (built from the flat lists when first read after a move)."""
        if self._placement is None:
            self._placement = freeze(self.P)
        return self._placement

    @placement.setter
    def placement(self, placement: tuple) -> None:
        self._placement = placement

    def _functions(self, colour: int) -> tuple:
        return self.flat_select[colour], (self.P, self.occ, 0)  # keys relative to this position

    def pick(self, groups: list, extra: list, total: int, choice: int) -> Move | None:
        """The chosen move: a `Move` for one of `extra`; for a candidate, kept as `chosen`,
        its `Move` when `moves` asks for it, else None."""
        listed = total - len(extra)
        if choice >= listed:
            return extra[choice - listed]
        for card, candidates in groups:
            if choice < len(candidates):
                self.chosen = card, candidates[choice]
                return self.flat.move(candidates[choice], self.placement, card) if self.moves else None
            choice -= len(candidates)
        raise AssertionError("choice out of range")  # pragma: no cover (choice < total)

    def apply(self, move: Move | None, drawn: list) -> None:
        """`_Run.apply` for the move `pick` gave: the chosen candidate played in place."""
        if self.chosen is None:
            before = self.placement
            super().apply(move, drawn)
            if move.placement != before:  # in place: the loop holds the lists
                self.P[:], self.occ[:], _ = self.flat.position(move.placement)
            return
        card, candidate = self.chosen
        self.chosen = None
        self._discard(card, (), drawn)
        if self.after:
            self._consequences(move)
        if candidate[2] != PASS_CODE:
            reached = self.flat.apply(candidate, self.P, self.occ)
            self._placement = None
            if self.check_always or reached:
                self._check_winner()
        self._next_turn(candidate[1], False)


def play_random(game, state, players, on_turn, max_plies: int, record, turn_type) -> State:
    """Play from `state` as `runner.play_game` would with these random `players` (see the
    module docstring; call only when `applies`); `on_turn` gets `turn_type` (`runner.Turn`)
    records as there, `record` (a `runner.GameRecord` or None) gets the choices."""
    if handflat.applies(game, on_turn):
        return handflat.play(game, state, players, max_plies, record, on_turn)
    colours = tuple(range(game.layout.C))
    flat = game.fast_moves.flat is not None and not game.filters
    run = _FlatRun(game, state, colours, on_turn is not None) if flat else _Run(game, state, colours)
    bases = [player.base for player in players]
    choices = record.choices if record is not None else None
    hand_play, take = run.hands is not None, game.take
    while run.winner is None and run.plies < max_plies:
        seat = run.turn
        colour = run.seats[seat]
        drawn = []
        if hand_play:
            groups, extra, total = run.options(sorted(set(run.hands[seat])), None, colour)
        else:
            drawn = run.deck.draw(take)
            groups, extra, total = run.options(drawn if len(drawn) == 1 else sorted(set(drawn)), drawn, colour)
        choice = 0 if total == 1 else below_at(bases[seat], run.plies, total)
        move = run.pick(groups, extra, total, choice)
        if choices is not None:
            choices.append(choice)
        run.apply(move, drawn)
        if on_turn is not None:
            on_turn(turn_type(run.plies, seat, move.card, move, choice, total), run.state())
    return run.state()
