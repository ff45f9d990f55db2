"""`sorry-play simulate` and `sorry-play compare`: many games between computer players.

Contract: the report goes to stdout (text or JSON); a rich progress bar (games done, games
per second, time left) goes to stderr only when stderr is a terminal, so piped or captured
runs carry no progress noise. Bad input (unknown bot, no games, unknown variant, an
unreachable scheduler) is a SorryRulesError or a click usage error: a message, no
traceback. Only click (and the shared options) is imported at module level; the simulation,
the pool, rich and dask are imported when a command runs (each such import is marked "lazy").

Comparison sides: `A` and `B` are each a variant with optional overlays joined by `+`,
e.g. `standard` and `standard+house/sorry-forward-4.yaml` (a spec naming an existing file
is taken whole, even with a `+` in its name). `--rule` adds an overlay to both sides,
`--a-rule`/`--b-rule` to one side only (after the `+` overlays).
"""

from __future__ import annotations

import json
import os
import sys
import time

import click

from sorry_rules.base.errors import UsageError
from sorry_rules.cli.errors import friendly
from sorry_rules.cli.options import max_plies_option, players_option, rules_option, seed_option, variant_options
from sorry_rules.cli.pictures import write_output

BOTS_HELP = "Computer players by name, comma separated, given to seats in order and repeated as needed."


def _common(fn):
    options = [
        click.option("--games", "-n", type=click.IntRange(min=1), default=1000, show_default=True,
                     help="Number of games (per side)."),
        players_option,
        click.option("--bots", "-b", default="random", show_default=True, help=BOTS_HELP),
        click.option("--rotate", is_flag=True, help="Shift the bots one seat per game (game i: seat s gets bot s+i)."),
        seed_option(default=1, help="Simulation seed S; game i plays a seed derived from (S, i)."),
        max_plies_option("Stop a game without a winner after this many plies; it counts as won by nobody."),
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                     help="Worker processes for --engine local (default: the number of CPUs)."),
        click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where to play: a local process pool or a Dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Dask scheduler address, e.g. tcp://HOST:8786 (with --engine dask)."),
        click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                     help="Seconds to wait for the Dask scheduler."),
        click.option("--batch-size", type=click.IntRange(min=1), default=None,
                     help="Games per task (default: about 4 tasks per job, at most 250)."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr (default: when stderr is a terminal)."),
        click.option("--plot", default=None, type=click.Path(dir_okay=False),
                     help="Also write an SVG plot to FILE: game lengths, win rate by seat with 95% intervals."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


class _Progress:
    """A rich progress bar on stderr, or nothing."""

    def __init__(self, total: int, label: str, enabled: bool | None):
        self.bar = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if not enabled:
            return
        # lazy: rich only when a progress bar is drawn
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.task = self.bar.add_task(label, total=total, rate="")
        self.start = time.perf_counter()

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def update(self, done: int) -> None:
        if self.bar is not None:
            elapsed = time.perf_counter() - self.start
            rate = f"{done / elapsed:,.0f} games/s" if elapsed > 0 else ""
            self.bar.update(self.task, completed=done, rate=rate)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()


def _jobs(engine: str, jobs: int | None) -> int:
    """Local processes to use; for Dask, only what the default batch size is cut for."""
    if jobs is not None:
        return jobs
    return os.cpu_count() or 1


def _setup(variant: str, rules, players, bots: str, rotate: bool, seed: int, max_plies: int):
    from sorry_rules.simulation.simulate import Setup, lineup_of, load_source  # lazy: the simulation when a command runs

    source, game = load_source(variant, rules)
    if players is None:
        players = game.players_max
    game.seats_for(players)  # raises a clear error for a player count the variant does not allow
    lineup = lineup_of(bots.split(","), players)
    return Setup(source, players, lineup, seed, max_plies, rotate), game


def _execute(plan: dict, total: int, label: str, engine, jobs, scheduler, batch_size, progress, connect_timeout):
    # lazy: the pool (and dask) when a command runs
    from sorry_rules.simulation.simexec import run
    from sorry_rules.simulation.simulate import default_batch_size

    jobs = _jobs(engine, jobs)
    if batch_size is None:
        games = max(g for _, g in plan.values())
        batch_size = default_batch_size(games, jobs)
    details = {}
    started = time.perf_counter()
    with _Progress(total, label, progress) as bar:
        tallies = run(plan, jobs=jobs, engine=engine, scheduler=scheduler, batch_size=batch_size,
                      on_progress=bar.update, connect_timeout=connect_timeout, details=details)
    return tallies, details.get("workers", jobs), batch_size, time.perf_counter() - started


def _emit(report: dict, fmt: str, text) -> None:
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(text(report))


@click.command()
@variant_options
@_common
@friendly
def simulate(variant, rules, games, players, bots, rotate, seed, max_plies, jobs, engine, scheduler,
             connect_timeout, batch_size, fmt, progress, plot):
    """Play many games between computer players and report win rates, lengths and events.

    Game i of seed S always plays the same (whatever --jobs, --batch-size or --engine), so
    the same command gives the same figures; only the timing differs.

    \b
    Per game: bumps (pawns sent back to Start), slides, forfeits (cards
    with no legal move), discards (hand play: a stuck hand throws a card
    away) and passes (a card declined through its `pass` option, e.g. the
    standard 11 when a switch is the only other move).
    """
    from sorry_rules.simulation.simreport import format_text, run_info, summary  # lazy: the simulation when it runs

    setup, game = _setup(variant, rules, players, bots, rotate, seed, max_plies)
    tallies, jobs, batch_size, seconds = _execute({"a": (setup, games)}, games, "simulating", engine, jobs,
                                                  scheduler, batch_size, progress, connect_timeout)
    report = summary(setup, tallies["a"], game, run_info(engine, jobs, batch_size, seconds, games))
    _emit(report, fmt, format_text)
    if plot is not None:
        from sorry_rules.pictures.plots import simulation_svg  # lazy: the drawing only for --plot

        write_output(plot, simulation_svg(report))


def split_side(spec: str) -> tuple[str, tuple]:
    """`variant+overlay+overlay` -> (variant, overlays); a spec naming an existing file is whole."""
    from sorry_rules.rules.loader import resolve  # lazy: rule-file loading (pydantic) when a command runs

    if "+" not in spec or resolve(spec) is not None:
        return spec, ()
    parts = [p.strip() for p in spec.split("+")]
    if any(not p for p in parts):
        raise UsageError(f"{spec!r}: empty name around '+' (write VARIANT+OVERLAY+...)")
    return parts[0], tuple(parts[1:])


@click.command()
@click.argument("a")
@click.argument("b")
@rules_option("Overlay for both sides; repeatable.")
@click.option("--a-rule", "a_rules", multiple=True, help="Overlay for side A only; repeatable.")
@click.option("--b-rule", "b_rules", multiple=True, help="Overlay for side B only; repeatable.")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the tests.")
@_common
@friendly
def compare(a, b, rules, a_rules, b_rules, alpha, games, players, bots, rotate, seed, max_plies, jobs, engine,
            scheduler, connect_timeout, batch_size, fmt, progress, plot):
    """Compare two variants (or a variant with and without house rules) side by side.

    A and B are VARIANT[+OVERLAY...], e.g. `standard standard+house/x.yaml`. Both sides play
    the same game seeds (common random numbers) with the same bots. Each difference gets a
    two-sided test: win rates a pooled two-proportion z-test, means (length, bumps, ...) a
    Welch t-test; `*` marks p < --alpha. The figures are those of `simulate`;
    `passes per game` counts cards declined through a `pass` option (shown
    when a side has any).
    """
    from sorry_rules.simulation.simreport import comparison, format_compare_text, run_info  # lazy: the simulation when it runs

    variant_a, overlays_a = split_side(a)
    variant_b, overlays_b = split_side(b)
    setup_a, game_a = _setup(variant_a, (*overlays_a, *a_rules, *rules), players, bots, rotate, seed, max_plies)
    if players is None:
        players = setup_a.players
    setup_b, game_b = _setup(variant_b, (*overlays_b, *b_rules, *rules), players, bots, rotate, seed, max_plies)
    tallies, jobs, batch_size, seconds = _execute({"a": (setup_a, games), "b": (setup_b, games)}, 2 * games, "comparing",
                                                  engine, jobs, scheduler, batch_size, progress, connect_timeout)
    info = run_info(engine, jobs, batch_size, seconds, 2 * games)
    report = comparison(setup_a, tallies["a"], game_a, setup_b, tallies["b"], game_b, alpha, info)
    _emit(report, fmt, format_compare_text)
    if plot is not None:
        from sorry_rules.pictures.plots import comparison_svg  # lazy: the drawing only for --plot

        write_output(plot, comparison_svg(report))
