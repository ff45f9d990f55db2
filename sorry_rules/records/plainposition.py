"""Plain position files, read and checked without YAML or pydantic: the common case, exactly.

A position file is read by the hardened YAML loader (for its source map) and validated by
the pydantic `records.positionmodel.PositionModel` (for located, coded problems). Most files
are small, plain JSON and valid; for them both steps have a cheaper equal:

- `plain_json(raw)` returns the data of a file's bytes when they are plain JSON that the YAML
  loader reads to the same data: printable ASCII without backslashes or tabs (so no escape,
  no character the loader refuses), no duplicate keys, no floats or non-finite numbers, and
  well inside the loader's bounds of size, nesting, node count and scalar length. Else None:
  the caller reads the bytes with the loader, which gives the data or the problems.
- `plain_position(data)` returns a `PlainPosition` holding the values `PositionModel` would
  hold when `data` is plainly valid for it (every field of the right type, bounds kept, the
  card-number rule applied), else None: the caller validates with the model, which names
  every problem.

Contract: neither function raises on any input, and neither ever accepts what the slower path
would refuse or read differently (tests/test_plainposition.py compares them on valid files,
mutated ones and random data).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from sorry_rules.base import limits

#: Bounds of the plain path, well inside the YAML loader's (limits.MAX_YAML_*).
PLAIN_BYTES = 65_536
PLAIN_DEPTH = 16
PLAIN_SCALAR = 4_096
PLAIN_INT = 2**63
FIELDS = frozenset(("players", "turn", "card", "hand", "pawns", "counters", "marks", "redraws", "cards_due", "finished"))
MARK_FIELDS = frozenset(("colour", "square", "by"))

_PLAIN_TEXT = re.compile(r"[\n\r\x20-\x5b\x5d-\x7e]*\Z")  # printable ASCII and line breaks, no backslash
assert PLAIN_DEPTH < limits.MAX_YAML_DEPTH and PLAIN_SCALAR < limits.MAX_SCALAR_CHARS
assert PLAIN_BYTES < limits.MAX_YAML_NODES and PLAIN_BYTES < limits.MAX_POSITION_BYTES


class NotPlain(Exception):
    """Raised inside this module for data it leaves to the slower path."""


@dataclass(frozen=True)
class PlainMark:
    """`positionmodel.MarkEntry`'s values."""

    colour: str
    square: str
    by: str | None = None


@dataclass(frozen=True)
class PlainPosition:
    """`positionmodel.PositionModel`'s values, for plainly valid data."""

    players: list
    turn: str | None = None
    card: str | list | None = None
    hand: list | None = None
    pawns: dict = field(default_factory=dict)
    counters: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)
    redraws: int = 0
    finished: list = field(default_factory=list)
    cards_due: int = 0


def _pairs(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise NotPlain("duplicate key")
    return dict(pairs)


def _refuse(text: str):
    raise NotPlain(text)


def _bounded(value, depth: int) -> None:
    """NotPlain when `value` nests deeper than PLAIN_DEPTH or holds a long scalar."""
    if depth > PLAIN_DEPTH:
        raise NotPlain("deep")
    if isinstance(value, dict):
        for key, item in value.items():
            _bounded(key, depth + 1)
            _bounded(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _bounded(item, depth + 1)
    elif isinstance(value, str) and len(value) > PLAIN_SCALAR:
        raise NotPlain("long text")
    elif isinstance(value, int) and not isinstance(value, bool) and not -PLAIN_INT < value < PLAIN_INT:
        raise NotPlain("long number")


def plain_json(raw: bytes):
    if len(raw) > PLAIN_BYTES:
        return None
    try:
        text = raw.decode("ascii")
        if not _PLAIN_TEXT.match(text):
            return None
        data = json.loads(text, object_pairs_hook=_pairs, parse_float=_refuse, parse_constant=_refuse)
        _bounded(data, 1)
    except (ValueError, RecursionError, NotPlain):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    return data


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -PLAIN_INT < value < PLAIN_INT


def _name(value) -> str:
    """A card name as the model's card-number rule gives it (`7` -> "7")."""
    if isinstance(value, str):
        return value
    if _is_int(value):
        return str(value)
    raise NotPlain("card")


def _texts(value) -> list:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise NotPlain("list of texts")
    return value


def _mapping(value) -> dict:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise NotPlain("mapping")
    return value


def _optional_text(value) -> str | None:
    if value is not None and not isinstance(value, str):
        raise NotPlain("text")
    return value


def _mark(entry) -> PlainMark:
    entry = _mapping(entry)
    if not set(entry) <= MARK_FIELDS or not isinstance(entry.get("colour"), str) or not isinstance(entry.get("square"), str):
        raise NotPlain("mark")
    return PlainMark(entry["colour"], entry["square"], _optional_text(entry.get("by")))


def _position(data) -> PlainPosition:
    data = _mapping(data)
    if not set(data) <= FIELDS or "players" not in data:
        raise NotPlain("fields")
    players = _texts(data["players"])
    if not players:
        raise NotPlain("no players")
    card = data.get("card")
    card = [_name(v) for v in card] if isinstance(card, list) else None if card is None else _name(card)
    hand = data.get("hand")
    if hand is not None:
        if not isinstance(hand, list):
            raise NotPlain("hand")
        hand = [_name(v) for v in hand]
    pawns = {colour: _texts(squares) for colour, squares in _mapping(data.get("pawns", {})).items()}
    counters = {}
    for colour, values in _mapping(data.get("counters", {})).items():
        if not all(_is_int(v) for v in _mapping(values).values()):
            raise NotPlain("counter")
        counters[colour] = values
    marks = {}
    for name, entries in _mapping(data.get("marks", {})).items():
        if not isinstance(entries, list):
            raise NotPlain("marks")
        marks[name] = [_mark(entry) for entry in entries]
    redraws = data.get("redraws", 0)
    if not _is_int(redraws) or not 0 <= redraws <= limits.MAX_REDRAWS:
        raise NotPlain("redraws")
    finished = _texts(data.get("finished", []))
    if len(finished) > limits.MAX_COLOURS:
        raise NotPlain("finished")
    due = data.get("cards_due", 0)
    if not _is_int(due) or not 0 <= due <= limits.MAX_CARDS_DUE:
        raise NotPlain("cards_due")
    return PlainPosition(players, _optional_text(data.get("turn")), card, hand, pawns, counters, marks, redraws, finished,
                         due)


def plain_position(data) -> PlainPosition | None:
    try:
        return _position(data)
    except NotPlain:
        return None
