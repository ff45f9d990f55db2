"""Position files: a board position in the rule book's notation, for the moves oracle.

Format (JSON, or YAML; both read by the hardened loader of rule files):
  {"players": ["red", "blue"], "turn": "red", "card": "7",
   "pawns": {"red": ["start", "track:12", "safety:2", "home"]}}
`players` is the seat order; colours left out of `pawns` have every pawn in Start; a colour
listing fewer pawns than the variant has its remaining pawns in Start. Hand play gives
`"hand": [...]` instead of `"card"`; a variant with `counters:` may give their values,
`"counters": {"red": {"bumps_made": 3}}` (the rest keep their start values); a variant with
`marks:` may place them, `"marks": {"frozen": [{"colour": "blue", "square": "track:20", "by":
"red"}]}` (`by`, the player who placed it, defaults to the pawn's colour, and must be one a
rule of the game lets put that mark on that pawn, SR610, where some rule places it; a mark on Start or Home is listed
once per marked pawn there). A variant that draws several cards at once
(`turn.take`) may give them all, `"card": ["5", "12"]` (at most `take`, in the order drawn);
a variant with `turn.redraw` may say how many extra cards the turn has already taken that
way, `"redraws": 1`, and one whose `after:` consequences give extra cards how many the turn
still has to come after the card being played, `"cards_due": 1`. The shape is the pydantic
model `records.positionmodel.PositionModel`; plain JSON files of valid data are read and
checked without YAML or pydantic (`records.plainposition`: the same data and values, the
source map read only to locate a problem).

Contract: `read_position_file(path)` returns a `PositionFile` (data and its source map) or
raises `PositionError`; `parse_position(game, data, card_override, origins)` returns a
`Position` or raises `PositionError` carrying every problem found, each located at
`file:line:col` (through `origins`, the source map; data without one is `<position>:1:1`)
with a stable code (docs/REFERENCE.md, section 6), or `UsageError` for an unknown `--card`.
Nothing else is raised on bad input.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sorry_rules.base import limits
from sorry_rules.base.errors import PositionError, ProblemCollector, RuleFileError, UsageError
from sorry_rules.base.safeio import read_regular
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.records.plainposition import plain_json, plain_position
from sorry_rules.rules.loadcache import LazyOrigins
from sorry_rules.rules.locate import POSITION_FIELDS, TOP_FIELDS

MAX_POSITION_BYTES = limits.MAX_POSITION_BYTES
IN_MEMORY = "<position>"


@dataclass(frozen=True)
class Position:
    state: object          # engine.State
    card: int | None
    hand: tuple | None
    drawn: tuple = ()      # the other cards drawn with `card` (turn.take)


@dataclass(frozen=True)
class PositionFile:
    """The plain data of a position file and where each value is written in it."""

    data: object
    origins: object  # rules.loader.Origins, or a LazyOrigins reading them on first use


def _fail(path: str, code: str, message: str, line: int = 1, col: int = 1) -> PositionError:
    out = ProblemCollector()
    out.add(path, line, col, code, message)
    return PositionError.of(out.problems)


def read_position_file(path: str) -> PositionFile:
    """Read a JSON (or YAML) position file into plain data and its source map. A file not
    named *.yaml / *.yml must be JSON (its syntax errors say so). Raises PositionError."""
    try:
        raw = read_regular(path, MAX_POSITION_BYTES)
    except OSError as error:
        raise _fail(path, "SR100", f"cannot read position file {path}: {error.strerror or error}") from None
    if len(raw) > MAX_POSITION_BYTES:
        raise _fail(path, "SR102", f"position file is larger than {MAX_POSITION_BYTES} bytes")
    if not path.endswith((".yaml", ".yml")):
        unmarked = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw  # a UTF-8 byte order mark, as a rule file may have
        data = plain_json(unmarked)
        if data is not None:  # the data the loader gives; its source map only if a problem needs locating
            _not_a_game(path, data)
            return PositionFile(data, LazyOrigins(lambda: _loaded(raw, path)[1]))
        try:
            json.loads(unmarked.decode("utf-8"))
        except json.JSONDecodeError as error:
            raise _fail(path, "SR103", f"invalid JSON: {error.msg}", error.lineno, error.colno) from None
        except (UnicodeDecodeError, RecursionError, ValueError):
            pass  # not UTF-8, nested too deeply, a number too long: the loader below locates it
    data, origins = _loaded(raw, path)
    _not_a_game(path, data)
    return PositionFile(data, origins)


#: The `format` of game records of every version (`records.files.READERS`; a test keeps the two equal).
GAME_FORMATS = ("sorry-rules-game", "sorry-rules-save", "sorry-rules-game-log")


def _not_a_game(path: str, data) -> None:
    """A saved game or a rule file given where a position file belongs: one problem saying
    what to use."""
    if isinstance(data, dict) and data.get("format") in GAME_FORMATS:
        raise _fail(path, "SR203", f"this is a saved game (a game record), not a position file: draw it at any move "
                                   f"with `sorry-play render --game {path} --move N`, or watch it with "
                                   f"`sorry-play replay {path}`")
    only = set(data) & _RULE_FILE_ONLY if isinstance(data, dict) else set()
    if ("extends" in only or len(only) > 1) and set(data) <= TOP_FIELDS:  # one odd key is a position's mistake
        raise _fail(path, "SR203", f"this is a rule file, not a position file: give it as --variant {path} (or --rule); "
                                   "a position file lists players, turn, card or hand, and pawns or chips")


#: fields of a rule file that no position file has
_RULE_FILE_ONLY = TOP_FIELDS - POSITION_FIELDS


def _loaded(raw: bytes, path: str) -> tuple:
    """(data, Origins) of a position file's bytes by the hardened loader; PositionError."""
    # lazy: YAML and the rule-file loader only for a file that is not plain JSON (or to locate a problem)
    from sorry_rules.rules.loader import Origins
    from sorry_rules.rules.yamlsafe import load_yaml

    try:
        data, smap = load_yaml(raw, path)
    except RuleFileError as error:
        raise PositionError.of(error.problems) from None
    return data, Origins(maps={(): smap}, fallback=path)


def parse_position(game, data, card_override: str | None = None, origins=None) -> Position:
    """Check a position against the variant and build an engine state for it; `origins`
    locates its values (`PositionFile.origins`; None: data without a file)."""
    card = _override(game, card_override)
    out = ProblemCollector(origins if origins is not None else LazyOrigins(_in_memory))
    if not isinstance(data, dict):
        out.at((), "SR203", "a position must be a mapping (a JSON object) with players, turn, card and pawns")
        raise PositionError.of(out.problems)
    model, failing = _validated(data, out)
    if model is None:
        raise PositionError.of(out.problems)
    checker = _Checker(game, model, out)
    seats, turn = checker.seats()
    placement = checker.placement(seats)
    counters = checker.counters(seats)
    marks = checker.marks(seats, placement)
    finished = ()
    if not out.errors:
        def holds(c: int) -> bool:
            return game.win_holds(c, tuple(placement), counters, marks)
        finished = checker.finished(seats, turn, holds)
        listed = {game.colours.index(name) for name in model.finished if name in game.colours}
        checker.already_won([c for c in seats if c not in listed], holds)  # a listed colour is said by `finished`
    hand, drawn = None, ()
    if not failing & {"card", "hand"}:
        hand, card = checker.cards(card)
        if isinstance(card, tuple):
            card, drawn = card[0], card[1:]
    redraws, due = checker.redraws(), checker.cards_due()
    if out.errors:
        raise PositionError.of(out.problems)
    # hand play: `cards` gave no card and nothing drawn with it; draw play: no hand
    state = game.position(placement, seats, turn, card, hand, counters, marks, drawn, redraws,
                          tuple(seats.index(c) for c in finished), due)
    return Position(state, card, hand, drawn)


def _in_memory():
    # lazy: the rule-file loader only to locate a problem of data without a file
    from sorry_rules.rules.loader import Origins

    return Origins(fallback=IN_MEMORY)


def _validated(data: dict, out: ProblemCollector) -> tuple:
    """`validated_fields` of `data` by `PositionModel`; plainly valid data (`plainposition`,
    the common case) is not given to pydantic."""
    plain = plain_position(data)
    if plain is not None:
        return plain, set()
    # lazy: pydantic (the model and its located problems) only for data that is not plainly valid
    from sorry_rules.records.positionmodel import PositionModel

    return validated_fields(PositionModel, data, out)


def validated_fields(model, data: dict, out: ProblemCollector) -> tuple:
    """The `model` (a pydantic model class) of `data` and the fields that failed its schema
    (their problems go to `out`). The rest is still checked against the variant, so that one
    run reports every problem: the model then holds the fields that passed; None when even
    that fails."""
    from pydantic import ValidationError  # lazy: pydantic only when data is validated by it

    from sorry_rules.rules.loader import schema_problems

    try:
        return model.model_validate(data), set()
    except ValidationError as error:
        out.extend(schema_problems(data, out.locator, error, model))
        failing = {item["loc"][0] for item in error.errors() if item["loc"]}
    rest = {k: v for k, v in data.items() if k in model.model_fields and k not in failing}
    try:
        return model.model_validate(rest), failing
    except ValidationError:  # `players` failed: nothing is left to check against
        return None, failing


def card_name(game, name: str) -> str:
    """`name` as the game names its cards: a throw of several dice in any order ('3+1') is
    named with its faces in the dice's order ('1+3')."""
    dice = getattr(game, "dice", None)
    if dice is None or name in game.card_index or "+" not in name:
        return name
    faces = [str(face) for face in dice.faces]
    parts = name.replace(" ", "").split("+")
    return "+".join(sorted(parts, key=faces.index)) if all(part in faces for part in parts) else name


def _override(game, card_override: str | None) -> int | None:
    """The card of `--card`; an unknown one is a usage error (it is in no file)."""
    if card_override is None:
        return None
    card_override = card_name(game, card_override)
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
        named = field_name(path[:-1] if key else path)  # a key is named by the mapping it is a key of
        self.out.at(path, "SR501", f"{named}: unknown colour {name!r}{did_you_mean(name, colours)} "
                                   f"(colours: {', '.join(colours)})", key=key)
        return None

    def player(self, name: str, field: str, seats) -> int | None:
        """The colour `name`, a key of `field`, when it is seated; else None (SR501, SR603 at the key)."""
        c = self.colour(name, (field, name), key=True)
        if c is not None and c not in seats:
            self.out.at((field, name), "SR603", f"{field}: {name!r} is not one of the players", key=True)
            return None
        return c

    def card(self, value, path: tuple) -> int | None:
        names = self.game.card_names
        name = card_name(self.game, str(value))
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

    def seat_count(self, players, allowed: set) -> None:
        """A problem (SR510) unless the number of colours listed in `players` is one the
        variant plays with (`allowed`)."""
        seats = list(players)
        if seats and len(seats) not in allowed:
            counts = sorted(allowed)
            said = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}" \
                if counts == list(range(counts[0], counts[-1] + 1)) else ", ".join(map(str, counts))
            self.out.at(("players",), "SR510", f"players: {len(seats)} colour{'s' if len(seats) != 1 else ''} seated; "
                                               f"{self.game.name} is played by {said} colours")

    def hand_cards(self, hand: list, most: int | None = None, source: str = "turn.hand_size") -> tuple:
        """The card indexes of `hand` (unknown names reported, SR502), refused as a whole (SR604)
        when it holds more cards than a hand may (`most`, default `turn.hand_size`; `source`
        names where the limit comes from), and SR508 for a card held more often than the deck
        has it."""
        game, path = self.game, ("hand",)
        most = min(limits.MAX_HAND, most or getattr(game, "hand_size", None) or limits.MAX_HAND)
        if len(hand) > most:
            self.out.at(path, "SR604", f"{field_name(path)}: {len(hand)} cards; a hand holds at most {most} ({source})")
            return ()
        found = [card for i, name in enumerate(hand) if (card := self.card(name, path + (i,))) is not None]
        in_deck = Counter(game.deck)
        for card, copies in sorted(Counter(found).items()):
            if copies > in_deck[card]:
                self.out.at(path, "SR508", f"{field_name(path)}: {copies} copies of {game.card_names[card]}, "
                                           f"the deck has {in_deck[card]}")
        return tuple(found)

    def already_won(self, seats, holds) -> None:
        """SR608 when `holds(colour)` (the win condition) is true for a seated colour (of
        those that have not finished, `places`)."""
        winners = [self.game.colours[c] for c in seats if holds(c)]
        if winners:
            hint = " (list the colours that finished under finished:)" if getattr(self.game, "places", 1) > 1 else ""
            self.out.at((), "SR608", f"the game is over in this position: the win condition holds for "
                                     f"{', '.join(winners)}{hint}")

    def finished(self, seats: list, turn: int, holds) -> tuple:
        """The colours of `finished:` (`places`), in order: seated once each (SR603), each
        one whose win condition holds and not the player to move (SR606); SR608 when so
        many sides finished that the game is over."""
        names, game, out = self.model.finished, self.game, self.out
        if not names:
            return ()
        if game.places == 1:
            out.at(("finished",), "SR606", "finished: this variant ends at its first winner (places: 1); no side "
                                           "plays on after finishing", key=True)
            return ()
        found: list = []
        for i, name in enumerate(names):
            c = self.colour(name, ("finished", i))
            if c is None:
                continue
            if c not in seats or c in found:
                out.at(("finished", i), "SR603", f"finished: {name!r} is " +
                       ("listed twice" if c in found else "not one of the players"))
            elif not holds(c):
                out.at(("finished", i), "SR606", f"finished: {name!r} has not finished: its win condition does not hold")
            elif seats[turn] == c:
                out.at(("finished", i), "SR606", f"finished: {name!r} is to move, but a side that finished sits out")
            else:
                found.append(c)
        sides = {game.team_of[c] for c in seats}
        done = {game.team_of[c] for c in found}
        if found and (len(done) >= game.places or len(sides) - len(done) <= 1):
            out.at(("finished",), "SR608", f"the game is over in this position: {len(done)} of {len(sides)} sides "
                                           f"finished, and it ends once {min(game.places, len(sides) - 1)} have",
                   key=True)
        return tuple(found)

    def seat_to_move(self, name: str | None, seats: list[int]) -> int:
        """The seat of colour `name` (the first seat when it is None or cannot be known)."""
        if name is None:
            return 0
        c = self.colour(name, ("turn",))
        if c is not None and c not in seats:
            self.out.at(("turn",), "SR603", f"turn: {name!r} is not one of the players")
            return 0
        return seats.index(c) if c is not None else 0


def _short(value: int) -> str:
    """A number as shown in a problem: a long one by its first digits and its length."""
    return str(value) if abs(value) < 10**30 else f"a number of {len(str(abs(value)))} digits"


class _Checker(PositionChecks):
    """The checks of a schema-valid track position against one variant."""

    def __init__(self, game, model, out: ProblemCollector):  # model: a PositionModel or PlainPosition
        super().__init__(game, out)
        self.model = model

    def seats(self) -> tuple[list[int], int]:
        """The seated colours in order and the seat to move (0 when that cannot be known)."""
        seats = self.seated(self.model.players)
        self.seat_count(self.model.players, set(range(self.game.players_min, self.game.players_max + 1)))
        return seats, self.seat_to_move(self.model.turn, seats)

    def counters(self, seats: list[int]) -> tuple:
        """`State.counters` from the start values and the position's `counters`."""
        game = self.game
        names = [name for name, _, _ in game.counters]
        ranges = getattr(game, "counter_ranges", None) or ((-limits.MAX_COUNTER, limits.MAX_COUNTER),) * len(names)
        values = [list(row) for row in game.initial_counters()]
        for colour, given in self.model.counters.items():
            c = self.player(colour, "counters", seats)
            if c is None:
                continue
            for name, value in given.items():
                if name not in names:
                    known = ", ".join(names) or "the variant declares none"
                    self.out.at(("counters", colour, name), "SR521", f"counters.{colour}: unknown counter {name!r}"
                                f"{did_you_mean(name, names)} (counters: {known})", key=True)
                    continue
                low, high = ranges[names.index(name)]
                if not low <= value <= high:
                    self.out.at(("counters", colour, name), "SR508", f"counters.{colour}.{name}: {_short(value)} is not "
                                f"within the counter's range, {low} to {high}")
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
                found = self._mark_entry(seats, placement, entries[k], game.marks[k], j, entry)
                if found is not None:
                    entries[k].append(found)
        return tuple(tuple(sorted(e)) for e in entries)

    def _mark_entry(self, seats, placement, taken: list, kind, j: int, entry) -> tuple | None:
        name = kind.name
        path = ("marks", name, j)
        c = self.colour(entry.colour, path + ("colour",))
        by = self.colour(entry.by, path + ("by",)) if entry.by is not None else c
        if c is None or by is None:
            return None
        for who, field in ((c, "colour"), (by, "by")):
            if who not in seats:
                self.out.at(path + (field,), "SR603", f"marks.{name}[{j}]: {self.game.colours[who]!r} is not one of the players")
                return None
        placers = self.game.mark_placers[self.game.marks.index(kind)]
        if placers and (by, c) not in placers:  # a mark nothing places (SR562) is taken as given
            self._unplaceable(path, j, kind, c, by, [p for p in seats if (p, c) in placers], entry.by is None)
            return None
        try:
            sq = self.game.layout.parse(c, entry.square)
        except PositionError as error:
            self.out.at(path + ("square",), "SR601", f"marks.{name}[{j}]: {error}")
            return None
        if kind.one_per_player and any(e[2] == by for e in taken):
            self.out.at(path, "SR607", f"marks.{name}[{j}]: {self.game.colours[by]} has placed a {name} mark already "
                        "(one per player)")
            return None
        there = placement[c].count(sq)
        if sum(1 for e in taken if e[0] == c and e[1] == sq) >= there:
            what = "no" if not there else f"only {there}"
            self.out.at(path + ("square",), "SR605", f"marks.{name}[{j}]: {what} {entry.colour} pawn(s) on {entry.square} "
                        f"to carry the mark")
            return None
        return (c, sq, by)

    def _unplaceable(self, path: tuple, j: int, kind, c: int, by: int, placers: list[int], by_left_out: bool) -> None:
        """SR610: no rule lets the player of colour `by` put a mark of `kind` on a colour-c pawn;
        `placers`, the seated colours that may."""
        colours, name = self.game.colours, kind.name
        who = "no player seated here" if not placers else " or ".join(colours[p] for p in placers)
        if by_left_out:
            self.out.at(path, "SR610", f"marks.{name}[{j}]: a {name} mark on a {colours[c]} pawn is placed by {who}, "
                        f"not {colours[c]} (`by`, the player who placed it, left out, is the pawn's colour)")
        else:
            self.out.at(path + ("by",), "SR610", f"marks.{name}[{j}]: {colours[by]} never puts a {name} mark on a "
                        f"{colours[c]} pawn; {who} may")

    def placement(self, seats: list[int]) -> list[tuple]:
        """Every colour's squares: seated colours start in Start, then `pawns` places them."""
        game, layout = self.game, self.game.layout
        placement = [() for _ in game.colours]
        for c in seats:
            placement[c] = (layout.start[c],) * game.pawns
        occupied: dict[int, list] = {}
        for name, squares in self.model.pawns.items():
            c = self.player(name, "pawns", seats)
            if c is None:
                continue
            parsed = [sq for j, text in enumerate(squares) if (sq := self.square(c, name, j, text, occupied)) is not None]
            if len(squares) > game.pawns:  # each square is still checked: every problem at once
                self.out.at(("pawns", name), "SR508", f"pawns.{name}: {len(squares)} pawns, but each colour has {game.pawns}")
                continue
            parsed += [layout.start[c]] * (game.pawns - len(parsed))
            placement[c] = tuple(sorted(parsed))
        return placement

    def square(self, c: int, name: str, j: int, text: str, occupied: dict[int, list]) -> int | None:
        layout = self.game.layout
        try:
            sq = layout.parse(c, text)
        except PositionError as error:
            self.out.at(("pawns", name, j), "SR601", f"pawns.{name}: {error}")
            return None
        if not self.game.reaches(c, sq):
            self.out.at(("pawns", name, j), "SR609", f"pawns.{name}: a {name} pawn never stands on {text}: every move of "
                        f"this game goes forward, and {name}'s route from {layout.name(layout.start_exit[c])} does not "
                        "pass it")
            return None
        if sq < layout.counted:  # a track or safety square, or a Home that holds fewer pawns than a colour has
            there = occupied.setdefault(sq, [])
            hold = layout.hold[sq]
            if len(there) >= hold:
                if hold == 1:
                    other = there[0]
                    same = "two pawns" if other == name else f"a {name} and a {other} pawn"
                else:
                    same = f"{len(there) + 1} pawns"
                held = "one pawn" if hold == 1 else f"{hold} pawns"
                where = "a Home holds" if sq in layout.home else "a square holds"  # board.home_hold, board.hold
                self.out.at(("pawns", name, j), "SR602", f"pawns.{name}: {same} on {text} ({where} {held})")
                return None
            if there and any(other != name for other in there) and not layout.share[sq]:
                other = next(other for other in there if other != name)
                self.out.at(("pawns", name, j), "SR602", f"pawns.{name}: a {name} and a {other} pawn on {text} (pawns of "
                            "two colours share only a square whose name lets them, board.squares)")
                return None
            there.append(name)
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
            if model.hand is not None and model.card is not None:
                self.out.at(("card",), "SR604", "card: this variant plays from a hand: give \"hand\" or \"card\" (a "
                            "hand of that one card), not both", key=True)
                return None, None
            if model.hand is not None:
                return self.hand_cards([str(v) for v in model.hand]), None
            if isinstance(model.card, list):
                self.out.at(("card",), "SR604", "card: a list of cards is for a variant that draws several at once; "
                            "this one plays from a hand: give \"hand\": [cards]")
                return None, None
            if model.card is not None:
                return (self.card(model.card, ("card",)),), None
            self.out.at((), "SR604", "this variant plays from a hand: give \"hand\": [cards] (or --card)")
            return None, None
        if card is not None:
            return None, card
        if model.hand is not None:
            turn = "throws its dice each turn: give the throw as \"card\"" if getattr(self.game, "dice", None) is not None \
                else "draws one card per turn: give \"card\""
            self.out.at(("hand",), "SR604", f"this variant {turn}, not \"hand\"", key=True)
        elif model.card is None:
            self.out.at((), "SR201", "card: missing (give \"card\" in the file or --card)")
        elif isinstance(model.card, list):
            return None, self.drawn_cards(model.card)
        else:
            return None, self.card(model.card, ("card",))
        return None, None

    def drawn_cards(self, names: list) -> tuple | None:
        """The cards drawn together (`turn.take`): 1 to `take` known card names."""
        take = self.game.take
        if not names or len(names) > take:
            most = "1" if take == 1 else f"1 to {take}"
            self.out.at(("card",), "SR604", f"card: {len(names)} cards; give {most}, the cards drawn so far "
                        f"(this variant draws {take} at a time, turn.take)")
            return None
        found = tuple(self.card(v, ("card", i)) for i, v in enumerate(names))
        return None if None in found else found

    def redraws(self) -> int:
        """`State.redraws`: at most the variant's `turn.redraw.at_most` (0 without it)."""
        value = self.model.redraws
        policy = self.game.redraw
        most = policy.at_most if policy is not None else 0
        if value > most:
            rule = f"turn.redraw allows {most} a turn" if policy is not None else "the variant has no turn.redraw"
            cards = "1 extra card" if value == 1 else f"{value} extra cards"
            self.out.at(("redraws",), "SR606", f"redraws: {cards} taken this turn, but {rule}")
            return 0
        return value

    def cards_due(self) -> int:
        """`State.bonus`: extra cards still due this turn, only where consequences give some."""
        value = self.model.cards_due
        if value and not any(c.draw_again for c in self.game.after):
            self.out.at(("cards_due",), "SR606", f"cards_due: {value} extra card{'' if value == 1 else 's'} still due, "
                        "but no after: consequence of this variant gives one (draw_again: true)")
            return 0
        return value


def field_name(path: tuple) -> str:
    """How a field is named in messages: `players[1]`, `hand[0]`, `turn`, `marks.frozen[1].by`."""
    return path[0] + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])
