"""A grid game in progress, changed in place: the grid board kind's table (SEQUENCE.md S4-S13).

The chips are bit masks (`engine.gridmasks`): per colour a mask of its chips, the empty
cells, every colour's sequence count, and per card whose effect places on the empty cells
of a fixed set (a *cell mask*) its count of plays, moved by one as a cell of the set fills
or empties. The player to move chooses among `options()` and `play(option)` applies the
choice, as on a track table (`engine.table`): the one loop (`players.runner`) plays both.

Turn flow: the options are every play of every card of the hand (cards in card order, each
card's plays in its effect's order, one per distinct result: kind "place" or "remove"),
then, when the variant allows an exchange and none was made this turn, one "exchange" per
distinct *dead* card (a card with no play, S12); a "pass" only when there is neither a play
nor an exchange (S9: the pass comes after any exchange).
Playing: a play changes the chips, discards the card, draws one (the discards reshuffled
into a new pile when the pile is empty; nothing when both are empty, S8), judges the win
condition for every seat from the mover's, and passes the turn; an exchange discards the
dead card and draws, and the same player goes on with no further exchange this turn (S6); a
pass keeps the hand, and when every seat has passed in a row the game ends with no winner.

`options()` is a sequence listed lazily: its length is counted on the masks and an option is
made when it is read (a two-eyed jack's plays are all the empty cells), so a player that
picks by index reads one. Seats may share a colour (a team has one chip colour, S1, S2).

Contract: the same table and choices give the same game as `GridGame.apply` on its states;
the state read back (`state()`) is the `GridState` of the game; nothing here prints.
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from itertools import accumulate

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine import rng as _rng
from sorry_rules.engine.gridmechanics import PLACE, REMOVE, SHAPE_CELLS, SHAPE_EMPTY, GridView
from sorry_rules.engine.option import Option, new_option

EXCHANGE = "exchange"
PASS = "pass"


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


class Shapes:
    """What the table reads of one compiled grid game's cards, built once per game (`shapes(game)`):

    * `cell_masks[card]`: the cells a card places on, as a mask, when its plays are one per
      empty cell of that mask in cell order (`SHAPE_CELLS`: its cells; `SHAPE_EMPTY`: every
      cell that takes a chip), else 0; `counted[card]` whether it has one;
    * `cards_at[cell]`: the cards whose cell mask holds the cell;
    * `avail`: every card's count of plays on a board without chips (-1: no cell mask);
    * `judged`: the win condition's verdicts, when it reads nothing but the sequence
      counts (`GridGame.win_reads`): per (seats, mover, counts) the winning seat or None."""

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
        self.counted = tuple(mask is not None for mask in masks)
        masks = [mask or 0 for mask in masks]
        self.cell_masks = tuple(masks)
        bit = lines.bit
        self.cards_at = tuple(tuple(card for card, mask in enumerate(masks) if mask & bit[cell])
                              for cell in range(len(bit)))
        self.avail = tuple(mask.bit_count() if counted else -1 for mask, counted in zip(masks, self.counted))
        self.judged: dict = {}


_SHAPES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def shapes(game) -> Shapes:
    """The `Shapes` of `game`, built at its first use."""
    found = _SHAPES.get(game)
    if found is None:
        found = _SHAPES[game] = Shapes(game)
    return found


class Chips:
    """The chips of a grid game as masks: per colour its chips, the empty cells, the
    sequence counts, per card of a cell mask its count of plays (`avail[card]`, -1 for the
    other cards), and the whole placement made when asked."""

    __slots__ = ("game", "grid", "seated", "shape", "cards_at", "lines", "lined", "masks", "empty", "counts", "avail",
                 "_placement", "_protected")

    def __init__(self, game, placement: tuple, seated: frozenset, shape: Shapes | None = None):
        self.game, self.grid, self.seated = game, game.grid, seated
        shape = self.shape = shape if shape is not None else shapes(game)
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

    def placement_after(self, events: tuple) -> tuple:
        """The placement once `events` (chips placed or removed: each toggles its colour's
        chip on its cell, as `change`) are played; the chips are not changed."""
        masks, bit = list(self.masks), self.lines.bit
        for event in events:
            masks[event[1]] ^= bit[event[2]]
        before, cells_of = self.placement(), self.lines.cells_of
        return tuple(row if mask == was else cells_of(mask) for row, mask, was in zip(before, masks, self.masks))

    def removable(self, o: int, unprotected: bool) -> int:
        """The chips of colour o that a `remove` may take, as a mask."""
        if not unprotected or not self.counts[o]:  # no line of colour o: no chip of it is protected
            return self.masks[o]
        shielded = self._protected[o]
        if shielded is None:
            shielded = self._protected[o] = self.lines.protected(self.masks[o])
        return self.masks[o] & ~shielded

    def change(self, colour: int, cell: int) -> bool:
        """Add or take away (toggle) colour's chip on `cell`; whether its sequence count changed."""
        bit = self.lines.bit[cell]
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

    def view(self) -> GridView:
        return GridView(self.placement(), self.seated, self.grid, tuple(self.counts))


class GridOptions:
    """The options of one turn, listed lazily (module docstring): `len`, indexing and
    iteration, in the order of the turn flow."""

    __slots__ = ("table", "colour", "cards", "ends", "total", "dead", "outcomes")

    def __init__(self, table, colour: int, hand: list, exchange: bool):
        self.table, self.colour = table, colour
        chips, shape_of = table.chips, table.game.card_shapes
        cards = sorted(set(hand))
        counts = [chips.avail[card] for card in cards]
        self.outcomes: dict = {}
        if -1 in counts:  # a card without a cell mask: counted on the chips
            counts = [self._count(card, shape_of[card]) if size < 0 else size for card, size in zip(cards, counts)]
        self.cards = cards
        self.ends = list(accumulate(counts))  # ends[i]: the plays of cards[:i + 1]
        self.total = self.ends[-1] if self.ends else 0
        self.dead = [card for card, size in zip(cards, counts) if not size] if exchange else []

    def _count(self, card: int, shape) -> int:
        """The plays of a card without a cell mask: a removal's chips, or the distinct
        outcomes of its compiled effect."""
        chips = self.table.chips
        if shape is None:
            out, seen = [], set()
            for placement, events in self.table.game.card_programs[card](self.colour, chips.view()):
                if placement not in seen:
                    seen.add(placement)
                    out.append(events)
            self.outcomes[card] = out
            return len(out)
        total = 0
        for o in shape[1][self.colour]:
            total += chips.removable(o, shape[2]).bit_count()
        return total

    def __len__(self) -> int:
        return self.total + len(self.dead) + (not self.total and not self.dead)

    def __getitem__(self, k: int) -> Option:
        if not 0 <= k < len(self):
            raise IndexError(k)
        if k >= self.total:
            k -= self.total
            if k < len(self.dead):
                return new_option(Option, (self.dead[k], (), 0, EXCHANGE, 0, (), ""))
            return new_option(Option, (None, (), 0, PASS, 0, (), ""))
        i = bisect_right(self.ends, k)  # the card of option k, and its play
        card = self.cards[i]
        k -= self.ends[i - 1] if i else 0
        chips, colour = self.table.chips, self.colour
        mask = chips.shape.cell_masks[card] & chips.empty
        if mask:
            events = ((PLACE, colour, chips.lines.cell(kth_bit(mask, k))),)
        elif card in self.outcomes:
            events = self.outcomes[card][k]
        else:
            shape = self.table.game.card_shapes[card]
            for o in shape[1][colour]:
                mask = chips.removable(o, shape[2])
                size = mask.bit_count()
                if k < size:
                    events = ((REMOVE, o, chips.lines.cell(kth_bit(mask, k))),)
                    break
                k -= size
        return new_option(Option, (card, events, 0, events[0][0], 0, (), ""))

    def __iter__(self):
        for k in range(len(self)):
            yield self[k]


class GridTable:
    """A grid game in progress (module contract). Built by `GridGame.table(state)`."""

    __slots__ = ("game", "chips", "seats", "turn", "hands", "pile", "discard", "rng", "winner", "plies", "exchanged",
                 "passes", "over", "judge_always", "judged_once")
    finished = ()  # a grid game ends at its first winner: no side finishes before (a track table's `finished`)

    def __init__(self, game, state):
        self.game = game
        self.chips = Chips(game, state.placement, frozenset(state.seats))
        self.seats = state.seats
        self.turn = state.turn
        self.hands = [list(hand) for hand in state.hands]
        self.pile, self.discard, self.rng = list(state.pile), list(state.discard), state.rng
        self.winner, self.plies = state.winner, state.plies
        self.exchanged, self.passes, self.over = state.exchanged, state.passes, state.over
        # the win condition is judged after every play unless it reads the sequence counts only
        self.judge_always = not game.win_reads <= {"sequences"}
        self.judged_once = False  # the first play is judged whatever changed

    def state(self):
        return self.game.state_type(self.chips.placement(), self.seats, self.turn, tuple(map(tuple, self.hands)),
                                    tuple(self.pile), tuple(self.discard), self.rng, self.winner, self.plies,
                                    self.exchanged, self.passes, self.over)

    def options(self):
        """The options of the player to move (module contract); () once the game is over."""
        if self.over:
            return ()
        return GridOptions(self, self.seats[self.turn], self.hands[self.turn],
                           self.game.exchange and not self.exchanged)

    def play(self, option) -> None:
        """Play `option` (one of `options()`), see the module contract."""
        if self.over:
            raise IllegalMoveError("the game is over")
        n = len(self.seats)
        kind, card = option[3], option[0]
        self.plies += 1
        if kind == PASS:
            self.turn = (self.turn + 1) % n
            self.exchanged = False
            self.passes += 1
            self.over = self.passes >= n
            return
        hand = self.hands[self.turn]
        if card not in hand:
            raise IllegalMoveError(f"card {self.game.card_names[card]} is not in the hand")
        hand.remove(card)
        self.discard.append(card)
        if not self.pile and self.discard:
            self.rng, pile = _rng.shuffled(self.rng, self.discard)
            self.pile, self.discard = list(pile), []
        if self.pile:
            hand.append(self.pile.pop())
        if kind == EXCHANGE:
            self.exchanged = True
            return
        changed = False
        chips = self.chips
        for event in option[1]:
            changed = chips.change(event[1], event[2]) or changed
        if changed or self.judge_always or not self.judged_once:
            self.judged_once = True
            self.winner = self._winner()
        self.exchanged, self.passes = False, 0
        if self.winner is not None:
            self.over = True
        else:
            self.turn = (self.turn + 1) % n

    def _winner(self):
        """The first seat from the mover whose win condition holds (read from the sequence
        counts alone, and remembered per counts, when the win condition reads nothing else)."""
        seats, chips, game = self.seats, self.chips, self.game
        counts_only = not self.judge_always
        if counts_only:
            key = (seats, self.turn, tuple(chips.counts))
            judged = chips.shape.judged
            if key in judged:
                return judged[key]
            view = GridView(None, chips.seated, chips.grid, key[2])
        else:
            view = chips.view()
        win, n = game.win, len(seats)
        found = None
        for k in range(n):
            seat = (self.turn + k) % n
            if win(seats[seat], view, None):
                found = seat
                break
        if counts_only:
            if len(judged) >= Shapes.JUDGED:
                judged.clear()
            judged[key] = found
        return found

    def move(self, option):
        """The public `Move` of `option`: with the placement after it."""
        placement = self.chips.placement_after(option[1]) if option[1] else self.chips.placement()
        return self.game.move_type(option[0], placement, option[1], False, option[3])
