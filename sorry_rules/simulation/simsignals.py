"""Ctrl-C in simulation runs: the run's stop flag, and worker processes that ignore SIGINT.

Contract:
- `stop_on_ctrl_c(stop)` yields the run's stop flag (anything with `is_set()`): `stop` itself
  when given; else, in the main thread, an Event set by the first SIGINT, after which the
  previous handler is back (so a second Ctrl-C acts as before the run; where SIGINT was
  ignored, it raises KeyboardInterrupt), and back after the run too; in another thread, an
  Event nothing sets.
- `sigint_ignored()` ignores SIGINT in this process while its block runs (main thread only;
  elsewhere it does nothing). Processes started meanwhile inherit the ignored signal through
  exec, and Python leaves an ignored SIGINT ignored, so a terminal's Ctrl-C (which reaches
  the whole process group) cannot kill a worker, even while it is still importing: the
  parent decides how a run stops. A Ctrl-C in this short moment is lost; press it again.
"""

from __future__ import annotations

import contextlib
import signal
import threading


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
    previous = signal.getsignal(signal.SIGINT)
    if previous is None:   # a handler not installed from Python: give the default back
        previous = signal.SIG_DFL

    def on_sigint(signum, frame):
        event.set()
        # a second Ctrl-C ends the command; where SIGINT was ignored when the process began (a
        # job started in the background by a script), the run's own Ctrl-C asked for a stop already
        signal.signal(signal.SIGINT, signal.default_int_handler if previous == signal.SIG_IGN else previous)

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def sigint_ignored():
    """SIGINT ignored in this process while the block runs (see the module docstring).
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
