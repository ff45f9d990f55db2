"""`sorry-play simulate` and `compare` on grid variants (docs/SEQUENCE.md): the same seeded
games whatever the jobs, draws (S9) counted apart from stopped games, the first side's win
rate, and the JSON shape. Games are few and short."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.simulation.simulate import GRID_METRICS, Setup, game_seed, load_source, play_batch


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _json(*args) -> dict:
    result = _invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _figures(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


def test_game_i_is_the_auto_game_of_its_documented_seed():
    """Game i of seed S with random bots is `sorry-play --variant sequence --auto --seed
    <game_seed(S, i)>` (S5: the first seat from the seed)."""
    source, game = load_source("sequence")
    setup = Setup(source, 2, ("random", "random"), 3, 20_000)
    for index in (0, 4):
        seed = game_seed(3, index)
        final = play_game(game, game.new_game(seed, players=2), [make_player("random", seed, s) for s in range(2)])
        tally = play_batch(setup, index, 1)
        assert tally.metrics["plies"].total == final.plies
        assert tally.wins == [int(s == final.winner) for s in range(2)]
        printed = _invoke("--variant", "sequence", "--auto", "--seed", seed)
        assert printed.exit_code == 0
        assert printed.output.splitlines()[-14].startswith(f"{final.plies:5}  ")


def test_draws_are_counted_apart_from_stopped_games():
    """S9: a round of passes ends a game with no winner: a draw, not a stopped game. The
    small invented grid draws often; the tally agrees with the games played directly."""
    source, game = load_source("grid/mini-grid.yaml")
    setup = Setup(source, 2, ("greedy", "greedy"), 1, 20_000)
    tally = play_batch(setup, 0, 10)
    finals = []
    for index in range(10):
        seed = game_seed(1, index)
        finals.append(play_game(game, game.new_game(seed, players=2), [make_player("greedy", seed, s) for s in range(2)]))
    draws = sum(f.winner is None for f in finals)
    assert 0 < draws < 10
    assert (tally.draws, tally.finished) == (draws, 10 - draws)
    assert tally.metrics["plies"].n == 10 and tally.metrics["plies"].total == sum(f.plies for f in finals)
    stopped = play_batch(Setup(source, 2, ("greedy", "greedy"), 1, 5), 0, 3)
    assert (stopped.draws, stopped.finished, stopped.metrics["plies"].n) == (0, 0, 0)


def test_first_side_counts_the_team_of_the_first_seat():
    """S1, S5: with four players in two teams, the first side is the team of the seat that
    played first, whichever of its two seats made the winning move."""
    source, game = load_source("sequence")
    setup = Setup(source, 4, ("random",) * 4, 2, 20_000)
    tally = play_batch(setup, 0, 6)
    expected = 0
    for index in range(6):
        seed = game_seed(2, index)
        state = game.new_game(seed, players=4)
        final = play_game(game, state, [make_player("random", seed, s) for s in range(4)])
        if final.winner is not None:
            expected += final.seats[final.winner] == state.seats[state.turn]
    assert tally.first_side_wins == expected
    assert tally.team_wins[0] == tally.team_wins[2] and tally.team_wins[1] == tally.team_wins[3]


def test_simulate_json_shape_and_the_same_figures_with_one_or_two_jobs():
    args = ("simulate", "--variant", "sequence", "--games", 6, "--players", 2, "--bots", "greedy,random", "--seed", 4)
    one = _json(*args, "--jobs", 1)
    two = _json(*args, "--jobs", 2, "--batch-size", 2)
    assert _figures(one) == _figures(two)
    assert set(one["per_game"]) == set(GRID_METRICS[2:])
    assert one["games"] == one["finished"] + one["draws"] + one["stopped"] == 6
    for key in ("first_side", "drawn"):
        assert set(one[key]) == {"wins", "rate", "ci95"}
    assert [row["side"] for row in one["wins"]["by_side"]] == ["blue", "green"]
    plies = one["length"]["plies"]
    assert plies["ci95"][0] < plies["mean"] < plies["ci95"][1]
    assert {row["bot"]: row["wins"] for row in one["wins"]["by_bot"]}["greedy"] >= 4


def test_simulate_text_for_teams_shows_sides():
    result = _invoke("simulate", "--variant", "sequence", "--games", 2, "--players", 4, "--jobs", 1)
    assert result.exit_code == 0, result.output
    assert "side blue (seats 1, 3)" in result.output and "side of the 1st to play" in result.output
    assert "Per game: removals" in result.output


def test_compare_grid_variants():
    """S13 Option: one sequence wins in the quick variant, so its games are shorter."""
    report = _json("compare", "sequence", "grid/sequence-quick.yaml", "--games", 6, "--players", 2, "--jobs", 1)
    metrics = {row["metric"]: row for row in report["tests"]}
    assert {"win rate of the first side", "games drawn", "removals per game", "exchanges per game"} <= set(metrics)
    assert "bumps per game" not in metrics
    assert metrics["length in plies"]["b"] < metrics["length in plies"]["a"]
    text = _invoke("compare", "sequence", "grid/sequence-quick.yaml", "--games", 2, "--jobs", 1)
    assert text.exit_code == 0 and "win rate of the first side" in text.output


@pytest.mark.parametrize("players", [5, 13])
def test_a_player_count_the_rule_file_does_not_seat_is_an_error(players):
    result = _invoke("simulate", "--variant", "sequence", "--games", 2, "--players", players)
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert load_game("sequence").player_counts() in result.output or "--players" in result.output


def test_results_files_keep_draws_and_the_first_side(tmp_path):
    """--out then --from gives the same figures for a grid variant (S9 draws, S5 first side),
    and a game line written before the grid fields existed still reads (they default)."""
    from sorry_rules.simulation.simulate import GameResult, result_from_json

    out = tmp_path / "r.jsonl"
    played = _json("simulate", "--variant", "grid/mini-grid.yaml", "--games", 6, "--players", 2, "--bots", "greedy",
                   "--jobs", 1, "--out", out)
    again = _json("simulate", "--from", out)
    assert played["draws"] > 0
    for key in ("games", "finished", "draws", "first_side", "drawn", "per_game", "length"):
        assert again[key] == played[key], key
    old = {"game": 3, "winner": 1, "order": 0, "team": [1], "bot": "greedy", "turns": 9, "plies": 9, "bumps": 0,
           "slides": 0, "forfeits": 0, "discards": 0, "passes": 0}
    assert result_from_json(old, 2) == GameResult(3, 1, 0, (1,), "greedy", 9, 9, 0, 0, 0, 0, 0)
    with pytest.raises(ValueError):
        result_from_json(dict(old, drawn=True), 2)


@pytest.mark.parametrize("variant, fewest", [("sequence", 2), ("grid/mini-grid", 2), ("grid/sequence-four", 2)])
def test_simulate_and_compare_seat_the_fewest_players_of_a_grid_by_default(variant, fewest):
    """`--players` left out: a grid variant seats the fewest players its seating lists, as
    `sorry-play` does (simulate --help, REFERENCE `players.max`), not the most (12)."""
    assert _json("simulate", "--variant", variant, "--games", 1, "--no-progress")["players"] == fewest
    compared = _json("compare", variant, variant, "--games", 1, "--no-progress")
    assert compared["a"]["players"] == compared["b"]["players"] == fewest
    assert _json("simulate", "--variant", "standard", "--games", 1, "--no-progress")["players"] == 4
