"""Engine bugs found by fuzzing (tests/test_fuzz.py), each kept as a regression test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.position import Position
from sorry_rules.rules.yamlsafe import load_yaml

from .invariants import check_moves
from .randomplay import play_random

RULES = Path(__file__).parent / "rules"


def _game(**overlay):
    return load_game("standard", layers=[load_yaml(json.dumps(overlay), "overlay.yaml")])


def _position(game, squares, card):
    """Red to play `card` with red pawns on `squares` (track numbers), the rest in Start."""
    layout = game.layout
    red = tuple(sorted(list(squares) + [layout.start[0]] * (game.pawns - len(squares))))
    blue = (layout.start[1],) * game.pawns
    return game.position((red, blue, (), ()), (0, 1), 0, card=game.card_index[card])


def test_a24_one_move_per_result_even_when_an_alternative_ends_with_pass():
    """A24: `forward 1 | (forward 1) then pass` moves the same pawn to the same square
    twice; the flag that `then pass` adds means nothing on a move that moves, so it is one
    move. (Found by fuzzing: the engine deduplicated by the outcome's flags and offered two
    identical moves, which also skews random players.)"""
    game = _game(cards={"1": "forward 1 | (forward 1) then pass"})
    state = _position(game, [10], "1")
    moves = game.legal_moves(state)
    check_moves(game, state, moves)
    assert len(moves) == 1 and moves[0].kind == "move" and not moves[0].draw_again
    assert moves[0].placement[0][0] == 11


def test_a24_moves_differing_in_draw_again_stay_distinct():
    """The dedup keeps what a move carries: the same square with and without a draw again
    are two different moves."""
    game = _game(cards={"1": "forward 1 | (forward 1) then draw_again"})
    moves = game.legal_moves(_position(game, [10], "1"))
    assert sorted(m.draw_again for m in moves) == [False, True]


def test_r35_a_win_condition_that_holds_from_the_start_ends_the_game_at_the_first_move():
    """R35 "the game ends at once": the win condition is checked after every move, a forfeit
    too (a Move of kind forfeit). A condition that counts only Home and pawns is checked only
    when a pawn reaches Home (an optimisation), which missed conditions true from the start
    such as `home(player) < 1`, and then a forfeit that changed nothing. (Found by fuzzing
    generated win conditions, then from outside.)"""
    for win in ("true", "home(player) < 1", "not (home(opponents) > 0)"):
        game = _game(win=win)
        assert game.win_on_home_only  # the optimised path is the one under test
        firsts = set()
        for seed in range(5, 15):
            played = play_random(game, seed, 2)
            assert played.final.plies == 1 and played.final.winner is not None, (win, seed)
            firsts.add(_kinds(game, played)[0])
        assert firsts == {"move", "forfeit"}, firsts  # the seeds begin with both


def test_the_optimised_win_check_still_waits_for_home():
    """The usual condition is still checked only when a pawn reaches Home, and gives the
    same games as before."""
    game = load_game("standard")
    seats = (0, 1)
    setup = game.view(game.initial_placement(seats))
    assert game.win_on_home_only and not any(game.win(c, setup, None) for c in seats)
    played = play_random(game, 5, 2)
    winner = played.final.seats[played.final.winner]
    assert played.final.placement[winner].count(game.layout.home[winner]) == game.pawns


def _kinds(game, played):
    state, kinds = played.start, []
    for choice in played.choices:
        if game.needs_draw(state):
            state = game.draw(state)
        move = game.legal_moves(state)[choice]
        kinds.append(move.kind)
        state = game.apply(state, move)
    return kinds


def test_r35_a_winning_bump_lists_its_points_but_no_extra_card():
    """R35 with H21 and H22: a winning 7 split that bumps scores H22's point, and H21's extra
    card, which the game never gives, is not listed among what follows the move."""
    from sorry_rules.authoring.oracle import moves_report
    from sorry_rules.records.position import parse_position

    game = load_game("standard", ["house/quick-game.yaml", "house/bump-points.yaml", "house/bump-bonus.yaml"])
    position = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "7",
                                     "pawns": {"red": ["safety:3", "home", "track:11", "start"], "blue": ["track:15"]}})
    wins = [move for move in moves_report(game, position)["moves"] if move.get("wins")]
    assert wins and all(move["extra_cards"] == 0 for move in wins)
    bumping = [move for move in wins if "bumps" in move["text"]]
    assert bumping and all(move["after"] == ["H22: a point per opponent pawn bumped"] for move in bumping)


def test_why_names_the_hand_actions_a_filter_removed():
    """H17 over H23 in play for points: a bump is possible, so the mulligans are filtered out
    like the other plays that bump no one, and `moves --why` lists them among what the filter
    removed (it listed the card moves only)."""
    from sorry_rules.records.position import parse_position

    game = load_game("points", ["house/mulligan-8.yaml", "house/must-bump.yaml"])
    state = parse_position(game, {"players": ["red", "blue"], "turn": "red", "hand": ["8", "5", "4", "3", "12"],
                                  "pawns": {"red": ["track:10", "home"], "blue": ["track:15"]}}).state
    kinds = [move.kind for move in game.legal_moves(state)]
    removed = [move.kind for move, _ in game.filtered_moves(state)]
    assert kinds == ["move"] and removed.count("action") == 10 and removed.count("move") == 4


def test_r35_a_winning_two_draws_no_card_in_the_moves_report():
    """R35 over A13: the game ends at once, so `moves` says no card follows the winning 2
    (draw play and hand play), while the 2's other moves still draw again."""
    from sorry_rules.authoring.oracle import moves_report
    from sorry_rules.records.position import parse_position

    game = load_game("standard")
    position = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "2",
                                     "pawns": {"red": ["safety:4", "home", "home", "home"], "blue": ["track:20"]}})
    report = moves_report(game, position)
    (move,) = report["moves"]
    assert move["wins"] and "draw_again" not in move and "draws again" not in move["text"]
    assert report["draw_again"] is False
    points = load_game("points")
    hand = parse_position(points, {"players": ["red", "blue"], "turn": "red", "hand": ["2", "3", "5", "8", "12"],
                                   "pawns": {"red": ["safety:4", "home", "home", "home"], "blue": ["track:20"]}})
    (two,) = [m for m in moves_report(points, hand)["moves"] if m["card"] == "2"]
    assert two["wins"] and "draw_again" not in two
    on_track = parse_position(points, {"players": ["red", "blue"], "turn": "red", "hand": ["2", "3", "5", "8", "12"],
                                       "pawns": {"red": ["track:10", "home", "home", "home"], "blue": ["track:20"]}})
    (two,) = [m for m in moves_report(points, on_track)["moves"] if m["card"] == "2"]
    assert two["draw_again"] and "wins" not in two  # A13: a 2 that does not win plays again


def test_a_move_whose_consequence_ends_the_turn_does_not_draw_again(tmp_path):
    """`after:` `ends_turn` drops the card's own extra draw (REFERENCE): the 2 that slides is
    listed without "draws again", and playing it passes the turn; the 2's other moves draw
    again as R19 says."""
    path = tmp_path / "ends.yaml"
    path.write_text("extends: standard\nafter:\n  stop: {when: slides(player) > 0, ends_turn: true}\n")
    game = load_game(str(path))
    from sorry_rules.engine.describe import describe_move
    from sorry_rules.records.position import parse_position

    state = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "2",
                                  "pawns": {"red": ["track:22", "track:40"], "blue": ["track:30"]}}).state
    moves = game.legal_moves(state)
    sliding = [m for m in moves if any(e[0] == "slide" for e in m.events)]
    assert len(sliding) == 1 and not sliding[0].draw_again and "again" not in describe_move(game, sliding[0])
    assert game.apply(state, sliding[0]).turn == 1
    assert all(m.draw_again and game.apply(state, m).turn == 0 for m in moves if m not in sliding)


def test_a_bonus_not_played_is_not_listed_among_what_follows():
    """PA11, PA16: a bonus move that captures earns no further bonus, so the move lists the
    first capture's 20 only (it listed 'a second capture earns 20 more' too, unplayed); a
    forfeit that consequences follow is said once, as its way (PA7's doubles)."""
    from sorry_rules.authoring.oracle import format_report_text, moves_report
    from sorry_rules.records.position import parse_position

    game = load_game("parcheesi")
    position = parse_position(game, {"players": ["yellow", "blue"], "turn": "yellow", "card": "1+3",
                                     "pawns": {"yellow": ["track:12", "home", "home", "home"],
                                               "blue": ["track:15", "track:36"]}})
    (both,) = [m for m in moves_report(game, position)["moves"] if m["text"].count("bumps") == 2]
    assert both["after"] == ["PA11: a capture earns 20 spaces"]
    doubles = parse_position(game, {"players": ["yellow", "red"], "turn": "yellow", "card": "3+3", "pawns": {}})
    assert format_report_text(moves_report(game, doubles)).count("no legal move") == 1


def test_why_names_a_square_where_no_capture_is_allowed(tmp_path):
    """REFERENCE `capture`: a Sorry! whose every target stands where a Sorry! may not capture
    is stopped by that square (it said 'every placement ends in a blocked slide'); a square of
    one pawn shares nothing (`share`), and the pawn of another colour there is no 'own pawn'."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import stuck_reasons
    from sorry_rules.records.position import parse_position

    path = tmp_path / "sq.yaml"
    path.write_text("extends: standard\nboard:\n  squares:\n    haven: {at: [6], capture: false, share: true}\n")
    explained = load_explained(str(path))
    game = explained.game
    sorry = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "sorry",
                                  "pawns": {"red": ["start", "start", "start", "start"], "blue": ["track:6"]}})
    assert stuck_reasons(game, explained.cards, sorry.state, [sorry.state.card]) == [
        "red pawns in start: sorry opponent: the blue pawn on track:6 may not be captured there (haven) nor share it"]
    three = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "3",
                                  "pawns": {"red": ["track:3"], "blue": ["track:6"]}})
    words = " ".join(stuck_reasons(game, explained.cards, three.state, [three.state.card]))
    assert "the blue pawn on track:6 may not be captured there (haven) nor share it" in words and "own pawn" not in words
    assert words.startswith("red pawn on track:3: "), words  # where the pawn stands, said


@pytest.mark.parametrize("rules, pawns, marks, expected", [
    (("house/blockade.yaml",), {"red": ["start"], "blue": ["track:20", "track:20"]}, None,
     "the opponent pawns (blue) standing together on track:20 may not be landed on (H33 blockade: two pawns of one colour on a "
     "square are not passed or landed on)"),
    (("house/freeze.yaml",), {"red": ["start"], "blue": ["track:30"]},
     {"frozen": [{"colour": "blue", "square": "track:30", "by": "red"}]},
     "the blue pawn on track:30 is marked 'frozen': no move may land on it or take it"),
    (("house/slide-spares-own.yaml",), {"red": ["start", "track:19", "home", "home"], "blue": ["track:16"]}, None,
     "the slide from track:16 ends on track:19, held by a pawn the slide may not sweep"),  # H12: the one target slides there
])
def test_why_names_what_stops_a_sorry(rules, pawns, marks, expected):
    """H33, H31: a Sorry! with no move names the blockade or the mark that stops it; H12: the
    slide every placement ends in, by its squares (each said 'every placement ends in a
    blocked slide')."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import stuck_reasons
    from sorry_rules.records.position import parse_position

    explained = load_explained("standard", rules)
    data = {"players": ["red", "blue"], "turn": "red", "card": "sorry", "pawns": pawns}
    if marks:
        data["marks"] = marks
    state = parse_position(explained.game, data).state
    assert stuck_reasons(explained.game, explained.cards, state, [state.card])[0].endswith(expected)


def test_a2_option_a_simultaneous_split_part_landing_where_the_other_part_leaves_keeps_the_square_occupied():
    """A2's simultaneous option: the parts are judged on the board before the split, so the
    pawn on 20 may split 4 onto the triangle at 24 and slide to 28, the square the pawn there
    leaves by the other part (28 + 3, sliding on to 34). Played in order, the first part lands
    on 28 before the second leaves it; the table then marked 28 empty though a pawn stood on
    it (its occupancy is per colour), and later moves could land there without a bump. (Found
    by fuzzing: a game replayed through one table went off the game applied move by move.)"""
    game = _game(rules={"split": "simultaneous"})
    table = game.table(_position(game, [20, 28], "7"))
    fresh = Position(game.layout, table.pos.placement())
    split = [o for o in table.options() if o.events[:2] == (("split", 0, 20, 24), ("slide", 0, 24, 28))]
    assert len(split) == 1 and ("split", 0, 28, 31) in split[0].events
    for option in table.options():
        table.push(option)
        after = Position(game.layout, table.pos.placement())
        assert table.pos.occ == after.occ, f"{option.events}: the occupancy differs from the placement's"
        table.pop()
        assert table.pos.occ == fresh.occ, f"{option.events}: taken back, the occupancy differs"
    table.play(split[0])
    assert table.pos.occ[28] == 0 and table.pos.placement()[0][:2] == (28, 34)


def test_a2_option_a_simultaneous_split_of_partners_taken_back_keeps_the_partners_square_occupied():
    """A2's simultaneous option with partners (T2): red's part may split 4 onto the triangle
    at 24, where yellow's pawn (red's partner) stands, and slide on to 28, while yellow's
    pawn leaves 24 by the other part (it lands first, on 27, and red's slide sweeps it back
    to Start, T9). Taken back, as bots take back every option they try, the pawns must come
    back without marking 24 empty with yellow's pawn on it (when red's part landed first,
    yellow's pawn came back to 24 before red's left it, and later moves saw an empty square
    there). (Found by a soak of house rules under movement switches.)"""
    game = load_game("partnership", layers=[load_yaml(json.dumps({"rules": {"split": "simultaneous"}}), "overlay.yaml")])
    start = game.layout.start
    placement = tuple((first,) + (start[c],) * (game.pawns - 1) for c, first in enumerate((20, start[1], 24, start[3])))
    table = game.table(game.position(placement, (0, 1, 2, 3), 0, card=game.card_index["7"]))
    fresh = Position(game.layout, table.pos.placement())
    options = table.options()
    assert (("split", 2, 24, 27), ("split", 0, 20, 24), ("bump", 2, 27), ("slide", 0, 24, 28)) in \
        [o.events for o in options]
    for option in options:
        table.push(option)
        assert table.pos.occ == Position(game.layout, table.pos.placement()).occ, f"{option.events}: pushed"
        table.pop()
        assert table.pos.occ == fresh.occ, f"{option.events}: taken back, the occupancy differs"


def test_a24_one_move_per_result_when_a_consequence_follows_and_one_way_passes():
    """A24 where `after:` consequences play `then:` effects: moves of one result are told
    apart until the effects are played, then merged; the merge compared every flag, so the
    pass flag that `then pass` leaves on a move that moves kept two moves of one result (the
    1+4 spent die by die, 9 -> 5, enter, 5 -> 9, beside the whole throw's enter). (Found by
    fuzzing a Parcheesi file.)"""
    game = load_game(str(RULES / "dice-whole-and-pass.yaml"))
    layout = game.layout
    safety, home, start = layout.T, layout.home[0], layout.start[0]  # the zone is one square, T
    state = game.position(((9, safety, home, home, start), ()), (0,), 0, card=game.card_index["1+4"])
    moves = game.legal_moves(state)
    check_moves(game, state, moves)
    assert sorted(m.placement[0] for m in moves) == [(4, 8, home, home, home), (4, 9, safety, home, home),
                                                     (5, 8, safety, home, home)]
    for seed in range(40):
        play_random(game, seed, 1, max_plies=150, must_end=False)


def test_a2_option_two_parts_may_end_where_a_square_holds_several_pawns():
    """A2's simultaneous option refused every split whose parts end on one square, Home
    included, so safety:1 and safety:4 could not both go Home with a 7 (R33: Home holds every
    pawn; the sequential split allows it). Where the board's squares hold two pawns
    (`board.hold`, R16 lifted), two parts may end on one track square as they may in order.
    (Found by writing rule files from the docs alone.)"""
    game = _game(rules={"split": "simultaneous"})
    layout = game.layout
    red = tuple(sorted([layout.T, layout.T + 3] + [layout.home[0]] * (game.pawns - 2)))
    state = game.position((red, (layout.start[1],) * game.pawns, (), ()), (0, 1), 0, card=game.card_index["7"])
    assert [move.placement[0] for move in game.legal_moves(state)] == [(layout.home[0],) * game.pawns]
    held = _game(rules={"split": "simultaneous"}, board={"hold": 2})
    together = [move for move in held.legal_moves(_position(held, [20, 23], "7")) if move.placement[0][:2] == (25, 25)]
    assert len(together) == 1
    assert not [move for move in game.legal_moves(_position(game, [20, 23], "7")) if move.placement[0][:2] == (25, 25)]


def test_the_moves_report_names_who_a_move_makes_win():
    """The win condition is checked for every seated colour, the mover first (REFERENCE
    `win`): with "a colour whose pawns are all in Start wins", red's bump of blue's last pawn
    out makes blue win. The report said "(wins)", which reads as red winning; it names the
    winner (found by playing the oracle from outside)."""
    from sorry_rules.authoring.oracle import format_report_text, moves_report
    from sorry_rules.records.position import parse_position

    game = _game(win="start(player) == pawns(player)")
    position = {"players": ["red", "blue"], "turn": "red", "card": "5",
                "pawns": {"red": ["track:10", "track:20"], "blue": ["track:15"]}}
    report = moves_report(game, parse_position(game, position))
    assert [(m["text"], m.get("winner")) for m in report["moves"]] == [
        ("Red pawn track:10 -> track:15, bumps Blue (track:15)", "blue"), ("Red pawn track:20 -> track:25", None)]
    assert "bumps Blue (track:15)  (blue wins)" in format_report_text(report)
    standard = load_game("standard")
    home = {"players": ["red", "blue"], "turn": "red", "card": "1", "pawns": {"red": ["safety:5", "home", "home", "home"]}}
    text = format_report_text(moves_report(standard, parse_position(standard, home)))
    assert text.splitlines()[1] == "   1. Red pawn safety:5 -> home  (wins)"


def test_a_split_part_leaving_a_shared_square_takes_the_pawn_that_stood_there():
    """H33 lets two pawns of a colour share a square. Green on 3 and on 4 (red's start exit)
    with seven-both-ways: forward 1 takes the pawn on 3 onto 4, then backward 6 takes the
    other pawn, the one that stood on 4, to 58 (each part moves a pawn of its own). The pawn
    whose count ended on 4 stays there, so H34 sends it back to Start; the engine took it for
    the pawn that left and offered the move without the penalty. (Found by a soak of house-rule
    combinations against the independent reference.)"""
    from sorry_rules.authoring.oracle import moves_report
    from sorry_rules.records.position import parse_position

    game = load_game("standard", ("house/blockade.yaml", "house/seven-both-ways.yaml", "house/start-exit-penalty.yaml"))
    position = {"players": ["red", "green"], "turn": "green", "card": "7",
                "pawns": {"green": ["track:3", "track:4", "start", "start"]}}
    results = [sorted(m["result"]["green"]) for m in moves_report(game, parse_position(game, position))["moves"]]
    assert ["start", "start", "start", "track:58"] in results
    assert ["start", "start", "track:4", "track:58"] not in results


def test_a_can_inside_b_keeps_b_reading_the_move_before_it():
    """`A then ((X if can(Y)) | Z moved)`: compiling the `can` (an effect of its own) ended
    B's reading of the move A made, so the `moved` after it was refused (SR304). B's
    selectors read A's pawns wherever a `can` stands in B."""
    game = _game(cards={"1": "enter then ((forward 2 if can(forward 3)) | forward 1 moved)"})
    state = _position(game, [10], "1")
    moves = {m.placement[0] for m in game.legal_moves(state)}
    start = game.layout.start[0]
    # the started pawn (track:4) or the one on track:10 forward 2; the started one forward 1
    assert moves == {(6, 10, start, start), (4, 12, start, start), (5, 10, start, start)}


def test_a_redraw_that_changes_nothing_keeps_the_turn_where_a_win_holds_from_the_start(tmp_path):
    """LU6, LU24 (found by the soak fuzz): Ludo played for places under a win condition that
    holds from the start. A throw thrown again changes nothing, so no win is judged after it
    and the thrower throws again; the public move said the thrower's side finished (no extra
    throw), so a game played through `Game.apply` passed the turn where the engine's own loop
    kept it, and replaying the same choices ended elsewhere."""
    from sorry_rules.players.runner import replay

    (tmp_path / "ludo").mkdir()
    rule = tmp_path / "ludo" / "play-on.yaml"
    rule.write_text("extends: ludo\nplaces: 4\nwin: (not (start(player) >= home(players))) or (not (track(partners) > "
                    "home(team)))\n", encoding="utf-8")
    game = load_game(str(rule))
    start = state = game.new_game(2130, players=2)
    turns = []
    for _ in range(5):
        if game.needs_draw(state):
            state = game.draw(state)
        move = game.legal_moves(state)[0]
        if move.kind == "redraw":
            assert move.draw_again
        turns.append(state.turn)
        state = game.apply(state, move)
    assert turns[:3] == [0, 0, 0]  # LU6: thrown again, twice, then lost
    assert replay(game, start, [0] * 5) == state
