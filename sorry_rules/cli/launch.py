"""The `sorry-play` entry point: imports the command line, then runs it.

Contract: `main()` runs `cli.app.main`; a Ctrl-C while the command line is still being
imported (the first tens of milliseconds) ends the program quietly with status 130, as a
Ctrl-C during a game does, never with a traceback.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        # lazy: the commands are imported inside the try, so a Ctrl-C while they load is caught
        from sorry_rules.cli.app import main as app
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    app()
