"""How the command line reports failures: one message on stderr and the error's exit code.

Contract: a command wrapped in `friendly` never shows a traceback for a `SorryRulesError`;
it prints `error.report()` (every problem as `file:line:col: error: message [CODE]`, or
`error: message` for an error that belongs to no file) and exits with `error.exit_code`.
A closed output pipe ends quietly.
"""

from __future__ import annotations

import functools
import sys

import click

from sorry_rules.base.errors import SorryRulesError


def friendly(fn):
    """Turn SorryRulesError into a message and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SorryRulesError as error:
            click.echo(error.report(), err=True)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            sys.exit(0)

    return wrapper
