"""Grid games through `sorry-play` without a terminal: computer-only games with seats and
bots, saving after every move, resuming mid-game to the same end, replay, and clear errors
for damaged or foreign game records (tests/test_sequence_interactive.py plays at a terminal)."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from click.testing import CliRunner

from sorry_rules.base.errors import SaveFileError, UsageError
from sorry_rules.cli.app import main
from sorry_rules.cli.seats import seat_kinds
from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.files import read_record
from sorry_rules.records.restore import restore
from sorry_rules.records.savefile import new_save, write_save
from sorry_rules.records.storage import game_over

MOVE_LINE = re.compile(r"^\s+\d+  (?:Blue|Green|Red)(?: \(seat \d+\))?\s+\S+  (?:Blue|Green|Red) \S.*$", re.M)


def run(*args):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def test_auto_game_is_saved_after_every_move_and_replays(tmp_path):
    """A computer-only game with --save: the record says who played, is finished (S13 or a
    draw, S9), and `replay` shows the same moves and the same end."""
    path = tmp_path / "seq.json"
    played = run("--variant", "sequence", "--auto", "--seed", "11", "--players", "3", "--save", str(path))
    assert played.returncode == 0, played.stderr
    saved = read_record(path)
    assert saved.kinds == ["bot:random"] * 3 and saved.seats == ["blue", "green", "red"] and saved.finished
    assert saved.plies == len(MOVE_LINE.findall(played.stdout))
    shown = run("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert MOVE_LINE.findall(shown.stdout) == MOVE_LINE.findall(played.stdout)
    end = played.stdout.splitlines()[-1]
    assert re.fullmatch(r"[A-Z]\w+ wins after \d+ moves \(seats? [0-9, ]+\)\.|No winner: every player passed .*", end)
    assert "Blue (random), Green (random), Red (random)" in shown.stdout
    assert ("wins after" in shown.stdout) == ("wins" in end)
    assert "Sequences: Blue" in shown.stdout
    boards = run("replay", "--boards", str(path))
    assert boards.stdout.count("Last moves:") == saved.plies


def test_team_seats_bots_and_twelve_players(tmp_path):
    """S1: with 12 players each of three colours sits at four seats; `--seat` names them in
    seat order, `--bot` sets the others."""
    path = tmp_path / "twelve.json"
    played = run("--variant", "sequence", "--auto", "--seed", "4", "--players", "12", "--bot", "random",
                 "--seat", "red=bot:random", "--save", str(path))
    assert played.returncode == 0, played.stderr
    assert "Seats:" not in played.stdout
    saved = read_record(path)
    assert saved.seats == ["blue", "green", "red"] * 4 and saved.finished
    mixed = run("--variant", "sequence", "--auto", "--seed", "4", "--players", "4", "--seat", "green=bot:random",
                "--seat", "green=human", "--max-plies", "3")
    assert mixed.returncode == 2 and "--auto plays computer players only" in mixed.stderr
    game = load_game("sequence")
    seats = game.seats_for(4)
    assert seat_kinds(game.colours, seats, ("green=human", "blue=bot:expert", "green=bot:random")) == \
        ["bot:expert", "human", "bot:greedy", "bot:random"]
    with pytest.raises(UsageError, match="green is given more often than its 2 seats"):
        seat_kinds(game.colours, seats, ("green=human", "green=human", "green=human"))
    with pytest.raises(UsageError, match="red does not play in a 4-player game"):
        seat_kinds(game.colours, seats, ("red=human",))


def test_interrupted_grid_game_resumes_to_the_same_end(tmp_path):
    """Resume mid-game: the same moves and the same final state as the game played straight
    through from the same seed."""
    whole = tmp_path / "whole.json"
    straight = run("--variant", "sequence", "--auto", "--seed", "21", "--players", "4", "--save", str(whole))
    assert straight.returncode == 0, straight.stderr
    game = load_game("sequence")
    state = game.new_game(21, players=4)
    record = GameRecord(21, state.seats, state.turn)
    part_state = play_game(game, state, [make_player("random", 21, s) for s in range(4)], max_plies=30, record=record)
    part = new_save(game, "sequence", (), 21, state, ["bot:random"] * 4, 20_000)
    part.choices = list(record.choices)
    part.reached(part_state)
    path = tmp_path / "part.json"
    write_save(path, part)
    resumed = run("--resume", str(path))
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming at move 31" in resumed.stdout
    assert MOVE_LINE.findall(resumed.stdout) == MOVE_LINE.findall(straight.stdout)[30:]
    assert read_record(path).choices == read_record(whole).choices
    assert read_record(path).state_digest == read_record(whole).state_digest
    again = run("--resume", str(path))
    assert again.returncode == 0 and not MOVE_LINE.findall(again.stdout)


def test_stopped_grid_game_says_so_in_the_game_and_the_replay(tmp_path):
    path = tmp_path / "short.json"
    played = run("--variant", "grid/mini-grid.yaml", "--auto", "--seed", "2", "--max-plies", "6", "--save", str(path))
    assert played.returncode == 0, played.stderr
    assert played.stdout.endswith("No winner: the game was stopped at the --max-plies limit of 6 moves.\n")
    saved = read_record(path)
    assert saved.plies == 6 and saved.finished is False
    shown = run("replay", str(path))
    assert shown.stdout.endswith("No winner: the game was stopped at the --max-plies limit of 6 moves.\n")


@pytest.mark.parametrize("damage, message", [
    (lambda text: text[: len(text) // 2], "damaged or truncated"),
    (lambda text: text.replace('"seed":5', '"seed":6'), "edited or damaged (checksum mismatch)"),
    (lambda text: "[1, 2]", "not a sorry-rules game record"),
])
def test_a_damaged_grid_record_is_a_clear_error(tmp_path, damage, message):
    path = tmp_path / "g.json"
    assert run("--variant", "sequence", "--auto", "--seed", "5", "--max-plies", "10", "--save", str(path)).returncode == 0
    path.write_text(damage(path.read_text()))
    for args in (("--resume", str(path)), ("replay", str(path))):
        result = run(*args)
        assert result.returncode == 1, result.stdout
        assert message in result.stderr and "Traceback" not in result.stderr


def _rewritten(path, **fields):
    """The record at `path` with `fields` replaced and a valid checksum: the file is well
    formed, only the game in it is wrong."""
    saved = read_record(path)
    for name, value in fields.items():
        setattr(saved, name, value)
    write_save(path, saved)


def test_a_record_that_does_not_fit_the_grid_game_is_refused(tmp_path):
    path = tmp_path / "g.json"
    assert run("--variant", "sequence", "--auto", "--seed", "5", "--max-plies", "10", "--save", str(path)).returncode == 0
    saved = read_record(path)
    _rewritten(path, choices=[999] + saved.choices[1:])
    result = run("--resume", str(path))
    assert result.returncode == 1 and "the recorded moves do not fit the game" in result.stderr
    _rewritten(path, choices=saved.choices, seats=["green", "blue"])
    result = run("replay", str(path))
    assert result.returncode == 1 and "are not the seating of sequence for 2 players" in result.stderr


def test_a_drawn_grid_game_is_over_and_its_record_finished():
    """S9: when every seat has passed the game ends with no winner; the record says finished."""
    game = load_game("sequence")
    state = game.new_game(1, players=2)
    drawn = state._replace(over=True)
    assert game_over(drawn) and not game_over(state)
    saved = new_save(game, "sequence", (), 1, state, ["bot:random"] * 2, 100)
    saved.reached(drawn)
    assert saved.finished is True


def test_restore_rebuilds_the_grid_game_exactly(tmp_path):
    path = tmp_path / "g.json"
    assert run("--variant", "sequence", "--auto", "--seed", "8", "--players", "2", "--save", str(path)).returncode == 0
    saved = read_record(path)
    game, state = restore(saved, str(path))
    assert state.plies == saved.plies and game_over(state)
    data = json.loads(path.read_text())
    assert data["format"] == "sorry-rules-game" and data["version"] == 2
    with pytest.raises(SaveFileError, match=f"the game ended after {saved.plies} moves but the record has"):
        saved.choices = saved.choices + [0]
        saved.plies += 1
        restore(saved, str(path))


def test_counts_are_said_in_the_singular_for_one():
    """'1 sequence', '1 chip' (not '1 sequences'), in the printed board's key and on the replay page."""
    from sorry_rules.cli.gridplay import board_lines
    from sorry_rules.pictures.replaypage import grid_frames

    game = load_game("grid/mini-grid.yaml")
    row = [game.grid.cell_names.index(name) for name in ("ay", "by", "cy", "dy")]   # four in a row: one line
    placement = (tuple(row), (game.grid.cell_names.index("ez"),), ())
    key = board_lines(game, placement)[-1]
    assert "(4 chips, 1 sequence)" in key and "(1 chip, 0 sequences)" in key
    state = game.new_game(1, players=2)._replace(placement=placement)
    facts = [text for _, text in grid_frames(game, state, [], None)[0].facts]
    assert facts == ["amber: 4 chips, 1 sequence", "teal: 1 chip, 0 sequences"]
