"""`sorry-play`: play Sorry! variants in the terminal and inspect rule files.

Contract: every expected failure is a `SorryRulesError`, printed as one clear message on
stderr with the error's exit code (1 for problems, 2 for usage); no traceback reaches users.
Heavy or optional imports stay inside the commands that need them.
"""

from __future__ import annotations

import functools
import json
import sys

import click

from .errors import SorryRulesError, UsageError


def _friendly(fn):
    """Turn SorryRulesError into a message and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SorryRulesError as error:
            click.echo(f"error: {error}" if "\n" not in str(error) else str(error), err=True)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


def _load(variant: str, rules: tuple):
    from .compiler import load_game

    return load_game(variant, rules)


VARIANT_HELP = "Variant: a rule file path or a bundled name (see `sorry-play variants`)."
RULE_HELP = "House-rule overlay (path or bundled name, e.g. house/sorry-forward-4.yaml); repeatable."


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--variant", "-v", default="standard", show_default=True, help=VARIANT_HELP)
@click.option("--rule", "-r", "rules", multiple=True, help=RULE_HELP)
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the variant's maximum).")
@click.option("--seed", "-s", type=int, default=None, help="Seed for the shuffle and the computer players (default: random).")
@click.option("--auto", is_flag=True, help="Computer players only; prints the game turn by turn.")
@click.option("--max-plies", type=int, default=20_000, show_default=True, help="Stop an endless game after this many moves.")
@click.version_option(package_name="sorry-rules")
@click.pass_context
@_friendly
def main(ctx, variant, rules, players, seed, auto, max_plies):
    """Play Sorry! in the terminal, or inspect and check rule files.

    Without a command, plays a game: you take the first seat against computer players
    (or, with --auto, computers play every seat and the game is printed turn by turn).
    """
    if ctx.invoked_subcommand is not None:
        return
    from .play import play_command

    play_command(_load(variant, rules), seed=seed, players=players, auto=auto, max_plies=max_plies)


@main.command()
@click.option("--variant", "-v", default="standard", show_default=True, help=VARIANT_HELP)
@click.option("--rule", "-r", "rules", multiple=True, help=RULE_HELP)
@click.option("--state", "state_file", required=True, type=click.Path(dir_okay=False), help="Position file (JSON) in RULES.md notation.")
@click.option("--card", default=None, help="Card to play (overrides the file's card).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_friendly
def moves(variant, rules, state_file, card, fmt):
    """List every legal move in a position, with the placement each one leads to."""
    from .oracle import format_report_text, moves_report
    from .position import parse_position, read_position_file

    game = _load(variant, rules)
    position = parse_position(game, read_position_file(state_file), card)
    report = moves_report(game, position)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(format_report_text(report))


@main.command()
@_friendly
def variants():
    """List the bundled variants and house rules."""
    from .loader import bundled_names, load_variant

    for name in bundled_names():
        try:
            loaded = load_variant(name)
            summary = loaded.variant.description or loaded.variant.name
        except SorryRulesError:
            summary = "(does not load; run sorry-play validate)"
        click.echo(f"{name:36} {summary}")


from . import simcli  # noqa: E402  (imports only click; the simulation loads when a command runs)

for _command in (simcli.simulate, simcli.compare):
    _command.callback = _friendly(_command.callback)
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
