"""Turn policies and hand actions (the rule file's `turn.redraw`, `turn.take`, `turn.actions`),
compiled to plain data and closures; the engine runs them only when a rule file has some.

A compiled condition is `when(colour, view, env) -> bool` (an `ExpressionBuilder` closure:
`view` an `engine.placement.PlacementView`, `env` None or `{"@counters": counters}`), judged
from the point of view of the player to move.

Contract:
- `Redraw`: when the card (draw play) or the whole hand (hand play) cannot move a pawn and
  `when` holds, the stuck move is a `redraw` instead of a forfeit (or of the free discard):
  the card is discarded and the player takes another card (draw play: draws again; hand
  play: refills and plays again), at most `at_most` times in one turn (`State.redraws`
  counts them; the count goes back to 0 when the turn passes). `redraw_moves` gives those
  moves, or [] when the policy does not apply.
- `HandAction`: a play beside the card moves in hand play: one card of `cards` together with
  `others` (min..max) other cards of the hand, all discarded, the hand refilled with as many;
  `draw_again` keeps the turn. `action_moves` lists one move per distinct choice of the card
  and the other cards (sorted card indices), for every action whose `when` holds.
- `take_cards(pile, discard, rng, n)` draws `n` cards one by one (each draw reshuffles the
  discards when the pile is empty); fewer when both run out.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, NamedTuple

from sorry_rules.engine.placement import PlacementView

REDRAW = "redraw"
ACTION = "action"


class Redraw(NamedTuple):
    at_most: int              # extra cards one turn may take this way
    when: Callable            # (colour, view, env) -> bool
    label: str                # words for the move list, why and explain
    constant: bool | None = None  # what `when` gives when it reads nothing (a literal), else None


class HandAction(NamedTuple):
    cards: frozenset          # card indices that enable the action (one of them is played)
    others_min: int           # fewest other cards played with it
    others_max: int           # most other cards played with it
    when: Callable            # (colour, view, env) -> bool
    draw_again: bool          # the player plays again after refilling the hand
    label: str                # words for the move list, why and explain
    constant: bool | None = None  # what `when` gives when it reads nothing (a literal), else None


def _env(counters):
    return {"@counters": counters} if counters else None


def redraw_moves(policy: Redraw, state, colour: int, cards: tuple, move_type) -> list:
    """The redraw move(s) replacing a stuck turn: one per distinct card of `cards` (the drawn
    card, or the hand's cards), none when the turn used up `at_most` or `when` fails."""
    if state.redraws >= policy.at_most:
        return []
    if not policy.when(colour, PlacementView(state.placement), _env(state.counters)):
        return []
    return [move_type(card, state.placement, (), True, REDRAW, (), policy.label) for card in sorted(set(cards))]


def action_moves(actions: tuple, state, colour: int, hand: tuple, move_type) -> list:
    """Every hand action move the hand allows, in action order, then enabling card, then the
    other cards (each distinct choice once)."""
    moves = []
    seen = set()
    view = None
    for action in actions:
        enabling = sorted(set(c for c in hand if c in action.cards))
        if not enabling:
            continue
        if view is None:
            view = PlacementView(state.placement)
        if not action.when(colour, view, _env(state.counters)):
            continue
        for card in enabling:
            rest = list(hand)
            rest.remove(card)
            rest.sort()
            for k in range(action.others_min, min(action.others_max, len(rest)) + 1):
                for others in sorted(set(combinations(rest, k))):
                    key = (card, others, action.draw_again, action.label)
                    if key in seen:
                        continue
                    seen.add(key)
                    moves.append(move_type(card, state.placement, (), action.draw_again, ACTION, others, action.label))
    return moves


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


def take_cards(take_card, pile: tuple, discard: tuple, rng: int, n: int) -> tuple:
    """`n` cards drawn one by one with `take_card` (engine.game.take_card) as
    `(pile, discard, rng, cards)`; fewer cards when the pile and the discards run out."""
    cards = []
    for _ in range(n):
        pile, discard, rng, card = take_card(pile, discard, rng)
        if card is None:
            break
        cards.append(card)
    return pile, discard, rng, tuple(cards)
