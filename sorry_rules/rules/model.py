"""Pydantic models of a rule file (a variant), after `extends:` overlays are merged.

Contract: pure data and per-field validation. No game logic, no DSL parsing (DSL fields are
kept as text and compiled by `sorry_rules.compiler`), no cross-field checks (those live in
`sorry_rules.compiler.checks` so that all of them can be reported with positions at once).
Extra keys are forbidden and types are strict: `"5"` is not an int, `5` is not a str.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Discriminator, Field, Tag

from sorry_rules.base import limits
from sorry_rules.rules.geometry import Geometry, GeometryBlocker, GeometryTurn  # noqa: F401 (every rule-file model is reachable here)
from sorry_rules.rules.squares import HOLD_DOC, NamedSquare
from sorry_rules.rules.patterns import NAME_PATTERN
from sorry_rules.rules.strict import Strict
from sorry_rules.rules.turns import ACTIONS_DOC, REDRAW_DOC, TAKE_DOC, HandAction, Redraw
from sorry_rules.rules.vocab import Alternative, Consequence, Counter, MarkKind, MoveFilter

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


#: `Annotated[list[...], ONCE_EACH]`: a list of words each written at most once (said by the
#: cross-field checks, `compiler.checks.repeated_words`: a validator here would keep the
#: models' plain edits from the caches, `rules.leafedit`)
ONCE_EACH = Field(json_schema_extra={"uniqueItems": True})
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=NAME_PATTERN)]

# Field descriptions (`Field(description=...)`) are the one documentation of each field: the
# JSON Schema (rules/schema.py) and the field tables of docs/REFERENCE.md section 1
# (tools/reference_fields.py) are made from them. Texts used by two models are named here.
FIRST_DOC = "Who plays first: a seat chosen by the game's seed (`random`), or the first seat (`first_seat`)."
FOR_DOC = "Who scores it: `every` seated player, or only the `winner` and the winner's partners."
LABEL_DOC = "The line's label in the summary (default: the component name with `_` as spaces)."
#: The one key the loader (not the models) reads: overlays name their bases with it.
EXTENDS_DOC = ("The rule file(s) this one is written on top of: a bundled name (`standard`) or a path relative "
               "to this file; never part of the merged data.")


class PlayerCount(Strict):
    """How many players may sit at the table."""

    min: int = Field(ge=1, le=MAX_COLOURS, description="Fewest players.")
    max: int = Field(ge=1, le=MAX_COLOURS, description="Most players. On a track board at most the number of colours, "
                     "and `sorry-play` seats this many unless `--players` says otherwise; on a grid, players share "
                     "colours in teams (`seating:`) and `sorry-play` seats the fewest players `seating:` lists.")


class Slide(Strict):
    """A slide on every side: triangle at offset `from`, end circle at offset `to` (> from)."""

    from_: int = Field(alias="from", ge=0, le=MAX_SIDE,
                       description="The slide's triangle: a pawn that ends a move exactly here may slide.")
    to: int = Field(ge=0, le=MAX_SIDE * (MAX_COLOURS + 1), description=(
        "The end circle, more than `from` and less than a side further (with `sweep: end`, less than a lap further: "
        "`side_length` x colours); counted on from the triangle's side, so `from + side_length` is the same offset of "
        "the next side."))
    sweep: Literal["path", "end"] = Field(default="path", description=(
        "Which squares the slide sweeps: `path`, `from + 1` .. `to` (R26); `end`, a jump: the pawn passes over the "
        "squares between and lands on the end circle as the move would (a warp, TR15); the end may be another slide's "
        "triangle (a pawn that arrives there does not slide again)."))
    slide_on: Annotated[list[Relation], ONCE_EACH] | None = Field(default=None, description=(
        "Whose pawns take this slide, in place of `rules.slide_on` for it: pawns whose colour is `own`, `partner` or "
        "`opponent` to the slide's colour (`[]`: nobody; left out: as `rules.slide_on` says). E.g. `[own, partner, "
        "opponent]` on the short slides only: every pawn takes a short slide, the long ones as usual."))


class Board(Strict):
    """A race-track board: one side of `side_length` squares per colour, clockwise.

    Offsets are counted from a side's first square (its corner)."""

    kind: Literal["track"] = Field(default="track", description="The board kind: `track`, the race track (a `grid` "
                                   "board is described below).")
    side_length: int = Field(ge=3, le=MAX_SIDE, description="Squares per side; the track has side_length x colours squares.")
    start_exit: int = Field(ge=0, le=MAX_SIDE, description="Offset of the square a pawn leaving Start lands on.")
    safety_entry: int = Field(ge=0, le=MAX_SIDE, description="Offset of the last track square a pawn of the side's colour "
                              "visits going forward; its next forward step is safety:1.")
    safety_length: int = Field(ge=0, le=MAX_SAFETY, description="Squares in each safety zone; Home is one step after the "
                               "last (with 0, straight from the safety entry).")
    slides: list[Slide] = Field(default_factory=list, max_length=MAX_SIDE, description="Slides, repeated on every side.")
    hold: int = Field(default=1, ge=1, le=limits.MAX_HOLD, description=HOLD_DOC)
    home_hold: int | None = Field(default=None, ge=1, le=MAX_PAWNS, description=(
        "How many pawns a Home holds (left out: every pawn of its colour); with fewer, Home is one more square a pawn "
        "may only end on while it has room, like the last space of a finish line."))
    squares: dict[Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=40)], NamedSquare] = Field(
        default_factory=dict, max_length=20, description=(
        "Named squares (`star`, `safe`, any word) with what they change, repeated on every side; read by pawn "
        "selectors (`in star`, `in opponent start_exit`); an overlay adds one by a new name, changes one by its name "
        "or removes it with null."))


class GridLines(Strict):
    """What a line of a grid board is and how lines are counted (SEQUENCE.md S10, S11)."""

    length: int = Field(ge=2, le=limits.MAX_GRID_SIDE, description="Cells in a line: adjacent cells along one direction.")
    directions: Annotated[list[Literal["row", "column", "diagonal"]], ONCE_EACH] = Field(
        min_length=1, description="Where lines run: along a `row`, a `column`, or a `diagonal` (both "
        "diagonal directions).")
    shared: int = Field(ge=1, le=limits.MAX_GRID_SIDE, description="The most cells two lines counted together may share "
                        "(less than `length`); a colour's count is the most of its lines that pairwise share no more.")


class GridBoard(Strict):
    """A grid of cells, each showing a card face or free; cells are named column + row (`A1`).

    A free cell takes no chip and belongs to every colour when lines are judged."""

    kind: Literal["grid"] = Field(description="`grid`: a grid of card cells covered with chips.")
    columns: list[Name] = Field(min_length=1, max_length=limits.MAX_GRID_SIDE, description="Column names, left to right.")
    rows: list[Name] = Field(min_length=1, max_length=limits.MAX_GRID_SIDE, description="Row names, top to bottom.")
    free: str = Field(default="**", min_length=1, max_length=8, description="The mark of a free cell in `cells`.")
    cells: list[list[str]] = Field(min_length=1, max_length=limits.MAX_GRID_SIDE, description=(
        "One list per row, one entry per column: the card the cell shows, or the `free` mark."))
    lines: GridLines = Field(description="What a line is and how lines are counted.")


def _board_kind(data) -> str:
    return data.get("kind", "track") if isinstance(data, dict) else getattr(data, "kind", "track")


AnyBoard = Annotated[Union[Annotated[Board, Tag("track")], Annotated[GridBoard, Tag("grid")]], Discriminator(_board_kind)]


#: a square where a pawn begins (`setup.squares`), on the side of the pawn's own colour
SetupSquare = Union[Annotated[int, Field(ge=0, le=limits.MAX_SIDE)],
                    Annotated[str, Field(pattern=r"^(start_exit|home|safety:[1-9][0-9]?)$")]]


class Setup(Strict):
    """Where pawns begin: `on_start_exit` of each player's pawns begin on the start exit,
    one more on each of `squares`, the others in Start."""

    on_start_exit: int = Field(default=0, ge=0, le=MAX_PAWNS, description="How many of each seated colour's pawns begin "
                               "on its start exit instead of in Start (0 or 1).")
    squares: list[SetupSquare] = Field(default_factory=list, max_length=MAX_PAWNS, description=(
        "Squares where one more of each seated colour's pawns begins, on the colour's own side: an offset "
        "(0 .. side_length - 1), `start_exit`, `safety:K` or `home`; listed twice, two pawns (where a square holds "
        "them, `board.hold`); e.g. `[start_exit, 5]`: two pawns out, on the exit and the square after it. The "
        "others begin in Start."))


class TurnPolicy(Strict):
    """Turn policies and hand actions, written the same way under either kind of turn
    (`rules.turns`); the compiler refuses the ones the kind does not play (SR513)."""

    take: int = Field(default=1, ge=1, le=limits.MAX_TAKE, description=TAKE_DOC)
    redraw: Redraw | None = Field(default=None, description=REDRAW_DOC)
    actions: dict[Name, HandAction] = Field(default_factory=dict, max_length=20, description=ACTIONS_DOC)


class DrawTurn(TurnPolicy):
    """Each turn the player draws the top card of the pile and plays it (R5)."""

    source: Literal["draw"] = Field(default="draw", description=(
        "`draw` (the default): each turn the player draws the top card of the pile and plays it; when the pile is "
        "empty the discards are reshuffled into a new pile."))
    first: Literal["random", "first_seat"] = Field(default="random", description=FIRST_DOC)


class HandTurn(TurnPolicy):
    """Each player holds `hand_size` cards and plays one per turn, then refills (P3, P4)."""

    source: Literal["hand"] = Field(description="`hand`: each player holds a hand, plays one card from it per turn, "
                                    "discards it and draws a replacement (the discards are reshuffled when the pile is "
                                    "empty; hands stay in hands).")
    hand_size: int = Field(ge=1, le=MAX_HAND, description="Cards dealt to each player at the start, one at a time round "
                           "the table.")
    first: Literal["random", "first_seat"] = Field(default="random", description=FIRST_DOC)
    stuck: Literal["discard_one", "pass"] | None = Field(default=None, description=(
        "When no card of the hand can be played: `discard_one` (race tracks, their default), the moves are \"discard one "
        "card of your choice\" (one per distinct card), then draw; the turn ends, and a discarded card never gives "
        "another play. `pass` (grid boards, their default): the player passes, keeps the hand and draws nothing; when "
        "every seat passes in a row the game ends with no winner."))
    hand_size_by_players: dict[str, Annotated[int, Field(ge=1, le=MAX_HAND)]] = Field(
        default_factory=dict, max_length=MAX_COLOURS, description=(
            "Hand size for an N-player game (keys \"2\", \"3\", ...), in place of `hand_size` (grid boards)."))
    exchange: Literal["none", "dead"] = Field(default="none", description=(
        "`dead` (grid boards): before playing, the player may once per turn discard a card that has no play and "
        "draw a replacement."))


class DiceTurn(TurnPolicy):
    """Each turn the player throws the dice and plays the throw (drawn with replacement: no pile)."""

    source: Literal["dice"] = Field(description=(
        "`dice`: each turn the player throws `dice` dice and plays the throw; every throw is as likely as on the first "
        "turn whatever came before (the dice are drawn with replacement: there is no pile and no `deck:`)."))
    dice: int = Field(default=1, ge=1, le=limits.MAX_DICE, description="How many dice are thrown together.")
    faces: list[Annotated[int, Field(ge=0, le=limits.MAX_FACE)]] = Field(min_length=2, max_length=limits.MAX_FACES, description=(
        "The numbers on the faces of a die (every die alike; every face equally likely unless `weights` says otherwise); "
        "a die showing N does what the card named \"N\" does (`cards:`)."))
    weights: list[Annotated[int, Field(ge=1, le=limits.MAX_WEIGHT)]] | None = Field(
        default=None, max_length=limits.MAX_FACES, description=(
        "How often each face comes up against the others, in the order of `faces` (a face of weight 2 comes up twice "
        "as often as one of weight 1); left out, every face is equally likely. E.g. six cowrie shells thrown, counted "
        "by the mouths up: `faces: [25, 10, 2, 3, 4, 5, 6]`, `weights: [1, 6, 15, 20, 15, 6, 1]`."))
    whole: dict[Name, str] = Field(default_factory=dict, max_length=limits.MAX_FACES * limits.MAX_DICE, description=(
        "Several dice: a throw whose faces add up to the key may also be spent whole, as this DSL effect (e.g. "
        "`\"5\": enter`), besides die by die."))
    first: Literal["random", "first_seat"] = Field(default="random", description=FIRST_DOC)


def _turn_source(data) -> str:
    return data.get("source", "draw") if isinstance(data, dict) else getattr(data, "source", "draw")


#: `turn.source` says which kind of turn; left out, a turn draws (`source: draw`)
Turn = Annotated[Union[Annotated[DrawTurn, Tag("draw")], Annotated[HandTurn, Tag("hand")], Annotated[DiceTurn, Tag("dice")]],
                 Discriminator(_turn_source)]


class Rules(Strict):
    """Switches of the movement mechanisms. Relations are judged from the moving pawn's colour."""

    control: Literal["own", "team"] = Field(default="own", description="The colours a player moves: `own`, only its "
                                            "own; `team`, every colour of its team (start, move, split, switch, Sorry!).")
    bump: Annotated[list[Relation], ONCE_EACH] = Field(default_factory=lambda: ["partner", "opponent"], description=(
        "Whose pawns a pawn sends back to Start by landing on them (a `sorry` effect may replace those of another colour); "
        "a pawn of another relation on the target square blocks the move. `own`: a pawn that ends its move on a pawn of "
        "its own colour sends that one back to Start."))
    slide_on: Annotated[list[Relation], ONCE_EACH] = Field(default_factory=lambda: ["partner", "opponent"], description=(
        "Whose slides a pawn takes when it ends a move on their triangle (a slide belongs to the colour of its side); a "
        "slide's own `slide_on` (`board.slides`) says it for that slide."))
    slide_sweep: Literal["all", "bumpable"] = Field(default="all", description=(
        "Which pawns on the slide's squares (triangle + 1 .. end circle; a jump lands instead, `board.slides`) go back "
        "to Start: `all`, every one (own pawns included); `bumpable`, only those the slider may bump (a spared pawn on "
        "the end circle makes the move illegal)."))
    slide_after_switch: Literal["both", "mover", "none"] = Field(default="both", description=(
        "After an 11 switch, which pawns are checked for a slide: `both` (the mover first, each against its own colour), "
        "the `mover`'s pawn only, or `none`."))
    slide_after_sorry: bool = Field(default=True, description="Whether a pawn placed by a Sorry! on a triangle slides.")
    slide_optional: bool = Field(default=False, description=(
        "Whether a slide may be declined: a pawn that ends its move on a triangle it takes (a step, a start, a part of "
        "a split, a Sorry! or a switch that slides) may also stay there, so the move is listed twice, slid and not; "
        "after a switch each pawn's slide is declined or taken apart. A slide that cannot be taken (a spared pawn on "
        "its end circle) leaves the staying move."))
    split: Literal["sequential", "simultaneous"] = Field(default="sequential", description=(
        "How the parts of a split resolve: `sequential`, one after another, each judged on the board the previous part "
        "left (a part that sends a later part's pawn to Start makes the split illegal); `simultaneous`, all judged on the "
        "board before the split, then landed in order (the order the parts' pawns stand in: the player's colours in "
        "board order, each colour's squares ascending, track before safety zone; but a part whose pawn leaves a square "
        "another part lands on lands first), each bumping and sliding as a move does; two parts never end on one "
        "square but Home (R33) or one that holds several (`board.hold`)."))
    overshoot_home: Literal["illegal", "stop"] = Field(default="illegal", description=(
        "A forward move past Home is `illegal` (Home by exact count only), or `stop`s in Home (also for each part of a "
        "split). Shorthand for `geometry.past_home`, which says it when both are given."))
    capture: Literal["lone", "all"] = Field(default="lone", description=(
        "On squares that hold several pawns: `lone`, a pawn landing on a square bumps a pawn of another colour only "
        "when that pawn is alone there (two or more of one colour block the landing like an own pawn); `all`, it bumps "
        "every pawn there that it may bump."))
    must_bump: bool = Field(default=False, description=(
        "When any legal move bumps an opponent (by landing, by a slide or by a Sorry!), only such moves are legal; "
        "bumping a partner does not count; a pass is then not legal either; in hand play it applies across the whole "
        "hand. Sugar for the filter `prefer: bumps(opponents) > 0` on every card (see `filters`)."))


class Tier(Strict):
    """One tier of a bonus: `points` when the condition `when` holds."""

    when: str = Field(description="When the tier applies: a DSL condition, from the scoring player's point of view.")
    points: int = Field(ge=-1_000_000, le=1_000_000, description="The tier's points.")


class FormulaScore(Strict):
    """Points from one formula, for every player or only for the winner(s)."""

    kind: Literal["formula"] = Field(description="`formula`: points from one DSL formula.")
    for_: Literal["every", "winner"] = Field(alias="for", description=FOR_DOC)
    points: str = Field(description="The points, a DSL number expression from the scoring player's point of view "
                        "(`player` is that player's colour), e.g. `5 * home(player)`.")
    label: str = Field(default="", description=LABEL_DOC)


class TierScore(Strict):
    """A bonus from tiers: `highest` takes the first tier whose condition holds,
    `cumulative` adds every tier whose condition holds."""

    kind: Literal["tiers"] = Field(description="`tiers`: a bonus from conditions.")
    for_: Literal["every", "winner"] = Field(alias="for", description=FOR_DOC)
    mode: Literal["highest", "cumulative"] = Field(default="highest", description=(
        "`highest`: the points of the first tier whose condition holds (list the best first); `cumulative`: the sum of "
        "every tier whose condition holds; no tier: 0."))
    tiers: list[Tier] = Field(min_length=1, max_length=50, description="The tiers: conditions and their points.")
    label: str = Field(default="", description=LABEL_DOC)


ScoreComponent = Annotated[Union[FormulaScore, TierScore], Field(discriminator="kind")]


class Variant(Strict):
    """A complete rule file after overlays are merged."""

    name: str = Field(min_length=1, max_length=80, description="The variant's name, shown by `sorry-play variants` and "
                      "in game logs.")
    description: str = Field(default="", description="One line saying what the variant is, for `sorry-play variants`.")
    colours: list[Name] = Field(min_length=2, max_length=MAX_COLOURS, description="The colours in clockwise seat order; "
                                "colour number c (0, 1, ...) owns side c of the board.")
    teams: list[list[Name]] | None = Field(default=None, description="Colours that play together (partnership play); a "
                                           "colour in no list is a team of its own.")
    players: PlayerCount = Field(description="How many players may sit at the table (fewest and most).")
    seating: dict[str, list[Name]] = Field(default_factory=dict, description=(
        "Which colours sit, in seat order, for an N-player game (keys \"2\", \"3\", ...); without an entry the players "
        "are spread evenly round the board (colour `i * C // N` for seat i: 2 of 4 sit opposite, 3 of 4 are the first "
        "three)."))
    pawns: int = Field(ge=1, le=MAX_PAWNS, description="Pawns per colour (required on every board; a grid board "
                       "plays chips from an unlimited supply and does not read it: write 1).")
    setup: Setup = Field(default_factory=Setup, description="Where pawns begin.")
    board: AnyBoard = Field(description="The board: a race track (sides, start exits, safety zones, slides) or a "
                            "`kind: grid` of card cells.")
    deck: dict[Name, Annotated[int, Field(ge=0, le=MAX_CARD_COPIES)]] = Field(
        default_factory=dict, max_length=MAX_CARD_KINDS,
        description="Card name -> number of copies shuffled into the draw pile; at least one card in all (left out "
                    "with `turn.source: dice`, whose faces are the cards).")
    cards: dict[Name, str] = Field(min_length=1, max_length=MAX_CARD_KINDS, description=(
        "Card name -> what the card does, as a DSL effect, e.g. `enter | forward 1`."))
    unused_effects: list[Name] = Field(
        default_factory=list, max_length=MAX_CARD_KINDS,
        description="Cards whose effect under `cards` is kept on purpose though no deck holds them "
                    "(e.g. an overlay takes the card out of the deck); any other effect without a card is an error.")
    turn: Turn = Field(default_factory=lambda: DrawTurn(source="draw"), description=(
        "How a turn takes its card: draw one, play from a hand, or throw dice."))
    rules: Rules = Field(default_factory=Rules, description="Switches of the movement mechanisms (bumps, slides, splits, Home).")
    win: str = Field(description="When a player (or team) has won: a DSL condition judged for each seated colour after "
                     "every move, e.g. `home(team) == pawns(team)`.")
    places: int = Field(default=1, ge=1, le=MAX_COLOURS, description=(
        "How many places are played for (race-track boards): 1 ends the game when the first player or team wins "
        "(R35); N > 1 plays on after a side's `win:` holds, the finished sides sitting out, until N sides have "
        "finished or one is left; the first to finish is the winner, the sides that did not finish share the next "
        "place, and scores are counted when the game ends. A game stopped at its move limit has no winner (its "
        "finished sides are said)."))
    scoring: dict[Name, ScoreComponent] = Field(default_factory=dict, max_length=20, description=(
        "Score lines computed at the end of the game, in the order written."))
    counters: dict[Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=40)], Counter] = Field(
        default_factory=dict, max_length=20, description=(
            "Numbers kept per colour for the whole game (e.g. bumps made), changed by `after:` and read in every DSL "
            "condition and formula as `NAME(group)` (in a card's guards, as they stand when the card is played)."))
    filters: dict[Name, MoveFilter] = Field(default_factory=dict, max_length=50, description=(
        "Named filters on moves, judged on each move's facts, applied in the order written (bases first) after "
        "`rules.must_bump`; an overlay adds one by a new name, changes one by its name or removes it with null."))
    after: dict[Name, Consequence] = Field(default_factory=dict, max_length=50, description=(
        "Named consequences of a move by its facts (extra cards, counter changes, marks), judged and applied in the "
        "order written (bases first); overlays add, change or remove them by name."))
    geometry: Geometry = Field(default_factory=Geometry, description=(
        "Movement geometry as data (race-track boards): what a move past Home does, extra turns a move may take, and "
        "pawns that cannot be passed or landed on."))
    marks: dict[Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$", max_length=40)], MarkKind] = Field(
        default_factory=dict, max_length=20, description=(
            "Marks pawns may carry (e.g. frozen), with their lifetime and what they change; placed by `mark` effects "
            "and `after:` consequences, read by pawn selectors (`marked NAME`, `unmarked NAME`)."))
    also: dict[Name, Alternative] = Field(default_factory=dict, max_length=50, description=(
        "Named alternatives added to the effect of the cards they select (by name or by the primitives their effect "
        "has); overlays add, change or remove them by name."))
