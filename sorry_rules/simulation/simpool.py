"""The local process pool of `simexec.run` for `--jobs J` above 1: this process plays too.

Contract: `run_pool(tasks, jobs, sources, collect, stop)` plays every task
`(name, setup, start, count)` of the iterator `tasks` exactly once, either in this process or
in one of `jobs - 1` worker processes, and hands each batch's results to
`collect(name, results)`, always in this process. Workers use the spawn start method (the
same on every platform), ignore SIGINT (the parent decides) and compile every variant of
`sources` once in their initializer. When `stop` is set, no task is started any more, each
worker ends its batch after the game in progress (so does this process), and the games
finished by then are collected. Errors of a batch (`WorkerError`) and of the pool (a worker
killed from outside) are raised here; the pool is shut down and its processes joined before
`run_pool` returns or raises.

Why this process plays too: a spawned worker spends about 0.4-0.5 CPU-seconds (starting
Python, importing sorry-rules, compiling the variant) before its first game, while this
process has the variant compiled already and can start at once; and with J workers it would
only wait. So J jobs are J-1 workers and this process, and a run pays for J-1 worker starts
instead of J, with no core idle meanwhile. At most `QUEUED_PER_WORKER` batches per worker
are queued (memory stays flat); when the tasks run out, batches queued for the workers but
not yet started are taken back and played here, so the last batches do not wait for a busy
worker while this process is idle.
"""

from __future__ import annotations

import signal

from sorry_rules.simulation.simsignals import sigint_ignored
from sorry_rules.simulation.simulate import WorkerError, play_results, warm

#: Batches queued per worker process (one running, the rest waiting).
QUEUED_PER_WORKER = 3

_WORKER_STOP = None   # in a pool worker: the run's stop Event, shared with the parent


def _worker_start(stop, *sources) -> None:
    """Pool initializer: leave Ctrl-C to the parent (which sets `stop`), then compile."""
    global _WORKER_STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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

    def collect_done(self) -> None:
        self.collect_finished([future for future in self.pending if future.done()])

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


def run_pool(tasks, jobs: int, sources: tuple, collect, stop, poll: float = 0.1) -> None:
    """Play `tasks` on `jobs - 1` worker processes and in this process (see the module docstring)."""
    # lazy: the process pool only for runs with more than one job (see simexec's docstring)
    import itertools
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    worker_stop = context.Event()
    workers = jobs - 1
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start,
                             initargs=(worker_stop, *sources)) as pool:
        queue = _Queue(pool, collect)
        try:
            with sigint_ignored():   # the pool starts a worker at each of its first `workers` submits
                for task in itertools.islice(tasks, workers):
                    queue.submit(task)
            _play_here(tasks, queue, workers * QUEUED_PER_WORKER, collect, stop)
            queue.drain(stop, worker_stop, poll)
        except BaseException:
            worker_stop.set()
            queue.cancel()
            raise


def _play_here(tasks, queue: _Queue, limit: int, collect, stop) -> None:
    """Keep the workers' queue full and play a batch here between looks at it, until no task
    is left (taking back queued batches at the end) or `stop` is set."""
    while not stop.is_set():
        queue.collect_done()
        task = None
        for task in tasks:
            if len(queue.pending) < limit:
                queue.submit(task)
                task = None
            else:
                break
        if task is None:
            task = queue.take_back()
        if task is None:
            return
        name, setup, start, count = task
        collect(name, play_results(setup, start, count, stop))
