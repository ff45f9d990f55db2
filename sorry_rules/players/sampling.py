"""Guesses of what a player cannot see, for search: the hidden cards dealt as they may lie.

A player sees its `View`: the board, its own card(s) or hand, the public discards and the
size of the pile. The cards it cannot see are `evaluation.unseen_cards(view)` (the deck less
what it sees; the one chance model every bot uses, so a game whose deck is a bag of dice
throws works through it too). `Deals(view)` shuffles them, seeded, into one *deal*: the
other hands (hand play: the unseen cards the pile does not hold, shared out evenly among
the other seats, the seats after the player first, at most a full hand each) and the pile, in a random order; and
builds the engine table of the view with that deal (`Game.dealt`), a table on which a game
can be played on to its end. Deal k depends only on the seed parts, the view and k.
"""

from __future__ import annotations

from sorry_rules.engine.board import GRID
from sorry_rules.engine.rng import seed_state, shuffled, stream_at
from sorry_rules.players.evaluation import unseen_cards, view_state


def hand_sizes(view, hidden: int) -> list:
    """Each seat's hand size as the view lets one guess it: the player's own; the `hidden`
    cards not in the pile (at most a full hand each) shared out among the others, the seats
    after the player first."""
    n = len(view.seats)
    own = len(view.hand) if view.hand is not None else 0
    sizes = [0] * n
    sizes[view.seat] = own
    others = n - 1
    if not others:
        return sizes
    game = view.game
    limit = game.hand_sizes.get(n, own) if game.board_kind == GRID else game.hand_size
    held = max(0, min(hidden - view.pile_size, others * limit))
    for k in range(1, n):
        sizes[(view.seat + k) % n] = held // others + (1 if k <= held % others else 0)
    return sizes


class Deals:
    """The deals of one decision (module docstring): `table(k)` is a fresh table of deal k."""

    def __init__(self, view, *seed_parts: object):
        self.view = view
        self.game = view.game
        unseen = unseen_cards(view)
        self.cards = tuple(card for card in sorted(unseen) for _ in range(unseen[card]))
        self.hand_play = view.hand is not None
        self.sizes = hand_sizes(view, len(self.cards)) if self.hand_play else None
        self.base = seed_state("deal", *seed_parts, view.plies)
        if self.game.board_kind == GRID:
            self.state = self.game.position(view.placement, view.seats, view.seat, view.hand, view.exchanged)
        else:
            self.state = view_state(view)

    def table(self, k: int):
        """A table of the view with deal k (`Game.dealt`)."""
        rng, cards = shuffled(stream_at(self.base, k), self.cards)
        view, pile, hands = self.view, list(cards), None
        if self.hand_play:
            hands = []
            for seat, size in enumerate(self.sizes):
                if seat == view.seat:
                    hands.append(view.hand)
                else:
                    cut = len(pile) - min(size, len(pile))
                    hands.append(pile[cut:])
                    del pile[cut:]
        return self.game.dealt(self.state, pile, hands, view.discard, rng)
