"""How the command line reports failures: one message on stderr and the error's exit code.

Contract: a command wrapped in `friendly` never shows a traceback for a `SorryRulesError`;
it prints `error.report()` (every problem as `file:line:col: error: message [CODE]`, or
`error: message` for an error that belongs to no file) on stderr and exits with
`error.exit_code`; a command asked for `--format json` also writes the failure as JSON on
stdout (`error_json`), so a script reading its output reads a failure too. A closed output
pipe ends quietly.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys

import click

from sorry_rules.base.errors import Problem, RuleFileError, SorryRulesError


def friendly(fn):
    """Turn SorryRulesError into a message and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SorryRulesError as error:
            if kwargs.get("fmt") == "json":
                click.echo(error_json(error))
            click.echo(error.report(), err=True)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


class JsonFailing(click.Command):
    """A command that takes `--format json`: an option the parser refuses (one missing, out of
    range, a file that does not exist) is also written as a failure in JSON on stdout, as
    `friendly` writes the command's own failures."""

    def parse_args(self, ctx, args):
        asks_json = any(arg == "--format=json" or (arg == "--format" and following == "json")
                        for arg, following in zip(args, [*args[1:], None]))
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as error:
            if asks_json:
                click.echo(json.dumps({"ok": False, "exit_code": error.exit_code, "error": error.format_message(),
                                       "problems": []}, indent=2, ensure_ascii=False))
            raise


def error_json(error: SorryRulesError) -> str:
    """A failure as JSON: `{"ok": false, "exit_code": n, "error": message, "problems": [...]}`,
    each problem as `validate --format json` gives it (file, line, col, severity, code,
    message); `problems` is empty for an error that belongs to no file."""
    problems = [{"file": p.file, "line": p.line, "col": p.col, "severity": p.severity, "code": p.code,
                 "message": p.message} for p in error.problems]
    message = "; ".join(p.format() for p in error.problems) if error.problems else str(error)
    return json.dumps({"ok": False, "exit_code": error.exit_code, "error": message, "problems": problems}, indent=2,
                      ensure_ascii=False)


@contextlib.contextmanager
def every_problem(variant, rules=()):
    """Load `variant` with the `rules` overlays inside: a `RuleFileError` raised there is
    raised again with every error `validate` finds in the same files (loading stops at the
    first stage that fails, the schema before the cross-field and DSL checks), and never
    fewer than it had. Before, overlays that set one field differently are said on stderr
    (SR405 warnings: the later one is played)."""
    if len(rules) > 1:
        from sorry_rules.rules.loader import overlay_conflicts  # lazy: read only when overlays are combined

        ctx = click.get_current_context(silent=True)
        said = ctx.meta.setdefault("said_overlay_conflicts", set()) if ctx is not None else set()
        for line in map(Problem.format, overlay_conflicts(variant, tuple(rules))):
            if line not in said:  # once a command (`compare` loads the rules of each side)
                said.add(line)
                click.echo(line, err=True)
    try:
        yield
    except RuleFileError as error:
        # lazy: the validator only when a rule file fails
        from sorry_rules.authoring.validate import variant_errors

        try:
            found = variant_errors(variant, rules)
        except SorryRulesError:
            raise error from None
        key = lambda p: (p.file, p.line, p.col, p.code)  # noqa: E731 - one problem, however worded
        known = {key(p) for p in found}
        raise RuleFileError(found + [p for p in error.problems if key(p) not in known]) from None
