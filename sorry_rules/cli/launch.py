"""The `sorry-play` entry point: imports the command line, then runs it.

Contract: `main()` runs `cli.app.main`; a Ctrl-C while the command line is still being
imported (the first tens of milliseconds) ends the program quietly with status 130, as a
Ctrl-C during a game does, never with a traceback. SIGTERM and SIGHUP (`kill`, `timeout`, a
closed terminal, a cancelled CI job) stop a command as Ctrl-C does: what it has done is
kept (a game's save holds every move printed, a simulation reports its finished games), and
it exits 130. A signal the caller ignores (`nohup`) stays ignored.
"""

from __future__ import annotations

import signal
import sys

#: the signals taken as a Ctrl-C (those the platform has)
STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def stop_as_ctrl_c(signum, frame) -> None:
    """A handler of `STOPPING`: the command stops as on Ctrl-C."""
    raise KeyboardInterrupt


def main() -> None:
    for stopping in STOPPING:
        if signal.getsignal(stopping) == signal.SIG_DFL:
            signal.signal(stopping, stop_as_ctrl_c)
    try:
        # lazy: the commands are imported inside the try, so a Ctrl-C while they load is caught
        from sorry_rules.cli.app import main as app
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    app()
