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
- `engine="local"`, `jobs>1`: a `ProcessPoolExecutor` (spawn start method, the same on
  every platform) of `jobs` workers; each worker ignores SIGINT (the parent decides) and
  compiles every variant once in its initializer. At most a few batches per worker are in
  flight, so memory stays flat.
- `engine="dask"`: the same batches on an existing Dask cluster (`scheduler` address);
  each worker process compiles a variant once and keeps it. Needs `sorry-rules[dask]` on
  the client and sorry-rules (the same version) on the workers; rule files need not exist
  on the workers. Stopping cancels the batches not finished (their games are not counted).

`concurrent.futures`, `multiprocessing` and dask are imported only inside the functions that
use them, never when the package or the CLI is imported.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from sorry_rules.base.errors import SorryRulesError, UsageError
from sorry_rules.simulation.simulate import Tally, WorkerError, batches, play_results, warm

IN_FLIGHT_PER_WORKER = 3
#: Seconds between looks at the stop flag while waiting for a worker.
POLL_SECONDS = 0.1

_WORKER_STOP = None   # in a pool worker: the run's stop Event, shared with the parent


def _worker_start(stop, *sources) -> None:
    """Pool initializer: leave Ctrl-C to the parent (which sets `stop`), then compile."""
    global _WORKER_STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_STOP = stop
    warm(*sources)


def _play_in_worker(setup, start: int, count: int) -> list:
    return play_results(setup, start, count, _WORKER_STOP)


class ClusterError(SorryRulesError):
    """The Dask scheduler cannot be reached or the cluster failed."""


def _tasks(plan: dict, batch_size: int, done: dict | None = None):
    """Yield (name, setup, start, count) for every batch of every setup, leaving out the
    games in `done` ({name: indices}), the setups taking turns batch by batch (lazily:
    nothing is kept per batch)."""
    done = done or {}

    def stream(name, setup, games):
        for start, count in batches(games, batch_size, done.get(name, frozenset())):
            yield name, setup, start, count

    streams = [stream(name, setup, games) for name, (setup, games) in plan.items()]
    while streams:
        for stream in list(streams):
            task = next(stream, None)
            if task is None:
                streams.remove(stream)
            else:
                yield task


@contextlib.contextmanager
def _stop_on_ctrl_c(stop):
    """Yield the run's stop flag: `stop` itself, or an Event set by the first SIGINT (main
    thread only; the previous handler is back for a second Ctrl-C and after the run)."""
    if stop is not None:
        yield stop
        return
    event = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield event
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is None:   # a handler not installed from Python: give the default back
        previous = signal.SIG_DFL

    def on_sigint(signum, frame):
        event.set()
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)


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
    if engine == "local" and jobs < 1:
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

    with _stop_on_ctrl_c(stop) as flag:
        if engine == "dask":
            details["workers"] = _run_dask(tasks, scheduler, collect, connect_timeout, flag)
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
            _run_pool(tasks, jobs, sources, collect, flag)
        wanted = sum(games - len((done or {}).get(name, ())) for name, (_, games) in plan.items())
        details["interrupted"] = flag.is_set() and played < wanted
    return results


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored in this process for a moment (main thread only): processes started
    meanwhile inherit that through exec, so a Ctrl-C cannot reach a worker even while it is
    still importing, before its initializer runs (a worker killed there breaks the pool).
    Where the system can (POSIX), SIGINT is also blocked meanwhile, so a Ctrl-C in this moment
    is held (Linux keeps a blocked signal pending even while it is ignored) and reaches this
    process's own handler once it is back; elsewhere it is lost: press it again."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    can_block = hasattr(signal, "pthread_sigmask")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if can_block else None
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if can_block:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _run_pool(tasks, jobs: int, sources: tuple, collect, stop) -> None:
    # lazy: the process pool only for runs with more than one job (see the module docstring)
    import itertools
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")
    worker_stop = context.Event()
    limit = jobs * IN_FLIGHT_PER_WORKER
    pending = {}

    def submit(task):
        name, setup, start, count = task
        pending[pool.submit(_play_in_worker, setup, start, count)] = name

    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start,
                             initargs=(worker_stop, *sources)) as pool:
        try:
            with _sigint_ignored():   # the pool starts a worker at each of its first `jobs` submits
                for task in itertools.islice(tasks, jobs):
                    submit(task)
            for task in tasks:
                if stop.is_set():
                    break
                submit(task)
                while len(pending) >= limit and not stop.is_set():
                    _collect_finished(pending, collect, wait(pending, POLL_SECONDS, FIRST_COMPLETED)[0])
            while pending and not stop.is_set():
                _collect_finished(pending, collect, wait(pending, POLL_SECONDS, FIRST_COMPLETED)[0])
            if pending:  # stopping: workers end their batch after the game in progress
                worker_stop.set()
                for future in pending:
                    future.cancel()
                _collect_finished(pending, collect, wait(pending)[0])
        except BaseException:
            worker_stop.set()
            for future in pending:
                future.cancel()
            raise


def _collect_finished(pending: dict, collect, finished) -> None:
    from concurrent.futures.process import BrokenProcessPool  # lazy: with the pool (see the module docstring)

    for future in finished:
        name = pending.pop(future)
        if future.cancelled():
            continue
        try:
            games = future.result()
        except BrokenProcessPool:
            raise WorkerError("a worker process ended abruptly (killed from outside, or out of memory)") from None
        collect(name, games)


def _run_dask(tasks, scheduler: str | None, collect, connect_timeout: float, stop) -> int:
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
            future = client.submit(play_results, setup, start, count, pure=False)
            names[future.key] = name
            return future

        first = [f for f in (submit_next() for _ in range(limit)) if f is not None]
        pipeline = as_completed(first, loop=client.loop)
        for future in pipeline:
            try:
                games = future.result()
            except SorryRulesError:
                raise
            except Exception as error:  # a worker died, could not import sorry_rules, ...
                raise ClusterError(f"a Dask task failed: {type(error).__name__}: {error}") from None
            collect(names.pop(future.key), games)
            future.release()
            if stop.is_set():  # the batches still running are dropped, their games not counted
                client.cancel(list(pipeline.futures))
                break
            following = submit_next()
            if following is not None:
                pipeline.add(following)
        return workers
    finally:
        client.close()
