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
order and de-duplication). A card placing on its cells or on any empty cell (a *cell mask*,
`Layout`) has its count of plays kept (`Chips.avail`, moved by one as a cell of its mask
fills or empties), so a hand's counts are read, not counted; the chosen card is found by
bisection over their running totals. A colour's sequence count is kept and recounted when
its chips change (and a line could pass through the cell); when the win condition reads
nothing but the sequence counts (`GridGame.win_reads`), it can only change when a count
does, so it is judged then (and at the first play), its verdict kept per (seats, mover,
counts) across games (`Layout.judged`), else after every play. The random players'
numbers are drawn ahead in batches, side by side, for the seats expected in turn (`Draws`,
`rng.first_draws`) until the game's first exchange. `GridState`s are built only for
`on_turn` and at the end; a tally (`players.tally`) is told each play's kind and events, with
no placement nor `GridState` built.
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from itertools import accumulate

from sorry_rules.engine.board import GRID
from sorry_rules.engine.game import Move
from sorry_rules.engine.gridgame import EXCHANGE, PASS, GridState
from sorry_rules.engine.gridmechanics import PLACE, REMOVE, SHAPE_CELLS, SHAPE_EMPTY, GridView
from sorry_rules.engine.rng import below_at, first_draws, shuffled
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.tally import is_tally


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


class Layout:
    """What the loop reads of one compiled grid game, built once per game (`layout(game)`):

    * `cell_masks[card]`: the cells a card places on, as a mask, when its outcomes are one
      per empty cell of that mask in cell order (`SHAPE_CELLS`: its cells; `SHAPE_EMPTY`:
      every cell that takes a chip), else 0; such a card's count of plays is the number of
      empty cells in its mask and needs no colour;
    * `cards_at[cell]`: the cards whose cell mask holds the cell (their counts move by one
      when the cell fills or empties);
    * `judged`: the win condition's verdicts already judged, when it reads nothing but the
      sequence counts (`GridGame.win_reads`): per (seats, mover, counts) the winning seat or
      None, a pure function of them (`GridGame`'s contract), kept across games;
    * `avail`: `Chips.avail` on a board without chips."""

    #: the most verdicts kept (cleared past it): a game meets a handful of distinct counts
    JUDGED = 4096

    def __init__(self, game):
        lines = game.grid.lines
        masks = []
        for shape in game.card_shapes:
            if shape is not None and shape[0] == SHAPE_CELLS:
                masks.append(lines.mask(shape[1]) & lines.cells)
            elif shape is not None and shape[0] == SHAPE_EMPTY:
                masks.append(lines.cells)
            else:
                masks.append(None)
        #: per card whether it has a cell mask (possibly 0: no cell of the board takes a chip)
        self.counted = tuple(mask is not None for mask in masks)
        masks = [mask or 0 for mask in masks]
        self.cell_masks = tuple(masks)
        bit = lines.bit
        self.cards_at = tuple(tuple(card for card, mask in enumerate(masks) if mask & bit[cell])
                              for cell in range(len(bit)))
        #: per card its count of plays on a board without chips (-1: no cell mask)
        self.avail = tuple(mask.bit_count() if counted else -1 for mask, counted in zip(masks, self.counted))
        self.judged: dict = {}


def layout(game) -> Layout:
    """The `Layout` of `game`, built at its first use."""
    found = _LAYOUTS.get(game)
    if found is None:
        found = _LAYOUTS[game] = Layout(game)
    return found


_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Chips:
    """The position of a grid game as masks: per colour its chips, the empty cells, the
    sequence counts, per card of a cell mask its count of plays (`avail[card]`, -1 for the
    other cards), and the whole placement made when asked."""

    __slots__ = ("game", "grid", "sides", "shape", "cards_at", "lines", "lined", "masks", "empty", "counts", "avail",
                 "_placement", "_protected")

    def __init__(self, game, placement: tuple, sides: int, shape: Layout | None = None):
        self.game, self.grid, self.sides = game, game.grid, sides
        shape = self.shape = shape if shape is not None else layout(game)
        self.cards_at = shape.cards_at
        lines = self.lines = game.grid.lines
        self.lined = lines.lined
        self.masks = [lines.mask(chips) for chips in placement]
        self.empty = lines.cells
        for mask in self.masks:
            self.empty &= ~mask
        self.counts = [lines.count(mask) if mask else lines.none for mask in self.masks]
        if self.empty == lines.cells:  # no chip yet
            self.avail = list(shape.avail)
        else:
            self.avail = [(mask & self.empty).bit_count() if counted else -1
                          for mask, counted in zip(shape.cell_masks, shape.counted)]
        self._placement = placement
        self._protected = [None] * len(self.masks)

    def placement(self) -> tuple:
        if self._placement is None:
            cells_of = self.lines.cells_of
            self._placement = tuple(cells_of(mask) for mask in self.masks)
        return self._placement

    def removable(self, o: int, unprotected: bool) -> int:
        """The chips of colour o that a `remove` may take, as a mask."""
        if not unprotected or not self.counts[o]:  # no line of colour o: no chip of it is protected
            return self.masks[o]
        shielded = self._protected[o]
        if shielded is None:
            shielded = self._protected[o] = self.lines.protected(self.masks[o])
        return self.masks[o] & ~shielded

    def change(self, colour: int, bit: int, cell: int) -> bool:
        """Add or take away (toggle) the chip `bit` (on `cell`) of `colour`; whether its
        sequence count changed."""
        masks = self.masks
        before = masks[colour]
        mask = masks[colour] = before ^ bit
        empty = self.empty = self.empty ^ bit
        avail = self.avail
        if empty & bit:
            for card in self.cards_at[cell]:
                avail[card] += 1
        else:
            for card in self.cards_at[cell]:
                avail[card] -= 1
        self._protected[colour] = None
        self._placement = None
        if self.lined(before | bit, cell):
            count = self.lines.count(mask)
            changed = count != self.counts[colour]
            self.counts[colour] = count
            return changed
        return False  # no line through the cell, with the chip or without

    def replace(self, placement: tuple) -> None:
        """Take a whole new placement (an outcome of a card's compiled effect); `avail`
        stays the same list (the loop holds it)."""
        avail = self.avail
        self.__init__(self.game, placement, self.sides, self.shape)
        avail[:] = self.avail
        self.avail = avail

    def view(self) -> GridView:
        return GridView(self.placement(), self.sides, self.grid, tuple(self.counts))


class Plays:
    """The plays of one hand on `Chips`: counted per card, the chosen one made. A card of
    a cell mask (`Layout.cell_masks`) is counted by `chips.avail` and made by the loop
    itself; `count` and `make` serve the others."""

    def __init__(self, game, chips: Chips):
        self.chips = chips
        self.shapes = game.card_shapes
        self.programs = game.card_programs
        self.outcomes: dict = {}

    def count(self, card: int, colour: int) -> int:
        """The plays of a card without a cell mask: a removal's chips, or the distinct
        outcomes of its compiled effect."""
        shape = self.shapes[card]
        if shape is None:
            return len(self._outcomes(card, colour))
        removable, unprotected, total = self.chips.removable, shape[2], 0
        for o in shape[1][colour]:
            total += removable(o, unprotected).bit_count()
        return total

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
        """Play outcome k of a card without a cell mask: (events, whether a sequence count
        changed)."""
        shape = self.shapes[card]
        chips = self.chips
        if shape is None:
            placement, events = self.outcomes[card][k]
            before = list(chips.counts)
            chips.replace(placement)
            return events, chips.counts != before
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
    (`counts_only`: it reads the sequence counts alone, so the view has no placement and
    the verdict is remembered in `Layout.judged`)."""
    if counts_only:
        key = (seats, mover, tuple(chips.counts))
        judged = chips.shape.judged
        if key in judged:
            return judged[key]
        view = GridView(None, chips.sides, chips.grid, key[2])
    else:
        view = chips.view()
    win, n = game.win, len(seats)
    found = None
    for k in range(n):
        seat = (mover + k) % n
        if win(seats[seat], view, None):
            found = seat
            break
    if counts_only:
        if len(judged) >= Layout.JUDGED:
            judged.clear()
        judged[key] = found
    return found


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
    shape = layout(game)
    chips = Chips(game, state.placement, game.sides(seats), shape)
    plays = Plays(game, chips)
    table = _Table(state)
    hands, pile, discard, count, make = table.hands, table.pile, table.discard, plays.count, plays.make
    cell_masks, getavail, change = shape.cell_masks, chips.avail.__getitem__, chips.change
    cell_at = chips.lines.cell_at
    bases = [player.base for player in players]
    exchange = game.exchange
    judge_always = not game.win_reads <= {"sequences"}
    counts_only = not judge_always
    judge = True  # the first play is judged whatever changed
    winner, over = None, False
    choices = record.choices if record is not None else None
    tell = _teller(on_turn, turn_type)
    ahead = Draws(bases, n)
    drawn_from, draws = plies, ()  # the players' draws for the plies ahead (`Draws`)
    while winner is None and plies < max_plies and not over:
        colour = seats[turn]
        hand = hands[turn]
        cards = sorted(set(hand))
        counts = list(map(getavail, cards))
        if -1 in counts:  # a card without a cell mask: counted on the position
            counts = [count(card, colour) if size < 0 else size for card, size in zip(cards, counts)]
        ends = list(accumulate(counts))  # ends[i]: the plays of cards[:i + 1]
        total = ends[-1] if ends else 0
        options = total + (counts.count(0) if exchange and not exchanged else 0) + (not total)
        if options == 1:
            choice = 0
        elif plies - drawn_from < len(draws):  # drawn ahead
            value = draws[plies - drawn_from]
            choice = value % options if value < TOP - options else below_at(bases[turn], plies, options)
        else:
            choice, drawn_from, draws = ahead.choose(plies, turn, options)
        if choices is not None:
            choices.append(choice)
        seat = turn
        if choice < total:
            i = bisect_right(ends, choice)  # the card of the choice, and its play k
            card, k = cards[i], choice - ends[i - 1] if i else choice
            mask = cell_masks[card]
            if mask:  # a card placing on the empty cells of its mask (most cards): made here
                mask &= chips.empty
                if k > 1:
                    bit = kth_bit(mask, k)
                else:  # the first or second empty cell of the mask (a face shown twice)
                    if k:
                        mask &= mask - 1
                    bit = mask & -mask
                cell = cell_at[bit.bit_length() - 1]
                changed = change(colour, bit, cell)
                events = ((PLACE, colour, cell),) if on_turn is not None else None
            else:
                events, changed = make(card, colour, k)
            hand.remove(card)
            discard.append(card)
            if pile:
                hand.append(pile.pop())
            else:
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
            if exchanged:  # the same seat plays again: the draws ahead were for the next seats
                draws = ()
        plies += 1
        if tell is not None:
            tell(move, seat, choice, options, (chips, seats, turn, table, winner, plies, exchanged, passes, over))
    return _state(chips, seats, turn, table, winner, plies, exchanged, passes, over)


def _teller(on_turn, turn_type):
    """`tell(move, seat, choice, options, after)`: gives `on_turn` the ply just played (its
    `Move` without placement; `after`: `_state`'s arguments after it) as `runner.Turn` and
    `GridState`, or tells a tally (`players.tally`) its kind and events alone; None when
    there is no `on_turn`."""
    if on_turn is None:
        return None
    if is_tally(on_turn):
        played = on_turn.played
        return lambda move, seat, choice, options, after: played(seat, move.kind, move.events)

    def tell(move, seat: int, choice: int, options: int, after: tuple) -> None:
        chips = after[0]
        move = move._replace(placement=chips.placement())  # no exchange nor pass changes the chips
        on_turn(turn_type(after[5], seat, move.card, move, choice, options), _state(*after))
    return tell


TOP = 1 << 64


class Draws:
    """The random players' choices, their numbers drawn side by side in batches ahead of the
    plies (`rng.first_draws`) for the seats expected to play them: every seat in turn from
    the one to move at the batch's first ply. An exchange (the same seat plays again) breaks
    that order: the loop then drops the batch. A batch is (first ply, draws): the choice
    among `options` at ply `first + j` is `draws[j] % options` when `draws[j] < 2**64 -
    options`, else `below_at`'s (a draw of `TOP` always leaves it to `below_at`).

    `choose` gives the choice at a ply no batch covers, with the batch from there: the first
    holds `FIRST` plies, the next twice the last (at most `MOST`), until an exchange breaks
    a batch; from then on the game's choices are drawn one by one (batches of `TOP`s): an
    exchange needs a dead card, and once cards die more exchanges follow (mostly every few
    plies), which would leave most draws computed ahead unused."""

    FIRST, MOST = 16, 32

    def __init__(self, bases: list, n: int):
        self.bases, self.n = bases, n
        self.first, self.last, self.broken = 0, None, False

    def choose(self, plies: int, turn: int, options: int) -> tuple:
        """(choice, first ply, draws) at ply `plies` by seat `turn`."""
        bases, last = self.bases, self.last
        if self.broken or (last is not None and plies - self.first < last):
            self.broken = True
            return below_at(bases[turn], plies, options), plies, IDLE
        size = self.FIRST if last is None else min(2 * last, self.MOST)
        self.first, self.last, n = plies, size, self.n
        draws = first_draws([bases[(turn + k) % n] for k in range(size)], plies)
        value = draws[0]
        choice = value % options if value < TOP - options else below_at(bases[turn], plies, options)
        return choice, plies, draws


#: the draws of the plies after an exchange broke a batch (`Draws`): none used
IDLE = (TOP,) * 256


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
