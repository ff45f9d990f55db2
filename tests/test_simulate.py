"""`sorry-play simulate` and `compare`: seeded games tallied exactly, the same figures
whatever the jobs, batches or engine, per-bot statistics, clean errors, lazy imports.

Games per test are kept small (a few hundred in the whole file)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from sorry_rules.players import registry as bots
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.engine.rng import seed_state
from sorry_rules.players.runner import play_game
from sorry_rules.cli.simulate import split_side
from sorry_rules.simulation.simulate import METRICS, TRACK_METRICS, Setup, compiled, load_source, play_batch


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _json(*args) -> dict:
    result = _invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _figures(report: dict) -> dict:
    """A report without its run block (timing, jobs, engine, batch size)."""
    return {k: v for k, v in report.items() if k != "run"}


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


@pytest.fixture
def no_slides(tmp_path):
    path = tmp_path / "no-slides.yaml"
    path.write_text("extends: standard\nboard:\n  slides: []\n", encoding="utf-8")
    return path


class FirstMove:
    """Test-only bot: always the first legal move (deterministic, ignores its seed)."""

    name = "first"

    def __init__(self, *seed_parts):
        pass

    def choose(self, view, moves):
        return 0


@pytest.fixture
def first_bot(monkeypatch):
    monkeypatch.setitem(bots.BOTS, "first", FirstMove)


# ---- seeds and counting --------------------------------------------------------------------


def test_game_i_is_the_auto_game_of_its_documented_seed(standard):
    """Game i of seed S is new_game(seed_state("simulate", S, i)) with bots seeded (that seed,
    seat): exactly `sorry-play --auto --seed <that seed>` (R3 first player from the seed)."""
    source, _ = load_source("standard")
    setup = Setup(source, 3, ("random",) * 3, 11, 20_000)
    for index in (0, 7):
        seed = seed_state("simulate", 11, index)
        final = play_game(standard, standard.new_game(seed, players=3), [RandomPlayer(seed, s) for s in range(3)])
        tally = play_batch(setup, index, 1)
        assert tally.games == tally.finished == 1
        assert tally.wins == [int(s == final.winner) for s in range(3)]
        assert tally.metrics["plies"].total == final.plies
        printed = _invoke("--auto", "--seed", seed, "--players", 3)
        assert printed.exit_code == 0
        assert printed.output.rstrip().splitlines()[-1].endswith(f"after {final.plies} moves.")


def _direct_games(game, seed, players, games):
    """Play games the documented way and count everything independently of the tally code."""
    rows = []
    for index in range(games):
        s = seed_state("simulate", seed, index)
        state = game.new_game(s, players=players)
        first = state.turn
        moves = []

        def on_turn(turn, after, moves=moves):
            moves.append((turn.seat, turn.move, before[0], after))
            before[0] = after

        before = [state]
        final = play_game(game, state, [RandomPlayer(s, k) for k in range(players)], on_turn=on_turn)
        # A turn ends with every move that does not draw again (R5, R19), except the winning move.
        turns = 1 + sum(1 for _, move, _, _ in moves[:-1] if not move.draw_again)
        bumps = sum(1 for _, move, _, _ in moves for e in move.events if e[0] == "bump")
        # Cross-check bumps of other colours against the board (R15, R10): a pawn of a colour
        # that did not move can only reach its Start by being bumped.
        for seat, move, old, new in moves:
            mover = old.seats[seat]
            for c in old.seats:
                if c == mover:
                    continue
                start = game.layout.start[c]
                gained = new.placement[c].count(start) - old.placement[c].count(start)
                assert gained == sum(1 for e in move.events if e[0] == "bump" and e[1] == c)
        rows.append({
            "winner": final.winner, "order": (final.winner - first) % players, "turns": turns, "plies": final.plies,
            "bumps": bumps, "slides": sum(1 for _, m, _, _ in moves for e in m.events if e[0] == "slide"),
            "forfeits": sum(1 for _, m, _, _ in moves if m.kind == "forfeit"),
        })
    return rows


def test_tally_matches_the_games_counted_directly(standard):
    """Turns (R5 with R19's extra draw in the same turn), plies, bumps, slides, forfeits
    (R11), wins by seat and by turn order are exactly what the games did."""
    rows = _direct_games(standard, 3, 2, 25)
    source, _ = load_source("standard")
    tally = play_batch(Setup(source, 2, ("random", "random"), 3, 20_000), 0, 25)
    assert tally.games == tally.finished == 25
    assert tally.wins == [sum(r["winner"] == s for r in rows) for s in range(2)]
    assert tally.order_wins == [sum(r["order"] == k for r in rows) for k in range(2)]
    for name in ("turns", "plies", "bumps", "slides", "forfeits"):
        assert tally.metrics[name].total == sum(r[name] for r in rows), name
        assert tally.metrics[name].squares == sum(r[name] ** 2 for r in rows), name
    assert tally.turns_counts == {t: sum(r["turns"] == t for r in rows) for t in {r["turns"] for r in rows}}
    assert all(r["turns"] < r["plies"] for r in rows)  # some 2s were drawn in every game
    assert sum(r["slides"] for r in rows) > 0 and sum(r["bumps"] for r in rows) > 0


def test_report_lengths_are_exact_median_and_p90(standard):
    rows = _direct_games(standard, 4, 2, 20)
    report = _json("simulate", "--games", 20, "--players", 2, "--seed", 4, "--jobs", 1)
    turns = sorted(r["turns"] for r in rows)
    length = report["length"]["turns"]
    assert length["median"] == turns[9]           # nearest rank: the 10th of 20
    assert length["p90"] == turns[17]             # the 18th of 20
    assert (length["min"], length["max"]) == (turns[0], turns[-1])
    assert length["mean"] == pytest.approx(sum(turns) / 20)
    assert sum(b["games"] for b in report["length"]["histogram"]) == 20
    assert report["per_game"]["slides"]["mean"] == pytest.approx(sum(r["slides"] for r in rows) / 20)


# ---- determinism across jobs, batches, engines ---------------------------------------------


def test_same_figures_whatever_the_jobs_or_batch_size():
    base = ["simulate", "--games", 30, "--players", 2, "--seed", 9]
    one = _json(*base, "--jobs", 1)
    assert one["run"]["jobs"] == 1 and one["run"]["games_per_second"] > 0
    assert _figures(_json(*base, "--jobs", 1, "--batch-size", 7)) == _figures(one)
    two = _json(*base, "--jobs", 2, "--batch-size", 4)
    assert two["run"]["jobs"] == 2
    assert _figures(two) == _figures(one)
    assert one["games"] == one["finished"] == 30
    assert sum(row["wins"] for row in one["wins"]["by_seat"]) == 30
    assert _figures(_json(*base[:-1], 10, "--jobs", 1)) != _figures(one)   # another seed, other games


def test_forked_and_spawned_workers_give_the_same_figures():
    """Workers fork in a process with no other thread on Linux, else spawn (simpool): the
    command in a fresh process (no thread: fork there) gives the figures of one job here (a
    test process runs threads: spawn), and a second thread makes this process spawn."""
    import threading

    from sorry_rules.simulation.simpool import start_method

    base = ["simulate", "--games", 16, "--players", 3, "--seed", 4, "--batch-size", 3, "--format", "json"]
    fresh = subprocess.run([sys.executable, "-m", "sorry_rules", *map(str, base), "--jobs", "2"],
                           capture_output=True, text=True, check=True)
    assert _figures(json.loads(fresh.stdout)) == _figures(_json(*base[:-2], "--jobs", 1))
    assert _figures(_json(*base[:-2], "--jobs", 2)) == _figures(json.loads(fresh.stdout))
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert start_method() == "spawn"
    finally:
        release.set()
        other.join()
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        assert start_method() == "fork"


def test_dask_engine_gives_the_same_figures():
    from distributed import LocalCluster

    base = ["simulate", "--games", 24, "--players", 3, "--seed", 2]
    local = _json(*base, "--jobs", 1)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=":0") as cluster:
        on_dask = _json(*base, "--engine", "dask", "--scheduler", cluster.scheduler_address, "--batch-size", 5)
    assert on_dask["run"]["engine"] == "dask" and on_dask["run"]["jobs"] == 1  # one Dask worker
    assert _figures(on_dask) == _figures(local)


def _thread_cluster(distributed, jobs):
    """A LocalCluster in this process (threads, not processes): starts in about a second."""
    return distributed.LocalCluster(n_workers=1, threads_per_worker=jobs, processes=False, protocol="tcp",
                                    dashboard_address=":0")


def test_dask_local_cluster_gives_the_same_report(monkeypatch):
    """`--scheduler local` starts a cluster for the run (here one of threads, to be quick)
    and gives the report of `--jobs 1` but the run block, key for key and in order."""
    from sorry_rules.simulation import simdask

    monkeypatch.setattr(simdask, "local_cluster", _thread_cluster)
    base = ["simulate", "--games", 20, "--players", 4, "--seed", 5, "--rotate", "--bots", "random,greedy"]
    local = _json(*base, "--jobs", 1)
    on_dask = _json(*base, "--engine", "dask", "--scheduler", "local", "--jobs", 2, "--batch-size", 3)
    assert on_dask["run"]["engine"] == "dask"
    del local["run"], on_dask["run"]
    assert json.dumps(on_dask) == json.dumps(local)


@pytest.mark.slow
def test_dask_local_cluster_of_processes_gives_the_same_figures():
    base = ["simulate", "--games", 16, "--players", 2, "--seed", 4]
    on_dask = _json(*base, "--engine", "dask", "--scheduler", "local", "--jobs", 2)
    assert on_dask["run"]["jobs"] == 2   # two Dask workers
    assert _figures(on_dask) == _figures(_json(*base, "--jobs", 1))


def test_the_pool_plays_every_game_once():
    """--jobs 2: this process and a worker share the batches, the last ones taken back
    from the worker's queue; every game is played and reported exactly once."""
    from sorry_rules.simulation.simexec import run

    source, _ = load_source("standard")
    setup = Setup(source, 2, ("random", "random"), 8, 20_000)
    seen = []
    details = {}
    tallies = run({"a": (setup, 16)}, jobs=2, batch_size=1, details=details,
                  on_result=lambda name, result: seen.append(result.game))
    assert sorted(seen) == list(range(16)) and tallies["a"].games == 16
    assert details == {"workers": 2, "interrupted": False}
    assert tallies["a"] == play_batch(setup, 0, 16)


def test_the_last_batches_are_halved_and_cover_every_game_once():
    from sorry_rules.simulation.simexec import _tasks
    from sorry_rules.simulation.simpool import _Batches

    batches = _Batches(_tasks({"a": ("A", 100), "b": ("B", 40)}, 20), spare=3)
    taken = [batches.take() for _ in range(4)]
    batches.put_back(taken.pop())   # taken back from a worker's queue: it goes first again
    while (task := batches.take()) is not None:
        taken.append(task)
    for name, games in (("a", 100), ("b", 40)):
        covered = sorted(i for n, _, start, count in taken if n == name for i in range(start, start + count))
        assert covered == list(range(games))
    sizes = [count for *_, count in taken]
    assert sizes[:4] == [20, 20, 20, 20] and sizes[-1] == 1 and max(sizes[-5:]) < 20


def test_workers_compile_from_the_rule_data_alone(standard):
    """The compiled copy a worker builds from VariantSource data plays the same games."""
    source, _ = load_source("standard")
    import sorry_rules.simulation.simulate as simulate

    game = simulate._compile_data(source)
    assert game is not standard and game.content_hash == standard.content_hash
    seed = 123
    a = play_game(game, game.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
    b = play_game(standard, standard.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
    assert a == b
    assert compiled(source) is compiled(source)


# ---- bots ----------------------------------------------------------------------------------


def test_win_rates_per_bot_kind(first_bot):
    report = _json("simulate", "--games", 30, "--players", 3, "--bots", "first,random", "--jobs", 1, "--seed", 5)
    seats = report["wins"]["by_seat"]
    assert [row["bot"] for row in seats] == ["first", "random", "first"]
    by_bot = {row["bot"]: row for row in report["wins"]["by_bot"]}
    assert by_bot["first"]["seats"] == 2 and by_bot["first"]["fair_share"] == pytest.approx(2 / 3)
    assert by_bot["first"]["wins"] == seats[0]["wins"] + seats[2]["wins"]
    assert by_bot["random"]["wins"] == seats[1]["wins"]
    assert by_bot["first"]["wins"] + by_bot["random"]["wins"] == report["finished"] == 30
    low, high = by_bot["random"]["ci95"]
    assert low <= by_bot["random"]["rate"] <= high


def test_rotated_bots_move_one_seat_per_game(first_bot, standard):
    report = _json("simulate", "--games", 12, "--players", 2, "--bots", "first,random", "--rotate", "--jobs", 1, "--seed", 6)
    expected = 0
    for index in range(12):
        seed = seed_state("simulate", 6, index)
        kinds = ["first", "random"] if index % 2 == 0 else ["random", "first"]
        players = [FirstMove() if k == "first" else RandomPlayer(seed, s) for s, k in enumerate(kinds)]
        final = play_game(standard, standard.new_game(seed, players=2), players)
        expected += kinds[final.winner] == "first"
    by_bot = {row["bot"]: row["wins"] for row in report["wins"]["by_bot"]}
    assert by_bot["first"] == expected and by_bot["random"] == 12 - expected
    assert "bot" not in report["wins"]["by_seat"][0]


# ---- reports -------------------------------------------------------------------------------


def test_games_stopped_at_max_plies_count_as_won_by_nobody():
    report = _json("simulate", "--games", 4, "--players", 2, "--max-plies", 30, "--jobs", 1)
    assert report["stopped"] == 4 and report["finished"] == 0
    assert all(row["wins"] == 0 and row["ci95"][0] == 0 for row in report["wins"]["by_seat"])
    assert report["length"]["turns"]["median"] is None and report["length"]["histogram"] == []
    text = _invoke("simulate", "--games", 4, "--players", 2, "--max-plies", 30, "--jobs", 1)
    assert text.exit_code == 0 and "4 games stopped after 30 plies" in text.output


def test_progress_asked_for_off_a_terminal_is_written_as_lines():
    """`--progress` where stderr is no terminal (a log file) writes plain lines, the last one
    with every game; the report on stdout is the same as without it."""
    result = _invoke("simulate", "--games", 20, "--players", 2, "--jobs", 1, "--progress", "--seed", 3)
    plain = _invoke("simulate", "--games", 20, "--players", 2, "--jobs", 1, "--seed", 3)
    assert result.exit_code == 0 and "\x1b" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("simulating: 20 of 20 games (100%)")
    assert result.stdout.split("games in")[0] == plain.stdout.split("games in")[0]


def test_text_report_for_people_and_no_progress_noise_when_not_a_terminal():
    result = _invoke("simulate", "--games", 20, "--players", 4, "--jobs", 1)
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    for needle in ("seat 1 red (random)", "95% Wilson CI", "Length in turns: mean", "90th percentile",
                   "Per game: bumps", "slides", "forfeits", "games/s"):
        assert needle in out
    histogram = [line for line in out.splitlines() if line.startswith("  ") and "#" in line]
    assert histogram and sum(int(line.split()[-1]) for line in histogram) == 20


def test_partnership_wins_count_for_both_partners(tmp_path):
    """With teams, a seat's team wins include its partner's wins (R35 with teams)."""
    teams = tmp_path / "teams.yaml"
    teams.write_text("extends: standard\nteams: [[red, yellow], [blue, green]]\n", encoding="utf-8")
    report = _json("simulate", "--variant", teams, "--games", 8, "--players", 4, "--jobs", 1)
    seats = report["wins"]["by_seat"]
    red_team = seats[0]["wins"] + seats[2]["wins"]
    assert seats[0]["team"]["wins"] == seats[2]["team"]["wins"] == red_team
    assert seats[1]["team"]["wins"] == seats[3]["team"]["wins"] == 8 - red_team
    assert "team" not in _json("simulate", "--games", 2, "--players", 4, "--jobs", 1)["wins"]["by_seat"][0]


def test_comparison_json_has_no_infinities():
    from sorry_rules.simulation.simreport import _mean_test
    from sorry_rules.simulation.simstats import Moments

    row = _mean_test("x", Moments(3, 0, 0), Moments(3, 6, 12), 0.05)   # all 0 against all 2
    assert row["p"] == 0.0 and row["statistic"] is None and row["significant"]
    json.dumps(row, allow_nan=False)


# ---- compare -------------------------------------------------------------------------------


def test_compare_identical_sides_differ_in_nothing():
    """Common random numbers: both sides play the same seeds, so identical rules give
    identical games and every test says p = 1."""
    report = _json("compare", "standard", "standard", "--games", 20, "--players", 3, "--jobs", 1)
    assert report["common_random_numbers"] is True
    assert _figures(report["a"]) == _figures(report["b"])
    assert all(row["difference"] in (0, None) and row["p"] in (1.0, None) and not row["significant"]
               for row in report["tests"])


def test_compare_of_sides_seating_different_counts_blames_no_option_not_given():
    """B plays with A's number of players; where A's default does not seat B, the error says
    so and asks for --players (it said '--players 4: ...' though no --players was given)."""
    result = CliRunner().invoke(main, ["compare", "standard", "three-colours", "--games", "2"])
    assert result.exit_code == 2
    assert "A (standard) plays 4 players by default, but B (three-colours) is for 2-3 players" in result.stderr
    given = CliRunner().invoke(main, ["compare", "standard", "three-colours", "--games", "2", "--players", "4"])
    assert given.exit_code == 2 and "--players 4: three-colours is for 2-3 players, not 4" in given.stderr


def test_compare_finds_the_missing_slides(no_slides):
    """R26 slides exist in standard; an overlay with no slides has none, a significant drop."""
    report = _json("compare", "standard", f"standard+{no_slides}", "--games", 40, "--players", 2, "--jobs", 2)
    tests = {row["metric"]: row for row in report["tests"]}
    slides = tests["slides per game"]
    assert slides["b"] == 0 and slides["a"] > 0 and slides["significant"] and slides["test"] == "Welch t"
    signed = [row for row in report["tests"] if row["statistic"] and row["difference"]]
    assert signed and all((row["statistic"] > 0) == (row["difference"] > 0) for row in signed)  # both B - A
    assert tests["win rate seat 1 (red)"]["test"] == "two-proportion z"
    assert report["b"]["variant"]["rules"] == [str(no_slides)]
    # side A is exactly `simulate` of A with the same seed
    alone = _json("simulate", "--games", 40, "--players", 2, "--jobs", 1)
    assert _figures(report["a"]) == _figures(alone)
    # --b-rule is the same as B's "+" overlay
    again = _json("compare", "standard", "standard", "--b-rule", no_slides, "--games", 40, "--players", 2, "--jobs", 1)
    assert again["tests"] == report["tests"]
    # Holm's correction over the tests shown: never below the raw p, a subset of the raw stars
    shown = [row for row in report["tests"] if row["p"] is not None and row["p_holm"] is not None]
    assert len(shown) >= 8 and report["tests_corrected"] == len(shown)
    assert all(row["p_holm"] >= row["p"] and (row["significant"] or not row["significant_holm"]) for row in shown)
    assert slides["significant_holm"] and slides["p_holm"] <= len(shown) * slides["p"]
    text = _invoke("compare", "standard", f"standard+{no_slides}", "--games", 10, "--players", 2, "--jobs", 1)
    assert text.exit_code == 0 and "common random numbers" in text.output and "slides per game" in text.output
    holm_line = next(line for line in text.output.splitlines() if line.startswith("Holm's correction"))
    assert "slides per game" in holm_line and "win rate seat 1" not in holm_line, holm_line


def test_split_side(tmp_path, monkeypatch):
    assert split_side("standard") == ("standard", ())
    assert split_side("standard+a.yaml+house/b.yaml") == ("standard", ("a.yaml", "house/b.yaml"))
    odd = tmp_path / "a+b.yaml"
    odd.write_text("extends: standard\n", encoding="utf-8")
    assert split_side(str(odd)) == (str(odd), ())


# ---- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("args, code, message", [
    (["simulate", "--bots", "random,nobody"], 2, "unknown computer player 'nobody' (known: "),
    (["simulate", "--bots", ","], 2, "--bots"),
    (["simulate", "--bots", "random,random,random", "--players", "2"], 2, "3 computer players for 2 seats"),
    (["simulate", "--games", "0"], 2, "--games"),
    (["simulate", "--jobs", "0"], 2, "--jobs"),
    (["simulate", "--variant", "no-such-variant", "--games", "3"], 2, "no variant 'no-such-variant'"),
    (["simulate", "--players", "5", "--games", "3"], 2, "2-4 players"),
    (["simulate", "--engine", "dask", "--games", "3"], 2, "--scheduler local"),
    (["simulate", "--scheduler", "tcp://127.0.0.1:1", "--games", "3"], 2, "--engine dask"),
    # nothing listens on port 1: the client is refused until the timeout, the shortest allowed
    (["simulate", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "0.1", "--games", "3"],
     1, "cannot reach the Dask scheduler at tcp://127.0.0.1:1"),
    (["compare", "standard", "standard+", "--games", "3"], 2, "empty name"),
    (["compare", "standard", "standard+no-such-overlay", "--games", "3"], 2, "no rule overlay 'no-such-overlay'"),
])
def test_bad_input_gives_a_message_not_a_traceback(args, code, message):
    result = _invoke(*args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_bad_rule_file_lists_its_problems(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\npawns: many\n", encoding="utf-8")
    result = _invoke("simulate", "--variant", bad, "--games", 3)
    assert result.exit_code == 1 and "bad.yaml:2:" in result.output and "SR203" in result.output


# ---- imports -------------------------------------------------------------------------------


def test_play_path_imports_neither_the_pool_nor_dask():
    script = textwrap.dedent("""
        import sys
        from click.testing import CliRunner
        import sorry_rules.cli.app
        result = CliRunner().invoke(sorry_rules.cli.app.main, ["--auto", "--seed", "1", "--players", "2"])
        assert result.exit_code == 0, result.output
        assert "wins after" in result.output
        result = CliRunner().invoke(sorry_rules.cli.app.main, ["variants"])
        assert result.exit_code == 0, result.output
        heavy = ("concurrent.futures", "multiprocessing", "dask", "distributed",
                 "sorry_rules.simulation.simulate", "sorry_rules.simulation.simexec", "sorry_rules.simulation.simreport")
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed") or m.startswith(heavy)))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_metric_names_are_the_reported_ones():
    report = _json("simulate", "--games", 2, "--players", 2, "--jobs", 1)
    assert set(report["per_game"]) | {"turns", "plies"} == set(TRACK_METRICS) < set(METRICS)


def test_batches_cover_every_game_once_with_sides_taking_turns():
    from sorry_rules.simulation.simexec import _tasks

    tasks = list(_tasks({"a": ("A", 11), "b": ("B", 4)}, 3))
    assert [t[0] for t in tasks[:4]] == ["a", "b", "a", "b"]
    for name, games in (("a", 11), ("b", 4)):
        covered = [i for n, _, start, count in tasks if n == name for i in range(start, start + count)]
        assert covered == list(range(games))
        assert all(count <= 3 for n, _, _, count in tasks)


def test_dask_engine_without_dask_installed_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # `import distributed` now fails
    result = _invoke("simulate", "--games", 2, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1")
    assert result.exit_code == 2 and "pip install 'sorry-rules[dask]'" in result.output


def test_the_interval_of_a_mean_is_students_t_cut_at_zero_only():
    """A game length's 95% interval is mean -/+ t(n-1) sd / sqrt(n), cut at 0 (no length is
    negative) and never at the shortest or longest game: with three games the mean may well
    lie past them (an interval cut there holds the mean far less often than 95%)."""
    from sorry_rules.simulation.simstats import t95

    length = _json("simulate", "--games", 3, "--players", 2, "--jobs", 1, "--seed", 5)["length"]
    turns = [int(value) for value, count in length["turns_counts"].items() for _ in range(count)]
    mean = sum(turns) / 3
    sd = (sum((x - mean) ** 2 for x in turns) / 2) ** 0.5
    half = t95(2) * sd / 3 ** 0.5
    assert length["turns"]["ci95"] == [pytest.approx(max(0, mean - half)), pytest.approx(mean + half)]
    assert length["turns"]["ci95"][1] > max(turns)


def test_counter_means_per_player_with_intervals():
    """H22's counter (bumps made) in simulate: the mean per player at the end of a game is the
    mean over the games of the seats' final values, computed directly from the same seeded
    games; the interval holds the mean; --jobs 2 gives the same figures; compare tests it."""
    source, _ = load_source("points", ("house/bump-points.yaml",))
    game = load_game("points", ("house/bump-points.yaml",))
    players, games, seed = 3, 12, 5
    totals = []
    for index in range(games):
        s = seed_state("simulate", seed, index)
        final = play_game(game, game.new_game(s, players=players), [RandomPlayer(s, k) for k in range(players)])
        totals.append(sum(final.counters[c][0] for c in final.seats))
    base = ["simulate", "--variant", "points", "--rule", "house/bump-points.yaml", "--games", games,
            "--players", players, "--seed", seed]
    report = _json(*base, "--jobs", 1)
    made = report["counters"]["bumps_made"]
    assert made["label"] == "bumps made"
    assert made["mean"] == pytest.approx(sum(totals) / games / players)
    assert made["ci95"][0] < made["mean"] < made["ci95"][1]
    assert _figures(_json(*base, "--jobs", 2)) == _figures(report)
    assert "counters" not in _json("simulate", "--games", 3, "--players", 2, "--jobs", 1)
    text = _invoke(*base, "--jobs", 1).output
    assert f"bumps made {made['mean']:.2f} [" in text
    compared = _json("compare", "points", "points+house/bump-points.yaml", "--games", games, "--players", players,
                     "--seed", seed, "--jobs", 1)
    row = next(r for r in compared["tests"] if r["metric"] == "bumps made per player")
    assert row["a"] is None and row["b"] == pytest.approx(made["mean"])


def test_a_scoring_rule_is_measured_by_simulate_and_compare(tmp_path):
    """P7 and its cumulative bonus option change only `scoring:`: simulate reports the scores
    of the games won (per player and the winner's, each game's scores summed by hand from its
    results line), and compare tests the difference the option makes."""
    import json as _json

    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    runner = CliRunner()
    out = tmp_path / "run.jsonl"
    result = runner.invoke(main, ["simulate", "--variant", "points", "--games", "12", "--players", "3", "--seed", "2",
                                  "--no-progress", "--format", "json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = _json.loads(result.stdout)
    games = [_json.loads(line) for line in out.read_text().splitlines()[1:]]
    won = [g for g in games if g["winner"] is not None]
    assert won and all(len(g["scores"]) == 3 for g in won)
    per_player = sum(sum(g["scores"]) for g in won) / len(won) / 3
    winners = sum(g["scores"][g["winner"]] for g in won) / len(won)
    assert report["scores"]["per_player"]["mean"] == pytest.approx(per_player)
    assert report["scores"]["winner"]["mean"] == pytest.approx(winners)
    compared = runner.invoke(main, ["compare", "points", "points+options/cumulative-bonus.yaml", "--games", "20",
                                    "--players", "3", "--no-progress", "--format", "json"])
    assert compared.exit_code == 0, compared.output
    metrics = {row["metric"]: row for row in _json.loads(compared.stdout)["tests"]}
    assert {"score per player", "the winner's score"} <= set(metrics)
    assert metrics["the winner's score"]["b"] >= metrics["the winner's score"]["a"]  # the bonus only adds (P7)


def test_a_player_alone_at_the_table_plays_turn_after_turn(tmp_path):
    """A turn is one player's turn with its draw-again plays (README): alone at the table, a
    player's plays are many turns (each card not a 2, R24), not one turn that never ends."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    (tmp_path / "solo.yaml").write_text("extends: standard\nname: solo\nplayers: {min: 1, max: 4}\n")
    result = CliRunner().invoke(main, ["simulate", "--variant", str(tmp_path / "solo.yaml"), "--players", "1",
                                       "--games", "3", "--no-progress", "--format", "json"])
    assert result.exit_code == 0, result.output
    length = json.loads(result.stdout)["length"]
    assert length["turns"]["min"] > 20 and length["turns"]["mean"] < length["plies"]["mean"]


@pytest.mark.parametrize("a, b, players", [("partnership", "partnership+house/partners-safe.yaml", 4),
                                           ("sequence", "grid/sequence-quick.yaml", 4)])
def test_compare_tests_the_win_rate_of_each_side_of_a_team_game(a, b, players):
    """T8, S1: sides that are teams win together; `compare` gives each side's win rate on both
    sides, the same figures `simulate` gives, and tests the difference."""
    compared = _json("compare", a, b, "--games", 8, "--players", players, "--jobs", 1, "--seed", 2)
    rows = {row["metric"]: row for row in compared["tests"] if row["metric"].startswith("win rate side ")}
    for which, name in (("a", a), ("b", b)):
        variant, _, rule = name.partition("+")
        alone = _json("simulate", "--variant", variant, *(("--rule", rule) if rule else ()), "--games", 8,
                      "--players", players, "--jobs", 1, "--seed", 2)
        sides = alone["wins"]["by_side"]
        assert len(sides) == 2 and [rows[f"win rate side {side['side']}"][which] for side in sides] == \
            [pytest.approx(side["rate"]) for side in sides]
