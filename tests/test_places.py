"""Playing on for places (docs/REFERENCE.md `places`; R35 is `places: 1`): seeded games played
to the end keep the invariants of places, a turn passes over the seats that finished, the
mover's turn ends where its side finishes (no card it was due), position files say who
finished (`finished:`), and the outcome, the moves oracle, the printed game and `simulate`
say the places."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.authoring.oracle import format_report_text, moves_report
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.records.position import parse_position

RULES = Path(__file__).parent / "rules"


def _game(variant: str, rule: str | None):
    return load_game(variant, [str(RULES / rule)] if rule else [])


def _sides(game, seats) -> int:
    return len({game.team_of[c] for c in seats})


@pytest.mark.parametrize("variant,rule,players,bot", [("standard", "places.yaml", 4, "random"),
                                                      ("ludo", "places-ludo.yaml", 4, "random"),
                                                      ("ludo", "places-ludo.yaml", 3, "greedy")])
def test_seeded_games_play_on_until_the_places_are_decided(variant, rule, players, bot):
    """Each seat moves only until its side finishes (its win condition holds from then on);
    the game ends once `places` sides finished or one is left, its winner the first to
    finish; the places number the finished sides in order, the others share the next."""
    game = _game(variant, rule)
    for seed in range(6):
        state = game.new_game(seed, players=players)
        finished_before: list = []

        def on_turn(turn, after):
            assert turn.seat not in finished_before, "a seat that finished moved again"
            assert after.finished[:len(finished_before)] == tuple(finished_before), "a finish was undone"
            finished_before[:] = after.finished
            if after.winner is None and after.finished:
                assert after.turn not in after.finished, "the turn passed to a seat that finished"

        seats = [make_player(bot, seed, s) if bot != "random" else RandomPlayer(seed, s) for s in range(players)]
        final = play_game(game, state, seats, on_turn=on_turn)
        assert final.winner is not None and final.winner == final.finished[0]
        done = {game.team_of[final.seats[s]] for s in final.finished}
        assert len(done) == min(game.places, _sides(game, final.seats) - 1)
        view = game.view(final.placement)
        assert all(game.win(final.seats[s], view, game.env(final.counters, final.marks)) for s in final.finished)
        places = game.outcome(final).places
        assert [places[s] for s in final.finished] == list(range(1, len(final.finished) + 1))
        assert all(p == len(final.finished) + 1 for s, p in enumerate(places) if s not in final.finished)
        again = play_game(game, game.new_game(seed, players=players),
                          [make_player(bot, seed, s) if bot != "random" else RandomPlayer(seed, s) for s in range(players)])
        assert again == final  # the same seed and choices give the same game


def test_one_place_is_the_rule_book_game():
    """`places: 1` (the default) plays R35: the game ends at the first win, as the variant
    without the field plays it, move for move."""
    plain = load_game("standard")
    one = load_game("standard", [str(RULES / "places.yaml")])
    assert plain.places == 1 and one.places == 3
    for seed in range(3):
        final = play_game(plain, plain.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
        assert final.finished == () and plain.outcome(final).places.count(1) == 1
        played_on = play_game(one, one.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
        assert played_on.finished[0] == final.winner and played_on.plies > final.plies


def _position(game, data: dict):
    return parse_position(game, data)


def test_a_turn_passes_over_a_seat_that_finished():
    """Red moves (a 5: no extra card); blue finished, so yellow plays next (R35 played on)."""
    game = _game("standard", "places.yaml")
    position = _position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5",
                                "finished": ["blue"], "pawns": {"red": ["track:10"], "blue": ["home"] * 4}})
    state = position.state
    [move] = game.legal_moves(state)
    after = game.apply(state, move)
    assert after.seats[after.turn] == game.colours.index("yellow") and after.finished == state.finished


def test_a_side_that_finishes_ends_its_turn_without_the_card_it_was_due():
    """Red's last pawn reaches Home with a 2 (R19: a 2 draws again); red has finished, so the
    turn goes to blue, and the oracle says so (no draw again, red finishes)."""
    game = _game("standard", "places.yaml")
    data = {"players": ["red", "blue", "yellow"], "turn": "red", "card": "2",
            "pawns": {"red": ["safety:4", "home", "home", "home"]}}
    position = _position(game, data)
    moves = game.legal_moves(position.state)
    home = [m for m in moves if all(sq == game.layout.home[0] for sq in m.placement[0])]
    assert len(home) == 1 and not home[0].draw_again  # listed as it plays: no card follows
    assert all(m.draw_again for m in moves if m not in home)  # the other 2s draw again (R19)
    after = game.apply(position.state, home[0])
    assert after.finished == (0,) and after.winner is None and after.seats[after.turn] == game.colours.index("blue")
    entry = next(e for e in moves_report(game, position)["moves"] if e.get("finishes"))
    assert entry["finishes"] == ["red"] and "draw_again" not in entry and "wins" not in entry


def test_the_last_finish_ends_the_game_with_every_place():
    """Red and blue finished; yellow's last pawn Home makes three places of four: green is
    fourth, and the game is over (the first to finish, red, its winner)."""
    game = _game("standard", "places.yaml")
    data = {"players": ["red", "blue", "yellow", "green"], "turn": "yellow", "card": "1", "finished": ["red", "blue"],
            "pawns": {"red": ["home"] * 4, "blue": ["home"] * 4, "yellow": ["safety:5", "home", "home", "home"]}}
    report = moves_report(game, _position(game, data))
    final = next(e for e in report["moves"] if e.get("wins"))
    assert final["winner"] == "red"
    assert final["places"] == {"red": 1, "blue": 2, "yellow": 3, "green": 4}
    assert final["finishes"] == ["yellow"]
    said = [line for line in format_report_text(report).splitlines() if "game ends" in line]
    assert said == ["   1. Yellow pawn safety:5 -> home  (yellow finishes; the game ends; places: red 1, blue 2, yellow 3, "
                    "green 4)"]


def test_position_files_say_who_finished(tmp_path):
    """A colour listed under `finished:` must be seated once, have its win condition hold and
    not be the one to move (SR603, SR606); so many finished that the game is over is SR608,
    as is a colour whose win holds but that is not listed."""
    rule = str(RULES / "places.yaml")
    cases = [({"finished": ["red", "red"]}, "SR603"), ({"finished": ["purple"]}, "SR501"),
             ({"finished": ["yellow"]}, "SR606"), ({"finished": ["blue"], "turn": "blue"}, "SR606"),
             ({"finished": []}, "SR608"),
             ({"finished": ["red", "blue", "green"], "pawns": {c: ["home"] * 4 for c in ("red", "blue", "green")}}, "SR608")]
    for change, code in cases:
        data = {"players": ["red", "blue", "yellow", "green"], "turn": "yellow", "card": "5",
                "pawns": {"red": ["home"] * 4, "blue": ["home"] * 4}, **change}
        path = tmp_path / "position.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = CliRunner().invoke(main, ["moves", "--rule", rule, "--state", str(path)])
        assert result.exit_code == 1 and f"[{code}]" in result.stderr, (change, result.stderr)


def test_a_game_over_says_when_it_ends(tmp_path):
    """SR608 counts the places a game of these players can give: three sides playing for four
    places end once two have finished (one is left)."""
    data = {"players": ["red", "green", "yellow"], "turn": "green", "card": "1", "finished": ["red", "yellow"],
            "pawns": {"red": ["home"] * 4, "green": ["track:22", "home", "home", "home"], "yellow": ["home"] * 4}}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", "--variant", "ludo", "--rule", "ludo/play-on.yaml", "--state", str(path)])
    assert result.exit_code == 1
    assert "the game is over in this position: 2 of 3 sides finished, and it ends once 2 have [SR608]" in result.stderr


def test_the_printed_game_says_each_finish_and_the_places():
    result = CliRunner().invoke(main, ["--variant", "ludo", "--rule", str(RULES / "places-ludo.yaml"), "--auto",
                                       "--seed", "3", "--players", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    finishes = [line for line in lines if "finishes" in line]
    assert [line.rsplit(" ", 1)[1] for line in finishes] == ["1st", "2nd"]
    places = next(line for line in lines if line.startswith("Places: "))
    assert places.startswith("Places: 1st ") and ", 2nd " in places and ", 3rd " in places


def test_simulate_reports_each_seats_mean_place():
    result = CliRunner().invoke(main, ["simulate", "--variant", "ludo", "--rule", str(RULES / "places-ludo.yaml"),
                                       "--games", "12", "--players", "3", "--format", "json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    means = [row["place"]["mean"] for row in report["wins"]["by_seat"]]
    assert all(1 <= m <= 3 for m in means) and abs(sum(means) - 6) < 1e-9  # 1 + 2 + 3 shared among the seats
    plain = json.loads(CliRunner().invoke(main, ["simulate", "--variant", "ludo", "--games", "4", "--players", "3",
                                                 "--format", "json", "--jobs", "1"]).output)
    assert all("place" not in row for row in plain["wins"]["by_seat"])


def test_a_grid_game_does_not_play_for_places(tmp_path):
    overlay = tmp_path / "places.yaml"
    overlay.write_text("extends: sequence\nplaces: 2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(overlay)])
    assert result.exit_code == 1 and "[SR512]" in result.output and "places" in result.output


def test_explain_says_the_game_is_played_on():
    result = CliRunner().invoke(main, ["explain", "--rule", str(RULES / "places.yaml")])
    text = " ".join(result.output.split())
    assert "Played on for 3 places - " in text and "places.yaml:6: a side that has won so finishes and sits out" in text
    plain = CliRunner().invoke(main, ["explain"])
    assert "Played on" not in plain.output


def test_finishes_by_another_move_and_by_partners_are_each_said(tmp_path):
    """The log names every side that finishes with a move, not only the mover's: partners
    together, and a side another player's move finishes; a finishing move says no 'draws
    again' (its turn ends)."""
    game = load_game("standard", [str(RULES / "places.yaml")])
    from sorry_rules.engine.describe import kept_turn_words

    data = {"players": ["red", "blue", "yellow", "green"], "turn": "yellow", "card": "2", "finished": ["blue"],
            "pawns": {"blue": ["home"] * 4, "yellow": ["safety:4", "home", "home", "home"]}}
    state = _position(game, data).state
    [move] = [m for m in game.legal_moves(state) if all(sq == game.layout.home[2] for sq in m.placement[2])]
    after = game.apply(state, move)
    assert kept_turn_words(game, move, state.turn, after, (state.turn,)) == "; Yellow finishes 2nd"
    teams = tmp_path / "teams.yaml"
    teams.write_text("extends: standard\nteams: [[red, yellow]]\nplaces: 3\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--variant", str(teams), "--auto", "--seed", "1"])
    finishing = [line for line in result.output.splitlines() if "finish" in line]
    assert finishing and all(" and " in line for line in finishing if "Red" in line or "Yellow" in line)
    assert not any("draws again" in line for line in finishing)


def test_a_game_stopped_after_a_finish_says_who_finished():
    result = CliRunner().invoke(main, ["--variant", "ludo", "--rule", "ludo/play-on.yaml", "--auto", "--seed", "1",
                                       "--max-plies", "420"])
    lines = result.output.splitlines()
    assert lines[-2].startswith("No winner: the game was stopped")
    assert lines[-1] == "Finished before the stop: 1st Blue"
