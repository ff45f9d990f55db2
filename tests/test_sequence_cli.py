"""The front ends that work for Sequence: `--auto` play (with any bots), `validate`,
`explain`, and the usage errors for what grid variants do not offer yet
(tests/test_sequence_play.py: play, saves, replay)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from sorry_rules.base.resources import variants_dir
from sorry_rules.cli.app import main


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("players", [2, 3, 4, 12])
def test_auto_plays_a_whole_game_the_same_way_for_a_seed(players):
    first = run("--variant", "sequence", "--auto", "--seed", "9", "--players", str(players))
    assert first.exit_code == 0, first.output
    assert run("--variant", "sequence", "--auto", "--seed", "9", "--players", str(players)).output == first.output
    lines = first.output.splitlines()
    assert lines[0].startswith(f"sequence, seed 9, {players} players: blue, green")
    opener = re.search(r"; (\w+) at seat (\d+) plays first\.$", lines[0])  # the first move is that seat's
    assert opener and re.match(rf"\s+1\s+{opener[1].capitalize()}\b", lines[1]), lines[:2]
    assert players in (2, 3) or f"(seat {opener[2]})" in lines[1]  # a colour at several seats: the seat said
    assert re.fullmatch(r"[A-Z]\w+ wins after \d+ moves \(seats? [0-9, ]+\)\.|"
                        r"No winner: every player passed for a whole round \(a draw\) after \d+ moves\.", lines[-1]), lines[-1]
    board = lines[-13:-2]
    assert board[0].split() == list("ABCDEFGHIJ") and len(board) == 11
    assert [row.split()[0] for row in board[1:]] == [str(r) for r in range(1, 11)]


def test_auto_stops_at_the_move_limit():
    result = run("--variant", "sequence", "--auto", "--seed", "1", "--max-plies", "3")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == "No winner: the game was stopped at the --max-plies limit of 3 moves."


def test_play_with_a_person_needs_a_terminal():
    result = run("--variant", "sequence", "--seed", "1")
    assert result.exit_code == 2
    assert "no terminal to play on" in result.output


def test_validate_passes_the_rule_file():
    result = run("validate", str(variants_dir() / "sequence.yaml"))
    assert result.exit_code == 0, result.output


def test_explain_says_what_the_jacks_do():
    result = run("explain", "--variant", "sequence", "--card", "JD", "--card", "JH", "--card", "7C")
    assert result.exit_code == 0
    assert result.output.splitlines()[1::2] == [
        "  Place a chip of your colour on an empty cell that shows this card.",  # deck order: 7C, JD, JH
        "  Place a chip of your colour on any empty cell.",
        "  Take away an opponent's chip, one that is in no line of its colour.",
    ]


def test_auto_seats_take_any_bot_the_same_way_for_a_seed():
    """`--bot` and `--seat COLOUR=bot:NAME` as for track variants (S1: red plays with 3)."""
    args = ("--variant", "sequence", "--auto", "--seed", "4", "--players", "3", "--bot", "greedy", "--seat", "red=bot:expert")
    first = run(*args)
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[1] == "Seats: 1 greedy, 2 greedy, 3 expert"
    assert run(*args).output == first.output
    bots_only = run("--variant", "sequence", "--seed", "2", "--seat", "blue=bot:expert", "--seat", "green=random")
    assert bots_only.exit_code == 0 and bots_only.output.splitlines()[1] == "Seats: 1 expert, 2 random"
    wrong = run("--variant", "sequence", "--auto", "--seat", "red=bot:expert")
    assert wrong.exit_code == 2 and "red does not play in a 2-player game" in wrong.output
