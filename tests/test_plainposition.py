"""Plain position files (`records.plainposition`): read without YAML, checked without
pydantic, and exactly what the hardened loader and the pydantic model give, or left to them."""

from __future__ import annotations

import dataclasses
import json
from random import Random

import pytest

from sorry_rules.base.errors import PositionError, RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.records.plainposition import PLAIN_BYTES, plain_json, plain_position
from sorry_rules.records.position import parse_position, read_position_file
from sorry_rules.records.positionmodel import PositionModel
from sorry_rules.rules.yamlsafe import load_yaml

from .freshprocess import run_python

VALID = [
    {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7",
     "pawns": {"red": ["start", "track:12", "safety:2", "home"], "blue": ["track:16"]}},
    {"players": ["red", "blue"], "card": 11},
    {"players": ["red"], "card": ["5", 12], "redraws": 1},
    {"players": ["red", "blue"], "hand": [1, "sorry", 7], "turn": None},
    {"players": ["red", "blue"], "card": "4", "counters": {"red": {"bumps_made": 3}}, "pawns": {}},
    {"players": ["red", "blue"], "card": "4", "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": "red"},
                                                                  {"colour": "red", "square": "start"}]}},
    {"players": ["red", "blue"], "card": [], "hand": [], "marks": {}, "counters": {"blue": {}}},
]

#: Values a field may be given instead: every one is either valid or refused by the model.
ODD = [None, True, False, 0, -1, 7, 2**70, 10**101, 1.5, "", "x", "7", [], ["red"], [1], [True], [None], [[]], {},
       {"red": []}, {"red": ["x"]}, {"red": {"a": 1}}, {"red": {"a": True}}, {"red": {"a": "1"}}, {"red": None},
       {"frozen": [{"colour": "red", "square": "start"}]}, {"frozen": [{"colour": "red"}]},
       {"frozen": [{"colour": "red", "square": "start", "by": 3}]}, {"frozen": [{"colour": "red", "square": "s", "x": 1}]},
       {"frozen": {}}, {1: []}, 20, 21]


def _model_values(model) -> dict:
    return {name: getattr(model, name) for name in type(model).model_fields}


def _plain_values(plain) -> dict:
    values = dataclasses.asdict(plain)
    values["marks"] = {name: [dict(entry) for entry in entries] for name, entries in values["marks"].items()}
    return values


def _agrees(data) -> bool:
    """plain_position either leaves `data` to the model or gives the model's values; returns
    whether it took it."""
    plain = plain_position(data)
    if plain is None:
        return False
    model = PositionModel.model_validate(data)
    expected = _model_values(model)
    expected["marks"] = {name: [entry.model_dump() for entry in entries] for name, entries in model.marks.items()}
    assert _plain_values(plain) == expected, data
    return True


def test_valid_positions_are_plain_and_give_the_model_values():
    for data in VALID:
        assert _agrees(data)


def test_every_field_given_odd_values_agrees_with_the_model():
    taken = left = 0
    for data in VALID:
        for name in ("players", "turn", "card", "hand", "pawns", "counters", "marks", "redraws", "other"):
            for value in ODD:
                if _agrees(dict(data, **{name: value})):
                    taken += 1
                else:
                    left += 1
        for name in data:
            assert _agrees({k: v for k, v in data.items() if k != name}) == (name != "players")
    assert taken > 50 and left > 500


def test_random_mixtures_agree_with_the_model():
    rng = Random("plain positions")
    fields = ("players", "turn", "card", "hand", "pawns", "counters", "marks", "redraws")
    for _ in range(3000):
        data = dict(rng.choice(VALID))
        for name in rng.sample(fields, rng.randint(1, 3)):
            data[name] = rng.choice(ODD + [dict(VALID[0]), VALID[1].get(name)])
        _agrees(data)
    for _ in range(500):
        data = {name: rng.choice(VALID).get(name, rng.choice(ODD)) for name in rng.sample(fields, rng.randint(1, 8))}
        _agrees(data)


TEXTS = [json.dumps(data, indent=indent, separators=separators) for data in VALID
         for indent, separators in ((None, None), (2, None), (None, (",", ":")), (4, (", ", " : ")))]


def test_plain_json_is_the_data_the_loader_reads():
    for text in TEXTS + ['{"a": [1, -0, 12, true, false, null, "x#y", "a: b", "{x}", "*al", "&an", "!t", "%p", "@", "|", ">",'
                         ' "? k", "- x", " lead", "trail ", "", "\'q\'"]}', "[]", "{}", '"text"', "7"]:
        raw = text.encode()
        data = plain_json(raw)
        assert data is not None, text
        assert data == load_yaml(raw, "x.json")[0] and data == json.loads(text)


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}', '{"a": 1.5}', '{"a": 1e3}', '{"a": NaN}', '{"a": Infinity}', '{"a": "\\u00e9"}', '{"a": "\\n"}',
    '{"a": "é"}', '{"a":\t1}', '{"a": "\x7f"}', '{"a": "\x01"}', '\ufeff{"a": 1}', '{"a": 1', "", "x", '{"a": 01}',
    "[" * 20 + "]" * 20, '{"a": "' + "x" * 5000 + '"}', '{"a": ' + "9" * 30 + "}",
])
def test_anything_else_is_left_to_the_loader(text):
    assert plain_json(text.encode("utf-8")) is None


def test_plain_json_has_a_size_bound():
    small = json.dumps({"players": ["red"], "pawns": {"red": ["start"] * 10}})
    assert plain_json(small.encode()) is not None
    big = json.dumps({"players": ["red"], "x": "y" * 4000, "z": ["a" * 4000] * (PLAIN_BYTES // 4000)})
    assert plain_json(big.encode()) is None


def test_random_json_texts_read_as_the_loader_reads_them():
    rng = Random("plain json")
    atoms = [0, 1, -3, 2**40, True, False, None, "", "red", "a b", "#", "x: y", "-", "?", "'", "[", "{", "}", "]", ",", "&a",
             "*a", "!x", "|", ">", "%", "@", "`", "~", "null", "true", "0x1", "1e3", "no", "on", ".5", "+1"]

    def value(depth):
        kind = rng.random()
        if depth > 3 or kind < 0.5:
            return rng.choice(atoms)
        if kind < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {str(rng.choice(atoms)): value(depth + 1) for _ in range(rng.randint(0, 4))}
    checked = 0
    for _ in range(1500):
        text = json.dumps(value(0), indent=rng.choice((None, 1, 2)), separators=rng.choice((None, (",", ":"), (", ", ": "))))
        raw = text.encode()
        data = plain_json(raw)
        try:
            loaded = load_yaml(raw, "x.json")[0]
        except RuleFileError:
            assert data is None, text
            continue
        if data is not None:
            assert data == loaded, text
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("data", [
    {"players": ["red", "pink"], "turn": "red", "card": "7", "pawns": {"red": ["track:99", "start"], "blue": ["track:1"]}},
    {"players": ["red", "blue"], "card": "13", "counters": {"red": {"nope": 1}}, "marks": {"x": []}},
    {"players": ["red", "blue"], "card": 7.5, "pawns": {"red": [1]}, "extra": True},
    {"players": ["red", "red"], "turn": "green", "hand": ["7"], "redraws": 3},
    {"players": ["red", "blue"], "card": "7", "cards_due": 2},
])
def test_problems_are_located_as_the_loader_locates_them(tmp_path, data):
    """A plain file (no YAML read) and the same text read by the loader (a .yaml name)
    give the same problems at the same lines and columns."""
    game = load_game("standard")
    text = json.dumps(data, indent=2)
    found = []
    for name in ("pos.json", "pos.yaml"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        source = read_position_file(str(path))
        with pytest.raises(PositionError) as error:
            parse_position(game, source.data, None, source.origins)
        found.append([(p.line, p.col, p.code, p.message) for p in error.value.problems])
    assert found[0] == found[1] and found[0]
    with pytest.raises(PositionError) as error:
        parse_position(game, data)
    assert sorted((p.code, p.message) for p in error.value.problems) == sorted((c, m) for _, _, c, m in found[0])


def test_a_valid_plain_file_gives_the_position_the_loader_gives(tmp_path):
    game = load_game("standard")
    for data in VALID[:2]:
        positions = []
        for name in ("pos.json", "pos.yaml"):
            path = tmp_path / name
            path.write_text(json.dumps(data), encoding="utf-8")
            source = read_position_file(str(path))
            positions.append(parse_position(game, source.data, None, source.origins))
        assert positions[0] == positions[1]


def test_moves_reads_a_plain_position_without_yaml_or_pydantic(tmp_path):
    """In a fresh process with the caches filled: `sorry-play moves` on a plain JSON
    position imports neither pydantic nor YAML nor lark, and prints what a cold run prints."""

    position = tmp_path / "pos.json"
    position.write_text(json.dumps(VALID[0]), encoding="utf-8")
    script = ("import sys\n"
              "from sorry_rules.cli.app import main\n"
              "try:\n"
              f"    main(['moves', '--variant', 'standard', '--state', {str(position)!r}])\n"
              "except SystemExit:\n"
              "    pass\n"
              "print(sorted(m for m in ('pydantic', 'yaml', 'lark') if m in sys.modules))\n")
    runs = [run_python(script, tmp_path / "cache") for _ in range(2)]
    cold, warm = (run.rsplit("\n", 2) for run in runs)
    assert warm[0] == cold[0] and "track:12 -> track:19" in warm[0]
    assert warm[1] == "[]" and cold[1] != "[]"
