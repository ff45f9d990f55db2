"""Pydantic models of named squares (issue 27): squares of the track named in the layout
(`star`, `safe`, any word), with what they change. docs/REFERENCE.md section 1 (`board`,
"Squares that hold several pawns and named squares") gives their meaning; the compiler folds
them into the engine's per-square tables (`engine.layout.Layout`: `hold`, `share`,
`capture`, `names`).

Contract: pure data, as `rules.model`; offsets and names are checked against the rest of the
variant by the compiler (`compiler.squares.check_squares`), not here.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from sorry_rules.base import limits
from sorry_rules.rules.strict import Strict

#: the step kinds of `engine.events` a `capture:` list may name
STEP_WORDS = Literal["enter", "forward", "backward", "split", "sorry", "move"]
HOLD_DOC = ("How many pawns one track or safety square may hold, all colours together (Start holds any number, "
            "Home as `home_hold` says); with more than 1, own pawns may share a square (R16 is lifted) and `squares:` "
            "may let colours share one.")


class NamedSquare(Strict):
    """Track squares with a name (repeated on every side, like slides) and what they change."""

    at: list[Annotated[int, Field(ge=0, le=limits.MAX_SIDE)]] = Field(
        min_length=1, max_length=limits.MAX_SIDE, description=(
            "Offsets (0 .. side_length - 1) of the squares of this name on every side; each belongs to the colour of "
            "its side (an opponent's star is a star on an opponent's side)."))
    capture: Union[bool, list[STEP_WORDS]] = Field(default=True, description=(
        "Whether a pawn that ends its move here sends a pawn of another colour back to Start (as `rules.bump` "
        "says): `true`; `false`, never (the pawns share the square when `share` allows it, else the move is "
        "illegal); or a list of the moves that capture here, e.g. `[enter]`: only a pawn coming out of Start. A "
        "slide passing over the square sweeps its pawns all the same (a slide is no landing here)."))
    safe: list[Literal["own", "partner", "opponent"]] = Field(default_factory=list, max_length=3, description=(
        "Whose pawns are never captured here, by their relation to the colour of the square's side: `own` (that "
        "colour's pawns), `partner`, `opponent`; e.g. `[own]`: a square safe for its own colour only, where pawns of "
        "other colours are captured as `capture` says (a pawn that is not captured stays when `share` allows it, else "
        "the move is illegal)."))
    share: bool = Field(default=False, description=(
        "Whether pawns of several colours may stand here together (up to `hold`); `false`: one colour at a time."))
    hold: int | None = Field(default=None, ge=1, le=limits.MAX_HOLD, description=(
        "How many pawns such a square holds, all colours together (left out: `board.hold`)."))
    label: str = Field(default="", description="How the square is named in `explain`, `moves --why` and pictures "
                       "(default: its name with `_` as spaces).")
    symbol: str = Field(default="*", min_length=1, max_length=1, pattern=r"^[!-~]$", description=(
        "One printable ASCII character (no space) the play screen draws on such a square while it is empty."))
