"""Turn policies and hand actions of a variant compiled for the engine: `turn.take`,
`turn.redraw`, `turn.actions` (docs/REFERENCE.md section 1, `turn:`).

Contract:
- `check_turn_policy(v, out)` adds located problems: a policy on a grid board (SR512), `take`
  above 1 in hand play or `actions` in draw play (SR513), an unknown card in an action's
  `cards` (SR502); a warning (SR514) for an action the hand can never offer (it needs more
  other cards than a hand holds besides its card, or none of its cards is in the deck); SR303
  when the moves the hand actions can offer in one turn (per action: a card of the hand and
  each choice of its other cards) are more than `limits.MAX_WORK`.
- `turn_texts(v)` lists the DSL conditions as `(path, text, "bool")`; `build.dsl_texts`
  includes them, so they are parsed, costed and compiled like the win condition.
- `compile_turn_policy(v, compiled, card_index)` returns `(redraw, actions)` for
  `engine.game.Game`: an `engine.turnpolicy.Redraw` or None, and a tuple of
  `engine.turnpolicy.HandAction`; a variant that uses none gets `(None, ())`, so play pays
  nothing.
"""

from __future__ import annotations

from math import comb

from sorry_rules.base import limits
from sorry_rules.base.errors import ProblemCollector
from sorry_rules.compiler.checks import unknown_cards
from sorry_rules.engine.turnpolicy import HandAction, Redraw

REDRAW_LABEL = "discard and draw again"


def check_turn_policy(v, out: ProblemCollector) -> None:
    turn = v.turn
    if v.board.kind == "grid":
        for field, used in (("take", turn.take != 1), ("redraw", turn.redraw is not None), ("actions", bool(turn.actions))):
            if used:
                out.at(("turn", field), "SR512", f"turn.{field} is played on track boards only")
        return
    if turn.source == "hand" and turn.take != 1:
        out.at(("turn", "take"), "SR513", "turn.take: the variant plays from a hand (turn.source: hand); taking several "
               "cards at once is for draw play", also=(("turn", "source"),))
    if turn.source == "draw" and turn.actions:
        out.at(("turn", "actions"), "SR513", "turn.actions: hand actions are plays of a hand, but the variant draws its "
               "cards (turn.source: draw); use them with a hand (e.g. --variant points)", also=(("turn", "source"),))
    _action_work(turn, out)
    for name, action in turn.actions.items():
        unknown_cards(v, out, ("turn", "actions", name, "cards"), action.cards)
        _never_offered(v, name, action, out)


def _action_work(turn, out: ProblemCollector) -> None:
    """SR303 at the first hand action from which on the actions together could offer more
    than MAX_WORK moves in one turn (a hand of `hand_size` cards: per action, each card of
    the hand with each choice of `others.min`..`others.max` of the rest)."""
    hand = getattr(turn, "hand_size", 0)
    if turn.source != "hand" or not hand:
        return
    total = 0
    for name, action in turn.actions.items():
        total += hand * sum(comb(hand - 1, k) for k in range(action.others.min, action.others.max + 1))
        if total > limits.MAX_WORK:
            out.at(("turn", "actions", name), "SR303", f"turn.actions: the hand actions could offer {total:,} moves in "
                   f"one turn (at most {limits.MAX_WORK:,}); allow fewer other cards or fewer actions", key=True)
            return


def _never_offered(v, name: str, action, out: ProblemCollector) -> None:
    """SR514 (a warning): an action no hand of the variant can offer."""
    hand_size = getattr(v.turn, "hand_size", 0)
    if v.turn.source == "hand" and action.others.min > hand_size - 1:
        out.at(("turn", "actions", name, "others", "min"), "SR514", f"turn.actions.{name} needs {action.others.min} other "
               f"card(s) besides its card, but a hand holds {hand_size}: it is never offered", severity="warning")
    elif all(card in v.cards and not v.deck.get(card) for card in action.cards):
        out.at(("turn", "actions", name, "cards"), "SR514", f"turn.actions.{name}: none of its cards is in the deck, so it "
               "is never offered", severity="warning")


def turn_texts(v) -> list[tuple[tuple, str, str]]:
    turn = v.turn
    texts = [(("turn", "redraw", "when"), turn.redraw.when, "bool")] if turn.redraw is not None else []
    return texts + [(("turn", "actions", name, "when"), action.when, "bool") for name, action in turn.actions.items()]


def compile_turn_policy(v, compiled: dict, card_index: dict) -> tuple:
    """(redraw, actions) of the rule file's turn policies (`engine.turnpolicy`)."""
    turn = v.turn
    redraw = None if turn.redraw is None else \
        Redraw(turn.redraw.at_most, compiled[("turn", "redraw", "when")], turn.redraw.label or REDRAW_LABEL)
    actions = tuple(
        HandAction(frozenset(card_index[c] for c in action.cards if c in card_index), action.others.min, action.others.max,
                   compiled[("turn", "actions", name, "when")], action.draw_again, action.label or name.replace("_", " "))
        for name, action in turn.actions.items())
    return redraw, actions

