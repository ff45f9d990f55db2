"""Turn policies and hand actions (the rule file's `turn.redraw`, `turn.take`, `turn.actions`),
compiled to plain data and closures; the engine runs them only when a rule file has some.

A compiled condition is `when(colour, view, env) -> bool` (an `ExpressionBuilder` closure:
`view` anything with `pos` (the table's position), `env` `policy_env(counters)`), judged
from the point of view of the player to move.

Contract:
- `Redraw`: when the card (draw play) or the whole hand (hand play) cannot move a pawn and
  `when` holds, the stuck move is a `redraw` instead of a forfeit (or of the free discard):
  the card is discarded and the player takes another card (draw play: draws again; hand
  play: refills and plays again), at most `at_most` times in one turn (`State.redraws`
  counts them; the count goes back to 0 when the turn passes).
- `HandAction`: a play beside the card moves in hand play: one card of `cards` together with
  `others` (min..max) other cards of the hand, all discarded, the hand refilled with as many;
  `draw_again` keeps the turn. `action_choices` lists one choice per distinct choice of the
  card and the other cards (sorted card indices), for every action whose `when` holds.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, NamedTuple

REDRAW = "redraw"
ACTION = "action"


class Redraw(NamedTuple):
    at_most: int              # extra cards one turn may take this way
    when: Callable            # (colour, view, env) -> bool
    label: str                # words for the move list, why and explain


class HandAction(NamedTuple):
    cards: frozenset          # card indices that enable the action (one of them is played)
    others_min: int           # fewest other cards played with it
    others_max: int           # most other cards played with it
    when: Callable            # (colour, view, env) -> bool
    draw_again: bool          # the player plays again after refilling the hand
    label: str                # words for the move list, why and explain


def action_choices(actions: tuple, view, env, colour: int, hand) -> list:
    """Every hand action the hand allows, as (card, other cards, draw again, label), in
    action order, then enabling card, then the other cards (each distinct choice once);
    `view` (`.pos`) and `env` are what the actions' conditions read."""
    choices = []
    seen = set()
    for action in actions:
        enabling = sorted(set(c for c in hand if c in action.cards))
        if not enabling or not action.when(colour, view, env):
            continue
        for card in enabling:
            rest = list(hand)
            rest.remove(card)
            rest.sort()
            for k in range(action.others_min, min(action.others_max, len(rest)) + 1):
                for others in sorted(set(combinations(rest, k))):
                    key = (card, others, action.draw_again, action.label)
                    if key not in seen:
                        seen.add(key)
                        choices.append(key)
    return choices


def policy_env(counters):
    """The environment the conditions of turn policies read: the counters, if any."""
    return {"@counters": counters} if counters else None
