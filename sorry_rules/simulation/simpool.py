"""The local process pool of `simexec.run` for `--jobs J` above 1: this process plays too.

Contract: `run_pool(tasks, jobs, sources, collect, stop)` plays every task
`(name, setup, start, count)` of the iterator `tasks` exactly once, either in this process or
in one of `jobs - 1` worker processes, and hands the results of each batch (of each game
for the games played here) to `collect(name, results)`, always in this process. Workers
ignore SIGINT (the parent decides) and compile every variant of `sources` once in their
initializer (`start_method`: how they start). When `stop` is set, no task is started any more, each
worker ends its batch after the game in progress (so does this process), and the games
finished by then are collected. Errors of a batch (`WorkerError`) and of the pool (a worker
killed from outside) are raised here; the pool is shut down and its processes joined before
`run_pool` returns or raises.

How workers start (`start_method`): on Linux, when this process runs no other thread, by
fork: a worker is a copy of this process, with sorry-rules imported and the variants
compiled, and plays its first game within milliseconds; elsewhere, or when another thread
runs (forking a process with threads can copy a lock some thread holds), by spawn: a fresh
Python that imports sorry-rules and compiles the variants first, about 0.3-0.5 CPU-seconds.
The games are the same either way (a game depends on its seed only). Before forking, this
process flushes stdout and stderr, so no buffered output is written twice.

Why this process plays too: even a forked worker is a process to start and to feed, while
this process has the variant compiled already and can start at once; and with J workers it
would only wait. So J jobs are J-1 workers and this process, and a run pays for J-1 worker starts
instead of J, with no core idle meanwhile. This process plays game by game and, between two
games, collects the workers' results and refills their queue (at most `QUEUED_PER_WORKER`
batches per worker, so memory stays flat), so a worker never waits for this process to
finish a batch. Near the end the batches are halved as they are taken, and when none is
left, batches queued for the workers but not yet started are taken back and played here:
the last batches are small, and no core waits long for another's.
"""

from __future__ import annotations

import collections
import sys
import threading

from sorry_rules.simulation.simsignals import ignore_stopping, stopping_ignored
from sorry_rules.simulation.simulate import WorkerError, play_results, warm

#: Batches queued per worker process (one running, the rest waiting).
QUEUED_PER_WORKER = 3

_WORKER_STOP = None   # in a pool worker: the run's stop Event, shared with the parent


def _worker_start(stop, *sources) -> None:
    """Pool initializer: leave Ctrl-C, SIGTERM and SIGHUP to the parent (which sets `stop`),
    then compile."""
    global _WORKER_STOP
    ignore_stopping()
    _WORKER_STOP = stop
    warm(*sources)


def _play_in_worker(setup, start: int, count: int) -> list:
    return play_results(setup, start, count, _WORKER_STOP)


class _Queue:
    """The batches handed to the pool and not collected yet (future -> task)."""

    def __init__(self, pool, collect):
        self.pool, self.collect, self.pending = pool, collect, {}

    def submit(self, task) -> None:
        _, setup, start, count = task
        self.pending[self.pool.submit(_play_in_worker, setup, start, count)] = task

    def collect_finished(self, finished) -> None:
        from concurrent.futures.process import BrokenProcessPool  # lazy: with the pool (see simexec)

        for future in finished:
            name = self.pending.pop(future)[0]
            if future.cancelled():
                continue
            try:
                games = future.result()
            except BrokenProcessPool:
                raise WorkerError("a worker process ended abruptly (killed from outside, or out of memory)") from None
            self.collect(name, games)

    def refill(self, batches, limit: int) -> None:
        """Queue batches for the workers until `limit` are queued or none is left."""
        while len(self.pending) < limit:
            task = batches.take()
            if task is None:
                return
            self.submit(task)

    def take_back(self):
        """A queued batch no worker has started (the latest queued first), or None."""
        for future in reversed(list(self.pending)):
            if future.cancel():
                return self.pending.pop(future)
        return None

    def drain(self, stop, worker_stop, poll: float) -> None:
        """Collect every batch; once `stop` is set, cancel the queued ones and tell the
        workers (`worker_stop`) to end theirs after the game in progress."""
        from concurrent.futures import FIRST_COMPLETED, wait  # lazy: with the pool (see simexec)

        while self.pending and not stop.is_set():
            self.collect_finished(wait(self.pending, poll, FIRST_COMPLETED)[0])
        if self.pending:
            worker_stop.set()
            self.cancel()
            self.collect_finished(wait(self.pending)[0])

    def cancel(self) -> None:
        for future in self.pending:
            future.cancel()


def start_method() -> str:
    """How worker processes start here: "fork" on Linux when this process runs no other
    thread, else "spawn" (see the module docstring)."""
    return "fork" if sys.platform.startswith("linux") and threading.active_count() == 1 else "spawn"


def run_pool(tasks, jobs: int, sources: tuple, collect, stop, poll: float = 0.1, method: str | None = None) -> None:
    """Play `tasks` on `jobs - 1` worker processes and in this process (see the module
    docstring); `method` chooses the start method (default: `start_method()`)."""
    # lazy: the process pool only for runs with more than one job (see simexec's docstring)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(method or start_method())
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    worker_stop = context.Event()
    workers = jobs - 1
    limit = workers * QUEUED_PER_WORKER
    batches = _Batches(tasks, limit + 1)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start,
                             initargs=(worker_stop, *sources)) as pool:
        queue = _Queue(pool, collect)
        try:
            with stopping_ignored():   # the pool starts a worker at each of its first `workers` submits
                queue.refill(batches, workers)
            _play_here(batches, queue, limit, collect, stop)
            queue.drain(stop, worker_stop, poll)
        except BaseException:
            worker_stop.set()
            queue.cancel()
            raise


class _Batches:
    """The run's batches, taken one at a time. Near the end (fewer than `spare` batches left
    after the one taken) a batch taken is halved and its second half put back first, so the
    last batches get smaller and no process waits long for another's last batch."""

    def __init__(self, tasks, spare: int):
        self.source, self.ahead, self.spare = iter(tasks), collections.deque(), spare

    def take(self):
        """The next batch (name, setup, start, count), or None when none is left."""
        while len(self.ahead) <= self.spare:
            task = next(self.source, None)
            if task is None:
                break
            self.ahead.append(task)
        if not self.ahead:
            return None
        name, setup, start, count = task = self.ahead.popleft()
        if len(self.ahead) < self.spare and count > 1:
            half = count // 2
            self.ahead.appendleft((name, setup, start + half, count - half))
            return name, setup, start, half
        return task

    def put_back(self, task) -> None:
        self.ahead.appendleft(task)


def _play_here(batches: _Batches, queue: _Queue, limit: int, collect, stop) -> None:
    """Play batches here game by game; between two games collect the workers' finished
    batches and fill their queue up to `limit`. When no batch is left, take one back from
    the workers' queue; return when there is none either, or when `stop` is set."""
    index = end = 0
    name = setup = None
    while not stop.is_set():
        queue.collect_finished([future for future in queue.pending if future.done()])
        if index == end:
            task = batches.take()
            if task is None:
                task = queue.take_back()
                if task is None:
                    return
                batches.put_back(task)
                task = batches.take()
            name, setup, index, count = task
            end = index + count
        queue.refill(batches, limit)
        collect(name, play_results(setup, index, 1, stop))
        index += 1
