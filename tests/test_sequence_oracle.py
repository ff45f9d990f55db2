"""`sorry-play moves --variant sequence`: the oracle contract of docs/SEQUENCE.md section 5,
and bad positions rejected with located, coded problems and exit code 1."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main

EXAMPLE = {"players": ["blue", "green"], "turn": "blue", "hand": ["4H", "JD", "JS", "7H", "KD", "2C", "QS"],
           "chips": {"blue": ["E5", "F5"], "green": ["D4"]}, "exchanged": False}


def moves(tmp_path, position, *extra):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position, indent=1), encoding="utf-8")
    return CliRunner().invoke(main, ["moves", "--variant", "sequence", "--state", str(path), *extra])


def report(tmp_path, position):
    result = moves(tmp_path, position, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_example_position_answers_in_the_contract_shape(tmp_path):
    answer = report(tmp_path, EXAMPLE)
    assert set(answer) == {"turn", "moves", "forfeit"} and answer["turn"] == "blue" and not answer["forfeit"]
    assert all(set(m) == {"text", "card", "kind", "result", "winner"} for m in answer["moves"])
    by_card: dict = {}
    for m in answer["moves"]:
        by_card.setdefault((m["card"], m["kind"]), []).append(m)
    # S7: 4H on I8 only (F5 is blue's); 7H on D6 and I5; JD on every empty cell; JS on D4 only
    assert [m["result"]["blue"] for m in by_card[("4H", "place")]] == [["E5", "F5", "I8"]]
    assert sorted(m["result"]["blue"] for m in by_card[("7H", "place")]) == [["E5", "F5", "D6"], ["E5", "F5", "I5"]]  # cells in board order
    assert len(by_card[("JD", "place")]) == 100 - 4 - 3
    assert [m["result"] for m in by_card[("JS", "remove")]] == [{"blue": ["E5", "F5"], "green": []}]
    assert all(m["winner"] is None for m in answer["moves"])
    assert len(answer["moves"]) == 1 + 2 + 2 + 2 + 2 + 93 + 1  # 4H, 7H, KD, 2C, QS, JD, JS


def test_the_same_result_with_two_cards_is_two_moves_and_one_card_twice_is_one(tmp_path):
    """Section 5: JD and 4H both reach F5; two 4H copies reach it once."""
    answer = report(tmp_path, {"players": ["blue", "green"], "hand": ["4H", "4H", "JD"], "chips": {"green": ["I8"]}})
    on_f5 = [m["card"] for m in answer["moves"] if m["result"]["blue"] == ["F5"]]
    assert sorted(on_f5) == ["4H", "JD"]


def test_a_winning_move_names_the_winner(tmp_path):
    """S13 with three sides: one sequence wins."""
    position = {"players": ["blue", "green", "red"], "turn": "green", "hand": ["QC"],
                "chips": {"green": ["B7", "C7", "D7", "E7"]}}
    answer = report(tmp_path, position)
    placed = {(set(m["result"]["green"]) - set(position["chips"]["green"])).pop(): m["winner"] for m in answer["moves"]}
    assert placed == {"A7": "green", "D8": None}


def test_dead_cards_are_exchanges_until_one_was_made(tmp_path):
    """S6, S12: both 4H cells covered."""
    position = {"players": ["blue", "green"], "hand": ["4H"], "chips": {"blue": ["F5"], "green": ["I8"]}}
    answer = report(tmp_path, position)
    assert [(m["kind"], m["card"], m["result"]) for m in answer["moves"]] == [
        ("exchange", "4H", {"blue": ["F5"], "green": ["I8"]})]
    assert report(tmp_path, {**position, "exchanged": True}) == {"turn": "blue", "moves": [], "forfeit": True}


def test_text_format(tmp_path):
    result = moves(tmp_path, {"players": ["blue", "green"], "hand": ["JS"], "chips": {"green": ["D4"]}})
    assert result.exit_code == 0
    assert result.output.splitlines() == ["blue to play:", "   1. blue removes green's chip from D4 with JS"]


@pytest.mark.parametrize("position, problems", [
    ({**EXAMPLE, "chips": {"blue": ["K3"]}}, ["'K3' is not a cell of the board", "[SR601]"]),
    ({**EXAMPLE, "chips": {"blue": ["J10"]}}, ["J10 is a free cell", "[SR601]"]),
    ({**EXAMPLE, "chips": {"blue": ["E5"], "green": ["E5"]}}, ["a blue and a green chip on E5", "[SR602]"]),
    ({**EXAMPLE, "chips": {"blue": ["E5", "E5"]}}, ["two chips on E5", "[SR602]"]),
    ({**EXAMPLE, "hand": ["4H", "4H", "4H"]}, ["3 copies of 4H, the deck has 2", "[SR508]"]),
    ({**EXAMPLE, "hand": ["4X"]}, ["unknown card '4X'", "[SR502]"]),
    ({**EXAMPLE, "chips": {"red": ["E5"]}}, ["'red' is not one of the players", "[SR603]"]),
    ({**EXAMPLE, "turn": "red"}, ["'red' is not one of the players", "[SR603]"]),
    ({**EXAMPLE, "players": ["blue", "pink"]}, ["unknown colour 'pink'", "[SR501]"]),
    ({**EXAMPLE, "exchanged": "no"}, ["exchanged", "[SR203]"]),
    ({key: value for key, value in EXAMPLE.items() if key != "hand"}, ['give "hand"', "[SR604]"]),  # [] is S8's
])
def test_bad_positions_are_located_coded_and_exit_1(tmp_path, position, problems):
    result = moves(tmp_path, position)
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if problems[-1] in line)
    assert line.startswith(str(tmp_path / "pos.json") + ":")
    assert all(p in line for p in problems), line


def test_a_field_of_the_wrong_type_does_not_hide_the_other_problems(tmp_path):
    """Every problem of a grid position at once (REFERENCE section 6): `exchanged` written as
    text is reported beside the unknown card and the chip on a free cell."""
    result = moves(tmp_path, {**EXAMPLE, "hand": ["4H", "ZZ"], "chips": {"blue": ["A1"]}, "exchanged": "no"})
    assert result.exit_code == 1
    codes = [line.rsplit("[", 1)[-1].rstrip("]") for line in result.output.splitlines() if "[SR" in line]
    assert sorted(codes) == ["SR203", "SR502", "SR601"], result.output


def test_a_hand_larger_than_any_seating_deals_is_refused(tmp_path):
    """S4: no seating deals more than 7 cards; an eighth is no position of the game (the
    bound was the 20 any hand may hold)."""
    result = moves(tmp_path, {**EXAMPLE, "hand": EXAMPLE["hand"] + ["2S"]})
    assert result.exit_code == 1 and "hand: 8 cards; a hand holds at most 7" in result.output, result.output
    assert moves(tmp_path, EXAMPLE).exit_code == 0


def test_a_hand_larger_than_the_deal_to_that_many_colours_is_refused(tmp_path):
    """S4: three sides are dealt 6 cards (two sides 7): seven cards in a three-colour
    position is no position of the game."""
    three = {**EXAMPLE, "players": ["blue", "green", "red"], "hand": ["QS", "KS", "2S", "3S", "4S", "5S", "6S"]}
    result = moves(tmp_path, three)
    assert result.exit_code == 1, result.output
    assert "hand: 7 cards; a hand holds at most 6 (the deal to 3 colours" in result.output
    assert moves(tmp_path, {**three, "hand": three["hand"][:6]}).exit_code == 0


THEN_GRID = """name: then-grid
colours: [red, blue]
players: {min: 2, max: 2}
seating: {"2": [red, blue]}
pawns: 1
board:
  kind: grid
  columns: [A, B, C]
  rows: ["1"]
  cells: [[a, b, c]]
  lines: {length: 2, directions: [row], shared: 1}
deck: {a: 2, b: 2, c: 2, zap: 2}
cards:
  a: place on card then remove opponent
  b: place on card
  c: place on card
  zap: remove opponent then place on empty
turn: {source: hand, hand_size: 3, exchange: dead}
win: "sequences(team) >= 2"
"""


def test_then_on_a_grid_plays_its_second_part_where_the_first_has_no_outcome(tmp_path):
    """`A then B` (REFERENCE section 2.1): where B has no outcome A's alone, where A has none
    B's, on a grid as on a track: with no opponent chip, `zap` places on every empty cell and
    is no dead card (S12)."""
    rule = tmp_path / "then.yaml"
    rule.write_text(THEN_GRID, encoding="utf-8")
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"players": ["red", "blue"], "turn": "red", "hand": ["zap", "a"], "chips": {}}))
    result = CliRunner().invoke(main, ["moves", "--variant", str(rule), "--state", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert sorted((m["kind"], m["card"], m["result"]["red"][0]) for m in json.loads(result.output)["moves"]) == [
        ("place", "a", "A1"), ("place", "zap", "A1"), ("place", "zap", "B1"), ("place", "zap", "C1")]


def test_both_plays_a_grid_card_whole_or_not_at_all(tmp_path, monkeypatch):
    """REFERENCE `both (A then B)` on a grid board: a card that places a chip and removes one
    of the opponent's is played only where both happen (a lenient `then` places the chip alone
    where nothing can be removed)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "strict.yaml").write_text('extends: sequence\ncards:\n  JD: "both (place on empty then remove opponent '
                                          'unprotected)"\n', encoding="utf-8")
    path = tmp_path / "pos.json"

    def placed(chips) -> list:
        position = {"players": ["blue", "green"], "turn": "blue", "hand": ["JD"], "chips": chips}
        path.write_text(json.dumps(position), encoding="utf-8")
        result = CliRunner().invoke(main, ["moves", "--variant", "strict.yaml", "--state", str(path), "--format", "json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["moves"]

    assert [m["kind"] for m in placed({"blue": ["E5"]})] == ["exchange"]  # no green chip to remove: the card has no play
    both = placed({"green": ["D4"]})
    assert len(both) == 100 - 4 - 1 and all(m["result"]["green"] == [] and len(m["result"]["blue"]) == 1 for m in both)
