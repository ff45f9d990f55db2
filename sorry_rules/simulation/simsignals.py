"""Stopping simulation runs: the run's stop flag, and worker processes that leave the stop
to their parent.

A run stops on Ctrl-C (SIGINT) and on SIGTERM and SIGHUP alike (`kill`, `timeout`, a closed
terminal, a cancelled CI job): the *stopping signals* (`STOPPING`, those the platform has).

Contract:
- `stop_on_ctrl_c(stop)` yields the run's stop flag (anything with `is_set()`): `stop` itself
  when given; else, in the main thread, an Event set by the first stopping signal, after
  which the previous handlers are back (so a second Ctrl-C acts as before the run; where
  SIGINT was ignored, it raises KeyboardInterrupt), and back after the run too; in another
  thread, an Event nothing sets.
- `stopping_ignored()` ignores the stopping signals in this process while its block runs (main
  thread only; elsewhere it does nothing). Processes started meanwhile inherit the ignored
  signals through exec, and Python leaves an ignored signal ignored, so a terminal's Ctrl-C
  or `timeout`'s SIGTERM (which reach the whole process group) cannot kill a worker, even
  while it is still importing: the parent decides how a run stops. A signal in this short
  moment is held where the system can block it (POSIX), else lost: press Ctrl-C again.
- `ignore_stopping()`: a worker process ignores the stopping signals from then on.
"""

from __future__ import annotations

import contextlib
import signal
import threading

STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _previous(signum):
    """The handler of `signum` now (the default for one not installed from Python)."""
    found = signal.getsignal(signum)
    return signal.SIG_DFL if found is None else found


@contextlib.contextmanager
def stop_on_ctrl_c(stop):
    """Yield the run's stop flag (see the module docstring)."""
    if stop is not None:
        yield stop
        return
    event = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield event
        return
    previous = {signum: _previous(signum) for signum in STOPPING}

    def again(signum):
        """The handler after the first stopping signal: a second one ends the command; where
        SIGINT was ignored when the process began (a job started in the background by a
        script), the run's own Ctrl-C asked for a stop already."""
        if signum == signal.SIGINT and previous[signum] == signal.SIG_IGN:
            return signal.default_int_handler
        return previous[signum]

    def on_stop(signum, frame):
        event.set()
        for each in STOPPING:
            signal.signal(each, again(each))

    for signum in STOPPING:
        signal.signal(signum, on_stop)
    try:
        yield event
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def ignore_stopping() -> None:
    """From now on this process (a worker) ignores the stopping signals: its parent stops it."""
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_IGN)


@contextlib.contextmanager
def stopping_ignored():
    """The stopping signals ignored in this process while the block runs (see the module
    docstring). Where the system can (POSIX), they are also blocked meanwhile, so one sent in
    this moment is held (Linux keeps a blocked signal pending even while it is ignored) and
    reaches this process's own handler once it is back; elsewhere it is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    can_block = hasattr(signal, "pthread_sigmask")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOPPING)) if can_block else None
    previous = {signum: _previous(signum) for signum in STOPPING}
    ignore_stopping()
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if can_block:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
