"""Run simulation batches: in this process, on a local process pool, or on a Dask cluster.

Contract: `run(plan, ...)` takes one or more named `Setup`s with their game counts, cuts
each into batches (leaving out the games in `done`), plays every batch with
`simulate.play_results` and returns {name: Tally} of the games it played. The figures do
not depend on the engine, the number of jobs or the batch size (batches hold whole seeded
games, game i's seed depends only on (seed, i), tallies are exact sums). In this process,
as batches finish: `on_result(name, result)` for every game (in the order the games come
back, which depends on scheduling) and `on_progress(games_done)`.

Stopping: `run` stops early when `stop` (anything with `is_set()`) is set, or, when `stop`
is not given and `run` is called from the main thread, on the first Ctrl-C (SIGINT; a
second Ctrl-C raises KeyboardInterrupt as usual). Games not started are not played, each
worker ends its batch after the game in progress, and the games finished by then are
collected like any others, so the returned tallies are exactly those of the games
finished; `details["interrupted"]` says whether it stopped early. The pool is shut down
and its processes joined before `run` returns.

- `engine="local"`, `jobs=1`: batches are played here, one after another (no pool), each
  game reported as soon as it ends.
- `engine="local"`, `jobs>1`: `jobs - 1` worker processes (forked on Linux, else
  spawned) and this process play the batches (`simpool`: how workers start, why this
  process plays too, and how the last batches are shared).
- `engine="dask"`: the same batches on an existing Dask cluster (`scheduler` address), or
  on a LocalCluster of `jobs` processes started for the run (`scheduler="local"`); see
  `simdask`. Needs `sorry-rules[dask]` on the client and sorry-rules (the same version) on
  the workers; rule files need not exist on the workers. Stopping cancels the batches not
  finished (their games are not counted).

`concurrent.futures`, `multiprocessing` and dask are imported only inside the functions that
use them (in `simpool` and `simdask`), never when the package or the CLI is imported.
"""

from __future__ import annotations

from itertools import zip_longest

from sorry_rules.base.errors import UsageError
from sorry_rules.simulation.simdask import ClusterError, run_dask
from sorry_rules.simulation.simpool import run_pool
from sorry_rules.simulation.simsignals import stop_on_ctrl_c
from sorry_rules.simulation.simulate import Tally, batches, play_results

__all__ = ["ClusterError", "run"]


def _tasks(plan: dict, batch_size: int, done: dict | None = None):
    """Yield (name, setup, start, count) for every batch of every setup, leaving out the
    games in `done` ({name: indices}), the setups taking turns batch by batch (lazily:
    nothing is kept per batch)."""
    done = done or {}

    def stream(name, setup, games):
        for start, count in batches(games, batch_size, done.get(name, frozenset())):
            yield name, setup, start, count

    streams = [stream(name, setup, games) for name, (setup, games) in plan.items()]
    for turn in zip_longest(*streams):  # a setup with no batch left gives None
        yield from (task for task in turn if task is not None)


def run(plan: dict, *, jobs: int = 1, engine: str = "local", scheduler: str | None = None,
        batch_size: int = 100, on_progress=None, connect_timeout: float = 10.0, details: dict | None = None,
        done: dict | None = None, on_result=None, stop=None) -> dict:
    """Play `plan` = {name: (Setup, games)} but the games in `done` ({name: indices}); return
    {name: Tally} of the games played. `details`, if given, receives {"workers": n}: the
    processes (local) or Dask workers that played, and {"interrupted": bool}."""
    details = {} if details is None else details
    if batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    if engine == "local" and scheduler:
        raise UsageError("--scheduler is only for --engine dask")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if engine not in ("local", "dask"):
        raise UsageError(f"unknown engine {engine!r} (local or dask)")
    tasks = _tasks(plan, batch_size, done)
    results = {name: Tally(setup.players) for name, (setup, _) in plan.items()}
    played = 0

    def collect(name, games):
        nonlocal played
        tally = results[name]
        for result in games:
            tally.add(result)
            if on_result is not None:
                on_result(name, result)
        played += len(games)
        if on_progress is not None:
            on_progress(played)

    with stop_on_ctrl_c(stop) as flag:
        if engine == "dask":
            details["workers"] = run_dask(tasks, scheduler, jobs, collect, connect_timeout, flag)
        elif jobs == 1:
            details["workers"] = 1
            for name, setup, start, count in tasks:   # game by game: each is reported as it ends
                for index in range(start, start + count):
                    if flag.is_set():
                        break
                    collect(name, play_results(setup, index, 1))
                if flag.is_set():
                    break
        else:
            details["workers"] = jobs
            sources = tuple({setup.source.content_hash: setup.source for setup, _ in plan.values()}.values())
            run_pool(tasks, jobs, sources, collect, flag)
        wanted = sum(games - len((done or {}).get(name, ())) for name, (_, games) in plan.items())
        details["interrupted"] = flag.is_set() and played < wanted
    return results
