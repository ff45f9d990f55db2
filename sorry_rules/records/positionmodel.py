"""The pydantic model of a position file (`records.position`): the schema that names every
problem of a file that is not plain, valid data.

Contract: `PositionModel.model_validate(data)` accepts what `records.position` documents and
raises `ValidationError` otherwise; `records.position.plain_position` accepts a subset of it
(plain valid data, the common case) without pydantic and gives the same values.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from sorry_rules.base import limits


class MarkEntry(BaseModel):
    """One marked pawn: its colour, its square and who placed the mark."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    colour: str = Field(description="The marked pawn's colour.")
    square: str = Field(description="Its square in position notation (start, home, track:N, safety:K).")
    by: str | None = Field(default=None, description="The colour of the player who placed the mark (default: the pawn's).")


class PositionModel(BaseModel):
    """A position: who sits where, whose turn it is, the card (or hand) and the pawns."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    players: list[str] = Field(min_length=1, description="The seated colours in seat order.")
    turn: str | None = Field(default=None, description="The player to move (default the first).")
    card: str | list[str] | None = Field(default=None, description=(
        "The card to play (draw play), or the cards drawn this turn with `turn.take`; --card overrides it."))
    hand: list[str] | None = Field(default=None, description="The hand (hand play) instead of card.")
    pawns: dict[str, list[str]] = Field(default_factory=dict, description="Colour -> positions; the rest are in Start.")
    counters: dict[str, dict[str, int]] = Field(default_factory=dict, description=(
        "Colour -> counter name -> value, for a variant with `counters:`; the rest have their start values."))
    marks: dict[str, list[MarkEntry]] = Field(default_factory=dict, description=(
        "Mark name -> the marked pawns, for a variant with `marks:`; no other pawn carries a mark."))
    redraws: int = Field(default=0, ge=0, le=limits.MAX_REDRAWS, description=(
        "Extra cards this turn has already taken by `turn.redraw` (a stuck card discarded)."))
    cards_due: int = Field(default=0, ge=0, le=limits.MAX_CARDS_DUE, description=(
        "Extra cards this turn still gives after the one being played, earned by `after:` consequences of its "
        "earlier moves (`draw_again: true`)."))
    finished: list[str] = Field(default_factory=list, max_length=limits.MAX_COLOURS, description=(
        "The seated colours whose side has finished, in the order they did (a variant played for `places`); "
        "they sit out."))

    @field_validator("card", mode="before")
    @classmethod
    def _card_number(cls, value):
        """A card name may be written as a number (`"card": 7`, `"card": [5, 12]`); anything
        but a name or a list is one wrong-type problem (not one per shape of the union)."""
        if isinstance(value, list):
            return [_named(v) for v in value]
        value = _named(value)
        if value is not None and not isinstance(value, str):
            raise PydanticCustomError("card_type", "expected a card name or a list of card names")
        return value

    @field_validator("hand", mode="before")
    @classmethod
    def _hand_numbers(cls, value):
        return [_named(v) for v in value] if isinstance(value, list) else value


def _named(value):
    """A card written as a whole number is its name (`7` -> "7"); anything else is kept."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**100:
        return str(value)
    return value  # anything else is checked (and refused) as a name
