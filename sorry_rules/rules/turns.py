"""Pydantic models of turn policies and hand actions (issue 12 item 7): how many cards a
draw takes (`turn.take`), what a stuck turn does (`turn.redraw`) and the plays a hand offers
beside its card moves (`turn.actions`). docs/REFERENCE.md section 1 (`turn:`) gives their
meaning; their DSL conditions are compiled by `sorry_rules.compiler.turns`.

Contract: pure data, as `rules.model`; card names and which way of taking cards a field is
played with are checked by the compiler (`compiler.turns.check_turn_policy`), not here.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from sorry_rules.base import limits
from sorry_rules.rules.strict import Strict
from sorry_rules.rules.vocab import CardName

TAKE_DOC = ("Draw play: cards drawn at once each time the player draws (a 2's extra draw too), one by one, the "
            "discards reshuffled between two draws when the pile runs out. The player plays one of them (the choice "
            "of card and move is one decision) and the others are discarded; when none can move all are discarded "
            "and the turn ends (unless `redraw` applies).")
REDRAW_DOC = ("When the card drawn (draw play; all the cards drawn with `take`) or the whole hand (hand play, in place "
              "of the free discard) cannot move a pawn and `when` holds, the player discards it (in hand play a card "
              "of their choice) and takes another card in the same turn: draws again, or plays again from the "
              "refilled hand.")
ACTIONS_DOC = ("Hand play: named plays offered beside the card moves: one of `cards` together with `others` other "
               "cards of the hand, all discarded, and as many drawn. A hand that allows an action is not stuck, so "
               "the free discard (`stuck: discard_one`) is not offered then, nor a `pass` (an action is a play "
               "that is no switch, A21).")


class Redraw(Strict):
    """A stuck turn discards the card and takes another, at most `at_most` times a turn."""

    at_most: int = Field(ge=1, le=limits.MAX_REDRAWS, description="Extra cards one turn may take this way (a "
                         "2's draw or an `after:` extra card in the same turn does not reset it).")
    when: str = Field(default="true", description="A DSL condition from the point of view of the player to move "
                      "(`player`), judged on the placement before the discard, e.g. "
                      "`start(player) + home(player) == pawns(player)`.")
    label: str = Field(default="", description="Words for the move list, `moves --why` and `explain` (default: "
                       "\"discard and draw again\").")


class Others(Strict):
    """How many other cards of the hand a hand action plays with its card."""

    min: int = Field(ge=0, le=limits.MAX_ACTION_OTHERS, description="Fewest other cards.")
    max: int = Field(ge=0, le=limits.MAX_ACTION_OTHERS, description="Most other cards (at least `min`).")

    @model_validator(mode="after")
    def _ordered(self):
        if self.min > self.max:
            raise ValueError(f"others: min {self.min} is more than max {self.max}")
        return self


class HandAction(Strict):
    """A play of the hand beside the card moves: a card and other cards discarded, as many drawn."""

    cards: list[CardName] = Field(min_length=1, max_length=100, description="The cards that enable the action, by "
                                  "name: the player plays one of them (each distinct card is its own choice).")
    others: Others = Field(description="How many other cards of the hand (any cards, chosen by the player) are "
                           "played with it; each distinct choice is one move.")
    when: str = Field(default="true", description="A DSL condition from the point of view of the player to move: "
                      "the action is offered only while it holds.")
    draw_again: bool = Field(default=False, description="After refilling the hand the player plays again (as after a 2); "
                             "by default the turn ends.")
    label: str = Field(default="", description="Words for the move list, `moves --why` and `explain` (default: the "
                       "action's name).")
