"""The Dask engine of `simexec.run`: simulation batches on a Dask cluster.

Contract: `run_dask(tasks, scheduler, jobs, collect, connect_timeout, stop)` plays every task
`(name, setup, start, count)` of the iterator `tasks` on the cluster whose scheduler is at
`scheduler` (e.g. `tcp://HOST:8786`), or, when `scheduler` is `LOCAL`, on a Dask
LocalCluster of `jobs` worker processes (one thread each) started for the run and closed
after it. Each batch's results go to `collect(name, results)` in this process; it returns
the number of Dask workers the cluster had at the start. Each worker process compiles a
variant once (`simulate.compiled`) from the merged rule data the batch carries, so rule
files need not exist on the workers, but the workers need sorry-rules (the same version)
installed. At most a few batches per worker are in flight, so memory stays flat. When
`stop` is set, the batches still running are cancelled and their games not counted (the
figures are those of the games collected).

Errors, never tracebacks: no dask installed is a UsageError (exit 2) naming the extra to
install (`pip install 'sorry-rules[dask]'`); a scheduler that cannot be reached in
`connect_timeout` seconds, or a task that fails on the cluster, is a ClusterError (exit 1).
dask and distributed are imported only inside `run_dask`.
"""

from __future__ import annotations

import contextlib
import sys
import threading

from sorry_rules.base.errors import SorryRulesError, UsageError
from sorry_rules.simulation.simsignals import stopping_ignored
from sorry_rules.simulation.simulate import play_results

#: The `--scheduler` value that starts a LocalCluster for the run.
LOCAL = "local"
#: Batches in flight per Dask worker thread.
IN_FLIGHT_PER_WORKER = 6
#: Seconds between looks at the stop flag while waiting for the cluster.
POLL_SECONDS = 0.1


class ClusterError(SorryRulesError):
    """The Dask scheduler cannot be reached or the cluster failed."""


def _distributed():
    try:  # lazy: dask is an optional extra, imported only for --engine dask
        import distributed
    except ImportError:
        raise UsageError("the dask engine needs Dask: pip install 'sorry-rules[dask]'") from None
    return distributed


def local_cluster(distributed, jobs: int):
    """A LocalCluster of `jobs` worker processes, one thread each, the dashboard (if bokeh is installed) on a free port, quiet.

    Quiet means critical messages only: when a run stops (Ctrl-C) the workers can lose the
    scheduler mid-heartbeat and log that with a traceback; a task's own failure still reaches
    the run through its future (`ClusterError`)."""
    import logging

    return distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0",
                                    silence_logs=logging.CRITICAL)


@contextlib.contextmanager
def _client(scheduler: str, jobs: int, connect_timeout: float):
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        address = scheduler
        if scheduler == LOCAL:
            try:
                with stopping_ignored():   # its worker processes leave Ctrl-C to this one (see simsignals)
                    cluster = local_cluster(distributed, jobs)
                address = stack.enter_context(cluster).scheduler_address
            except (OSError, TimeoutError, RuntimeError) as error:
                raise ClusterError(f"cannot start a local Dask cluster: {error}") from None
        try:
            client = _connect(distributed, address, connect_timeout)
        except (OSError, TimeoutError, ValueError) as error:
            _quiet_unfinished_clients()
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        except (MemoryError, OverflowError, TypeError, KeyError, EOFError):
            _quiet_unfinished_clients()
            # what answered is no Dask scheduler: its first bytes read as a message length or
            # header (e.g. an HTTP server's "HTTP/1.1" as a frame of exabytes)
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: the service there does not "
                               "answer as a Dask scheduler") from None
        stack.callback(client.close)
        yield distributed, client


def _quiet_unfinished_clients() -> None:
    """Leave unsaid what a Client that never connected raises when it is collected (its
    `__del__` closes it and times out): the failure is told once, as a ClusterError."""
    told = sys.unraisablehook

    def hook(unraisable):
        if "Client.__del__" not in repr(getattr(unraisable, "object", "")):
            told(unraisable)

    sys.unraisablehook = hook


def _connect(distributed, address: str, connect_timeout: float):
    """A Client of the scheduler at `address`, within `connect_timeout` seconds and a little
    more: a service that takes the connection and never answers (an HTTP server waiting for
    a request) keeps Dask's own handshake waiting past its timeout, so the client is made in
    a thread of its own, left behind when it does not finish (TimeoutError)."""
    made: list = []

    def connect():
        try:
            made.append(distributed.Client(address, timeout=f"{connect_timeout}s", set_as_default=False))
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            made.append(error)

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(connect_timeout + 5)
    if not made:
        raise TimeoutError(f"no answer within {connect_timeout:g} s")
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]


def run_dask(tasks, scheduler: str | None, jobs: int, collect, connect_timeout: float, stop) -> int:
    """Play the tasks on the cluster; returns the number of workers it had at the start."""
    if not scheduler:
        raise UsageError("--engine dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786) of a running Dask "
                         f"scheduler, or --scheduler {LOCAL} for a local cluster of --jobs processes")
    with _client(scheduler, jobs, connect_timeout) as (distributed, client):
        info = client.scheduler_info()
        workers = max(1, len(info.get("workers", {})))
        threads = max(workers, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))
        queue = iter(tasks)
        pending = {}
        ready = threading.Event()   # set from the client's thread when a batch is done

        def submit_next() -> bool:
            task = next(queue, None)
            if task is None:
                return False
            name, setup, start, count = task
            future = client.submit(play_results, setup, start, count, pure=False)
            pending[future] = name
            future.add_done_callback(lambda _: ready.set())
            return True

        for _ in range(threads * IN_FLIGHT_PER_WORKER):
            if not submit_next():
                break
        while pending and not stop.is_set():
            ready.wait(POLL_SECONDS)
            ready.clear()
            for future in [f for f in pending if f.done()]:
                collect(pending.pop(future), _result(future))
                future.release()
                if not stop.is_set():
                    submit_next()
        if pending:  # stopping: the batches still running are dropped, their games not counted
            client.cancel(list(pending))
        return workers


def _result(future) -> list:
    try:
        return future.result()
    except SorryRulesError:
        raise
    except Exception as error:  # a worker died, could not import sorry_rules, ...
        raise ClusterError(f"a Dask task failed: {type(error).__name__}: {error}") from None
