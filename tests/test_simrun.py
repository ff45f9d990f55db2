"""Long simulation runs: Ctrl-C gives the figures of the finished games (exit 130), results
files (`--out`) are read back (`--from`) and continued (`--continue`) to exactly the figures
of an uninterrupted run, and a file that does not belong to the command is refused.

Games per test are few (2 players, random bots); the two SIGINT tests run a subprocess for
a second or two each."""

from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.simulation import simfile
from sorry_rules.simulation.simexec import run
from sorry_rules.simulation.simulate import Setup, Tally, batches, compiled, game_seed, load_source, play_one

ROOT = Path(__file__).resolve().parent.parent
BASE = ("--players", 2, "--seed", 3, "--jobs", 1, "--batch-size", 4)


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _json(*args, code: int = 0) -> dict:
    result = _invoke(*args, "--format", "json")
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def _figures(report: dict) -> dict:
    """A report without its run block (timing) and without why it is partial."""
    return {k: v for k, v in report.items() if k not in ("run", "partial_reason")}


PROC = Path("/proc")


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc; empty elsewhere)."""
    found = []
    for stat in PROC.glob("[0-9]*/stat") if PROC.is_dir() else ():
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


@pytest.fixture(scope="module")
def dask_address():
    """A Dask cluster of threads in this process, for the tests of this module that use one."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def setup():
    source, _ = load_source("standard")
    return Setup(source, 2, ("random", "random"), 3, 20_000)


# ---- per-game results and stopping ---------------------------------------------------------


def test_a_stopped_run_tallies_exactly_the_games_it_finished(setup):
    """Stopping after the first batch: the tally is the sum of the games reported one by one,
    and each of them is the game its index plays alone."""
    stop = threading.Event()
    seen = []
    details = {}
    tallies = run({"a": (setup, 40)}, jobs=1, batch_size=3, details=details, stop=stop,
                  on_result=lambda name, result: seen.append(result), on_progress=lambda done: stop.set())
    assert details["interrupted"] is True
    assert [r.game for r in seen] == [0]          # one job: each game is reported as it ends
    game = compiled(setup.source)
    expected = Tally(2)
    for result in seen:
        assert result == play_one(game, setup, result.game)
        expected.add(result)
    assert tallies["a"] == expected and tallies["a"].games == 1


def test_a_stop_after_the_last_game_is_no_interruption(setup):
    stop = threading.Event()
    details = {}
    tallies = run({"a": (setup, 3)}, jobs=1, details=details, stop=stop,
                  on_progress=lambda done: done == 3 and stop.set())
    assert stop.is_set() and details["interrupted"] is False and tallies["a"].games == 3


def test_a_stopped_pool_run_collects_the_games_in_progress(setup):
    """With two workers, games finished after the stop are collected too: the tally is
    exactly the games reported, whatever their order."""
    stop = threading.Event()
    seen = []
    tallies = run({"a": (setup, 400)}, jobs=2, batch_size=10, stop=stop,
                  on_result=lambda name, result: seen.append(result), on_progress=lambda done: stop.set())
    assert 0 < len(seen) < 400 and len({r.game for r in seen}) == len(seen)
    expected = Tally(2)
    for result in sorted(seen):
        expected.add(result)
    assert tallies["a"] == expected


def test_a_stopped_dask_run_tallies_exactly_the_games_it_collected(setup, dask_address):
    """On Dask a stop cancels the batches still running: the tally is the games collected."""
    stop = threading.Event()
    seen = []
    details = {}
    tallies = run({"a": (setup, 200)}, engine="dask", scheduler=dask_address, batch_size=2,
                  stop=stop, details=details, on_result=lambda name, result: seen.append(result),
                  on_progress=lambda done: stop.set())
    assert details["interrupted"] is True and 0 < len(seen) < 200
    expected = Tally(2)
    for result in sorted(seen):
        expected.add(result)
    assert tallies["a"] == expected


def test_batches_leave_out_the_games_done():
    assert list(batches(10, 4, {0, 1, 5})) == [(2, 3), (6, 4)]
    assert list(batches(7, 3, set())) == [(0, 3), (3, 3), (6, 1)]
    assert list(batches(3, 2, {0, 1, 2})) == []


# ---- SIGINT to a running command -----------------------------------------------------------


@pytest.mark.parametrize("jobs, stopping", [(1, "SIGINT"), (2, "SIGINT"), (2, "SIGTERM")])
def test_sigint_prints_the_finished_games_and_exits_130(tmp_path, jobs, stopping):
    """Ctrl-C to the command, and SIGTERM to its whole process group as `timeout` and a
    cancelled CI job send it (the workers ignore it, the parent stops the run), end a run
    alike: the finished games reported, the results file holding exactly them, exit 130."""
    out = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "sorry_rules", "simulate", "--games", "100000", "--players", "2",
               "--jobs", str(jobs), "--batch-size", "2", "--out", str(out), "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                               start_new_session=stopping == "SIGTERM")
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and len(_lines(out)) >= 4):   # the header and three games
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.01)
        workers = _children(process.pid)
        if stopping == "SIGTERM":
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    if jobs > 1 and PROC.is_dir():   # the pool's processes ended with it (none left running or unreaped)
        assert len(workers) >= jobs - 1
        deadline = time.monotonic() + 10
        while any((PROC / str(pid)).exists() for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any((PROC / str(pid)).exists() for pid in workers)
    assert "Traceback" not in stderr and f"--continue {out}" in stderr
    report = json.loads(stdout)
    assert report["partial"] is True and report["partial_reason"] == "interrupted"
    assert 3 <= report["games_finished"] == report["games"] < report["games_planned"] == 100000
    assert report["run"]["games"] == report["games"]
    assert len(_lines(out)) == 1 + report["games"]
    # the file holds exactly the games reported
    from_file = _json("simulate", "--from", out)
    assert from_file["partial_reason"] == "the results file holds only these"
    assert _figures(from_file) == _figures(report)


def test_text_report_of_a_partial_run_says_so(tmp_path):
    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 6, *BASE, "--out", out).exit_code == 0
    lines = _lines(out)
    out.write_bytes(b"".join(lines[:4]))
    text = _invoke("simulate", "--from", out)
    assert text.exit_code == 0
    assert text.stdout.startswith("PARTIAL: 3 of 6 games finished (the results file holds only these)")
    assert "standard: 3 games, 2 players" in text.stdout


# ---- --out, --from, --continue ------------------------------------------------------------
def test_a_results_file_in_a_missing_folder_is_refused_in_the_words_of_the_other_writers(tmp_path):
    """`--out` in a folder that does not exist says so as `--html` and `--plot` do."""
    out = tmp_path / "nowhere" / "run.jsonl"
    result = _invoke("simulate", "--games", 2, *BASE, "--out", out)
    assert result.exit_code == 1 and f"cannot write {out}: no such folder '{out.parent}'" in result.output




def test_out_then_from_gives_the_figures_of_the_run(tmp_path):
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 12, *BASE, "--out", out)
    lines = _lines(out)
    assert len(lines) == 13 and all(line.endswith(b"\n") for line in lines)
    head = json.loads(lines[0])
    assert head["command"] == "simulate" and head["sides"]["a"]["games"] == 12
    assert head["sides"]["a"]["content_hash"] == full["variant"]["content_hash"]
    assert sorted(json.loads(line)["game"] for line in lines[1:]) == list(range(12))
    from_file = _json("simulate", "--from", out)
    assert "run" not in from_file and "partial" not in from_file
    assert _figures(from_file) == _figures(full)


def test_from_names_the_options_to_leave_out_as_they_are_written(tmp_path):
    """`--from` takes the games and their options from the file: an option given beside it is
    named as `--help` spells it (`--rule`, `--a-rule`), not by its parameter's name."""
    out = tmp_path / "run.jsonl"
    _json("simulate", "--games", 2, *BASE, "--out", out)
    result = _invoke("simulate", "--from", out, "--rule", "house/quick-game.yaml", "--players", 3)
    assert result.exit_code == 2 and "leave out --rule, --players" in result.output, result.output
    pair = tmp_path / "pair.jsonl"
    assert _invoke("compare", "standard", "standard", "--games", 2, *BASE, "--out", pair).exit_code == 0
    result = _invoke("compare", "--from", pair, "--a-rule", "house/deck-44.yaml")
    assert result.exit_code == 2 and "leave out --a-rule" in result.output, result.output


def test_each_game_line_carries_the_seed_that_replays_it(tmp_path):
    """README: with random bots game i is `sorry-play --auto --seed <its seed>`; the results
    file gives that seed on the game's line, and the game played from it ends alike."""
    out = tmp_path / "run.jsonl"
    _json("simulate", "--games", 3, *BASE, "--out", out)
    line = json.loads(_lines(out)[2])
    assert line["seed"] == game_seed(3, line["game"])
    played = _invoke("--auto", "--players", 2, "--seed", line["seed"])
    assert played.exit_code == 0 and f"after {line['plies']} moves" in played.output.splitlines()[-1], played.output
    assert _json("simulate", "--from", out)["games"] == 3


def test_continue_after_a_torn_file_gives_the_uninterrupted_report(tmp_path):
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 12, *BASE, "--out", out)
    lines = _lines(out)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:6]) + lines[6][:25])         # five games and a torn line
    result = _invoke("simulate", "--games", 12, *BASE, "--continue", cut, "--format", "json")
    assert result.exit_code == 0, result.output
    assert "last line is torn" in result.stderr
    continued = json.loads(result.stdout)
    assert continued["run"]["games"] == 7
    assert json.dumps(_figures(continued)) == json.dumps(_figures(full))
    again = simfile.read(cut)
    assert not again.warnings and sorted(again.results["a"]) == list(range(12))
    assert len(_lines(cut)) == 13


def test_continue_fills_the_gaps_left_by_out_of_order_batches(tmp_path):
    """With several workers a stopped run's file holds games in any order, with gaps."""
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 12, *BASE, "--out", out)
    head, *games = _lines(out)
    kept = [line for line in games if json.loads(line)["game"] in (1, 2, 6, 10, 11)]
    out.write_bytes(b"".join([head, *reversed(kept)]))
    continued = _json("simulate", "--games", 12, *BASE, "--continue", out)
    assert continued["run"]["games"] == 7 and _figures(continued) == _figures(full)
    assert sorted(simfile.read(out).results["a"]) == list(range(12))


def test_out_and_continue_on_dask_give_the_local_figures(tmp_path, dask_address):
    """A results file written on a Dask cluster (games in the order they come back) and
    continued there holds the games of the local run and gives its report."""
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 12, *BASE)
    dask = ("--players", 2, "--seed", 3, "--engine", "dask", "--batch-size", 2, "--scheduler", dask_address)
    first = _json("simulate", "--games", 12, *dask, "--out", out)
    head, *games = _lines(out)
    out.write_bytes(b"".join([head, *games[3:9]]))
    continued = _json("simulate", "--games", 12, *dask, "--continue", out)
    assert continued["run"]["games"] == 6
    assert _figures(first) == _figures(continued) == _figures(full)
    assert sorted(simfile.read(out).results["a"]) == list(range(12))


def test_continue_of_a_complete_file_plays_nothing(tmp_path):
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 5, *BASE, "--out", out)
    again = _json("simulate", "--games", 5, *BASE, "--continue", out)
    assert again["run"]["games"] == 0 and _figures(again) == _figures(full)
    assert len(_lines(out)) == 6


def test_compare_keeps_both_sides_in_one_file(tmp_path):
    out = tmp_path / "cmp.jsonl"
    args = ("compare", "standard", "standard+house/sorry-forward-4.yaml", "--games", 8, *BASE)
    full = _json(*args, "--out", out)
    lines = _lines(out)
    assert sorted(json.loads(line)["side"] for line in lines[1:]) == ["a"] * 8 + ["b"] * 8
    out.write_bytes(b"".join(lines[:11]))  # games 0-5 of side a, 0-3 of side b (batches of 4 taking turns)
    partial = _json("compare", "--from", out)
    # only the games both sides finished are compared: 0-3 of each; a's games 4 and 5 are left out
    assert partial["partial"] is True and partial["games_finished"] == 8 and partial["games_planned"] == 16
    assert partial["a"]["games"] == partial["b"]["games"] == 4
    assert partial["partial_reason"].endswith("; 2 more games finished on one side only, left out: only games both sides finished are compared")
    continued = _json(*args, "--continue", out)
    assert _figures(continued) == _figures(full)
    assert _figures(_json("compare", "--from", out)) == _figures(full)


# ---- refusals ------------------------------------------------------------------------------


def test_continue_refuses_a_file_of_other_options(tmp_path):
    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 4, *BASE, "--out", out).exit_code == 0
    before = out.read_bytes()
    result = _invoke("simulate", "--games", 5, *BASE[:3], 4, *BASE[4:], "--continue", out)
    assert result.exit_code == 2
    assert "games: file 4, command 5" in result.stderr and "seed: file 3, command 4" in result.stderr
    assert "Traceback" not in result.output
    compare = _invoke("compare", "standard", "standard", "--games", 4, *BASE, "--continue", out)
    assert compare.exit_code == 2 and "holds a simulate run, not a compare run" in compare.stderr
    sides = _invoke("compare", "standard", "standard", "--from", out)
    assert sides.exit_code == 2 and "leave out A, B" in sides.stderr
    players = _invoke("simulate", "--continue", out, "--players", 3)  # its bots are the file's two: named as players
    assert players.exit_code == 2 and "players: file 2, command 3" in players.stderr, players.stderr
    several = _invoke("simulate", "--continue", out, "--players", 3, "--seed", 4)  # every difference, not the first
    assert several.exit_code == 2 and "players: file 2, command 3; seed: file 3, command 4" in several.stderr, \
        several.stderr
    rotated = _invoke("simulate", "--continue", out, "--rotate")  # the values as the command line writes them
    assert rotated.exit_code == 2 and "rotate: file false, command true" in rotated.stderr, rotated.stderr
    assert out.read_bytes() == before
    spelled = _invoke("simulate", "--continue", out, "--variant", "standard.yaml")  # the same rules, spelled otherwise
    assert spelled.exit_code == 0, spelled.stderr
    cmp = tmp_path / "cmp.jsonl"
    assert _invoke("compare", "standard", "standard", "--games", 2, *BASE, "--out", cmp).exit_code == 0
    ruled = _invoke("compare", "--continue", cmp, "--rule", "house/freeze.yaml")
    assert ruled.exit_code == 2 and "plays the file's own two sides" in ruled.stderr, ruled.stderr


def test_continue_refuses_changed_rules(tmp_path):
    overlay = tmp_path / "house.yaml"
    overlay.write_text("extends: standard\nboard:\n  slides: []\n", encoding="utf-8")
    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 3, *BASE, "--rule", overlay, "--out", out).exit_code == 0
    overlay.write_text("extends: standard\n", encoding="utf-8")
    result = _invoke("simulate", "--games", 3, *BASE, "--rule", overlay, "--continue", out)
    assert result.exit_code == 2 and "content_hash: file" in result.stderr


def _rehash(header: bytes, change) -> bytes:
    """The header line with its rule data changed by `change` and its digest made to match."""
    from sorry_rules.rules.loader import content_hash

    head = json.loads(header)
    change(head["rule_data"]["a"])
    head["sides"]["a"]["content_hash"] = content_hash(head["rule_data"]["a"])
    return json.dumps(head).encode() + b"\n"


@pytest.mark.parametrize("damage, message", [
    (lambda lines: [b"not json\n", *lines[1:]], "not a results file"),
    (lambda lines: [lines[0], b"{oops\n", *lines[2:]], ":2: not a game result of this file"),
    (lambda lines: [lines[0], lines[1].replace(b'"turns":', b'"turns":-'), *lines[2:]], ":2: bad game result"),
    (lambda lines: [lines[0], re.sub(rb'"turns":\d+', b'"turns":' + b"9" * 30, lines[1]), *lines[2:]],
     ":2: bad game result: a game has at most"),     # more turns than any game has plies
    (lambda lines: [lines[0], re.sub(rb'"plies":\d+', b'"plies":1', lines[1]), *lines[2:]],
     ":2: bad game result: a game has at most"),     # fewer plies than turns
    (lambda lines: [lines[0], re.sub(rb'"bot":"[a-z]+"', b'"bot":"zzz"', lines[1]), *lines[2:]],
     ":2: bad game result: bot 'zzz' plays no seat"),  # a winner's bot the run has not
    (lambda lines: [lines[0], re.sub(rb'"turns":\d+', b'"turns":NaN', lines[1]), *lines[2:]],
     ":2: not a game result of this file"),          # a whole line with a number JSON has not
    (lambda lines: [*lines[:-1], re.sub(rb'"turns":\d+', b'"turns":1e999', lines[-1])],
     ":4: not a game result of this file"),          # the same on the last line, which ends whole: not torn
    (lambda lines: [lines[0], lines[1], lines[1].replace(b'"plies":', b'"plies":1'), *lines[2:]],
     ":3: game 0 is already in the file with other results"),
    (lambda lines: [lines[0].replace(b'"pawns":4', b'"pawns":3'), *lines[1:]], ":1: the rule data of side a"),
    (lambda lines: [lines[0].replace(b'"games":3', b'"games":2'), *lines[1:]], "out of range"),
    (lambda lines: [_rehash(lines[0], lambda data: data.update(pawns="four")), *lines[1:]],
     ":1: the rules of side a stored in the file do not load"),
    (lambda lines: [lines[0].replace(b'"sides"', b'"sidez"'), *lines[1:]], ":1: the header is incomplete"),
    (lambda lines: [lines[0].replace(b'"players":2', b'"players":"2"'), *lines[1:]], ":1: the header is damaged"),
])
def test_damaged_files_are_refused_with_their_line(tmp_path, damage, message):
    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 3, *BASE, "--out", out).exit_code == 0
    lines = sorted(_lines(out)[1:], key=lambda line: json.loads(line)["game"])
    out.write_bytes(b"".join(damage([_lines(out)[0], *lines])))
    result = _invoke("simulate", "--from", out)
    assert result.exit_code == 1, result.output
    assert message in result.stderr and "Traceback" not in result.output


def test_identical_repeated_games_count_once(tmp_path):
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 3, *BASE, "--out", out)
    lines = _lines(out)
    out.write_bytes(b"".join([*lines, lines[1]]))
    assert _figures(_json("simulate", "--from", out)) == _figures(full)


@pytest.mark.parametrize("args, message", [
    (["--out", "{out}"], "exists: continue it with --continue"),
    (["--from", "{out}", "--games", "5"], "leave out --games"),
    (["--from", "{out}", "--out", "{other}"], "at most one of --out, --from and --continue"),
])
def test_options_that_do_not_fit_are_refused(tmp_path, args, message):
    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 2, *BASE, "--out", out).exit_code == 0
    result = _invoke("simulate", *[a.format(out=out, other=tmp_path / "x.jsonl") for a in args])
    assert result.exit_code in (1, 2) and message in result.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_a_run_that_fails_to_start_leaves_no_file(tmp_path):
    out = tmp_path / "run.jsonl"
    result = _invoke("simulate", "--games", 2, "--engine", "dask", "--out", out)
    assert result.exit_code == 2 and "--scheduler" in result.stderr
    assert not out.exists()


def test_compare_needs_its_sides_or_a_file():
    result = _invoke("compare", "standard", "--games", 2)
    assert result.exit_code == 2 and "two sides A and B" in result.stderr


def test_a_full_disk_is_a_message_not_a_traceback(tmp_path, setup):
    class FullDisk:
        def write(self, data):
            raise OSError(28, "No space left on device")

    out = tmp_path / "run.jsonl"
    assert _invoke("simulate", "--games", 2, *BASE, "--out", out).exit_code == 0
    writer = simfile.Writer(out, keep=len(_lines(out)[0]))
    writer.file.close()
    writer.file = FullDisk()
    with pytest.raises(simfile.ResultsFileError, match="cannot write .*No space left on device"):
        writer.add("a", play_one(compiled(setup.source), setup, 0))


@pytest.mark.parametrize("command", [("simulate",), ("compare", "standard", "standard+house/quick-game.yaml")])
def test_a_disk_that_fills_during_a_run_is_one_message(tmp_path, monkeypatch, command):
    """The games' lines go to a full disk (/dev/full: a write is kept in the buffer, its flush
    and the close fail): one `cannot write` line and exit 1, not a traceback from closing."""
    started = simfile.Writer.__init__

    def onto_a_full_disk(self, *args, **kwargs):
        started(self, *args, **kwargs)
        self.file.close()
        self.file = open("/dev/full", "wb")

    monkeypatch.setattr(simfile.Writer, "__init__", onto_a_full_disk)
    result = _invoke(*command, "--games", 4, *BASE, "--out", tmp_path / "run.jsonl")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "cannot write" in result.stderr and "No space left on device" in result.stderr


def test_ctrl_c_to_the_whole_group_while_workers_start(tmp_path):
    """A terminal's Ctrl-C reaches every process of the group, the pool's workers too, even
    while they are still importing: they must not die of it (a dead worker breaks the pool)."""
    command = [sys.executable, "-m", "sorry_rules", "simulate", "--games", "100000", "--players", "2", "--jobs", "3",
               "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2:   # two workers (3 jobs) just started (spawned: still importing)
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    report = json.loads(stdout)
    assert report["partial"] is True and report["games_finished"] == report["games"] < 100000


@pytest.mark.slow
def test_ctrl_c_to_the_whole_group_on_a_local_dask_cluster(tmp_path):
    """`--scheduler local`: a terminal's Ctrl-C reaches the cluster's processes too; they
    ignore it, and the command stops with the figures of the games collected (exit 130)."""
    out = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "sorry_rules", "simulate", "--games", "100000", "--players", "2", "--engine", "dask",
               "--scheduler", "local", "--jobs", "2", "--batch-size", "5", "--out", str(out), "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (out.exists() and len(_lines(out)) >= 4):
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and f"--continue {out}" in stderr
    report = json.loads(stdout)
    assert report["partial"] is True and 3 <= report["games"] < 100000
    assert _figures(_json("simulate", "--from", out)) == _figures(report)


def test_continue_alone_takes_the_options_from_the_file(tmp_path):
    """`--continue FILE` with no other option continues the run the file holds (its sides,
    games, players, bots, seed ...); an option given must still agree with the file."""
    out = tmp_path / "run.jsonl"
    full = _json("simulate", "--games", 6, "--bots", "greedy,random", *BASE, "--out", out)
    out.write_bytes(b"".join(_lines(out)[:4]))
    continued = _json("simulate", "--continue", out, "--jobs", 1)
    assert continued["run"]["games"] == 3 and _figures(continued) == _figures(full)
    again = _invoke("simulate", "--continue", out, "--seed", 9)
    assert again.exit_code == 2 and "seed: file 3, command 9" in again.stderr
    agreeing = _json("simulate", "--continue", out, "--games", 6, "--players", 2)
    assert agreeing["run"]["games"] == 0 and _figures(agreeing) == _figures(full)


def test_compare_continue_alone_takes_both_sides_from_the_file(tmp_path):
    out = tmp_path / "cmp.jsonl"
    full = _json("compare", "standard", "standard+house/sorry-forward-4.yaml", "--games", 6, *BASE, "--out", out)
    out.write_bytes(b"".join(_lines(out)[:6]))
    continued = _json("compare", "--continue", out)
    assert _figures(continued) == _figures(full)


def _interrupted(command: list, out: Path, lines: int) -> tuple:
    """(exit code, stdout, stderr) of `command` sent SIGINT once its results file `out` has
    `lines` lines."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and len(_lines(out)) >= lines):
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, stdout, stderr


def test_sigint_to_compare_reports_only_the_games_both_sides_finished(tmp_path):
    command = [sys.executable, "-m", "sorry_rules", "compare", "standard", "standard+house/quick-game.yaml",
               "--games", "100000", "--players", "2", "--jobs", "1", "--batch-size", "3", "--format", "json",
               "--out", str(tmp_path / "cmp.jsonl")]
    out = tmp_path / "cmp.jsonl"
    code, stdout, stderr = _interrupted(command, out, 6)     # the header, side a's first batch, b's first games
    assert code == 130, stderr
    report = json.loads(stdout)
    assert report["partial"] is True
    assert report["a"]["games"] == report["b"]["games"] >= 1
    assert report["games_finished"] == 2 * report["a"]["games"]
    sides = {}
    for line in _lines(out)[1:]:
        game = json.loads(line)
        sides.setdefault(game["side"], set()).add(game["game"])
    assert report["a"]["games"] == len(sides["a"] & sides["b"])


@pytest.mark.parametrize("ignored_at_start", [False, True])
def test_a_second_ctrl_c_ends_the_run_even_where_sigint_began_ignored(ignored_at_start):
    """The first SIGINT sets the run's stop flag; the second raises KeyboardInterrupt (the
    command's exit 130, no report), also in a process that began with SIGINT ignored (a job a
    script put in the background), where Python has no handler of its own. In a process of
    its own: the signal's disposition is the process's, not this test's to change."""
    script = f"""
import signal
from sorry_rules.simulation.simsignals import stop_on_ctrl_c
if {ignored_at_start}:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
before = signal.getsignal(signal.SIGINT)
with stop_on_ctrl_c(None) as flag:
    signal.raise_signal(signal.SIGINT)
    assert flag.is_set()
    try:
        signal.raise_signal(signal.SIGINT)
        raise SystemExit("the second SIGINT did not interrupt")
    except KeyboardInterrupt:
        pass
assert signal.getsignal(signal.SIGINT) == before
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
