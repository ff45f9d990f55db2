"""`sorry-play moves` on positions of the race games: several pawns on a square, blockades,
full named squares, throws written in any order, and `--why` naming the rule that stops a
pawn (docs/LUDO.md, docs/PARCHEESI.md)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sorry_rules.cli.app import main


def _moves(tmp_path, variant: str, position: dict, *args: str):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    return CliRunner().invoke(main, ["moves", "--variant", variant, "--state", str(path), *args])


def test_two_pawns_on_a_square_move_as_one_result_and_land_together(tmp_path):
    """Ludo: red's two tokens on its start square give one result for a 4 (alike tokens,
    one result); the token on 10 captures green's lone token on 14; green and yellow share
    the star on 3."""
    position = {"players": ["red", "green", "yellow", "blue"], "turn": "red", "card": "4",
                "pawns": {"red": ["track:8", "track:8", "track:10", "start"], "green": ["track:14", "track:3"],
                          "yellow": ["track:3"]}}
    result = _moves(tmp_path, "ludo", position, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    placements = sorted(sorted(move["result"]["red"]) for move in report["moves"])
    assert placements == [["start", "track:10", "track:12", "track:8"], ["start", "track:14", "track:8", "track:8"]]
    bump = next(move for move in report["moves"] if "track:14" in move["result"]["red"])
    assert bump["result"]["green"].count("start") == 3 and bump["result"]["green"].count("track:3") == 1


def test_why_names_the_blockade_that_stops_a_pawn(tmp_path):
    position = {"players": ["yellow", "blue", "red", "green"], "turn": "yellow", "card": "3+4",
                "pawns": {"yellow": ["track:20", "track:4", "track:4", "start"], "blue": ["track:22", "track:22"],
                          "red": ["track:27"]}}
    result = _moves(tmp_path, "parcheesi", position, "--why")
    assert result.exit_code == 0, result.output
    assert "yellow pawn track:20:" in result.stdout
    assert "would pass the opponent pawns (blue) standing together on track:22, which may not be passed" in result.stdout
    assert "die by die (3: forward 3 ; 4: forward 4)" in result.stdout
    assert "die 3 cannot start a pawn" in result.stdout


def test_why_names_the_whole_throw_rule_that_would_enter(tmp_path):
    """PA6: 2+3 may enter a pawn on the total of five (`turn.whole`); blue's blockade on red's
    entry square stops it (PA9), and `--why` says so beside the dice that cannot enter."""
    position = {"players": ["red", "blue"], "turn": "red", "card": "2+3",
                "pawns": {"red": ["start"] * 4, "blue": ["start", "start", "track:46", "track:46"]}}
    result = _moves(tmp_path, "parcheesi", position, "--why")
    assert result.exit_code == 0, result.output
    assert "die 2 cannot start a pawn" in result.stdout and "die 3 cannot start a pawn" in result.stdout
    assert "a total of 5: enter: the opponent pawns (blue) standing together on track:46 may not be landed on" in result.stdout
    entered = _moves(tmp_path, "parcheesi", {**position, "pawns": {"red": ["start"] * 4}}, "--why")
    assert "Red pawn start -> track:46" in entered.stdout, entered.output


def test_why_traces_each_move_of_a_throw_to_the_dice_or_to_the_whole_total(tmp_path):
    """PA5/PA6: with 2+3 yellow moves a pawn 2 then 3 die by die, or enters a pawn on the
    total of five: `--why` gives each move its own rule (turn.dice, or turn.whole's line)."""
    position = {"players": ["yellow", "red"], "turn": "yellow", "card": "2+3",
                "pawns": {"yellow": ["track:0"], "red": ["track:40"]}}
    result = _moves(tmp_path, "parcheesi", position, "--why", "--format", "json")
    assert result.exit_code == 0, result.output
    whys = {tuple(move["result"]["yellow"]): move["why"] for move in json.loads(result.stdout)["moves"]}
    [entered] = [why for placement, why in whys.items() if "track:12" in placement]
    [moved] = [why for placement, why in whys.items() if "track:5" in placement]
    assert [(w["where"].split(":")[0], w["text"]) for w in entered] == [("parcheesi.yaml", "whole 5: enter")]
    assert [(w["where"], w["text"]) for w in moved] == [("turn.dice", "die by die (2: forward 2 ; 3: forward 3)")]


def test_why_names_a_full_square_and_the_throw_is_lost_with_its_consequence(tmp_path):
    """Red and green share the safety space 25 (two pawns, all it holds): yellow's 3+3 cannot
    land there, nothing else moves, the throw is lost and the doubles still throw again."""
    position = {"players": ["yellow", "blue", "red", "green"], "turn": "yellow", "card": "3+3",
                "pawns": {"yellow": ["track:22", "home", "home", "home"], "red": ["track:25"],
                          "green": ["track:25", "track:36"]}}
    result = _moves(tmp_path, "parcheesi", position, "--why")
    assert result.exit_code == 0, result.output
    assert "no legal move: the throw is lost" in result.stdout
    assert "after: PA7: doubles throw again" in result.stdout and "extra throws: 1" in result.stdout
    assert "forward 3: track:25 already holds 2 pawns, as many as it may" in result.stdout


def test_a_lost_six_is_said_to_throw_again(tmp_path):
    """TR7: a 6 throws again even when no peg can use it (every red peg is fewer than six
    steps from Home): the report says it throws again, not that it draws."""
    position = {"players": ["red", "green"], "turn": "red", "card": "6",
                "pawns": {"red": ["track:0", "safety:1", "safety:2", "safety:3"], "green": ["track:5"]}}
    result = _moves(tmp_path, "trouble", position)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == ["  no legal move: the throw is lost (then throws again)"]


def test_a_throw_may_be_written_in_any_order_and_a_wrong_one_is_named(tmp_path):
    position = {"players": ["yellow", "blue"], "turn": "yellow", "card": "4+1", "pawns": {"yellow": ["track:20"]}}
    result = _moves(tmp_path, "parcheesi", position)
    assert result.exit_code == 0 and result.stdout.startswith("yellow to play, throw 1+4:"), result.output
    wrong = _moves(tmp_path, "parcheesi", position, "--card", "6+9")
    assert wrong.exit_code == 2 and "unknown card '6+9'" in wrong.output and "Traceback" not in wrong.output
    position["card"] = "7"
    bad = _moves(tmp_path, "parcheesi", position)
    assert bad.exit_code == 1 and "[SR502]" in bad.output and "position.json:1:" in bad.output


def test_colours_together_only_on_a_square_they_may_share(tmp_path):
    position = {"players": ["red", "green"], "turn": "red", "card": "4",
                "pawns": {"red": ["track:14"], "green": ["track:14"]}}
    result = _moves(tmp_path, "ludo", position)
    assert result.exit_code == 1 and "[SR602]" in result.output and "board.squares" in result.output


def test_a_position_with_more_pegs_in_a_home_than_it_holds_is_refused(tmp_path):
    """TR11: Trouble's Home (the fourth finish space) holds one peg; a position with two there
    is a located error (SR602), as two pegs on one track square are."""
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"players": ["red", "blue"], "turn": "red", "card": "3",
                                "pawns": {"red": ["home", "home", "start", "start"]}}))
    result = CliRunner().invoke(main, ["moves", "--variant", "trouble", "--state", str(path)])
    assert result.exit_code == 1 and "two pawns on home (a Home holds one pawn) [SR602]" in result.output
    path.write_text(json.dumps({"players": ["red", "blue"], "turn": "red", "card": "3",
                                "pawns": {"red": ["home", "home", "start", "start"]}}))
    ludo = CliRunner().invoke(main, ["moves", "--variant", "ludo", "--state", str(path)])
    assert ludo.exit_code == 0  # a Ludo Home holds every token


def test_a_third_six_lost_is_said_as_the_rule_that_loses_it():
    """LU13: a third six in a row moves nothing; the play screen's 'Why' (judged on the state
    before the throw) names that rule, not "the same result as a listed move"."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import stuck_reasons
    from sorry_rules.records.position import parse_position

    explained = load_explained("ludo")
    game = explained.game
    position = parse_position(game, {"players": ["yellow", "red"], "turn": "yellow", "card": "6",
                                     "pawns": {"yellow": ["track:34"]}, "counters": {"yellow": {"sixes": 2}}})
    before = position.state._replace(card=None)
    reasons = stuck_reasons(game, explained.rules, before, (game.card_index["6"],))
    assert reasons and all("LU13" in reason for reason in reasons), reasons
    # one reason for every pawn it stops, said once with where they stand
    assert reasons == ["yellow pawns in start and on track:34: its moves are not allowed (LU13: a third six in a row is "
                       "lost)"]


def test_a_dice_game_is_worded_in_throws_and_dice(tmp_path):
    """LU6: a throw with no token out is thrown again: the text speaks of throws and dice, not
    of cards drawn or discarded."""
    position = {"players": ["red", "green"], "turn": "red", "card": "3", "pawns": {"red": []}}
    text = _moves(tmp_path, "ludo", position, "--why").stdout
    assert "red to play, throw 3; 0 extra throws (turn.redraw) already this turn:" in text.lower()
    assert "throw lost: 3" in text and "next: red (1 extra throw this turn)" in text and "(throw 3)" in text
    assert "card" not in text and "discards" not in text
    six = _moves(tmp_path, "ludo", dict(position, card="6"), "--why").stdout
    assert "from die 6, option 1: enter" in six
    out = _moves(tmp_path, "ludo", dict(position, pawns={"red": ["track:5"]})).stdout  # no throw again can follow
    assert "red to play, throw 3:" in out.lower() and "turn.redraw" not in out
