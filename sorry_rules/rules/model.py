"""Pydantic models of a rule file (a variant), after `extends:` overlays are merged.

Contract: pure data and per-field validation. No game logic, no DSL parsing (DSL fields are
kept as text and compiled by `sorry_rules.compiler`), no cross-field checks (those live in
`sorry_rules.semantics` so that all of them can be reported with positions at once).
Extra keys are forbidden and types are strict: `"5"` is not an int, `5` is not a str.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from sorry_rules.base import limits

#: Largest counts and sizes a rule file may ask for (docs/LIMITS.md).
MAX_COLOURS = limits.MAX_COLOURS
MAX_PAWNS = limits.MAX_PAWNS
MAX_SIDE = limits.MAX_SIDE
MAX_SAFETY = limits.MAX_SAFETY
MAX_CARD_COPIES = limits.MAX_CARD_COPIES
MAX_CARD_KINDS = limits.MAX_CARD_KINDS
MAX_HAND = limits.MAX_HAND

Relation = Literal["own", "partner", "opponent"]
OtherRelation = Literal["partner", "opponent"]
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_!'.\- ]*$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class PlayerCount(Strict):
    """How many players may sit at the table."""

    min: int = Field(ge=1, le=MAX_COLOURS)
    max: int = Field(ge=1, le=MAX_COLOURS)


class Slide(Strict):
    """A slide on every side: triangle at offset `from`, end circle at offset `to` (> from)."""

    from_: int = Field(alias="from", ge=0, le=MAX_SIDE)
    to: int = Field(ge=0, le=2 * MAX_SIDE)


class Board(Strict):
    """A race-track board: one side of `side_length` squares per colour, clockwise.

    Offsets are counted from a side's first square (its corner)."""

    kind: Literal["track"] = "track"
    side_length: int = Field(ge=3, le=MAX_SIDE)
    start_exit: int = Field(ge=0, le=MAX_SIDE)
    safety_entry: int = Field(ge=0, le=MAX_SIDE)
    safety_length: int = Field(ge=0, le=MAX_SAFETY)
    slides: list[Slide] = Field(default_factory=list, max_length=MAX_SIDE)


class Setup(Strict):
    """Where pawns begin: `on_start_exit` of each player's pawns begin on the start exit."""

    on_start_exit: int = Field(default=0, ge=0, le=MAX_PAWNS)


class DrawTurn(Strict):
    """Each turn the player draws the top card of the pile and plays it (R5)."""

    source: Literal["draw"]
    first: Literal["random", "first_seat"] = "random"


class HandTurn(Strict):
    """Each player holds `hand_size` cards and plays one per turn, then refills (P3, P4)."""

    source: Literal["hand"]
    hand_size: int = Field(ge=1, le=MAX_HAND)
    first: Literal["random", "first_seat"] = "random"
    stuck: Literal["discard_one"] = "discard_one"


Turn = Annotated[Union[DrawTurn, HandTurn], Field(discriminator="source")]


class Rules(Strict):
    """Switches of the movement mechanisms. Relations are judged from the moving pawn's colour."""

    control: Literal["own", "team"] = "own"
    bump: list[OtherRelation] = Field(default_factory=lambda: ["partner", "opponent"], max_length=2)
    slide_on: list[Relation] = Field(default_factory=lambda: ["partner", "opponent"], max_length=3)
    slide_sweep: Literal["all", "bumpable"] = "all"
    slide_after_switch: Literal["both", "mover", "none"] = "both"
    slide_after_sorry: bool = True
    split: Literal["sequential", "simultaneous"] = "sequential"
    overshoot_home: Literal["illegal", "stop"] = "illegal"
    must_bump: bool = False


class Tier(Strict):
    """One tier of a bonus: `points` when the condition `when` holds."""

    when: str
    points: int = Field(ge=-1_000_000, le=1_000_000)


class FormulaScore(Strict):
    """Points from one formula, for every player or only for the winner(s)."""

    kind: Literal["formula"]
    for_: Literal["every", "winner"] = Field(alias="for")
    points: str
    label: str = ""


class TierScore(Strict):
    """A bonus from tiers: `highest` takes the first tier whose condition holds,
    `cumulative` adds every tier whose condition holds."""

    kind: Literal["tiers"]
    for_: Literal["every", "winner"] = Field(alias="for")
    mode: Literal["highest", "cumulative"] = "highest"
    tiers: list[Tier] = Field(min_length=1, max_length=50)
    label: str = ""


ScoreComponent = Annotated[Union[FormulaScore, TierScore], Field(discriminator="kind")]


class Variant(Strict):
    """A complete rule file after overlays are merged."""

    name: str = Field(min_length=1, max_length=80)
    description: str = ""
    colours: list[Name] = Field(min_length=2, max_length=MAX_COLOURS)
    teams: list[list[Name]] | None = None
    players: PlayerCount
    seating: dict[str, list[Name]] = Field(default_factory=dict)
    pawns: int = Field(ge=1, le=MAX_PAWNS)
    setup: Setup = Field(default_factory=Setup)
    board: Board
    deck: dict[Name, Annotated[int, Field(ge=0, le=MAX_CARD_COPIES)]] = Field(min_length=1, max_length=MAX_CARD_KINDS)
    cards: dict[Name, str] = Field(min_length=1, max_length=MAX_CARD_KINDS)
    turn: Turn = Field(default_factory=lambda: DrawTurn(source="draw"))
    rules: Rules = Field(default_factory=Rules)
    win: str
    scoring: dict[Name, ScoreComponent] = Field(default_factory=dict, max_length=20)
