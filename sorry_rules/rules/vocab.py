"""Pydantic models of the open rule vocabulary (issue 12): counters, filters on moves and
consequences of moves. docs/REFERENCE.md section 1 ("Counters, filters and consequences")
gives their meaning; the DSL texts they hold are compiled by `sorry_rules.compiler.vocab`.

Contract: pure data, as `rules.model`; names of counters and cards are checked against the
rest of the variant by the compiler (`compiler.vocab.check_vocab`), not here.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from sorry_rules.rules.strict import Strict

CounterName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z_][a-z0-9_]*$")]
CardName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_!'.\- ]*$")]
CARDS_DOC = ("The cards whose moves this applies to, by name; left out: every card. In hand play the moves of all "
             "the listed cards in the hand are judged together.")


class Counter(Strict):
    """A number kept per colour for the whole game, changed only by consequences (`after:`)."""

    start: int = Field(default=0, ge=-1_000_000, le=1_000_000, description="Each colour's value when the game begins.")
    label: str = Field(default="", description="How the counter is named on the screen (default: its name with `_` as "
                       "spaces).")


class MoveFilter(Strict):
    """A filter on the moves of some cards, judged on each move's facts: exactly one of `must` and `prefer`."""

    cards: list[CardName] | None = Field(default=None, max_length=100, description=CARDS_DOC)
    must: str | None = Field(default=None, description="A DSL condition: moves for which it does not hold are not "
                             "legal (a card left with none is forfeited, or in hand play not playable).")
    prefer: str | None = Field(default=None, description="A DSL condition: when it holds for at least one move in "
                               "scope, the moves in scope for which it does not hold are not legal (a pass included).")
    label: str = Field(default="", description="Words for `moves --why` and `explain` (default: the condition).")

    @model_validator(mode="after")
    def _one_condition(self):
        if (self.must is None) == (self.prefer is None):
            raise ValueError("a filter has exactly one of must: and prefer:")
        return self


class Consequence(Strict):
    """What follows a move of some cards when a condition on its facts holds."""

    cards: list[CardName] | None = Field(default=None, max_length=100, description=CARDS_DOC)
    when: str = Field(default="true", description="A DSL condition on the move's facts, the placement after it and the "
                      "counters before this move's consequences.")
    add: dict[CounterName, int | str] = Field(default_factory=dict, max_length=20, description=(
        "Counter -> a number, or a DSL number expression, added to the moving player's counter (judged like `when`)."))
    draw_again: bool = Field(default=False, description="The player gets one extra card (drawing again in draw play, "
                             "playing again in hand play), in addition to the card's own `draw_again`.")
    label: str = Field(default="", description="Words for `moves --why` and `explain` (default: what it does).")
