"""Dice as a turn's source (docs/REFERENCE.md `turn:`, "Dice"; `engine.dice`): the bag of
outcomes, throws drawn with replacement and measured uniform, no pile and no discards, throws
of several dice spent die by die (every order, as many dice as can be used) or whole, and the
checks of a dice turn. What a throw allows in the bundled games is shown by the scenarios in
tests/scenarios/ludo, trouble and parcheesi; these tests use tests/rules/two-dice.yaml."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from click.testing import CliRunner

from sorry_rules.base.errors import RuleFileError
from sorry_rules.cli.app import main
from sorry_rules.compiler import compile_variant, load_game
from sorry_rules.engine.dice import outcomes
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, play_game, replay
from sorry_rules.records.position import parse_position
from sorry_rules.rules.loader import load_variant

from .invariants import check_state

TWO_DICE = str(Path(__file__).parent / "rules" / "two-dice.yaml")


@pytest.fixture(scope="module")
def game():
    return load_game(TWO_DICE)


def test_the_bag_holds_every_ordered_outcome_once():
    dice = outcomes(2, (1, 2, 3, 4, 5, 6))
    assert len(dice.bag) == 36 and len(dice.throws) == 21
    assert dice.names[dice.throws.index((3, 5))] == "3+5"
    by_throw = Counter(dice.bag)
    assert by_throw[dice.throws.index((3, 5))] == 2 and by_throw[dice.throws.index((6, 6))] == 1
    first = Counter(dice.throws[t][0] if dice.throws[t].count(dice.throws[t][0]) == 2 else None for t in dice.bag)
    assert first[6] == 1  # one outcome in 36 shows two sixes


def _chi_square(counts: Counter, faces, n: int) -> float:
    expected = n / len(faces)
    return sum((counts[f] - expected) ** 2 / expected for f in faces)


def test_faces_thrown_are_uniform(game):
    """6,000 throws of the seeded table: the faces of both dice are uniform (a chi-square far
    below the 0.1% bound of 5 degrees of freedom, 20.5) and doubles come one time in six."""
    table = game.table(game.new_game(11, players=2))
    faces: Counter = Counter()
    doubles = 0
    n = 6000
    for _ in range(n):
        throw = game.dice.throws[table.take()]
        faces.update(throw)
        doubles += len(throw) == 2 and throw[0] == throw[1]
    assert sum(faces.values()) == 2 * n
    assert _chi_square(faces, (1, 2, 3, 4, 5, 6), 2 * n) < 20.5
    assert abs(doubles / n - 1 / 6) < 4 * math.sqrt((1 / 6) * (5 / 6) / n)


COWRIES = ("extends: ludo\nname: cowries\nturn:\n  faces: [1, 2, 3, 4, 5, 6]\n  weights: [{weights}]\n")


def test_weighted_faces_put_each_outcome_in_the_bag_as_often_as_its_weights_multiplied():
    dice = outcomes(2, (1, 2, 3), (1, 2, 3))
    assert len(dice.bag) == 36 and dice.weights == (1, 2, 3)
    by_throw = Counter(dice.bag)
    assert by_throw[dice.throws.index((1, 1))] == 1 and by_throw[dice.throws.index((3, 3))] == 9
    assert by_throw[dice.throws.index((2, 3))] == 2 * (2 * 3)   # 2 then 3, and 3 then 2
    assert outcomes(2, (1, 2, 3), (1, 1, 1)).bag == outcomes(2, (1, 2, 3)).bag  # equal weights: the plain bag


def test_weighted_faces_are_thrown_as_often_as_their_weights_say(tmp_path):
    """Six cowrie shells counted by the mouths up (weights 1, 6, 15, 20, 15, 7 of 64): 6,400
    throws of the seeded table follow the weights (a chi-square below the 0.1% bound of 5
    degrees of freedom, 20.5), where equal faces would be far off; the game plays to the end."""
    path = tmp_path / "cowries.yaml"
    path.write_text(COWRIES.format(weights="1, 6, 15, 20, 15, 7"))
    game = load_game(str(path), ())
    weights = dict(zip(("1", "2", "3", "4", "5", "6"), (1, 6, 15, 20, 15, 7)))
    table = game.table(game.new_game(4, players=2))
    n = 6400
    thrown = Counter(game.card_names[table.take()] for _ in range(n))
    expected = {face: n * w / 64 for face, w in weights.items()}
    assert sum((thrown[f] - e) ** 2 / e for f, e in expected.items()) < 20.5
    assert sum((thrown[f] - n / 6) ** 2 / (n / 6) for f in weights) > 1000
    final = play_game(game, game.new_game(4, players=2), [RandomPlayer(4, i) for i in range(2)])
    assert final.winner is not None
    check_state(game, final)


def test_the_checks_of_weights(tmp_path):
    """One weight a face (SR508 at turn.weights); the outcomes of the dice bounded (SR204);
    a weight of 0 or above the limit refused by the schema, a weight that is no whole number
    said alone (not also as a weight too few); explain gives each face's chance."""
    path = tmp_path / "cowries.yaml"
    for weights, code in (("1, 2", "SR508"), ("1000, 1000, 1000, 1000, 1000, 1000", "SR204"), ("0, 1, 1, 1, 1, 1", "SR204"),
                          ("1001, 1, 1, 1, 1, 1", "SR204")):
        path.write_text(COWRIES.format(weights=weights))
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert result.exit_code == 1 and f"[{code}]" in result.output and f"{path}:5:" in result.output, result.output
    path.write_text(COWRIES.format(weights="1.5, \"x\", 1, 1, 1, 1"))   # the wrong items only: six weights are written
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.output.count("[SR203]") == 2 and "SR508" not in result.output, result.output
    path.write_text(COWRIES.format(weights="1, 6, 15, 20, 15, 7"))
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0
    explained = " ".join(CliRunner().invoke(main, ["explain", "--variant", str(path)]).output.split())
    assert "(faces 1 at 1/64, 2 at 6/64, 3 at 15/64, 4 at 20/64, 5 at 15/64, 6 at 7/64)" in explained


def test_a_dice_game_has_no_pile_and_keeps_no_discards(game):
    state = game.new_game(5, players=4)
    assert state.pile == () and state.discard == ()
    final = play_game(game, state, [RandomPlayer(5, i) for i in range(4)], max_plies=400)
    assert final.pile == () and final.discard == () and final.plies > 0
    check_state(game, final)


def test_seeded_games_replay_and_keep_every_invariant(game):
    for seed in range(6):
        state = game.new_game(seed, players=2 + seed % 3)
        record = GameRecord(seed, state.seats, state.turn)
        final = play_game(game, state, [RandomPlayer(seed, i) for i in range(len(state.seats))], record=record)
        check_state(game, final)
        assert final.winner is not None
        assert replay(game, state, record.choices) == final


def _results(game, pawns: dict, card: str, players=("red", "blue")) -> set:
    position = parse_position(game, {"players": list(players), "turn": players[0], "card": card, "pawns": pawns})
    return {tuple(m.placement) for m in game.legal_moves(position.state) if m.kind == "move"}


def _placement(game, pawns: dict, players=("red", "blue")) -> tuple:
    position = parse_position(game, {"players": list(players), "turn": players[0], "card": "1+1", "pawns": pawns})
    return position.state.placement


def test_die_by_die_in_either_order_and_the_whole_total(game):
    """2+3 with red on 3, blue on 6: 2 then 3 (5, a safe square, then 8), 3 then 2 (captures
    blue on 6, then 8), the two dice on two pawns need a second red pawn: none; the whole 5
    enters a pawn."""
    found = _results(game, {"red": ["track:3", "start", "start"], "blue": ["track:6"]}, "2+3")
    assert found == {
        _placement(game, {"red": ["track:8", "start", "start"], "blue": ["track:6"]}),
        _placement(game, {"red": ["track:8", "start", "start"], "blue": ["start"]}),
        _placement(game, {"red": ["track:2", "track:3", "start"], "blue": ["track:6"]}),
    }


def test_as_many_dice_as_can_be_used(game):
    """Red on safety:2 may use only a 1 (then Home); with 1+6 and a pawn on the track, the 1
    may go to either pawn but both dice must be used: the 6 can only move the track pawn."""
    red = {"red": ["safety:2", "track:11", "start"], "blue": ["track:30"]}
    found = _results(game, red, "1+6")
    assert found == {
        _placement(game, {"red": ["safety:3", "track:17", "start"], "blue": ["track:30"]}),
        _placement(game, {"red": ["safety:2", "track:18", "start"], "blue": ["track:30"]}),
    }
    # a 6 that no pawn can use: the 1 alone is played, either pawn
    stuck = {"red": ["safety:2", "track:8", "start"], "blue": ["track:12", "track:12"]}  # blue's blockade on 12
    found = _results(game, stuck, "1+6")
    assert found == {
        _placement(game, {"red": ["safety:3", "track:8", "start"], "blue": ["track:12", "track:12"]}),
        _placement(game, {"red": ["safety:2", "track:9", "start"], "blue": ["track:12", "track:12"]}),
    }


def test_doubles_are_tried_once_per_order(game):
    """3+3 on one pawn: both dice on it (3 then 3), or one on each of two pawns."""
    found = _results(game, {"red": ["track:11", "track:21", "start"]}, "3+3", players=("red", "blue"))
    assert found == {
        _placement(game, {"red": ["track:17", "track:21", "start"]}),
        _placement(game, {"red": ["track:14", "track:24", "start"]}),
        _placement(game, {"red": ["track:11", "track:27", "start"]}),
    }


def _problems(tmp_path, text: str) -> list:
    path = tmp_path / "dice.yaml"
    path.write_text(text)
    with pytest.raises(RuleFileError) as error:
        compile_variant(load_variant(str(path)))
    return sorted((p.code, p.message.split(":")[0]) for p in error.value.problems)


def test_the_checks_of_a_dice_turn(tmp_path):
    base = Path(TWO_DICE).read_text()
    codes = [code for code, _ in _problems(tmp_path, base.replace('  "6": forward 6\n', '  "9": forward 9\n')
                                           + "deck: {\"1\": 1}\n")]
    assert codes == ["SR503", "SR504", "SR513"]
    codes = [code for code, _ in _problems(tmp_path, base.replace('whole: {"5": enter}', 'whole: {"13": enter}'))]
    assert codes == ["SR508"]
    for written in ('"05"', "05"):  # the total 5 written otherwise would never be looked up: refused, not lost
        problems = _problems(tmp_path, base.replace('whole: {"5": enter}', f'whole: {{{written}: enter}}'))
        assert problems == [("SR508", "turn.whole")]


def test_a_throw_too_costly_to_spend_die_by_die_is_refused_at_turn_dice(tmp_path):
    """Three dice each showing a face whose effect has hundreds of ways: every order of the
    dice after every way of the others is beyond the work bound (SR303, at turn.dice), while
    the same faces on one die are fine."""
    text = ("extends: ludo\nturn:\n  source: dice\n  dice: {dice}\n  faces: [1, 2, 3, 4, 5, 6]\n"
            "cards:\n  \"6\": enter | split 10 among 3\n")
    path = tmp_path / "three.yaml"
    path.write_text(text.format(dice=3))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "[SR303]" in result.output and f"{path}:4:" in result.output, result.output
    with pytest.raises(RuleFileError, match="SR303"):
        load_game(str(path), ())
    path.write_text(text.format(dice=1))
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_a_forfeit_whose_consequence_brings_the_last_pawn_home_wins(tmp_path):
    """A throw with no move is lost, but a consequence that follows forfeits moves a pawn
    (after: then:): when it brings the last pawn Home the game is won there."""
    path = tmp_path / "push.yaml"
    path.write_text("extends: ludo\nafter:\n  push:\n    forfeits: true\n    cards: [\"2\"]\n    then: forward 1\n")
    game = load_game(str(path), ())
    data = {"players": ["red", "green"], "turn": "red", "card": "2",
            "pawns": {"red": ["safety:5", "home", "home", "home"], "green": ["track:22"]}}
    state = parse_position(game, data).state
    moves = game.legal_moves(state)
    assert [m.kind for m in moves] == ["forfeit"] and moves[0].events
    after = game.apply(state, moves[0])
    assert after.winner == 0 and after.placement[0].count(game.layout.home[0]) == 4
    check_state(game, after)
