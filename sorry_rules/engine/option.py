"""The option: one choice the player to move may make, from a card's primitive to the loop.

Primitives (`engine.track`, `engine.splits`, `engine.pawns`, the grid's primitives) build the
options of a card directly, and the turn flow (`engine.table`) adds the turn's own choices
(forfeit, discard, redraw, hand action, exchange, pass); the loop plays the one chosen.

Contract: an `Option` is `(card, events, flags, kind, key, cards, label)`: the card played
(None when none is), the move's events in order (`engine.events`; replaying them from the
position gives the result), flag bits (DRAW_AGAIN: the player takes another card; PASS: an
explicit pass), its kind ("move", "pass", "forfeit", "discard", "redraw", "action", or the
grid's "place", "remove", "exchange"; SPARE for a flag-only outcome of an effect that is no
choice, such as a forfeited 2's extra draw), the exact change of the placement key it makes
(`position.key_of`: options with equal keys, flags and marks give one result, A24), and for
an action the other cards it plays (for a forfeit of cards drawn together, the others drawn)
and the label of the turn rule behind it (for a move, the
labels of the `after:` consequences whose `then:` effects it plays, "; " between them).
"""

from __future__ import annotations

from typing import NamedTuple

DRAW_AGAIN = 1
PASS = 2

MOVE = "move"
PASS_KIND = "pass"
FORFEIT = "forfeit"
DISCARD = "discard"
SPARE = ""


class Option(NamedTuple):
    card: int | None      # the card played or discarded (None: none)
    events: tuple         # what the move does, in order (engine.events)
    flags: int            # DRAW_AGAIN | PASS
    kind: str             # see the module contract
    key: int = 0          # the exact change of the placement key
    cards: tuple = ()     # the other cards an `action` plays (discards) with `card`
    label: str = ""       # the turn rule behind a `redraw` or `action`; a move's follow-ups (after: then:)


new_option = tuple.__new__
