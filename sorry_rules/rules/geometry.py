"""Pydantic models of movement geometry (issue 12): what happens past Home, turns a move may
take, and pawns that cannot be passed or landed on. docs/REFERENCE.md section 1 ("Movement
geometry") gives their meaning; `sorry_rules.compiler.geometry` checks them against the rest
of the variant and builds the engine's `engine.routes.Geometry`.

Contract: pure data, as `rules.model`; colour names and offsets are checked by the compiler.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from sorry_rules.base import limits
from sorry_rules.rules.patterns import NAME_PATTERN
from sorry_rules.rules.strict import Strict

ColourName = Annotated[str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN)]
LABEL_DOC = ("Words for `explain` and `moves --why`, e.g. on the route line of a move that took a turn (default: the rule's "
             "place and name, `geometry.turns.NAME` or `geometry.blockers.NAME`).")


class GeometryTurn(Strict):
    """An extra way on at one square of the moving pawn's own side, for moves of one direction."""

    at: Union[Literal["safety_entry", "start_exit"], Annotated[int, Field(ge=0, le=limits.MAX_SIDE)]] = Field(
        description="Where the turn is: `safety_entry`, `start_exit` or an offset (0 .. side_length - 1) of the moving "
                    "pawn's own side. A pawn standing there with steps still to go (the square the move starts on "
                    "counts) may take it.")
    moving: Literal["forward", "backward"] = Field(description="The moves that may take the turn: `forward` or "
                                                   "`backward` ones (a part of `split N` moves forward; a part of "
                                                   "`split N into ...` in the direction written for it).")
    onto: Literal["safety", "track"] = Field(description="Where the turn leads: `safety`, onto safety:1 of the pawn's "
                                             "own zone, then up the zone towards Home (past Home as `past_home` says; "
                                             "a backward move that starts in that zone never turns back into it); "
                                             "`track`, one square on along the track in the move's direction (passing "
                                             "the safety entry by when moving forward).")
    must: bool = Field(default=False, description="`false`: the turn is one more way (the plain route and the turn are "
                       "separate moves); `true`: the only way on from that square.")
    when: str | None = Field(default=None, max_length=2000, description=(
        "A DSL condition on the player to move (counters, counts of pawns, `player` being that player, also when it "
        "moves a partner's pawns), judged before each move: the turn is there only while it holds (left out: always), "
        "e.g. `captures(player) == 0` on a `must` turn `onto: track` at `safety_entry`: a pawn goes round again until its "
        "player has captured."))
    label: str = Field(default="", description=LABEL_DOC)


class GeometryBlocker(Strict):
    """Pawns that a moving pawn may not pass over and/or land on."""

    pawns: Literal["own", "partner", "opponent", "other", "any"] = Field(default="any", description=(
        "Whose pawns block, judged from the moving pawn's colour: `own`, `partner`, `opponent`, `other` (partner or "
        "opponent) or `any`."))
    colours: list[ColourName] | None = Field(default=None, max_length=limits.MAX_COLOURS, description=(
        "Only pawns of these colours block (left out: every colour the relation allows)."))
    on: Literal["track", "safety", "any"] = Field(default="any", description=(
        "Where the blocking pawn must stand to stop a pawn passing: on the `track`, in a `safety` zone, or `any`."))
    pass_: bool = Field(default=True, alias="pass", description=(
        "Whether a moving pawn may pass over such a pawn (jump it, R14); `false`: a move whose route passes its square "
        "is illegal (the squares between the start and the end of the move, bounces included)."))
    land: bool = Field(default=True, description=(
        "Whether a move may end on such a pawn (and a Sorry! replace it); `false`: its square blocks like an own pawn "
        "(no bump; a slide ending there cannot be taken when slides spare it)."))
    group: int = Field(default=1, ge=1, le=limits.MAX_PAWNS, description=(
        "How many pawns of one colour must stand together on a square for them to block (a blockade: 2; on a board "
        "whose squares hold several pawns, `board.hold`); 1: any pawn."))
    label: str = Field(default="", description=LABEL_DOC)


class Geometry(Strict):
    """How pawns move over the board: past Home, extra turns, pawns that block."""

    past_home: Literal["illegal", "stop", "bounce", "start"] | None = Field(default=None, description=(
        "A move counting past Home: `illegal` (Home by exact count, R33), `stop` in Home (H19), `bounce`: the steps "
        "left at Home are counted back down the safety zone (H32; a bounce out of the zone is illegal; it may end on the "
        "square the pawn left), or `start`: the pawn goes back to its Start (a move of its own, not a bump). Left out: "
        "as `rules.overshoot_home` says."))
    turns: dict[ColourName, GeometryTurn] = Field(default_factory=dict, max_length=20, description=(
        "Named turns (extra edges of the board graph), applied to every move of their direction, split parts "
        "included; an overlay adds one by a new name, changes one by its name or removes it with null."))
    blockers: dict[ColourName, GeometryBlocker] = Field(default_factory=dict, max_length=20, description=(
        "Named rules about pawns that cannot be passed or landed on; overlays add, change or remove them by name."))
