"""Rule files from a hostile author (docs/LIMITS.md): every construct has a work bound the
compiler checks or a limit that stops play with a clear error; counters keep to their range
whatever their formulas compute; names and labels hold no control characters."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from sorry_rules.base import limits
from sorry_rules.base.errors import RuleFileError
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game

from .fuzzlib import time_limit

GUARD = 20.0  # seconds of CPU; a hang guard, not a speed target


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _codes(path) -> list[str]:
    with time_limit(GUARD):
        with pytest.raises(RuleFileError) as caught:
            load_game(str(path))
    return [p.code for p in caught.value.problems]


# ---- counters ---------------------------------------------------------------------------------------
SQUARING = """
    extends: standard
    counters: {pts: {start: 2}}
    after:
      square: {when: "true", add: {pts: "pts(player) * pts(player) * pts(player)"}}
    win: "home(team) == pawns(team) or pts(player) < -5"
"""


def test_a_counter_squared_every_move_stops_at_its_bound(tmp_path):
    game = load_game(str(_write(tmp_path, "square.yaml", SQUARING)))
    assert game.counter_ranges == ((-limits.MAX_COUNTER, limits.MAX_COUNTER),)
    state = game.new_game(3, players=2)
    players = [make_player("random", 3, seat) for seat in range(2)]
    with time_limit(GUARD):
        final = play_game(game, state, players, max_plies=300)
    seated = [final.counters[c][0] for c in final.seats]
    assert seated == [limits.MAX_COUNTER, limits.MAX_COUNTER]


def test_a_counter_squared_plays_saves_and_simulates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "square.yaml", SQUARING)
    with time_limit(GUARD):
        result = _invoke("--variant", "square.yaml", "--auto", "--seed", 2, "--players", 2, "--max-plies", 120,
                         "--save", "game.json")
        assert result.exit_code == 0, result.output
        result = _invoke("simulate", "--variant", "square.yaml", "--games", 3, "--players", 2, "--jobs", 1,
                         "--max-plies", 200, "--out", "run.jsonl", "--format", "json")
        assert result.exit_code == 0, result.output
        result = _invoke("simulate", "--from", "run.jsonl", "--format", "json")
        assert result.exit_code == 0, result.output
        result = _invoke("replay", "game.json")
        assert result.exit_code == 0, result.output


def test_a_narrow_counter_range_holds_and_its_start_must_lie_in_it(tmp_path):
    path = _write(tmp_path, "narrow.yaml", """
        extends: standard
        counters: {pts: {start: 0, min: -3, max: 10}}
        after:
          double: {when: "true", add: {pts: "pts(player) + 7"}}
        win: "home(team) == pawns(team) or pts(player) > 100"
    """)
    game = load_game(str(path))
    assert game.counter_ranges == ((-3, 10),)
    final = play_game(game, game.new_game(1, players=2), [make_player("random", 1, s) for s in range(2)], max_plies=60)
    assert {value for row in final.counters for value in row} <= set(range(-3, 11))
    path.write_text(path.read_text().replace("start: 0", "start: 11"))
    assert _codes(path) == ["SR508"]
    path.write_text(path.read_text().replace("max: 10", f"max: {limits.MAX_COUNTER + 1}"))
    assert "SR204" in _codes(path)


def test_a_position_counter_outside_its_range_is_refused(tmp_path):
    """A 4,300-digit counter in a position file crashed `moves` with house/bump-points."""
    for value in (10**4299, limits.MAX_COUNTER + 1, -(10**40)):
        pos = tmp_path / "pos.yaml"
        pos.write_text(f"players: [red, blue]\nturn: red\ncard: '1'\ncounters: {{red: {{bumps_made: {value}}}}}\n")
        result = _invoke("moves", "--variant", "standard", "--rule", "house/bump-points.yaml", "--state", pos,
                         "--format", "json")
        assert result.exit_code == 1 and "SR508" in result.output and "Traceback" not in result.output
        assert len(result.output) < 2000
    pos.write_text("players: [red, blue]\nturn: red\ncard: '1'\ncounters: {red: {bumps_made: 999999}}\n")
    result = _invoke("moves", "--variant", "standard", "--rule", "house/bump-points.yaml", "--state", pos,
                     "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)


# ---- grid effects -----------------------------------------------------------------------------------
@pytest.mark.parametrize("places, refused", [(1, False), (2, False), (3, True), (4, True)])
def test_a_grid_effect_has_a_work_bound(tmp_path, places, refused):
    """`place on empty` four times over grew past 2 GB at the first Jack; now SR303 at validation."""
    effect = " then ".join(["place on empty"] * places)
    path = _write(tmp_path, "grid.yaml", f"extends: sequence\ncards:\n  JD: {effect}\n")
    if refused:
        assert _codes(path) == ["SR303"]
        result = _invoke("validate", path)
        assert result.exit_code == 1 and "SR303" in result.output
    else:
        with time_limit(GUARD):
            load_game(str(path))


def test_a_grid_effect_on_the_largest_grid_is_bounded(tmp_path):
    side = limits.MAX_GRID_SIDE
    columns = [chr(ord("A") + i) for i in range(side)]
    rows = [str(i + 1) for i in range(side)]
    cells = "\n".join("    - [" + ", ".join(["c1"] * side) + "]" for _ in rows)
    path = _write(tmp_path, "big.yaml", f"""
extends: sequence
board:
  kind: grid
  columns: {json.dumps(columns)}
  rows: {json.dumps(rows)}
  free: "*"
  cells:
{cells}
  lines: {{length: 5}}
deck: {{c1: 8, j1: 8}}
cards: {{c1: place on card, j1: place on empty then remove other}}
""".replace("\n    - [", "\n    - ["))
    codes = _codes(path)
    # the error; beside it, a warning for each card of sequence's deck that no cell shows any more (SR515)
    assert codes[0] == "SR303" and set(codes[1:]) == {"SR515"}, codes


# ---- geometry ---------------------------------------------------------------------------------------
def _largest(card: str, geometry: dict) -> dict:
    colours = [f"c{i}" for i in range(limits.MAX_COLOURS)]
    return {"colours": colours, "players": {"min": 2, "max": len(colours)}, "pawns": 4,
            "board": {"side_length": limits.MAX_SIDE, "start_exit": 4, "safety_entry": 2, "safety_length": 5,
                      "slides": []},
            "deck": {"a": 4, "b": 4}, "cards": {"a": "enter", "b": card}, "geometry": geometry}


@pytest.mark.parametrize("turns", [False, True])
def test_route_tables_of_geometry_count_towards_the_table_limit(tmp_path, turns):
    """A 12-colour, 200-square board with a `pass: false` blocker and `forward 2451` validated,
    then a 20-ply game took 183 s (its route tables kept 2,451 squares per colour and square)."""
    geometry = {"blockers": {"wall": {"pawns": "opponent", "pass": False}}}
    if turns:
        geometry["turns"] = {"t": {"at": "safety_entry", "moving": "forward", "onto": "track"}}
    path = tmp_path / "wide.yaml"
    data = _largest("forward 2406", geometry)
    path.write_text("extends: standard\n" + "\n".join(f"{key}: {json.dumps(value)}" for key, value in data.items()) + "\n")
    with time_limit(GUARD):
        codes = _codes(path)
    assert set(codes) == {"SR303"}, codes  # the long move; with turns, the standard cards' tables too
    for command in (("validate", path), ("render", "--variant", path), ("explain", "--variant", path)):
        with time_limit(GUARD):
            result = _invoke(*command)
        assert result.exit_code == 1 and "SR303" in result.output
    if turns:
        return
    data["cards"]["b"] = "forward 12"  # a short move on the same board plays
    path.write_text("extends: standard\n" + "\n".join(f"{key}: {json.dumps(value)}" for key, value in data.items()) + "\n")
    game = load_game(str(path))
    state = game.new_game(1, players=12)
    with time_limit(GUARD):
        play_game(game, state, [make_player("random", 1, s) for s in range(12)], max_plies=15)


# ---- text -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", [
    'name: "x\\e]0;HACKED\\a"', 'description: "a\\x9bb"', 'colours: ["r\\eed", blue]',
    'scoring: {x: {kind: formula, for: every, label: "\\e[2J", points: "1"}}', '"ke\\ey": 1',
    'name: "\\u202eevil"', 'description: "a\u200bb"', 'marks: {ice: {label: "ice\u200f"}}', 'description: "\\uffff"',
    'description: "x\U000e0041"', 'description: "a\ufeffb"', 'description: "\u061c"',
])
def test_control_characters_in_texts_are_refused(tmp_path, field):
    """An escape sequence in `name:` retitled the terminal, and made the SVG ill-formed XML;
    an invisible mark (zero-width space, direction marks, a tag character, a byte order mark
    inside a text, a noncharacter) tells two texts apart that print alike (LIMITS.md)."""
    path = _write(tmp_path, "ctl.yaml", f"extends: standard\n{field}\n")
    result = _invoke("validate", "--format", "github", path)
    assert result.exit_code == 1 and "SR101" in result.output
    assert "\x1b" not in result.output and "\x9b" not in result.output and "\u202e" not in result.output


@pytest.mark.parametrize("field", ['name: "two\\nlines"', 'scoring: {x: {kind: formula, for: every, label: "a\\tb", '
                                   'points: "1"}}', 'description: "one\\u2028two"'])
def test_names_and_labels_are_one_line(tmp_path, field):
    path = _write(tmp_path, "lines.yaml", f"extends: standard\n{field}\n")
    assert _codes(path) == ["SR204"]


def test_every_picture_is_well_formed_for_any_text():
    from xml.etree import ElementTree

    from sorry_rules.pictures.svg import document, element

    hostile = "<&>\"'\x00\x1b\x7f\ud800\uffff]]>"
    svg = document(10, 10, [element("text", {"data-x": hostile}, hostile)], hostile, hostile)
    ElementTree.fromstring(svg)
    game = load_game("standard")
    from sorry_rules.pictures.boards import board_svg

    ElementTree.fromstring(board_svg(game))


# ---- positions --------------------------------------------------------------------------------------
def _moves(tmp_path, data: dict, *variant):
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(data))
    with time_limit(GUARD):
        return _invoke("moves", *variant, "--state", pos, "--format", "json")


@pytest.mark.parametrize("hand, code", [(["8"] * 100_000, "SR604"), (["8"] * 25, "SR604"), (["8"] * 5, "SR508")])
def test_a_hand_is_bounded_by_the_hand_limit_and_the_deck(tmp_path, hand, code):
    """A hand of 100,000 cards was accepted (quadratic with the mulligan overlay), and 25 eights
    where the deck has 4."""
    data = {"players": ["red", "blue"], "turn": "red", "hand": hand}
    result = _moves(tmp_path, data, "--variant", "points", "--rule", "house/mulligan-8.yaml")
    assert result.exit_code == 1 and code in result.output and "Traceback" not in result.output
    assert len(result.output) < 2000


@pytest.mark.parametrize("data, said", [
    ({"hand": ["1", "2", "3", "4", "5", "7"]}, "hand: 6 cards; a hand holds at most 5 (turn.hand_size) [SR604]"),
    ({"hand": ["1"], "card": "2"}, 'give "hand" or "card" (a hand of that one card), not both [SR604]'),
])
def test_a_hand_play_position_holds_a_hand_the_game_can_deal(tmp_path, data, said):
    """P3/P4: a player holds 5 cards while the pile lasts, so six is no position of the game;
    `card` beside `hand` is one or the other, not silently dropped."""
    result = _moves(tmp_path, {"players": ["red", "blue"], "turn": "red", **data}, "--variant", "points")
    assert result.exit_code == 1 and said in result.output, result.output
    one = _moves(tmp_path, {"players": ["red", "blue"], "turn": "red", "card": "1"}, "--variant", "points")
    assert one.exit_code == 0 and json.loads(one.stdout)["hand"] == ["1"], one.output


def test_a_position_seats_as_many_players_as_the_variant_is_played_by(tmp_path):
    result = _moves(tmp_path, {"players": ["red"], "turn": "red", "card": "5"})
    assert result.exit_code == 1 and "SR510" in result.output
    grid = {"players": ["blue"], "turn": "blue", "hand": ["4H"], "chips": {}}
    result = _moves(tmp_path, grid, "--variant", "sequence")
    assert result.exit_code == 1 and "SR510" in result.output


def test_a_position_already_won_is_refused(tmp_path):
    result = _moves(tmp_path, {"players": ["red", "blue"], "turn": "blue", "card": "5",
                               "pawns": {"red": ["home"] * 4}})
    assert result.exit_code == 1 and "SR608" in result.output
    from sorry_rules.compiler import load_game as load

    game = load("sequence")
    width = game.grid.width
    cells = [game.grid.name(row * width + col) for row in (1, 3, 5) for col in range(5)]
    grid = {"players": ["blue", "green"], "turn": "green", "hand": ["4H"], "chips": {"blue": cells}}
    result = _moves(tmp_path, grid, "--variant", "sequence")
    assert result.exit_code == 1 and "SR608" in result.output, result.output


def test_a_one_per_player_mark_is_placed_once_per_player(tmp_path):
    data = {"players": ["red", "blue"], "card": "5", "pawns": {"blue": ["track:20", "track:30"]},
            "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": "red"},
                                 {"colour": "blue", "square": "track:30", "by": "red"}]}}
    result = _moves(tmp_path, data, "--rule", "house/freeze.yaml")
    assert result.exit_code == 1 and "SR607" in result.output
    data["marks"]["frozen"][1]["by"] = "blue"
    data["pawns"]["red"] = ["track:50"]
    data["marks"]["frozen"][1].update(colour="red", square="track:50")
    assert _moves(tmp_path, data, "--rule", "house/freeze.yaml").exit_code == 0


# ---- turn policies and geometry analyses ------------------------------------------------------------
def test_hand_actions_that_could_offer_too_many_moves_are_refused(tmp_path):
    actions = ", ".join(f"a{i}: {{cards: ['1'], others: {{min: 0, max: 4}}}}" for i in range(12))
    path = _write(tmp_path, "actions.yaml", f"extends: points\nturn: {{source: hand, hand_size: 20, actions: {{{actions}}}}}\n")
    assert "SR303" in _codes(path)
    path.write_text(path.read_text().replace("hand_size: 20", "hand_size: 5"))
    load_game(str(path))


def test_a_forward_turn_that_makes_home_unreachable_fails_validation(tmp_path):
    path = _write(tmp_path, "turn.yaml", """
        extends: standard
        geometry:
          turns:
            skip_safety: {at: safety_entry, moving: forward, onto: track, must: true}
    """)
    result = _invoke("validate", path)
    assert result.exit_code == 1 and "SR509" in result.output and "geometry.turns" in result.output
    path.write_text(path.read_text().replace("must: true", "must: false"))
    assert _invoke("validate", path).exit_code == 0


def test_an_empty_layer_is_an_empty_overlay():
    """Fuzzing (counters): an in-memory layer of no data failed an assertion in the loader."""
    from sorry_rules.rules.loader import load_variant
    from sorry_rules.rules.yamlsafe import load_yaml

    assert load_variant("standard", layers=[load_yaml("", "empty.yaml")]).variant.name == "standard"
    with pytest.raises(RuleFileError) as caught:
        load_variant("standard", layers=[load_yaml("[1, 2]", "list.yaml")])
    assert [p.code for p in caught.value.problems] == ["SR203"]
