"""`sorry-play simulate` and `sorry-play compare`: many games between computer players.

Contract: the report goes to stdout (text or JSON); a rich progress bar (games done, games
per second, time left) goes to stderr only when stderr is a terminal, so piped or captured
runs carry no progress noise. Bad input (unknown bot, no games, unknown variant, an
unreachable scheduler) is a SorryRulesError or a click usage error: a message, no
traceback. Only click (and the shared options) is imported at module level; the simulation,
the pool, rich and dask are imported when a command runs (each such import is marked "lazy").

Results files and interruption: `--out FILE` writes every finished game to FILE as it
comes (`simulation.simfile`); `--from FILE` reports on such a file instead of playing;
`--continue FILE` plays only the games missing from it and appends them (options not given
are the file's; those given must be the ones that wrote it). A comparison counts only the
games both sides finished (`simulation.simpairs`), so a partial one compares like with like.
The first Ctrl-C stops a run after the games in progress and prints the figures of the
finished games, marked PARTIAL, then exits 130 (a Ctrl-C before the games begin, or a
second one, ends the command at once without figures, also 130).

Comparison sides: `A` and `B` are each a variant with optional overlays joined by `+`,
e.g. `standard` and `standard+house/sorry-forward-4.yaml` (a spec naming an existing file
is taken whole, even with a `+` in its name). `--rule` adds an overlay to both sides,
`--a-rule`/`--b-rule` to one side only (after the `+` overlays).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time

import click

from sorry_rules.base.errors import UsageError
from sorry_rules.base.limits import MAX_GAMES, MAX_JOBS
from sorry_rules.cli.errors import JsonFailing, every_problem, friendly
from sorry_rules.cli.options import max_plies_option, players_option, rules_option, seed_option, variant_options
from sorry_rules.cli.pictures import check_output, write_output
from sorry_rules.players.names import NAMES_HELP

BOTS_HELP = f"Computer players by name ({NAMES_HELP}), comma separated, given to seats in order and repeated as needed."


#: Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED_EXIT = 130

#: Options that decide the games: with --from they come from the file.
_GAME_OPTIONS = ("variant", "rules", "a", "b", "a_rules", "b_rules", "games", "players", "bots", "rotate", "seed",
                 "max_plies")


def _interruptible(fn):
    """A Ctrl-C that reaches the command itself (before the games begin, or a second one
    during a run) ends it with exit 130 and one line, not click's "Aborted!" (exit 1)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("interrupted: no report (Ctrl-C before the games began, or a second Ctrl-C); "
                       "games already written by --out or --continue are kept", err=True)
            sys.exit(INTERRUPTED_EXIT)

    return wrapper


def _stacked(*options):
    """One decorator applying `options` (click option decorators) in the order listed."""

    def decorate(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn

    return decorate


_results_files = _stacked(
    click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="Write every finished game to FILE (one JSON line each) as it comes; FILE must not exist."),
    click.option("--from", "from_file", type=click.Path(dir_okay=False, exists=True), default=None, metavar="FILE",
                 help="Report on the games of a results file written by --out (complete or cut short); play nothing."),
    click.option("--continue", "continue_file", type=click.Path(dir_okay=False, exists=True), default=None,
                 metavar="FILE", help="Play only the games missing from FILE (written by --out) and append them; "
                 "options not given are the file's. Report on all."),
)

_common = _stacked(
    click.option("--games", "-n", type=click.IntRange(min=1, max=MAX_GAMES), default=1000, show_default=True,
                 help="Number of games (compare: of each side)."),
    players_option,
    click.option("--bots", "-b", default="random", show_default=True, help=BOTS_HELP),
    click.option("--rotate", is_flag=True, help="Shift the bots one seat per game (game i: seat s gets bot s+i)."),
    seed_option(default=1, help="Simulation seed S; game i plays a seed derived from (S, i)."),
    max_plies_option("Stop a game without a winner after this many plies; it counts as won by nobody."),
    click.option("--jobs", "-j", type=click.IntRange(min=1, max=MAX_JOBS), default=None,
                 help="Processes to play in: this one and J-1 workers, or a local Dask cluster's "
                 "(default: the number of CPUs)."),
    click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                 help="Where to play: a local process pool or a Dask cluster."),
    click.option("--scheduler", default=None, metavar="ADDRESS",
                 help="Dask scheduler address, e.g. tcp://HOST:8786, or `local` for a local Dask cluster "
                 "of --jobs processes (with --engine dask)."),
    click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                 help="Seconds to wait for the Dask scheduler."),
    click.option("--batch-size", type=click.IntRange(min=1), default=None,
                 help="Games per task (default: about 16 tasks per job, at most 250)."),
    click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True),
    click.option("--progress/--no-progress", default=None,
                 help="Progress on stderr (default: when stderr is a terminal): a bar on a terminal, else a "
                      "line every second."),
    click.option("--plot", default=None, type=click.Path(dir_okay=False),
                 help="Also write an SVG plot to FILE: game lengths, win rate by seat with 95% intervals."),
)


class _Progress:
    """A rich progress bar on stderr, or nothing. It is redrawn by `update` (at most every
    `REDRAW` seconds), never by a thread of its own: a run with no thread may fork its
    workers (`simulation.simpool`). Asked for on a stderr that is no terminal (a log file),
    it writes a plain line instead, at most every `LINE_EVERY` seconds, and one at the end."""

    REDRAW = 0.1
    LINE_EVERY = 1.0

    def __init__(self, total: int, label: str, enabled: bool | None, start: int = 0):
        self.bar = None
        self.lines = False
        if enabled is None:
            enabled = sys.stderr.isatty()
        if not enabled:
            return
        self.total, self.label, self.offset, self.done = total, label, start, 0
        self.start = self.drawn = time.perf_counter()
        if not sys.stderr.isatty():
            self.lines = True
            return
        # lazy: rich only when a progress bar is drawn
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True, auto_refresh=False)
        self.task = self.bar.add_task(label, total=total, completed=start, rate="")

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def update(self, done: int) -> None:
        """`done` games played by this run (after the `start` ones already done)."""
        if self.lines:
            self.done = done
            if time.perf_counter() - self.drawn >= self.LINE_EVERY:
                self._line()
        elif self.bar is not None:
            now = time.perf_counter()
            elapsed = now - self.start
            rate = f"{done / elapsed:,.0f} games/s" if elapsed > 0 else ""
            redraw = now - self.drawn >= self.REDRAW
            if redraw:
                self.drawn = now
            self.bar.update(self.task, completed=self.offset + done, rate=rate, refresh=redraw)

    def _line(self) -> None:
        now = time.perf_counter()
        self.drawn = now
        rate = f", {self.done / (now - self.start):,.0f} games/s" if now > self.start else ""
        games = self.offset + self.done
        click.echo(f"{self.label}: {games:,} of {self.total:,} games ({100 * games // max(self.total, 1)}%){rate}", err=True)

    def __exit__(self, *exc):
        if self.lines:
            self._line()
        elif self.bar is not None:
            self.bar.stop()


def _setup(variant: str, rules, options: dict):
    """(Setup, compiled game) of `variant` with the overlays `rules`, played with the game
    options `options` (players None: the variant's maximum)."""
    from sorry_rules.cli.seats import check_player_count  # lazy: the players' registry when a command runs
    from sorry_rules.simulation.simulate import Setup, lineup_of, load_source  # lazy: the simulation when a command runs

    with every_problem(variant, rules):
        source, game = load_source(variant, rules)
    check_player_count(game, options["players"])
    players = game.default_players if options["players"] is None else options["players"]
    lineup = lineup_of(options["bots"].split(","), players)
    return Setup(source, players, lineup, options["seed"], options["max_plies"], options["rotate"]), game


class _Outcome:
    """What a run gives the report: {name: Tally} of every game (a continued file's and this
    run's), the run block, and whether Ctrl-C stopped it."""

    def __init__(self, tallies: dict, info: dict | None, interrupted: bool, out: str | None):
        self.tallies, self.info, self.interrupted, self.out = tallies, info, interrupted, out


def _given() -> list:
    """The options of `_GAME_OPTIONS` given on the command line (or in the environment)."""
    # lazy: ParameterSource only when a results file is read
    from click.core import ParameterSource

    context = click.get_current_context()
    return [name for name in _GAME_OPTIONS if name in context.params
            and context.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)]


def _check_files(out, from_file, continue_file, plot=None) -> None:
    """The results files and the plot, checked before any game is played."""
    if sum(x is not None for x in (out, from_file, continue_file)) > 1:
        raise UsageError("give at most one of --out, --from and --continue")
    results = next((f for f in (out, from_file, continue_file) if f is not None), None)
    if plot is not None and results is not None and os.path.abspath(plot) == os.path.abspath(results):
        raise UsageError(f"--plot {plot} is the results file too: give the picture a file of its own")
    check_output(plot)  # a file that is no picture of ours is refused first, whatever its name
    if os.path.splitext(plot or "")[1].lower() not in ("", ".svg"):
        raise UsageError(f"--plot {plot}: the plot is an SVG picture; name the file .svg (or give it no extension)")
    if from_file is not None:
        opts = {param.name: max(param.opts, key=len) for param in click.get_current_context().command.params}
        given = [name.upper() if name in ("a", "b") else opts.get(name, f"--{name}") for name in _given()]
        if given:
            raise UsageError(f"--from reads the games and their options from the file; leave out {', '.join(given)}")


#: The options of each side a results file's header holds, by option name.
_SIDE_OPTIONS = ("games", "players", "bots", "rotate", "seed", "max_plies")


def _continued(continue_file, command: str, values: dict, rule_options: tuple) -> tuple:
    """`(found, options, own)` for `--continue FILE` of `command`: the results file read (None
    without one); `values` (the game options of the command) with each option not given on the
    command line taken from the file instead (its first side's; every side of a file shares
    them), so `--continue FILE` alone continues the file's run; and whether the file's own
    rules are played (none of `rule_options` given)."""
    if continue_file is None:
        return None, values, False
    found, given = _read(continue_file, command), _given()
    params = next(iter(found.header["sides"].values()))
    if "players" in given and "bots" not in given and values["players"] != params["players"]:
        from sorry_rules.simulation.simfile import shown_parameter  # lazy: the results files when one is read

        file_value = {name: ",".join(params[name]) if name == "bots" else params[name] for name in _SIDE_OPTIONS}
        differ = [f"{name}: file {shown_parameter(file_value[name])}, command {shown_parameter(values[name])}"
                  for name in _SIDE_OPTIONS if name in given and values[name] != file_value[name]]
        raise UsageError(f"{continue_file} was written with other options, so its games are not this command's: "
                         + "; ".join(differ))
    filled = dict(values)
    for name in _SIDE_OPTIONS:
        if name not in given:
            filled[name] = ",".join(params[name]) if name == "bots" else params[name]
    return found, filled, not set(rule_options) & set(given)


def _file_side(found, name: str, options: dict) -> tuple:
    """(Setup, games) of side `name` of the results file `found`, its rules those the file
    holds (no rule file is read) and its other options `options`."""
    from sorry_rules.simulation.simulate import Setup, lineup_of  # lazy: the simulation when a command runs

    setup, _ = found.setups[name]
    lineup = lineup_of(options["bots"].split(","), options["players"])
    return Setup(setup.source, options["players"], lineup, options["seed"], options["max_plies"], options["rotate"]), \
        options["games"]


def _read(path: str, command: str):
    """A results file of `command`, its warnings printed on stderr."""
    from sorry_rules.simulation import simfile  # lazy: the simulation when a command runs

    found = simfile.read(path)
    for warning in [*found.warnings, simfile.version_note(found)]:
        if warning:
            click.echo(f"warning: {warning}", err=True)
    if found.header["command"] != command:
        raise UsageError(f"{path} holds a {found.header['command']} run, not a {command} run "
                         f"(use sorry-play {found.header['command']})")
    return found


def _tallies_of(found) -> dict:
    from sorry_rules.simulation.simulate import Tally  # lazy: the simulation when a command runs

    tallies = {}
    for name, (setup, _) in found.setups.items():
        tally = tallies[name] = Tally(setup.players)
        for index in sorted(found.results[name]):
            tally.add(found.results[name][index])
    return tallies


def _execute(command: str, plan: dict, label: str, execution: dict, out, continue_file, found=None,
             pairs=None) -> _Outcome:
    """Play `plan` (the games missing from `continue_file`, read as `found`, if given),
    writing each game to `out` or appending to `continue_file`. With `pairs`
    (`simpairs.Pairs`, for compare) the outcome's tallies are its own: every game of the file
    and of the run is given to it, and it counts the games every side finished."""
    # lazy: the pool (and dask) when a command runs
    from sorry_rules.simulation import simfile
    from sorry_rules.simulation.simexec import run
    from sorry_rules.simulation.simreport import run_info
    from sorry_rules.simulation.simulate import game_seed
    from sorry_rules.simulation.simulate import Tally, default_batch_size

    head = simfile.header(command, plan)
    tallies = {name: Tally(setup.players) for name, (setup, _) in plan.items()}
    done, writer = {}, None
    if continue_file is not None:
        differences = simfile.mismatch(found.header, head)
        if differences:
            raise UsageError(f"{continue_file} was written with other options, so its games are not this command's: "
                             + "; ".join(differences))
        done, tallies = found.done(), _tallies_of(found)
        writer = simfile.Writer(continue_file, keep=found.keep)
        if pairs is not None:
            _pair_file(found, pairs)
    elif out is not None:
        writer = simfile.Writer(out, head)

    def on_result(name, result):
        if writer is not None:
            writer.add(name, result, game_seed(plan[name][0].seed, result.game))
        if pairs is not None:
            pairs.add(name, result)

    # local processes (this one included), or a local Dask cluster's; for a remote Dask cluster,
    # only what the default batch size is cut for
    engine, jobs, batch_size = execution["engine"], execution["jobs"] or os.cpu_count() or 1, execution["batch_size"]
    if batch_size is None:
        batch_size = default_batch_size(max(g for _, g in plan.values()), jobs)
    details = {}
    already = sum(len(indices) for indices in done.values())
    started = time.perf_counter()
    try:
        with _Progress(sum(g for _, g in plan.values()), label, execution["progress"], already) as bar:
            played = run(plan, jobs=jobs, engine=engine, scheduler=execution["scheduler"], batch_size=batch_size,
                         on_progress=bar.update, connect_timeout=execution["connect_timeout"], details=details,
                         done=done, on_result=on_result if writer is not None or pairs is not None else None)
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    if writer is not None:
        writer.close()
    seconds = time.perf_counter() - started
    for name, tally in played.items():
        tallies[name].merge(tally)
    info = run_info(engine, details.get("workers", jobs), batch_size, seconds, sum(t.games for t in played.values()))
    return _Outcome(pairs.tallies if pairs is not None else tallies, info, details.get("interrupted", False),
                    out or continue_file)


def _pair_file(found, pairs) -> None:
    """Give `pairs` every game of the results file `found`."""
    for name, results in found.results.items():
        for index in sorted(results):
            pairs.add(name, results[index])


def _partial(report: dict, finished: int, planned: int, outcome: _Outcome | None, left_out: int = 0) -> dict:
    """Mark `report` partial when fewer games than planned finished; `left_out`: games that
    one side of a comparison finished and the other did not (not counted)."""
    from sorry_rules.simulation.simreport import mark_partial  # lazy: the simulation when a command runs

    if finished >= planned:
        return report
    reason = "interrupted" if outcome is not None and outcome.interrupted else "the results file holds only these"
    if left_out:
        more = f"{left_out:,} more game{'s' if left_out != 1 else ''} finished on one side only"
        reason += f"; {more}, left out: only games both sides finished are compared"
    return mark_partial(report, finished, planned, reason)


def _finish(outcome: _Outcome | None, command: str) -> None:
    """After the report: on Ctrl-C, say how to go on and exit 130."""
    if outcome is None or not outcome.interrupted:
        return
    if outcome.out:
        click.echo(f"interrupted: the finished games are in {outcome.out}; `sorry-play {command} --continue "
                   f"{outcome.out}` with the same options plays the rest", err=True)
    else:
        click.echo("interrupted: the report covers the finished games only", err=True)
    sys.exit(INTERRUPTED_EXIT)


def _emit(report: dict, fmt: str, text, plot: str | None, drawing: str) -> None:
    """Print `report` (JSON, or `text(report)`); with `plot`, write to it the picture of
    `pictures.plots` named `drawing`."""
    click.echo(json.dumps(report, indent=2) if fmt == "json" else text(report))
    if plot is not None:
        from sorry_rules.pictures import plots  # lazy: the drawing only for --plot

        write_output(plot, getattr(plots, drawing)(report))


@click.command(cls=JsonFailing)
@variant_options
@_common
@_results_files
@_interruptible
@friendly
def simulate(variant, rules, games, players, bots, rotate, seed, max_plies, jobs, engine, scheduler,
             connect_timeout, batch_size, fmt, progress, plot, out, from_file, continue_file):
    """Play many games between computer players and report win rates, lengths and events.

    Game i of seed S always plays the same (whatever --jobs, --batch-size or --engine), so
    the same command gives the same figures; only the timing differs.

    \b
    Per game: bumps (pawns sent back to Start), slides (jumps too), forfeits (cards
    with no legal move), discards (hand play: a stuck hand throws a card
    away) and passes (a card declined through its `pass` option, e.g. the
    standard 11 when a switch is the only other move). A grid game (Sequence):
    removals (chips taken off the board), exchanges (dead cards swapped for
    new ones) and passes (no card in the hand can be played).

    \b
    Long runs: Ctrl-C stops after the games in progress and prints the
    figures of the finished games, marked PARTIAL (exit 130). --out FILE
    keeps every finished game; --continue FILE plays the missing ones;
    --from FILE reports on a file without playing.
    """
    # lazy: the simulation when it runs
    from sorry_rules.simulation import simfile
    from sorry_rules.simulation.simreport import format_text, summary

    _check_files(out, from_file, continue_file, plot)
    outcome = found = None
    if from_file is not None:
        found = _read(from_file, "simulate")
        (setup, games), = found.setups.values()
        game = simfile.compiled_side(found, "a")
        tally, = _tallies_of(found).values()
        info = None
    else:
        found, options, own = _continued(continue_file, "simulate", dict(
            games=games, players=players, bots=bots, rotate=rotate, seed=seed, max_plies=max_plies), ("variant", "rules"))
        games = options["games"]
        if own:
            setup, games = _file_side(found, "a", options)
            game = simfile.compiled_side(found, "a")
        else:
            setup, game = _setup(variant, rules, options)
        execution = dict(engine=engine, jobs=jobs, scheduler=scheduler, batch_size=batch_size, progress=progress,
                         connect_timeout=connect_timeout)
        outcome = _execute("simulate", {"a": (setup, games)}, "simulating", execution, out, continue_file, found)
        tally, info = outcome.tallies["a"], outcome.info
    report = _partial(summary(setup, tally, game, info), tally.games, games, outcome)
    _emit(report, fmt, format_text, plot, "simulation_svg")
    _finish(outcome, "simulate")


def _compare_plan(a, b, rules, a_rules, b_rules, options: dict, continue_file) -> tuple:
    """`(plan, sides, found)` of a comparison: its two sides from the command line, or with
    `--continue FILE` and no side given, from the file (`found`, the file read; None without
    one); the options not given are the file's."""
    found, options, own = _continued(continue_file, "compare", options, ("a", "b", "rules", "a_rules", "b_rules"))
    if own:
        from sorry_rules.simulation.simfile import compiled_side  # lazy: the simulation when a command runs

        plan = {name: _file_side(found, name, options) for name in found.setups}
        return plan, {name: (setup, compiled_side(found, name)) for name, (setup, _) in plan.items()}, found
    if a is None or b is None:
        if continue_file is not None:
            raise UsageError(f"--continue {continue_file} plays the file's own two sides: leave out --rule, --a-rule "
                             "and --b-rule, or give both sides A and B (the file's games must be theirs)")
        raise UsageError("compare needs two sides A and B (e.g. `standard standard+house/x.yaml`), or --from FILE")
    variant_a, overlays_a = split_side(a)
    variant_b, overlays_b = split_side(b)
    setup_a, game_a = _setup(variant_a, (*overlays_a, *a_rules, *rules), options)
    rules_b = (*overlays_b, *b_rules, *rules)
    try:
        setup_b, game_b = _setup(variant_b, rules_b, dict(options, players=setup_a.players))  # A's count
    except UsageError:
        if options["players"] is not None:
            raise
        # lazy: the simulation when a command runs (loaded already: kept)
        from sorry_rules.simulation.simulate import load_source

        counts = load_source(variant_b, rules_b)[1].player_counts()  # A's default count does not seat B: no option to blame
        raise UsageError(f"A ({a}) plays {setup_a.players} players by default, but B ({b}) is for {counts} players: "
                         "give --players with a count both sides seat") from None
    plan = {"a": (setup_a, options["games"]), "b": (setup_b, options["games"])}
    return plan, {"a": (setup_a, game_a), "b": (setup_b, game_b)}, found


def split_side(spec: str) -> tuple[str, tuple]:
    """`variant+overlay+overlay` -> (variant, overlays); a spec naming an existing file is whole."""
    from sorry_rules.rules.loader import resolve  # lazy: rule-file loading (pydantic) when a command runs

    if "+" not in spec or resolve(spec) is not None:
        return spec, ()
    parts = [p.strip() for p in spec.split("+")]
    if any(not p for p in parts):
        raise UsageError(f"{spec!r}: empty name around '+' (write VARIANT+OVERLAY+...)")
    return parts[0], tuple(parts[1:])


@click.command(cls=JsonFailing)
@click.argument("a", required=False)
@click.argument("b", required=False)
@rules_option("Overlay for both sides; repeatable.")
@click.option("--a-rule", "a_rules", multiple=True, help="Overlay for side A only; repeatable.")
@click.option("--b-rule", "b_rules", multiple=True, help="Overlay for side B only; repeatable.")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the tests.")
@_common
@_results_files
@_interruptible
@friendly
def compare(a, b, rules, a_rules, b_rules, alpha, games, players, bots, rotate, seed, max_plies, jobs, engine,
            scheduler, connect_timeout, batch_size, fmt, progress, plot, out, from_file, continue_file):
    """Compare two variants (or a variant with and without house rules) side by side.

    A and B are VARIANT[+OVERLAY...], e.g. `standard standard+house/x.yaml`. Both sides play
    the same game seeds (common random numbers) with the same bots. Each difference gets a
    two-sided test: win rates a pooled two-proportion z-test, means (length, bumps, ...) a
    Welch t-test; `*` marks p < --alpha, uncorrected; a line below the table names the
    rows that stay significant after Holm's correction for all the rows shown.
    The figures are those of `simulate`;
    `passes per game` counts cards declined through a `pass` option (shown
    when a side has any). Ctrl-C, --out, --continue and --from work as for
    `simulate` (one results file holds both sides' games).
    """
    # lazy: the simulation when it runs
    from sorry_rules.simulation import simfile
    from sorry_rules.simulation.simreport import comparison, format_compare_text

    from sorry_rules.simulation.simpairs import Pairs  # lazy: the simulation when it runs

    _check_files(out, from_file, continue_file, plot)
    outcome = None
    if from_file is not None:
        found = _read(from_file, "compare")
        plan = found.setups
        sides = {name: (setup, simfile.compiled_side(found, name)) for name, (setup, _) in plan.items()}
        pairs = Pairs({name: setup.players for name, (setup, _) in plan.items()})
        _pair_file(found, pairs)
        tallies, info = pairs.tallies, None
    else:
        plan, sides, found = _compare_plan(a, b, rules, a_rules, b_rules, dict(
            games=games, players=players, bots=bots, rotate=rotate, seed=seed, max_plies=max_plies), continue_file)
        execution = dict(engine=engine, jobs=jobs, scheduler=scheduler, batch_size=batch_size, progress=progress,
                         connect_timeout=connect_timeout)
        pairs = Pairs({name: setup.players for name, (setup, _) in plan.items()})
        outcome = _execute("compare", plan, "comparing", execution, out, continue_file, found, pairs)
        tallies, info = outcome.tallies, outcome.info
    (setup_a, game_a), (setup_b, game_b) = sides["a"], sides["b"]
    report = comparison(setup_a, tallies["a"], game_a, setup_b, tallies["b"], game_b, alpha, info)
    left_out = pairs.unpaired()
    for name in ("a", "b"):
        report[name] = _partial(report[name], tallies[name].games, plan[name][1], outcome, left_out)
    finished = sum(t.games for t in tallies.values())
    report = _partial(report, finished, sum(g for _, g in plan.values()), outcome, left_out)
    _emit(report, fmt, format_compare_text, plot, "comparison_svg")
    _finish(outcome, "compare")
