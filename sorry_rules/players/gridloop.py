"""A lean loop for grid games of random players only: the same game as `runner.play_game`, faster.

`play_random(game, state, players, ...)` plays exactly what `play_game` plays on a grid game
(`engine.gridgame`) when every player is a `RandomPlayer`: each choice is `below_at(base,
plies, n)` over the `n` moves of `GridGame.legal_moves` (plays card by card in card order,
then exchanges of dead cards, then a pass), asked only among two or more moves; the same
hands, pile, discards and reshuffles as `GridGame.apply`; the win condition judged for every
seat from the mover's after every play; so the same final `GridState`, the same recorded
choices and the same `on_turn` calls.

How: the chips of each colour are a bit mask (`engine.gridmasks`). A card whose effect is one
primitive (`GridGame.card_shapes`) has its outcomes counted on the masks and only the chosen
one is made (the k-th empty cell of the card, the k-th removable chip), in the primitive's
order; any other card runs its compiled effect on the whole placement (`GridGame.plays`'
order and de-duplication). A colour's sequence count is kept and recounted when its chips
change; when the win condition reads nothing but the sequence counts (`GridGame.win_reads`),
it can only change when a count does, so it is judged then (and at the first play), else
after every play. `GridState`s are built only for `on_turn` and at the end.
"""

from __future__ import annotations

import weakref

from sorry_rules.engine.board import GRID
from sorry_rules.engine.game import Move
from sorry_rules.engine.gridgame import EXCHANGE, PASS, GridState
from sorry_rules.engine.gridmechanics import PLACE, REMOVE, SHAPE_CELLS, SHAPE_EMPTY, GridView
from sorry_rules.engine.rng import below_at, shuffled
from sorry_rules.players.protocol import RandomPlayer


def applies(game, state, players) -> bool:
    """Whether `play_random` plays this game: a grid game not over, random players only."""
    if getattr(game, "board_kind", None) != GRID or state.over or state.winner is not None:
        return False
    return all(type(player) is RandomPlayer for player in players)


def kth_bit(mask: int, k: int) -> int:
    """The k-th lowest set bit of `mask` (k from 0), as an int with that bit alone."""
    if k < 8:
        for _ in range(k):
            mask &= mask - 1
        return mask & -mask
    lo, hi = 0, mask.bit_length()
    while lo < hi:  # the lowest position whose bits up to it hold more than k set bits
        mid = (lo + hi) // 2
        if (mask & ((2 << mid) - 1)).bit_count() > k:
            hi = mid
        else:
            lo = mid + 1
    return 1 << lo


class Chips:
    """The position of a grid game as masks: per colour its chips, the empty cells, the
    sequence counts, and the whole placement made when asked."""

    def __init__(self, game, placement: tuple, sides: int):
        self.game, self.grid, self.sides = game, game.grid, sides
        lines = self.lines = game.grid.lines
        self.masks = [lines.mask(chips) for chips in placement]
        self.empty = lines.cells
        for mask in self.masks:
            self.empty &= ~mask
        self.counts = [lines.count(mask) for mask in self.masks]
        self._placement = placement
        self._protected = [None] * len(self.masks)

    def placement(self) -> tuple:
        if self._placement is None:
            cells_of = self.lines.cells_of
            self._placement = tuple(cells_of(mask) for mask in self.masks)
        return self._placement

    def removable(self, o: int, unprotected: bool) -> int:
        """The chips of colour o that a `remove` may take, as a mask."""
        if not unprotected:
            return self.masks[o]
        shielded = self._protected[o]
        if shielded is None:
            shielded = self._protected[o] = self.lines.protected(self.masks[o])
        return self.masks[o] & ~shielded

    def change(self, colour: int, bit: int, cell: int) -> bool:
        """Add or take away (toggle) the chip `bit` (on `cell`) of `colour`; whether its
        sequence count changed."""
        before = self.masks[colour]
        mask = self.masks[colour] = before ^ bit
        self.empty ^= bit
        self._protected[colour] = None
        self._placement = None
        if not self.lines.lined(before | bit, cell):
            return False  # no line through the cell, with the chip or without
        count = self.lines.count(mask)
        changed = count != self.counts[colour]
        self.counts[colour] = count
        return changed

    def replace(self, placement: tuple) -> None:
        """Take a whole new placement (an outcome of a card's compiled effect)."""
        self.__init__(self.game, placement, self.sides)

    def view(self) -> GridView:
        return GridView(self.placement(), self.sides, self.grid, tuple(self.counts))


def _cell_masks(game) -> tuple:
    """Per card the mask of its cells when it places on them (`SHAPE_CELLS`), else 0."""
    masks = _CELL_MASKS.get(game)
    if masks is None:
        mask = game.grid.lines.mask
        masks = _CELL_MASKS[game] = tuple(mask(shape[1]) if shape is not None and shape[0] == SHAPE_CELLS else 0
                                          for shape in game.card_shapes)
    return masks


_CELL_MASKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Plays:
    """The plays of one hand on `Chips`: counted per card, the chosen one made.
    `cell_masks[card]` (non-zero for a card that places on its cells) lets the loop count
    such a card alone: `(cell_masks[card] & chips.empty).bit_count()`."""

    def __init__(self, game, chips: Chips):
        self.chips = chips
        self.shapes = game.card_shapes
        self.programs = game.card_programs
        self.cell_masks = _cell_masks(game)
        self.outcomes: dict = {}

    def count(self, card: int, colour: int) -> int:
        shape = self.shapes[card]
        if shape is None:
            return len(self._outcomes(card, colour))
        kind = shape[0]
        if kind == SHAPE_CELLS:
            return (self.cell_masks[card] & self.chips.empty).bit_count()
        if kind == SHAPE_EMPTY:
            return self.chips.empty.bit_count()
        removable = self.chips.removable
        return sum(removable(o, shape[2]).bit_count() for o in shape[1][colour])

    def _outcomes(self, card: int, colour: int) -> list:
        """The outcomes of a card without a shape, de-duplicated as `GridGame.plays` does."""
        out, seen = [], set()
        for placement, events in self.programs[card](colour, self.chips.view()):
            if placement not in seen:
                seen.add(placement)
                out.append((placement, events))
        self.outcomes[card] = out
        return out

    def make(self, card: int, colour: int, k: int) -> tuple:
        """Play outcome k of `card`: (events, whether a sequence count changed)."""
        shape = self.shapes[card]
        chips = self.chips
        if shape is None:
            placement, events = self.outcomes[card][k]
            before = list(chips.counts)
            chips.replace(placement)
            return events, chips.counts != before
        kind = shape[0]
        if kind == SHAPE_CELLS or kind == SHAPE_EMPTY:
            mask = chips.empty & self.cell_masks[card] if kind == SHAPE_CELLS else chips.empty
            bit = kth_bit(mask, k)
            cell = chips.lines.cell(bit)
            return ((PLACE, colour, cell),), chips.change(colour, bit, cell)
        for o in shape[1][colour]:
            mask = chips.removable(o, shape[2])
            size = mask.bit_count()
            if k < size:
                bit = kth_bit(mask, k)
                cell = chips.lines.cell(bit)
                return ((REMOVE, o, cell),), chips.change(o, bit, cell)
            k -= size
        raise AssertionError("outcome out of range")  # counted by `count` on the same position


def _winner(game, chips: Chips, seats: tuple, mover: int, counts_only: bool):
    """`GridGame.apply`'s winner: the first seat from the mover whose win condition holds
    (`counts_only`: it reads the sequence counts alone, so the view has no placement)."""
    view = GridView(None, chips.sides, chips.grid, chips.counts) if counts_only else chips.view()
    win, n = game.win, len(seats)
    for k in range(n):
        seat = (mover + k) % n
        if win(seats[seat], view, None):
            return seat
    return None


class _Table:
    """The cards off the board: hands (lists), pile and discards (lists), the RNG."""

    def __init__(self, state):
        self.hands = [list(hand) for hand in state.hands]
        self.pile, self.discard, self.rng = list(state.pile), list(state.discard), state.rng

    def draw(self, hand: list) -> None:
        """`GridGame.apply`'s draw into `hand` (the played card already discarded): the top of
        the pile, the discards shuffled into a new pile first when it is empty."""
        if not self.pile:
            self.rng, pile = shuffled(self.rng, self.discard)
            self.pile[:] = pile
            self.discard.clear()
        hand.append(self.pile.pop())


def play_random(game, state, players, on_turn, max_plies: int, record, turn_type) -> GridState:
    """Play from `state` as `runner.play_game` would with these random `players` (see the
    module docstring; call only when `applies`); `on_turn` gets `turn_type` (`runner.Turn`)
    records as there, `record` (a `runner.GameRecord` or None) gets the choices."""
    seats, turn, plies, exchanged, passes = state.seats, state.turn, state.plies, state.exchanged, state.passes
    n = len(seats)
    chips = Chips(game, state.placement, game.sides(seats))
    plays = Plays(game, chips)
    table = _Table(state)
    hands, discard, count, make, cell_masks = table.hands, table.discard, plays.count, plays.make, plays.cell_masks
    cell_at = chips.lines.cell_at
    bases = [player.base for player in players]
    exchange = game.exchange
    judge_always = not game.win_reads <= {"sequences"}
    counts_only = not judge_always
    judge = True  # the first play is judged whatever changed
    winner, over = None, False
    choices = record.choices if record is not None else None
    while winner is None and plies < max_plies and not over:
        colour = seats[turn]
        hand = hands[turn]
        cards = sorted(set(hand))
        empty = chips.empty
        counts = [(cell_masks[card] & empty).bit_count() if cell_masks[card] else count(card, colour) for card in cards]
        total = sum(counts)
        options = total + (counts.count(0) if exchange and not exchanged else 0) + (not total)
        choice = 0 if options == 1 else below_at(bases[turn], plies, options)
        if choices is not None:
            choices.append(choice)
        seat = turn
        if choice < total:
            k = choice
            for card, size in zip(cards, counts):
                if k < size:
                    break
                k -= size
            if cell_masks[card]:  # a card placing on its cells (most cards): made here
                bit = kth_bit(cell_masks[card] & chips.empty, k)
                cell = cell_at[bit.bit_length() - 1]
                events, changed = ((PLACE, colour, cell),), chips.change(colour, bit, cell)
            else:
                events, changed = make(card, colour, k)
            hand.remove(card)
            discard.append(card)
            table.draw(hand)
            exchanged, passes = False, 0
            if judge or changed or judge_always:
                judge = False
                winner = _winner(game, chips, seats, seat, counts_only)
            over = winner is not None
            if not over:
                turn = (turn + 1) % n
            move = Move(card, None, events, False, events[0][0]) if on_turn is not None else None
        else:
            dead = [card for card, size in zip(cards, counts) if not size] if exchange and not exchanged else []
            turn, exchanged, passes, over, move = _not_played(table, seat, dead, choice - total, passes, n)
        plies += 1
        if on_turn is not None:
            move = move._replace(placement=chips.placement())  # no exchange nor pass changes the chips
            on_turn(turn_type(plies, seat, move.card, move, choice, options),
                    _state(chips, seats, turn, table, winner, plies, exchanged, passes, over))
    return _state(chips, seats, turn, table, winner, plies, exchanged, passes, over)


def _not_played(table, seat: int, dead: list, index: int, passes: int, n: int) -> tuple:
    """Exchange `dead[index]` (the exchangeable cards) or, past them, pass: (turn,
    exchanged, passes, over, move) as `GridGame.apply` leaves them."""
    if index < len(dead):
        card = dead[index]
        hand = table.hands[seat]
        hand.remove(card)
        table.discard.append(card)
        table.draw(hand)
        return seat, True, passes, False, Move(card, None, (), False, EXCHANGE)
    passes += 1
    return (seat + 1) % n, False, passes, passes >= n, Move(None, None, (), False, PASS)


def _state(chips: Chips, seats, turn, table: _Table, winner, plies, exchanged, passes, over) -> GridState:
    return GridState(chips.placement(), seats, turn, tuple(tuple(hand) for hand in table.hands), tuple(table.pile),
                     tuple(table.discard), table.rng, winner, plies, exchanged, passes, over)
