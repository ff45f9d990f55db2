"""The command line with the partnership and points variants and with house rules: auto
games print the end-of-game summary (P7 scores with their make-up), overlays compose with
--rule, and the moves oracle answers hand positions (P4, P5, A21) and team positions (T2)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

from .test_variant_games import p7_by_hand


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result


def engine_game(variant, rules, seed, players):
    """The game `sorry-play --auto` plays: every seat a RandomPlayer(seed, seat)."""
    game = load_game(variant, rules)
    state = game.new_game(seed, players=players)
    return game, play_game(game, state, [RandomPlayer(seed, s) for s in range(players)])


def test_partnership_auto_game():
    """T1, T8: a partnership game names the teams, and the winners are a whole team."""
    result = run("--variant", "partnership", "--auto", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "Teams: Red + Yellow against Blue + Green."
    game, final = engine_game("partnership", [], 3, 4)
    winners = " and ".join(game.colours[final.seats[s]].capitalize() for s in game.outcome(final).winning_seats)
    assert winners in ("Red and Yellow", "Blue and Green")
    assert lines[-1] == f"{winners} win after {final.plies} moves."


def test_points_auto_game_prints_scores_and_their_make_up():
    """P7: every player's score and how it was made up, equal to the rule book's computation."""
    result = run("--variant", "points", "--auto", "--seed", "3", "--players", "3")
    assert result.exit_code == 0, result.output
    game, final = engine_game("points", [], 3, 3)
    expected = p7_by_hand(game, final)
    lines = result.output.splitlines()
    start = lines.index("Scores:")
    rows = lines[start + 1:]
    assert len(rows) == 3
    pattern = re.compile(r"^  (\w+)\s+(\d+) points  (\d)/4 Home  = (.*)$")
    seen = {}
    for row in rows:
        match = pattern.match(row)
        assert match, row
        name, total, home, detail = match.group(1), int(match.group(2)), int(match.group(3)), match.group(4)
        parts = [int(p.split(" ", 1)[0]) for p in detail.split(" + ")]
        assert sum(parts) == total
        assert f"{5 * home} (5 per own pawn Home)" in detail
        seen[name] = total
    winner = game.colours[final.seats[final.winner]].capitalize()
    assert rows[0].startswith(f"  {winner} ")
    assert "shut-out bonus" in rows[0] and "5 per opponent pawn not Home" in rows[0]
    assert seen == {game.colours[c].capitalize(): expected[seat] for seat, c in enumerate(final.seats)}


def test_house_rules_compose_on_the_command_line():
    """H1 + quick game via two --rule options: the game ends when a player has 2 pawns Home."""
    args = ["--variant", "standard", "--rule", "house/sorry-forward-4.yaml", "--rule", "house/quick-game.yaml",
            "--auto", "--seed", "1"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    game, final = engine_game("standard", ["house/sorry-forward-4.yaml", "house/quick-game.yaml"], 1, 4)
    winner = final.seats[final.winner]
    assert final.placement[winner].count(game.layout.home[winner]) == 2
    assert result.output.splitlines()[-1] == f"{game.colours[winner].capitalize()} wins after {final.plies} moves."
    assert run(*args).output == result.output  # same seed, same game, byte for byte


@pytest.mark.parametrize("variant, players", [("partnership", "4"), ("points", "2"), ("points", "4")])
def test_auto_games_are_deterministic(variant, players):
    args = ["--variant", variant, "--auto", "--seed", "11", "--players", players]
    assert run(*args).output == run(*args).output


def moves_json(tmp_path, variant, position, *extra):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    result = run("moves", "--variant", variant, "--state", str(path), "--format", "json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_moves_oracle_hand_position(tmp_path):
    """P4, A13: a hand position lists the moves of every card that can move, each naming its card."""
    report = moves_json(tmp_path, "points", {
        "players": ["red", "blue"], "turn": "red", "hand": ["2", "3", "sorry", "sorry", "12"],
        "pawns": {"red": ["track:10", "home", "home", "home"]}})
    assert report["hand"] == ["2", "3", "sorry", "sorry", "12"] and "card" not in report
    got = {(m["card"], tuple(m["result"]["red"]), m.get("draw_again", False)) for m in report["moves"]}
    assert got == {("2", ("track:12", "home", "home", "home"), True),
                   ("3", ("track:13", "home", "home", "home"), False),
                   ("12", ("track:22", "home", "home", "home"), False)}
    assert report["forfeit"] is False


def test_moves_oracle_stuck_hand_gives_discards(tmp_path):
    """P5: when no card in the hand can move, the moves are the discard choices, placement unchanged."""
    position = {"players": ["red", "blue"], "turn": "red", "hand": ["2", "3", "5", "5", "sorry"],
                "pawns": {"red": ["safety:5", "home", "home", "home"]}}
    report = moves_json(tmp_path, "points", position)
    assert sorted(m["discard"] for m in report["moves"]) == ["2", "3", "5", "sorry"]
    for move in report["moves"]:
        assert move["result"]["red"] == ["safety:5", "home", "home", "home"]
        assert "card" not in move and not move.get("draw_again")
    text = run("moves", "--variant", "points", "--state", str(tmp_path / "position.json")).output
    assert "discard 2 (no card in the hand can move)" in text


def test_moves_oracle_winning_move_shows_scores(tmp_path):
    """P6, P7: the move that wins carries the final scores."""
    report = moves_json(tmp_path, "points", {
        "players": ["red", "blue", "yellow", "green"], "turn": "red", "hand": ["1", "3", "5", "8", "12"],
        "pawns": {"red": ["safety:5", "home", "home", "home"], "yellow": ["home"], "green": ["home", "home"]}})
    (move,) = report["moves"]
    assert move["wins"] is True and move["scores"] == {"red": 90, "blue": 0, "yellow": 5, "green": 10}


def test_moves_oracle_names_every_colour_of_a_team_win(tmp_path):
    """T8: a team wins when both partners' pawns are all Home; the move that brings the last
    pawn Home names the winner (the mover) and both colours of the team as `winners`."""
    report = moves_json(tmp_path, "partnership", {
        "players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "1",
        "pawns": {"red": ["home"] * 4, "yellow": ["home", "home", "home", "safety:5"], "blue": ["home"] * 3}})
    (move,) = report["moves"]
    assert move["wins"] is True and move["winner"] == "red" and move["winners"] == ["red", "yellow"]


def test_moves_oracle_partnership_position(tmp_path):
    """T2: on red's turn the moves may move yellow's pawns (and never blue's or green's)."""
    report = moves_json(tmp_path, "partnership", {
        "players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "1",
        "pawns": {"yellow": ["track:36"], "blue": ["track:20"]}})
    assert report["turn"] == "red"
    texts = sorted(m["text"] for m in report["moves"])
    assert texts == ["Red pawn start -> track:4", "Yellow pawn start -> track:34", "Yellow pawn track:36 -> track:37"]
    for move in report["moves"]:
        assert move["result"]["blue"] == ["track:20", "start", "start", "start"]


def test_moves_oracle_card_option_on_hand_variant(tmp_path):
    """--card on a hand variant asks about that one card (a hand of one)."""
    report = moves_json(tmp_path, "points", {
        "players": ["red", "blue"], "turn": "red", "hand": ["2"],
        "pawns": {"red": ["track:10", "home", "home", "home"]}}, "--card", "5")
    assert [(m["card"], m["result"]["red"][0]) for m in report["moves"]] == [("5", "track:15")]


@pytest.mark.parametrize("variant, position, message", [
    ("standard", {"players": ["red", "blue"], "turn": "red", "hand": ["1"]}, "draws one card per turn"),
    ("points", {"players": ["red", "blue"], "turn": "red"}, "plays from a hand"),
    ("points", {"players": ["red", "blue"], "turn": "red", "hand": []}, "non-empty list"),
    ("points", {"players": ["red", "blue"], "turn": "red", "hand": ["6"]}, "unknown card"),
])
def test_moves_oracle_bad_hand_positions(tmp_path, variant, position, message):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    result = CliRunner().invoke(main, ["moves", "--variant", variant, "--state", str(path)])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_a_points_game_stopped_at_its_move_limit_gives_the_points_so_far(tmp_path):
    """P7 scores a won game; one stopped by --max-plies has no winner, and `--auto` gives the
    points every player has so far (5 per own pawn Home, P7; nothing only a winner scores)."""
    from sorry_rules.records.savefile import read_save, restore

    save = tmp_path / "g.json"
    out = run("--variant", "points", "--auto", "--seed", "3", "--players", "3", "--max-plies", "200", "--save", str(save))
    game, state = restore(read_save(save))
    assert state.winner is None and state.plies == 200
    home = [state.placement[c].count(game.layout.home[c]) for c in state.seats]
    said = ", ".join(f"{game.colours[c].capitalize()} {5 * n}" for c, n in zip(state.seats, home))
    assert out.output.splitlines()[-1] == f"Points so far (those only a winner scores are not given): {said}"
    assert any(home)
