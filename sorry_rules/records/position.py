"""Position files: a board position in RULES.md notation, for the moves oracle.

Format (JSON, or YAML read by the same safe loader):
  {"players": ["red", "blue"], "turn": "red", "card": "7",
   "pawns": {"red": ["start", "track:12", "safety:2", "home"]}}
`players` is the seat order; colours left out of `pawns` have every pawn in Start; a colour
listing fewer pawns than the variant has its remaining pawns in Start. Hand play gives
`"hand": [...]` instead of `"card"`.

Contract: `parse_position` returns a `Position` or raises `PositionError` with a message that
names the offending field; it never raises anything else on bad input.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sorry_rules.base.errors import PositionError, RuleFileError
from sorry_rules.base import limits

MAX_POSITION_BYTES = limits.MAX_POSITION_BYTES


@dataclass(frozen=True)
class Position:
    state: object          # engine.State
    card: int | None
    hand: tuple | None


def read_position_file(path: str) -> dict:
    """Read a JSON (or YAML) position file into plain data. Raises PositionError."""
    file = Path(path)
    try:
        raw = file.read_bytes()[: MAX_POSITION_BYTES + 1]
    except OSError as error:
        raise PositionError(f"cannot read position file {path}: {error.strerror or error}") from None
    if len(raw) > MAX_POSITION_BYTES:
        raise PositionError(f"position file {path} is larger than {MAX_POSITION_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise PositionError(f"position file {path} is not UTF-8 text") from None
    except RecursionError:  # json's decoder recurses once per nested list or object
        raise PositionError(f"position file {path} is nested too deeply to be a position") from None
    except json.JSONDecodeError as error:
        if path.endswith((".yaml", ".yml")):
            from sorry_rules.rules.yamlsafe import load_yaml

            try:
                return load_yaml(raw, path)[0]
            except RuleFileError as yaml_error:
                raise PositionError(str(yaml_error)) from None
        raise PositionError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from None
    except ValueError:  # a number longer than int() accepts (sys.get_int_max_str_digits)
        raise PositionError(f"position file {path} has a number too long to be a position") from None


def _card(game, value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise PositionError(f"{where}: expected a card name, got {value!r}")
    name = str(value)
    if name not in game.card_index:
        raise PositionError(f"{where}: unknown card {name!r} (cards: {', '.join(game.card_names)})")
    return game.card_index[name]


def _colour(game, value, where: str) -> int:
    if not isinstance(value, str) or value not in game.colours:
        raise PositionError(f"{where}: unknown colour {value!r} (colours: {', '.join(game.colours)})")
    return game.colours.index(value)


def parse_position(game, data, card_override: str | None = None) -> Position:
    """Check a position against the variant and build an engine state for it."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object with players, turn, card and pawns")
    known = {"players", "turn", "card", "hand", "pawns"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise PositionError(f"unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise PositionError("players: expected the list of colours in seat order")
    seats = []
    for i, name in enumerate(players):
        c = _colour(game, name, f"players[{i}]")
        if c in seats:
            raise PositionError(f"players: colour {name!r} is listed twice")
        seats.append(c)
    if len(seats) > len(game.colours):
        raise PositionError("players: more players than colours")
    turn_name = data.get("turn", players[0])
    turn_colour = _colour(game, turn_name, "turn")
    if turn_colour not in seats:
        raise PositionError(f"turn: {turn_name!r} is not one of the players")
    turn = seats.index(turn_colour)
    layout = game.layout
    pawns = data.get("pawns", {})
    if not isinstance(pawns, dict):
        raise PositionError("pawns: expected an object mapping colours to lists of positions")
    placement = [() for _ in game.colours]
    for c in seats:
        placement[c] = (layout.start[c],) * game.pawns
    occupied: dict[int, str] = {}
    for name, squares in pawns.items():
        c = _colour(game, name, "pawns")
        if c not in seats:
            raise PositionError(f"pawns: {name!r} is not one of the players")
        if not isinstance(squares, list):
            raise PositionError(f"pawns.{name}: expected a list of positions")
        if len(squares) > game.pawns:
            raise PositionError(f"pawns.{name}: {len(squares)} pawns, but each colour has {game.pawns}")
        parsed = []
        for text in squares:
            try:
                sq = layout.parse(c, text)
            except PositionError as error:
                raise PositionError(f"pawns.{name}: {error}") from None
            if sq < layout.X:
                if sq in occupied:
                    other = occupied[sq]
                    same = "two pawns" if other == name else f"a {name} and a {other} pawn"
                    raise PositionError(f"pawns.{name}: {same} on {text} (a square holds one pawn)")
                occupied[sq] = name
            parsed.append(sq)
        parsed += [layout.start[c]] * (game.pawns - len(parsed))
        placement[c] = tuple(sorted(parsed))
    card = hand = None
    if card_override is not None:
        card = _card(game, card_override, "--card")
    if game.hand_play:
        if card is not None:
            hand = (card,)
        elif "hand" in data:
            values = data["hand"]
            if not isinstance(values, list) or not values:
                raise PositionError("hand: expected a non-empty list of card names")
            hand = tuple(_card(game, v, f"hand[{i}]") for i, v in enumerate(values))
        elif "card" in data:
            hand = (_card(game, data["card"], "card"),)
        else:
            raise PositionError("this variant plays from a hand: give \"hand\": [cards] (or --card)")
        state = game.position(placement, seats, turn, hand=hand)
    else:
        if "hand" in data and card is None:
            raise PositionError("this variant draws one card per turn: give \"card\", not \"hand\"")
        if card is None:
            if "card" not in data:
                raise PositionError("card: missing (give \"card\" in the file or --card)")
            card = _card(game, data["card"], "card")
        state = game.position(placement, seats, turn, card=card)
    return Position(state, card, hand)
