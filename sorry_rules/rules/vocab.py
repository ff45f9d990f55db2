"""Pydantic models of the open rule vocabulary (issue 12): counters, filters on moves,
consequences of moves, marks on pawns and alternatives added to cards. docs/REFERENCE.md
section 1 ("Counters, filters and consequences", "Marks and also") gives their meaning; the
DSL texts they hold are compiled by `sorry_rules.compiler.vocab` and `compiler.marking`.

Contract: pure data, as `rules.model`; names of counters and cards are checked against the
rest of the variant by the compiler (`compiler.vocab.check_vocab`), not here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from sorry_rules.base.limits import MAX_COUNTER
from sorry_rules.rules.patterns import NAME_PATTERN
from sorry_rules.rules.strict import Strict

CounterName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z_][a-z0-9_]*$")]
CardName = Annotated[str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN)]
#: which pawns of a move a consequence marks: bumped or moved, of any colour or of one relation to the mover
MarkedPawns = Literal["bumped", "moved", "bumped own", "bumped partner", "bumped opponent", "bumped other",
                      "moved own", "moved partner", "moved opponent", "moved other"]
CounterTarget = Literal["mover", "every", "partner", "opponent", "other", "bumped", "bumped own", "bumped partner",
                        "bumped opponent", "bumped other"]
CARDS_DOC = "The cards whose moves this applies to, by name; left out: every card."
EXCEPT_CARDS_DOC = ("The cards whose moves this does not apply to, by name (of those `cards` names, or of every card); "
                    "e.g. `except_cards: [\"2\"]`: every card but the 2.")
FILTER_EXCEPT_CARDS_DOC = EXCEPT_CARDS_DOC + (" A `prefer` then judges each card in scope on its own moves, as with "
                                              "`cards`.")
FILTER_CARDS_DOC = ("The cards whose moves this applies to, by name; left out: every card. A `prefer` judges each "
                    "listed card's moves on their own (a hand, or cards drawn together, narrows each listed card by "
                    "its own moves); left out, the moves of every card together.")


class Counter(Strict):
    """A number kept per colour for the whole game, changed only by consequences (`after:`)."""

    start: int = Field(default=0, ge=-MAX_COUNTER, le=MAX_COUNTER, description="Each colour's value when the game begins.")
    min: int = Field(default=-MAX_COUNTER, ge=-MAX_COUNTER, le=MAX_COUNTER, description=(
        "The lowest value the counter takes: an `add:` that would go below it stops there (at most start)."))
    max: int = Field(default=MAX_COUNTER, ge=-MAX_COUNTER, le=MAX_COUNTER, description=(
        "The highest value the counter takes: an `add:` that would go above it stops there (at least start)."))
    label: str = Field(default="", description="How the counter is named on the screen (default: its name with `_` as "
                       "spaces).")


class MoveFilter(Strict):
    """A filter on the moves of some cards, judged on each move's facts: exactly one of `must` and `prefer`."""

    # JSON Schema: one of the two given, never both (an overlay may give neither: its base has one)
    model_config = ConfigDict(json_schema_extra={
        "anyOf": [{"required": ["must"]}, {"required": ["prefer"]}],
        "not": {"required": ["must", "prefer"], "properties": {"must": {"type": "string"}, "prefer": {"type": "string"}}},
    })

    cards: list[CardName] | None = Field(default=None, max_length=100, description=FILTER_CARDS_DOC)
    except_cards: list[CardName] | None = Field(default=None, max_length=100, description=FILTER_EXCEPT_CARDS_DOC)
    must: str | None = Field(default=None, description="A DSL condition: moves for which it does not hold are not "
                             "legal (a card left with none is forfeited, its own extra draw kept as a 2's is, R19; "
                             "or in hand play not playable).")
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
    except_cards: list[CardName] | None = Field(default=None, max_length=100, description=EXCEPT_CARDS_DOC)
    when: str = Field(default="true", description="A DSL condition on the move's facts, the placement after it and the "
                      "counters before this move's consequences.")
    add: dict[CounterName, int | str] = Field(default_factory=dict, max_length=20, description=(
        "Counter -> a number, or a DSL number expression, added to the moving player's counter (judged like `when`), "
        "or to the counters of the players `to` names."))
    to: CounterTarget = Field(default="mover", description=(
        "Whose counters `add` changes: `mover` (the moving player); `every` (every player, the mover included), "
        "`partner`, `opponent` or `other` (each player of that relation to the mover, once each); `bumped` (the owner of "
        "each pawn the move sent back to Start, once a pawn: two pawns, twice), which a relation may narrow: `bumped "
        "opponent`. Only players at the table get additions (those who finished under `places` too). The amount is "
        "judged once, on the move, as the mover sees it."))
    draw_again: bool = Field(default=False, description="The player gets one extra card (drawing again in draw play, "
                             "playing again in hand play), in addition to the card's own `draw_again`.")
    label: str = Field(default="", description=(
        "Words for `moves --why` and `explain` (default: its name and `when`, e.g. `after.up: when true`)."))
    mark: dict[CounterName, MarkedPawns] = Field(default_factory=dict, max_length=20, description=(
        "Mark kind -> which pawns of the move get it, placed by the moving player: `bumped` (every pawn the move sent "
        "to Start, whoever owns it) or `moved` (every pawn that moved by its own steps, where it ended), either "
        "followed by a relation to the moving player that narrows it: `own`, `partner`, `opponent` or `other` (not "
        "own), e.g. `bumped opponent`: the opponents' pawns the move bumped, not the mover's own pawns its slide "
        "swept."))
    then: str | None = Field(default=None, description=(
        "A DSL card effect the moving player plays right after the move, as part of it (one decision: each way of "
        "playing it is one move; none: the move alone), e.g. `forward 20` (the player picks the pawn) or "
        "`send every own moved in opponent start_exit to start`; its selectors may choose the pawns the move `moved`."))
    forfeits: bool = Field(default=False, description=(
        "Whether the consequence also follows a forfeited card or throw (one with no legal move; its facts are all 0), "
        "and one drawn anew under `turn.redraw` (its counters and marks; the redraw is the extra card), e.g. to reset a "
        "counter of sixes in a row."))
    ends_turn: bool = Field(default=False, description=(
        "The play ends the player's turn: the extra cards or throws still due this turn (the card's own `draw_again`, "
        "earlier consequences' `draw_again`, this play's included) are not taken, and the next player plays, e.g. "
        "Ludo's third six in a row (LU13) after a capture's extra throw (LU15)."))

    @model_validator(mode="after")
    def _adds_to_someone(self):
        if self.to != "mover" and not self.add:
            raise ValueError(f"to: {self.to} says whose counters add: changes, and this consequence has no add:")
        return self


class MarkKind(Strict):
    """A mark a pawn may carry (placed by `mark` effects or `after:` consequences), with its lifetime and what it
    changes."""

    label: str = Field(default="", description="How the mark is named on the screen and in `explain` (default: its name "
                       "with `_` as spaces).")
    symbol: str = Field(default="*", min_length=1, max_length=1, pattern=r"^[!-~]$", description=(
        "One printable ASCII character (no space) drawn beside a marked pawn on the play screen."))
    until: Literal["removed", "next_turn", "leaves_start", "leaves_track", "leaves_safety", "moves"] = Field(
        default="removed", description=(
            "When the mark ends by itself: `removed` never (only `unmark`); `next_turn` when the placing player's next turn "
            "begins; `leaves_start` / `leaves_track` / `leaves_safety` when the pawn leaves that zone; `moves` when the "
            "pawn changes square by any means."))
    one_per_player: bool = Field(default=False, description=(
        "Each player has at most one mark of this kind on the board: placing another takes their earlier one off."))
    immobile: bool = Field(default=False, description="A marked pawn cannot move (no step, split part, switch it makes, "
                           "or `move`; in Start it cannot leave).")
    untouchable: bool = Field(default=False, description=(
        "A marked pawn cannot be moved by others: no pawn may land on it, switch it or Sorry! it, `send` leaves it, a "
        "slide ending on it cannot be taken and a slide passing over it leaves it where it is."))


class Alternative(Strict):
    """One more alternative added to the effect of some cards (`A | B | this`)."""

    cards: list[CardName] | None = Field(default=None, max_length=100, description=(
        "The cards that get the alternative, by name; with `having`, a card named here or having one of those "
        "primitives; both left out: every card."))
    having: list[Literal["enter", "forward", "backward", "split", "switch", "sorry"]] | None = Field(
        default=None, max_length=6, description=(
            "The cards whose effect has a top-level alternative using one of these primitives (e.g. `[forward, split]`: "
            "every card with a forward move), worked out from the card effects, not their names. A split counts as "
            "`split` whatever its parts (`split 7 into forward, backward` is not `forward`)."))
    effect: str = Field(description="The alternative, a DSL card effect (it may use pawn selectors and marks).")
    label: str = Field(default="", description="Words for `explain` (default: the effect; `moves --why` names the "
                       "effect and where it is written).")
