"""Position files: a board position in the rule book's notation, for the moves oracle.

Format (JSON, or YAML; both read by the hardened loader of rule files):
  {"players": ["red", "blue"], "turn": "red", "card": "7",
   "pawns": {"red": ["start", "track:12", "safety:2", "home"]}}
`players` is the seat order; colours left out of `pawns` have every pawn in Start; a colour
listing fewer pawns than the variant has its remaining pawns in Start. Hand play gives
`"hand": [...]` instead of `"card"`; a variant with `counters:` may give their values,
`"counters": {"red": {"bumps_made": 3}}` (the rest keep their start values); a variant with
`marks:` may place them, `"marks": {"frozen": [{"colour": "blue", "square": "track:20", "by":
"red"}]}` (`by`, the player who placed it, defaults to the pawn's colour; a mark on Start or
Home is listed once per marked pawn there). The shape is the pydantic model `PositionModel`.

Contract: `read_position_file(path)` returns a `PositionFile` (data and its source map) or
raises `PositionError`; `parse_position(game, data, card_override, origins)` returns a
`Position` or raises `PositionError` carrying every problem found, each located at
`file:line:col` (through `origins`, the source map; data without one is `<position>:1:1`)
with a stable code (docs/REFERENCE.md, section 6), or `UsageError` for an unknown `--card`.
Nothing else is raised on bad input.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sorry_rules.base import limits
from sorry_rules.base.errors import PositionError, ProblemCollector, RuleFileError, UsageError
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.rules.loader import Origins, schema_problems
from sorry_rules.rules.yamlsafe import load_yaml

MAX_POSITION_BYTES = limits.MAX_POSITION_BYTES
IN_MEMORY = "<position>"


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
    card: str | None = Field(default=None, description="The card to play (draw play); --card overrides it.")
    hand: list[str] | None = Field(default=None, description="The hand (hand play) instead of card.")
    pawns: dict[str, list[str]] = Field(default_factory=dict, description="Colour -> positions; the rest are in Start.")
    counters: dict[str, dict[str, int]] = Field(default_factory=dict, description=(
        "Colour -> counter name -> value, for a variant with `counters:`; the rest have their start values."))
    marks: dict[str, list[MarkEntry]] = Field(default_factory=dict, description=(
        "Mark name -> the marked pawns, for a variant with `marks:`; no other pawn carries a mark."))

    @field_validator("card", mode="before")
    @classmethod
    def _card_number(cls, value):
        """A card name may be written as a number (`"card": 7`)."""
        return _named(value)

    @field_validator("hand", mode="before")
    @classmethod
    def _hand_numbers(cls, value):
        return [_named(v) for v in value] if isinstance(value, list) else value


def _named(value):
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**100:
        return str(value)
    return value  # anything else is checked (and refused) as a name


@dataclass(frozen=True)
class Position:
    state: object          # engine.State
    card: int | None
    hand: tuple | None


@dataclass(frozen=True)
class PositionFile:
    """The plain data of a position file and where each value is written in it."""

    data: object
    origins: Origins


def _fail(path: str, code: str, message: str, line: int = 1, col: int = 1) -> PositionError:
    out = ProblemCollector()
    out.add(path, line, col, code, message)
    return PositionError.of(out.problems)


def read_position_file(path: str) -> PositionFile:
    """Read a JSON (or YAML) position file into plain data and its source map. A file not
    named *.yaml / *.yml must be JSON (its syntax errors say so). Raises PositionError."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_POSITION_BYTES + 1)
    except OSError as error:
        raise _fail(path, "SR100", f"cannot read position file {path}: {error.strerror or error}") from None
    if len(raw) > MAX_POSITION_BYTES:
        raise _fail(path, "SR102", f"position file is larger than {MAX_POSITION_BYTES} bytes")
    if not path.endswith((".yaml", ".yml")):
        try:
            json.loads(raw.decode("utf-8"))
        except json.JSONDecodeError as error:
            raise _fail(path, "SR103", f"invalid JSON: {error.msg}", error.lineno, error.colno) from None
        except (UnicodeDecodeError, RecursionError, ValueError):
            pass  # not UTF-8, nested too deeply, a number too long: the loader below locates it
    try:
        data, smap = load_yaml(raw, path)
    except RuleFileError as error:
        raise PositionError.of(error.problems) from None
    return PositionFile(data, Origins(maps={(): smap}, fallback=path))


def parse_position(game, data, card_override: str | None = None, origins: Origins | None = None) -> Position:
    """Check a position against the variant and build an engine state for it."""
    card = _override(game, card_override)
    out = ProblemCollector(origins if origins is not None else Origins(fallback=IN_MEMORY))
    if not isinstance(data, dict):
        out.at((), "SR203", "a position must be a JSON object with players, turn, card and pawns")
        raise PositionError.of(out.problems)
    model, failing = _validated(data, out)
    if model is None:
        raise PositionError.of(out.problems)
    checker = _Checker(game, model, out)
    seats, turn = checker.seats()
    placement = checker.placement(seats)
    counters = checker.counters(seats)
    marks = checker.marks(seats, placement)
    hand = None
    if not failing & {"card", "hand"}:
        hand, card = checker.cards(card)
    if out.errors:
        raise PositionError.of(out.problems)
    if game.hand_play:
        return Position(game.position(placement, seats, turn, hand=hand, counters=counters, marks=marks), None, hand)
    return Position(game.position(placement, seats, turn, card=card, counters=counters, marks=marks), card, None)


def _validated(data: dict, out: ProblemCollector) -> tuple[PositionModel | None, set]:
    """The model of `data` and the fields that failed the schema (their problems go to
    `out`). The rest is still checked against the variant, so that one run reports every
    problem: the model then holds the fields that passed; None when even that fails."""
    try:
        return PositionModel.model_validate(data), set()
    except ValidationError as error:
        out.extend(schema_problems(data, out.locator, error, PositionModel))
        failing = {item["loc"][0] for item in error.errors() if item["loc"]}
    rest = {k: v for k, v in data.items() if k in PositionModel.model_fields and k not in failing}
    try:
        return PositionModel.model_validate(rest), failing
    except ValidationError:  # `players` failed: nothing is left to check against
        return None, failing


def _override(game, card_override: str | None) -> int | None:
    """The card of `--card`; an unknown one is a usage error (it is in no file)."""
    if card_override is None:
        return None
    if card_override not in game.card_index:
        names = game.card_names
        near = did_you_mean(card_override, names)
        raise UsageError(f"--card: unknown card {card_override!r}{near} (cards: {', '.join(names)})")
    return game.card_index[card_override]


class PositionChecks:
    """The checks every kind of position file shares (track and grid boards alike): names of
    colours and cards, who sits and who moves. Each check adds its problems to `out` (located
    by the field's path) and returns None (or a safe default) for what it refuses."""

    def __init__(self, game, out: ProblemCollector):
        self.game, self.out = game, out

    def colour(self, name: str, path: tuple, key: bool = False) -> int | None:
        colours = self.game.colours
        if name in colours:
            return colours.index(name)
        self.out.at(path, "SR501", f"{field_name(path)}: unknown colour {name!r}{did_you_mean(name, colours)} "
                                   f"(colours: {', '.join(colours)})", key=key)
        return None

    def card(self, value, path: tuple) -> int | None:
        names = self.game.card_names
        name = str(value)
        if name in self.game.card_index:
            return self.game.card_index[name]
        near = did_you_mean(name, names)
        self.out.at(path, "SR502", f"{field_name(path)}: unknown card {name!r}{near} (cards: {', '.join(names)})")
        return None

    def seated(self, players) -> list[int]:
        """The seated colours in order (unknown and repeated ones left out, and reported)."""
        seats: list[int] = []
        for i, name in enumerate(players):
            c = self.colour(name, ("players", i))
            if c is not None and c in seats:
                self.out.at(("players", i), "SR603", f"players: colour {name!r} is listed twice")
            elif c is not None:
                seats.append(c)
        return seats

    def seat_to_move(self, name: str | None, seats: list[int]) -> int:
        """The seat of colour `name` (the first seat when it is None or cannot be known)."""
        if name is None:
            return 0
        c = self.colour(name, ("turn",))
        if c is not None and c not in seats:
            self.out.at(("turn",), "SR603", f"turn: {name!r} is not one of the players")
            return 0
        return seats.index(c) if c is not None else 0


class _Checker(PositionChecks):
    """The checks of a schema-valid track position against one variant."""

    def __init__(self, game, model: PositionModel, out: ProblemCollector):
        super().__init__(game, out)
        self.model = model

    def seats(self) -> tuple[list[int], int]:
        """The seated colours in order and the seat to move (0 when that cannot be known)."""
        seats = self.seated(self.model.players)
        return seats, self.seat_to_move(self.model.turn, seats)

    def counters(self, seats: list[int]) -> tuple:
        """`State.counters` from the start values and the position's `counters`."""
        game = self.game
        names = [name for name, _, _ in game.counters]
        values = [list(row) for row in game.initial_counters()]
        for colour, given in self.model.counters.items():
            c = self.colour(colour, ("counters", colour), key=True)
            if c is None:
                continue
            if c not in seats:
                self.out.at(("counters", colour), "SR603", f"counters: {colour!r} is not one of the players", key=True)
                continue
            for name, value in given.items():
                if name not in names:
                    known = ", ".join(names) or "the variant declares none"
                    self.out.at(("counters", colour, name), "SR521", f"counters.{colour}: unknown counter {name!r}"
                                f"{did_you_mean(name, names)} (counters: {known})", key=True)
                    continue
                values[c][names.index(name)] = value
        return tuple(tuple(row) for row in values)

    def marks(self, seats: list[int], placement: list) -> tuple:
        """`State.marks` from the position's `marks` (located problems: SR561 unknown mark,
        SR501/SR603 colours, SR601 squares, SR605 no pawn there to carry it)."""
        game = self.game
        names = [kind.name for kind in game.marks]
        entries: list[list] = [[] for _ in names]
        for name, listed in self.model.marks.items():
            if name not in names:
                known = ", ".join(names) or "the variant declares none"
                self.out.at(("marks", name), "SR561", f"marks: unknown mark {name!r}{did_you_mean(name, names)} "
                            f"(marks: {known})", key=True)
                continue
            k = names.index(name)
            for j, entry in enumerate(listed):
                found = self._mark_entry(seats, placement, entries[k], name, j, entry)
                if found is not None:
                    entries[k].append(found)
        return tuple(tuple(sorted(e)) for e in entries)

    def _mark_entry(self, seats, placement, taken: list, name: str, j: int, entry) -> tuple | None:
        path = ("marks", name, j)
        c = self.colour(entry.colour, path + ("colour",))
        by = self.colour(entry.by, path + ("by",)) if entry.by is not None else c
        if c is None or by is None:
            return None
        for who, field in ((c, "colour"), (by, "by")):
            if who not in seats:
                self.out.at(path + (field,), "SR603", f"marks.{name}[{j}]: {self.game.colours[who]!r} is not one of the players")
                return None
        try:
            sq = self.game.layout.parse(c, entry.square)
        except PositionError as error:
            self.out.at(path + ("square",), "SR601", f"marks.{name}[{j}]: {error}")
            return None
        there = placement[c].count(sq)
        if sum(1 for e in taken if e[0] == c and e[1] == sq) >= there:
            what = "no" if not there else f"only {there}"
            self.out.at(path + ("square",), "SR605", f"marks.{name}[{j}]: {what} {entry.colour} pawn(s) on {entry.square} "
                        f"to carry the mark")
            return None
        return (c, sq, by)

    def placement(self, seats: list[int]) -> list[tuple]:
        """Every colour's squares: seated colours start in Start, then `pawns` places them."""
        game, layout = self.game, self.game.layout
        placement = [() for _ in game.colours]
        for c in seats:
            placement[c] = (layout.start[c],) * game.pawns
        occupied: dict[int, str] = {}
        for name, squares in self.model.pawns.items():
            c = self.colour(name, ("pawns", name), key=True)
            if c is None:
                continue
            if c not in seats:
                self.out.at(("pawns", name), "SR603", f"pawns: {name!r} is not one of the players", key=True)
                continue
            if len(squares) > game.pawns:
                self.out.at(("pawns", name), "SR508", f"pawns.{name}: {len(squares)} pawns, but each colour has {game.pawns}")
                continue
            parsed = [sq for j, text in enumerate(squares) if (sq := self.square(c, name, j, text, occupied)) is not None]
            parsed += [layout.start[c]] * (game.pawns - len(parsed))
            placement[c] = tuple(sorted(parsed))
        return placement

    def square(self, c: int, name: str, j: int, text: str, occupied: dict[int, str]) -> int | None:
        layout = self.game.layout
        try:
            sq = layout.parse(c, text)
        except PositionError as error:
            self.out.at(("pawns", name, j), "SR601", f"pawns.{name}: {error}")
            return None
        if sq < layout.X:
            if sq in occupied:
                other = occupied[sq]
                same = "two pawns" if other == name else f"a {name} and a {other} pawn"
                self.out.at(("pawns", name, j), "SR602", f"pawns.{name}: {same} on {text} (a square holds one pawn)")
                return None
            occupied[sq] = name
        return sq

    def cards(self, card: int | None) -> tuple[tuple | None, int | None]:
        """(hand, card) for the variant's way of playing: a hand, or one drawn card."""
        model = self.model
        if self.game.hand_play:
            if card is not None:
                return (card,), None
            if model.hand == []:
                self.out.at(("hand",), "SR204", "hand: expected a non-empty list of card names")
                return None, None
            if model.hand is not None:
                found = [self.card(v, ("hand", i)) for i, v in enumerate(model.hand)]
                return tuple(found), None
            if model.card is not None:
                return (self.card(model.card, ("card",)),), None
            self.out.at((), "SR604", "this variant plays from a hand: give \"hand\": [cards] (or --card)")
            return None, None
        if card is not None:
            return None, card
        if model.hand is not None:
            self.out.at(("hand",), "SR604", "this variant draws one card per turn: give \"card\", not \"hand\"", key=True)
        elif model.card is None:
            self.out.at((), "SR201", "card: missing (give \"card\" in the file or --card)")
        else:
            return None, self.card(model.card, ("card",))
        return None, None


def field_name(path: tuple) -> str:
    """How a field is named in messages: `players[1]`, `hand[0]`, `turn`, `pawns`."""
    return path[0] + "".join(f"[{p}]" for p in path[1:] if isinstance(p, int))
