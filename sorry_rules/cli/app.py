"""`sorry-play`: play Sorry! variants in the terminal and inspect rule files.

Contract: every expected failure is a `SorryRulesError`, printed as one clear message on
stderr with the error's exit code (1 for problems, 2 for usage); no traceback reaches users.
Start-up stays fast (`sorry-play --version`, `validate`): the command modules imported here
load only click; each command imports its machinery (the compiler, rich, the simulation)
when it runs, and every such function-level import says so in a comment. No import in the
cli modules is there to dodge an import cycle.
"""

from __future__ import annotations

import json

import click
from click.core import ParameterSource

from sorry_rules import __version__
from sorry_rules.cli import simulate as simcli
from sorry_rules.cli.authoring import explain, schema, validate, variant_lines
from sorry_rules.base.errors import UsageError
from sorry_rules.cli.errors import JsonFailing, every_problem, friendly
from sorry_rules.cli.games import games
from sorry_rules.cli.options import max_plies_option, players_option, seed_option, think_option, variant_options
from sorry_rules.cli.pictures import render
from sorry_rules.cli.replay import replay
from sorry_rules.players.names import NAMES_HELP


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@variant_options(saves=True)
@players_option
@seed_option()
@click.option("--auto", is_flag=True, help="Computer players only; prints the game turn by turn.")
@max_plies_option("Stop an endless game after this many moves; it ends without a winner (with --resume: the "
                  "saved game's new limit; left out, it keeps its own).")
@click.option("--seat", "seat_specs", multiple=True, metavar="COLOUR=KIND",
              help=f"Who plays a colour: human, bot, bot:NAME ({NAMES_HELP}); repeatable (a colour at several "
                   "seats, a grid side: once per seat, in seat order).")
@click.option("--humans", type=int, default=None, help="The first N seats are people taking turns at one keyboard.")
@click.option("--bot", default=None, help=f"Computer player for the other seats: {NAMES_HELP} (default: greedy; random with "
                                          "--auto).")
@think_option
@click.option("--resume", type=click.Path(), default=None, help="Continue the game saved in FILE.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Save the game to FILE, a new file: after every move of a game with people (default for them: a "
                   "new file in the user data folder; see `sorry-play games`); a computer-only game at least every "
                   "half second and when it ends or is stopped.")
@click.option("--no-wait", "no_wait", is_flag=True,
              help="Play your forced moves and forfeits at once (by default each is shown and waits for Enter).")
@click.version_option(version=__version__, package_name="sorry-rules")  # given: no package metadata read at start-up
@click.pass_context
@friendly
def main(ctx, variant, rules, players, seed, auto, max_plies, seat_specs, humans, bot, think, resume, save, no_wait):
    """Play Sorry! in the terminal, or inspect and check rule files.

    Without a command, plays a game: you take the first seat against computer players
    (or, with --auto, computers play every seat and the game is printed turn by turn).
    """
    if ctx.invoked_subcommand is not None:
        _refuse_play_options(ctx)
        return
    from sorry_rules.cli.play import play_command  # lazy: the play machinery (compiler, rich) only to play

    if resume is not None and ctx.get_parameter_source("max_plies") is ParameterSource.DEFAULT:
        max_plies = None  # a resumed game keeps its own limit
    variant_given = ctx.get_parameter_source("variant") is not ParameterSource.DEFAULT
    play_command(variant, rules, seed=seed, players=players, auto=auto, max_plies=max_plies, seat_specs=seat_specs,
                 humans=humans, bot=bot, resume=resume, save=save, wait=not no_wait, think=think,
                 variant_given=variant_given)


def _refuse_play_options(ctx) -> None:
    """Options of playing a game given before a command's name (`sorry-play --rule R moves`)
    would be ignored, the command reading its own: a usage error naming them instead."""
    given = [param.opts[0] for param in ctx.command.params
             if param.expose_value and ctx.get_parameter_source(param.name) not in (None, ParameterSource.DEFAULT)]
    if given:
        name = ctx.invoked_subcommand
        raise UsageError(f"{', '.join(given)} given before the command `{name}`: options before a command are for "
                         f"playing a game, and `{name}` would not read them; give them after its name "
                         f"(`sorry-play {name} {given[0]} ...`; `sorry-play {name} --help` lists what it takes)")


@main.command(cls=JsonFailing)
@variant_options
@click.option("--state", "state_file", required=True, type=click.Path(),
              help="Position file (JSON or YAML) in RULES.md notation.")
@click.option("--card", default=None, help="Card to play (overrides the file's card).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--why", is_flag=True, help="Say which card option gives each move, and what stops each pawn (grid: each "
              "card) that has none.")
@friendly
def moves(variant, rules, state_file, card, fmt, why):
    """List every legal move in a position: what each does (with --format json, the whole
    placement it leads to)."""
    # lazy: the oracle and position files (compiler, pydantic) only when `moves` runs
    from sorry_rules.authoring.oracle import format_report_text, moves_report
    from sorry_rules.records.position import parse_position, read_position_file

    if why:
        # lazy: the explanations only for --why
        from sorry_rules.authoring.explain import load_explained
        from sorry_rules.authoring.why import add_why, format_why_text

        with every_problem(variant, rules):
            explained = load_explained(variant, rules)
        game = explained.game
    else:
        from sorry_rules.compiler.build import load_game  # lazy: the compiler (lark, pydantic) only when a command runs

        with every_problem(variant, rules):
            game = load_game(variant, rules)
    source = read_position_file(state_file)
    if getattr(game, "grid", None) is not None:
        report, text = _grid_moves(game, source, card, explained.cards if why else None)
    else:
        position = parse_position(game, source.data, card, source.origins)
        report = moves_report(game, position)
        if why:
            add_why(game, explained.rules, position, report)
        text = format_why_text if why else format_report_text
    click.echo(json.dumps(report, indent=2) if fmt == "json" else text(report))


def _grid_moves(game, source, card, cards) -> tuple:
    """`(report, the function that words it)` of `moves` for a grid variant: the contract of
    docs/SEQUENCE.md section 5; with `cards` (the card rules, for --why) each move says which
    card option gives it and each card without a play why (`authoring.gridwhy`)."""
    # lazy: the grid oracle and its position files only for a grid variant's `moves`
    from sorry_rules.authoring.gridoracle import format_grid_report_text, grid_moves_report
    from sorry_rules.authoring.gridwhy import add_grid_why, format_grid_why_text
    from sorry_rules.records.gridposition import parse_grid_position

    if card is not None:
        raise UsageError("--card is not offered for grid variants: give the hand in the position file")
    position = parse_grid_position(game, source.data, source.origins)
    report = grid_moves_report(game, position)
    if cards is None:
        return report, format_grid_report_text
    add_grid_why(game, cards, position, report)
    return report, format_grid_why_text


@main.command()
@friendly
def variants():
    """List the bundled variants and house rules: name, kind (variant or overlay), description."""
    for line in variant_lines():
        click.echo(line)


for _command in (validate, schema, explain, replay, render, games, simcli.simulate, simcli.compare):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
