"""Invariants every state of every variant must satisfy (used by the game and property tests)."""

from __future__ import annotations


def check_state(game, state) -> None:
    """Raise AssertionError when `state` breaks a rule that holds in every game."""
    layout = game.layout
    seen_exclusive: dict[int, int] = {}
    for c, squares in enumerate(state.placement):
        if c in state.seats:
            assert len(squares) == game.pawns, f"{game.colours[c]} has {len(squares)} pawns"
        else:
            assert not squares, f"{game.colours[c]} is not playing but has pawns"
        for sq in squares:
            assert 0 <= sq < layout.size, f"square {sq} off the board"
            owner = layout.colour_of_square(sq)
            assert owner is None or owner == c, f"{game.colours[c]} pawn on another colour's {layout.name(sq)}"
            if sq < layout.X:
                assert sq not in seen_exclusive, f"two pawns on {layout.name(sq)}"
                seen_exclusive[sq] = c
    cards = list(state.pile)
    cards += state.discard
    if state.card is not None:
        cards.append(state.card)
    for hand in state.hands or ():
        cards += hand
        if state.pile or state.discard:
            assert len(hand) == game.hand_size, f"a hand holds {len(hand)} cards while cards remain to draw (P4)"
    assert sorted(cards) == _sorted_deck(game), "cards are not conserved (pile + discards + hands + card = deck)"


_DECKS: dict = {}


def _sorted_deck(game) -> list:
    deck = _DECKS.get(id(game))
    if deck is None or deck[0] is not game:
        deck = _DECKS[id(game)] = (game, sorted(game.deck))
    return deck[1]
