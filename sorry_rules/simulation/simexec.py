"""Run simulation batches: in this process, on a local process pool, or on a Dask cluster.

Contract: `run(jobs_of, ...)` takes one or more named `Setup`s with their game counts, cuts
each into batches, plays every batch with `simulate.play_batch` and returns {name: Tally}.
The figures do not depend on the engine, the number of jobs or the batch size (batches
hold whole seeded games, tallies are exact sums). `on_progress(games_done)` is called in
this process as batches finish.

- `engine="local"`, `jobs=1`: batches are played here, one after another (no pool).
- `engine="local"`, `jobs>1`: a `ProcessPoolExecutor` (spawn start method, the same on
  every platform) of `jobs` workers; each worker compiles every variant once in its
  initializer. At most a few batches per worker are in flight, so memory stays flat.
- `engine="dask"`: the same batches on an existing Dask cluster (`scheduler` address);
  each worker process compiles a variant once and keeps it. Needs `sorry-rules[dask]` on
  the client and sorry-rules (the same version) on the workers; rule files need not exist
  on the workers.

`concurrent.futures`, `multiprocessing` and dask are imported only inside the functions that
use them, never when the package or the CLI is imported.
"""

from __future__ import annotations

import signal

from sorry_rules.base.errors import SorryRulesError, UsageError
from sorry_rules.simulation.simulate import Tally, batches, play_batch, warm


def _worker_start(*sources) -> None:
    """Pool initializer: leave Ctrl-C to the parent (which cancels the run), then compile."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm(*sources)

IN_FLIGHT_PER_WORKER = 3


class ClusterError(SorryRulesError):
    """The Dask scheduler cannot be reached or the cluster failed."""


def _tasks(plan: dict, batch_size: int):
    """Yield (name, setup, start, count) for every batch of every setup, the setups taking
    turns batch by batch (lazily: nothing is kept per batch)."""
    def stream(name, setup, games):
        for start, count in batches(games, batch_size):
            yield name, setup, start, count

    streams = [stream(name, setup, games) for name, (setup, games) in plan.items()]
    while streams:
        for stream in list(streams):
            task = next(stream, None)
            if task is None:
                streams.remove(stream)
            else:
                yield task


def run(plan: dict, *, jobs: int = 1, engine: str = "local", scheduler: str | None = None,
        batch_size: int = 100, on_progress=None, connect_timeout: float = 10.0, details: dict | None = None) -> dict:
    """Play `plan` = {name: (Setup, games)}; return {name: Tally}. `details`, if given,
    receives {"workers": n}: the processes (local) or Dask workers that played."""
    details = {} if details is None else details
    if batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    tasks = _tasks(plan, batch_size)
    results = {name: Tally(setup.players) for name, (setup, _) in plan.items()}
    done = 0

    def collect(name, tally):
        nonlocal done
        results[name].merge(tally)
        done += tally.games
        if on_progress is not None:
            on_progress(done)

    if engine == "dask":
        details["workers"] = _run_dask(tasks, scheduler, collect, connect_timeout)
    elif engine == "local":
        if scheduler:
            raise UsageError("--scheduler is only for --engine dask")
        if jobs < 1:
            raise UsageError("--jobs must be at least 1")
        details["workers"] = jobs
        if jobs == 1:
            for name, setup, start, count in tasks:
                collect(name, play_batch(setup, start, count))
        else:
            sources = tuple({setup.source.content_hash: setup.source for setup, _ in plan.values()}.values())
            _run_pool(tasks, jobs, sources, collect)
    else:
        raise UsageError(f"unknown engine {engine!r} (local or dask)")
    return results


def _run_pool(tasks: list, jobs: int, sources: tuple, collect) -> None:
    # lazy: the process pool only for runs with more than one job (see the module docstring)
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")
    limit = jobs * IN_FLIGHT_PER_WORKER
    pending = {}
    queue = iter(tasks)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start, initargs=sources) as pool:
        try:
            while True:
                while len(pending) < limit:
                    task = next(queue, None)
                    if task is None:
                        break
                    name, setup, start, count = task
                    pending[pool.submit(play_batch, setup, start, count)] = name
                if not pending:
                    break
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    name = pending.pop(future)
                    collect(name, future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _run_dask(tasks: list, scheduler: str | None, collect, connect_timeout: float) -> int:
    """Play the tasks on the cluster; returns the number of workers it had at the start."""
    if not scheduler:
        raise UsageError("--engine dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786) of a running Dask scheduler")
    try:  # lazy: dask is an optional extra, imported only for --engine dask
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("the dask engine needs Dask: pip install 'sorry-rules[dask]'") from None
    try:
        client = Client(scheduler, timeout=f"{connect_timeout}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        limit = workers * 2 * IN_FLIGHT_PER_WORKER
        queue = iter(tasks)
        names = {}

        def submit_next():
            task = next(queue, None)
            if task is None:
                return None
            name, setup, start, count = task
            future = client.submit(play_batch, setup, start, count, pure=False)
            names[future.key] = name
            return future

        first = [f for f in (submit_next() for _ in range(limit)) if f is not None]
        pipeline = as_completed(first, loop=client.loop)
        for future in pipeline:
            try:
                tally = future.result()
            except SorryRulesError:
                raise
            except Exception as error:  # a worker died, could not import sorry_rules, ...
                raise ClusterError(f"a Dask task failed: {type(error).__name__}: {error}") from None
            collect(names.pop(future.key), tally)
            future.release()
            following = submit_next()
            if following is not None:
                pipeline.add(following)
        return workers
    finally:
        client.close()
