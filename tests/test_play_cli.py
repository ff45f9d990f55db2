"""`sorry-play` games without a terminal: --auto output, seats, saving and resuming computer
games, `replay`, and clear errors for people without a terminal or bad seat options."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.players.registry import make_player
from sorry_rules.compiler import load_game
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records import gamelog
from sorry_rules.records.savefile import new_save, read_save, write_save

RULES = Path(__file__).parent / "rules"
TURN_LINE = re.compile(r"^\s+\d+  \S+", re.M)


def run(*args, stdin=None, timeout=120):
    """`sorry-play ARGS` in this process (click's CliRunner: stdin and stdout are not terminals,
    as in a pipe); tests/test_golden_games.py runs the command itself."""
    result = CliRunner().invoke(main, list(args), input=stdin or "")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def test_auto_output_is_the_same_byte_for_byte():
    a = run("--auto", "--seed", "7", "--players", "3")
    b = run("--auto", "--seed", "7", "--players", "3")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert "wins after" in a.stdout.splitlines()[-1]
    assert len(TURN_LINE.findall(a.stdout)) > 50
    assert "\x1b[" not in a.stdout


@pytest.mark.parametrize("args", [("-r", "house/bump-bonus.yaml", "--players", "3"), ("-v", "parcheesi", "--players", "2"),
                                  ("-v", "ludo", "-r", "ludo/capture-throw.yaml", "--players", "2")])
def test_a_player_who_moves_again_is_told_why_in_the_printed_game(args):
    """A printed game never shows one player twice in a row unexplained: the line before says
    the player takes another card or throw (R19's 2, H21's bump bonus, LU15, PA7's doubles:
    "draws again", "throws again") or is a redraw (turn.redraw, "throw again")."""
    done = run("--auto", "--seed", "1", *args)
    assert done.returncode == 0, done.stderr
    turns = [(line[7:15].strip(), line) for line in done.stdout.splitlines() if TURN_LINE.match(line)]
    kept = [(line, following) for (player, line), (after, following) in zip(turns, turns[1:]) if player == after]
    assert kept, "no player moved twice in a row in this game: choose another seed"
    unexplained = [pair for pair in kept if not re.search(r"(draws|throws|plays) again$|again \(", pair[0])]
    assert not unexplained, unexplained[:3]


def test_auto_with_a_bot_kind_and_seats():
    done = run("--auto", "--seed", "3", "--players", "2", "--bot", "greedy", "--seat", "yellow=bot:random")
    assert done.returncode == 0, done.stderr
    assert "wins after" in done.stdout
    other = run("--auto", "--seed", "3", "--players", "2")
    assert other.stdout != done.stdout


def test_every_seat_a_bot_needs_no_auto_flag():
    done = run("--seed", "4", "--players", "2", "--seat", "red=bot:expert", "--seat", "yellow=greedy")
    assert done.returncode == 0, done.stderr
    assert "wins after" in done.stdout


def test_a_person_without_a_terminal_is_told_to_use_auto():
    done = run("--seed", "1", stdin="1\n")
    assert done.returncode == 2
    assert "no terminal" in done.stderr and "--auto" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args, message", [
    (["--seat", "purple=human"], "no colour 'purple'"),
    (["--players", "2", "--seat", "blue=bot"], "blue does not play in a 2-player game"),
    (["--seat", "red=wizard"], "unknown player kind 'wizard'"),
    (["--seat", "red"], "write COLOUR=KIND"),
    (["--seat", "red=human", "--seat", "red=bot"], "red is given twice"),
    (["--auto", "--seat", "red=human"], "--auto plays computer players only"),
    (["--auto", "--humans", "2"], "--auto plays computer players only"),
    (["--humans", "5"], "--humans 5: give 0 to 4 (this game has 4 seats)"),
    (["--bot", "human"], "--bot 'human'"),
    (["--resume", "x.json", "--seed", "3"], "leave out --seed"),
    (["--resume", "x.json", "--variant", "ludo"], "leave out --variant"),
])
def test_seat_option_errors(args, message):
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    done = CliRunner().invoke(main, args, input="")
    assert done.exit_code == 2, done.output
    assert message in done.stderr


def test_a_game_with_people_resumed_off_a_terminal_says_what_can_be_done(tmp_path):
    """A saved game with a person cannot go on without a terminal: the message names the
    replay, never --auto or --seat (which --resume refuses)."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main
    from sorry_rules.compiler import load_game
    from sorry_rules.records.savefile import new_save, write_save

    game = load_game("standard")
    state = game.new_game(3, players=2)
    path = tmp_path / "people.json"
    write_save(path, new_save(game, "standard", (), 3, state, ["human", "bot:greedy"], 100))
    done = CliRunner().invoke(main, ["--resume", str(path)], input="")
    assert done.exit_code == 2, done.output
    assert f"sorry-play replay {path}" in done.stderr and "--auto" not in done.stderr and "--seat" not in done.stderr


def test_replay_shows_the_saved_game(tmp_path):
    path = tmp_path / "auto.json"
    played = run("--auto", "--seed", "11", "--players", "2", "--save", str(path))
    assert played.returncode == 0, played.stderr
    saved = read_save(path)
    assert saved.finished and saved.kinds == ["bot:random", "bot:random"]
    shown = run("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert TURN_LINE.findall(shown.stdout) == TURN_LINE.findall(played.stdout)
    assert played.stdout.splitlines()[-1] in shown.stdout
    boards = run("replay", "--boards", str(path))
    assert boards.stdout.count("Last moves:") == saved.plies


def test_interrupted_auto_game_resumes_to_the_same_end(tmp_path):
    """Save, interrupt, resume: the same final state and the same moves as the game played
    straight through from the same seed."""
    whole = tmp_path / "whole.json"
    straight = run("--auto", "--seed", "21", "--players", "3", "--bot", "greedy", "--save", str(whole))
    assert straight.returncode == 0, straight.stderr
    game = load_game("standard")
    state = game.new_game(21, players=3)
    record = GameRecord(21, state.seats, state.turn)
    interrupted = play_game(game, state, [make_player("greedy", 21, s) for s in range(3)], max_plies=50, record=record)
    part = new_save(game, "standard", (), 21, state, ["bot:greedy"] * 3, 20_000)
    part.choices = list(record.choices)
    part.reached(interrupted)
    path = tmp_path / "part.json"
    write_save(path, part)
    resumed = run("--resume", str(path))
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming at move 51" in resumed.stdout
    assert TURN_LINE.findall(resumed.stdout) == TURN_LINE.findall(straight.stdout)[50:]
    assert read_save(path).state_digest == read_save(whole).state_digest
    assert read_save(path).choices == read_save(whole).choices
    again = run("--resume", str(path))
    assert again.returncode == 0 and "wins after" in again.stdout and not TURN_LINE.findall(again.stdout)


@pytest.mark.parametrize("stopping", ["SIGINT", "SIGTERM"])
def test_ctrl_c_in_an_auto_game_keeps_every_move_printed(tmp_path, stopping):
    """`--auto --save` writes its file now and then while the game runs (cli/autosave.py,
    for track and grid games alike) and whole when stopped: after Ctrl-C, or SIGTERM (`kill`,
    `timeout`), the save holds at least every move printed, resumes, and ends byte for byte
    as the game played straight through (151 moves; stopped after the 8th)."""
    import os
    import signal
    import sys

    args = ["--auto", "--seed", "13", "--players", "2", "--bot", "expert"]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert run(*args, "--save", str(whole)).returncode == 0
    # a pipe of one page: the game (9.5 kB printed) cannot run to its end before Ctrl-C, however
    # slowly this process reads on a loaded machine
    # a terminal's Ctrl-C reaches a program whose SIGINT is not ignored, whatever this process's is
    child = subprocess.Popen([sys.executable, "-m", "sorry_rules.cli", *args, "--save", str(part)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pipesize=4096,
                             env=dict(os.environ, PYTHONUNBUFFERED="1"),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    printed = 0
    try:
        while printed < 8:
            line = child.stdout.readline()
            assert line, child.communicate()
            printed += bool(TURN_LINE.match(line))
        child.send_signal(getattr(signal, stopping))
        rest, errors = child.stdout.read(), child.stderr.read()  # not communicate(): it skips what readline buffered
        child.wait(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130 and "Traceback" not in errors, errors
    assert f"every move shown is saved in {part}: continue with sorry-play --resume {part}" in errors, errors
    printed += len(TURN_LINE.findall(rest))
    stopped = read_save(part)
    assert not stopped.finished and len(stopped.choices) >= printed
    assert run("--resume", str(part)).returncode == 0
    assert part.read_bytes() == whole.read_bytes()


def test_replay_of_an_unfinished_game_says_so(tmp_path):
    game = load_game(str(RULES / "hand5.yaml"))
    state = game.new_game(2, players=2)
    record = GameRecord(2, state.seats, state.turn)
    final = play_game(game, state, [make_player("random", 2, s) for s in range(2)], max_plies=30, record=record)
    saved = new_save(game, str(RULES / "hand5.yaml"), (), 2, state, ["human", "bot:greedy"], 20_000)
    assert saved.seats == ["red", "yellow"]
    saved.choices = list(record.choices)
    saved.reached(final)
    write_save(tmp_path / "g.json", saved)
    shown = run("replay", str(tmp_path / "g.json"))
    assert shown.returncode == 0, shown.stderr
    assert "Saved after 30 moves" in shown.stdout
    assert "Red (person)" in shown.stdout
    assert "Your hand" not in shown.stdout


def test_a_game_stopped_at_max_plies_says_so(tmp_path):
    """Issue 11: `--max-plies 40` ended "No winner after 40 moves (stopped)": now it names
    the limit, in the game and in its replay."""
    path = tmp_path / "short.json"
    played = run("--auto", "--seed", "7", "--players", "4", "--max-plies", "40", "--save", str(path))
    assert played.returncode == 0, played.stderr
    assert len(TURN_LINE.findall(played.stdout)) == 40
    assert played.stdout.endswith("\nNo winner: the game was stopped at the --max-plies limit of 40 moves.\n")
    saved = read_save(path)
    assert saved.plies == 40 and saved.finished is False and saved.max_plies == 40
    shown = run("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.endswith("\nNo winner: the game was stopped at the --max-plies limit of 40 moves.\n")
    resumed = run("--resume", str(path))
    assert resumed.returncode == 0 and resumed.stdout.endswith("limit of 40 moves.\n") and not TURN_LINE.findall(resumed.stdout)


@pytest.mark.parametrize("value", ["0", "-3", "1000001"])
def test_max_plies_out_of_range_is_a_usage_error(value):
    done = run("--auto", "--seed", "1", "--max-plies", value)
    assert done.returncode == 2 and "--max-plies" in done.stderr and "Traceback" not in done.stderr


def test_a_game_log_replays_but_does_not_resume(tmp_path):
    """A game log (a record without players, as the tests write) is shown by `replay`;
    `--resume` says why it cannot continue it."""
    game = load_game("standard")
    state = game.new_game(5, players=2)
    record = GameRecord(5, state.seats, state.turn)
    final = play_game(game, state, [make_player("random", 5, s) for s in range(2)], max_plies=12, record=record)
    path = tmp_path / "log.json"
    gamelog.write_log(path, gamelog.new_log(game, "standard", (), 5, state, record.choices, final=final))
    shown = run("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert len(TURN_LINE.findall(shown.stdout)) == 12 and "(?)" in shown.stdout
    assert shown.stdout.endswith("\nRecorded after 12 moves; the game was not finished.\n")
    resumed = run("--resume", str(path))
    assert resumed.returncode == 1 and "does not say who plays each seat" in resumed.stderr
    assert f"sorry-play replay {path}" in resumed.stderr and "Traceback" not in resumed.stderr


def test_a_save_without_its_move_limit_replays_but_says_why_it_does_not_resume(tmp_path):
    """A save whose `max_plies` is null (edited by hand, checksum made again) knows its
    players but not its limit: `replay` does not offer `--resume`, `--resume` names the field
    missing, not "who plays each seat", and `--resume --max-plies N` gives it one."""
    import json

    from sorry_rules.records.record import checksum_of

    path = tmp_path / "game.json"
    assert run("--auto", "--seed", "3", "--players", "2", "--max-plies", "30", "--save", str(path)).returncode == 0
    record = json.loads(path.read_text())
    record["max_plies"] = None
    record["checksum"] = checksum_of(record)
    path.write_text(json.dumps(record))
    shown = run("replay", str(path))
    assert shown.returncode == 0 and shown.stdout.endswith("\nRecorded after 30 moves; the game was not finished.\n")
    resumed = run("--resume", str(path))
    assert resumed.returncode == 1 and "does not say its move limit (max_plies)" in resumed.stderr, resumed.stderr
    assert f"resume it with: sorry-play --resume {path} --max-plies N" in resumed.stderr
    limited = run("--resume", str(path), "--max-plies", "45")
    assert limited.returncode == 0 and "resuming at move 31" in limited.stdout, limited.stderr
    assert read_save(path).max_plies == 45


def test_levels_are_bot_kinds_and_think_bounds_a_move():
    """`--bot LEVEL` and `--seat COLOUR=bot:LEVEL` seat the levels; `--think` gives the
    searching players a time a move (the game still ends)."""
    done = run("--auto", "--seed", "5", "--players", "2", "--bot", "easy", "--seat", "yellow=bot:medium",
               "--think", "5ms", "--max-plies", "60")
    assert done.returncode == 0, done.stderr
    assert "limit of 60 moves" in done.stdout or "wins after" in done.stdout


@pytest.mark.parametrize("value", ["abc", "0", "-1s", "nan", "1e9s"])
def test_a_bad_think_time_is_a_usage_error(value):
    done = run("--auto", "--seed", "1", "--think", value)
    assert done.returncode == 2 and "--think" in done.stderr and "Traceback" not in done.stderr


def test_a_game_stopped_at_its_move_limit_resumes_with_a_higher_one(tmp_path):
    """`--resume FILE --max-plies N` plays on to the new limit (kept in the save); left out,
    the saved limit holds; a limit the game has reached already is a usage error that leaves
    the save as it was; the whole game ends as the game played straight through."""
    path, whole = tmp_path / "part.json", tmp_path / "whole.json"
    straight = run("--auto", "--seed", "1", "--players", "2", "--save", str(whole))
    assert run("--auto", "--seed", "1", "--players", "2", "--max-plies", "60", "--save", str(path)).returncode == 0
    lower = run("--resume", str(path), "--max-plies", "30")
    assert lower.returncode == 2 and "has 60 moves already" in lower.stderr
    assert read_save(path).max_plies == 60 and len(read_save(path).choices) == 60
    kept = run("--resume", str(path))
    assert "limit of 60 moves" in kept.stdout and not TURN_LINE.findall(kept.stdout)
    assert "resuming" not in kept.stdout and f"play on with: sorry-play --resume {path} --max-plies N" in kept.stdout
    higher = run("--resume", str(path), "--max-plies", "120")
    assert "resuming at move 61" in higher.stdout and "limit of 120 moves" in higher.stdout
    assert read_save(path).max_plies == 120
    rest = run("--resume", str(path), "--max-plies", "20000")
    assert rest.stdout.splitlines()[-1] == straight.stdout.splitlines()[-1]
    assert read_save(path).choices == read_save(whole).choices


@pytest.mark.parametrize("variant", ["sequence", "points", "ludo"])
def test_a_game_of_any_kind_stopped_at_its_move_limit_resumes_to_say_so(tmp_path, variant):
    """Every board kind (a grid game has no points so far) says where a game stopped at its
    move limit stands when resumed without a higher limit: no traceback, exit 0."""
    path = tmp_path / "part.json"
    assert run("--auto", "--seed", "5", "-v", variant, "--max-plies", "10", "--save", str(path)).returncode == 0
    kept = run("--resume", str(path))
    assert kept.returncode == 0, kept.stderr
    assert "limit of 10 moves" in kept.stdout and "No winner" in kept.stdout


def test_a_grid_game_stopped_early_keys_every_seated_side():
    """The key under a printed grid board names every seated side with its chips and
    sequences (S1), a side that has placed none yet too, and no colour that is not seated."""
    done = run("--auto", "-v", "sequence", "--seed", "3", "--players", "2", "--max-plies", "1")
    key = [line for line in done.stdout.splitlines() if line.startswith("* free, . empty")]
    assert key == ["* free, . empty; B blue (0 chips, 0 sequences), G green (1 chip, 0 sequences)"], done.stdout


def test_a_save_makes_missing_folders_but_never_a_folder_of_a_file(tmp_path):
    """--save FILE: missing folders on its way are made (README); a file where a folder
    should be is said as such, not as a missing file."""
    made = run("--auto", "--seed", "1", "--players", "2", "--save", str(tmp_path / "new" / "deeper" / "g.json"))
    assert made.returncode == 0 and read_save(tmp_path / "new" / "deeper" / "g.json").choices
    (tmp_path / "notes.txt").write_text("mine")
    refused = run("--auto", "--seed", "1", "--players", "2", "--save", str(tmp_path / "notes.txt" / "g.json"))
    assert refused.returncode == 1 and "notes.txt is a file, not a folder" in refused.stderr, refused.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_finished_computer_game_resumed_says_it_is_over(tmp_path):
    """`--resume` of a won computer game shows the end (no "resuming at move N + 1"), and
    `games --folder` of a folder that does not exist is a usage error, not "no saved games"."""
    path = tmp_path / "done.json"
    assert run("--auto", "--seed", "1", "--players", "2", "--save", str(path)).returncode == 0
    again = run("--resume", str(path))
    assert again.returncode == 0 and again.stdout.startswith("That game is over.\n"), again.stdout
    assert "resuming" not in again.stdout and "wins after" in again.stdout
    missing = run("games", "--folder", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no such folder" in missing.stderr


def test_ctrl_c_while_the_command_line_is_imported_exits_130_without_a_traceback(monkeypatch, capsys):
    """The entry point (cli/launch.py): a Ctrl-C that lands while Python still imports the
    commands ends the program as a Ctrl-C in a game does (status 130), with no traceback."""
    import sys

    from sorry_rules.cli import launch

    class Interrupted:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "sorry_rules.cli.app":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "sorry_rules.cli.app")
    monkeypatch.setattr(sys, "meta_path", [Interrupted, *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        launch.main()
    assert stopped.value.code == 130
    assert "Traceback" not in capsys.readouterr().err



def test_replay_read_no_further_ends_quietly(tmp_path):
    """`sorry-play replay FILE --boards | head`: the output closed early ends the command with
    status 0 and nothing on stderr, as every command does (the board printer's own handling
    exited 1)."""
    import sys

    saved = tmp_path / "game.json"
    assert run("--auto", "--seed", "1", "--players", "2", "--max-plies", "60", "--save", str(saved)).returncode == 0
    child = subprocess.Popen([sys.executable, "-m", "sorry_rules.cli", "replay", str(saved), "--boards"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline()
    child.stdout.close()
    errors = child.stderr.read()
    assert child.wait(timeout=60) == 0 and errors == b"", errors


def test_games_in_the_working_folder_says_it_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("games", "--folder", ".").stdout == "No saved games in .\n"


def test_think_without_a_thinking_player_is_said_to_change_nothing():
    """`--think` is the thinking time of the searching players; a computer-only game of others
    plays the same with it, and says so instead of taking it silently."""
    plain = run("--auto", "--seed", "1", "--players", "2", "--max-plies", "20")
    timed = run("--auto", "--seed", "1", "--players", "2", "--max-plies", "20", "--think", "0.05s")
    assert timed.stdout == plain.stdout and "warning: --think changes nothing here" in timed.stderr
    assert "--think" not in run("--auto", "--seed", "1", "--players", "2", "--max-plies", "2", "--bot", "expert",
                                "--think", "0.05s").stderr


def test_an_overlay_played_as_the_variant_is_named_with_its_base(tmp_path):
    """`--variant house/quick-game.yaml` keeps standard's `name:`; titles, saves and `games`
    name the overlay too ('standard + quick-game'), as `--rule` does, where they said
    'standard' alone; a file that names itself keeps its name."""
    from sorry_rules.records.savefile import default_save_path, name_for_people

    shown = run("--variant", "house/quick-game.yaml", "--auto", "--seed", "123", "--players", "2", "--max-plies", "1")
    assert shown.stdout.startswith("standard + quick-game: 2 players")
    assert run("--variant", "partnership", "--auto", "--seed", "1", "--max-plies", "1").stdout.startswith("partnership:")
    assert name_for_people("standard", "house/quick-game.yaml") == "standard + quick-game"
    assert name_for_people("partnership", "partnership") == "partnership"
    (tmp_path / "mine.yaml").write_text("extends: standard\nname: mine\n", encoding="utf-8")
    assert name_for_people("mine", str(tmp_path / "mine.yaml")) == "mine"
    assert default_save_path("standard + quick-game", 5).name == "standard+quick-game-5.json"


def test_long_colour_names_keep_the_card_column_and_an_empty_save_is_refused(tmp_path):
    """`--auto` prints the card in one column whatever the colour names' lengths (the column
    is as wide as the longest name); `--save ""` is a usage error naming what it needs (it
    was refused as '.' being a folder)."""
    rules = tmp_path / "odd.yaml"
    rules.write_text("extends: standard\ncolours: [dark red, blue-green, ohara, xy]\n", encoding="utf-8")
    played = run("--variant", str(rules), "--auto", "--seed", "1", "--players", "4", "--max-plies", "8")
    turns = [line for line in played.stdout.splitlines() if TURN_LINE.match(line)]
    end = 5 + 2 + len("Blue-green") + 1 + 6  # ply, gap, the longest name, space, the card right-aligned in 6
    assert len(turns) == 8 and all(line[end - 6:end].strip() and line[end:end + 2] == "  " for line in turns), turns
    refused = run("--auto", "--seed", "1", "--players", "2", "--save", "")
    assert refused.returncode == 2 and "--save needs a file name" in refused.stderr
