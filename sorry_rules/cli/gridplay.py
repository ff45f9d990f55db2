"""`sorry-play --variant V --auto` for grid variants: computer players on every seat, the
game printed one line per move, then the board and the end.

Each seat is a computer player `make_player(kind, seed, seat)`, as `--auto` does for track
games: `random` unless `--bot NAME` or `--seat COLOUR=bot:NAME` says otherwise (the bots
dispatch on the game's board kind), so the same command prints the same game byte for byte,
and with random bots game i of `sorry-play simulate` is this game with its derived seed. The
interactive screen, saving and resuming are not offered for grid variants yet: asking for
them is a usage error that says so.

Contract: only this module prints; it reads the game through the engine's public methods.
"""

from __future__ import annotations

import secrets

import click

from sorry_rules.authoring.gridoracle import describe_grid_move
from sorry_rules.base.errors import UsageError
from sorry_rules.cli.seats import HUMAN, bot_of, seat_kinds
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game


def grid_auto_command(game, seed, players, auto, max_plies, extras: dict, seat_specs=(), bot=None) -> None:
    """Play and print a computer-only game of the grid variant `game` (`--auto`, or every
    seat a bot through `--seat`; the default bot as for track games)."""
    asked = [name for name, given in extras.items() if given]
    if asked:
        raise UsageError(f"{game.name}: only --auto games are offered for grid variants so far (not: {', '.join(asked)})")
    if seed is None:
        seed = secrets.randbelow(10**9)
    state = game.new_game(seed, players=players if players is not None else min(game.seating))
    kinds = seat_kinds(game.colours, state.seats, seat_specs, None, auto, bot or ("random" if auto else "greedy"))
    if HUMAN in kinds:
        raise UsageError(f"{game.name}: only --auto games are offered for grid variants so far, or every seat a bot "
                         "with --seat COLOUR=bot:NAME (not: a person at the table)")
    seats = ", ".join(game.colours[c] for c in state.seats)
    click.echo(f"{game.name}, seed {seed}, {len(state.seats)} players: {seats}")
    if any(kind != "bot:random" for kind in kinds):
        click.echo("Seats: " + ", ".join(f"{s + 1} {bot_of(kind)}" for s, kind in enumerate(kinds)))
    bots = [make_player(bot_of(kind), seed, seat) for seat, kind in enumerate(kinds)]

    def on_turn(turn, after) -> None:
        colour = after.seats[turn.seat]
        click.echo(f"{turn.ply:5}  seat {turn.seat + 1:<2} {describe_grid_move(game, colour, turn.move)}")

    state = play_game(game, state, bots, on_turn=on_turn, max_plies=max_plies)
    for line in board_lines(game, state.placement):
        click.echo(line)
    click.echo(end_text(game, state, max_plies))


def board_lines(game, placement) -> list[str]:
    """The grid as text: a chip shows its colour's initial (upper case), a free cell `*`,
    an empty cell `.`; then the key."""
    grid = game.grid
    marks = _marks(game.colours)
    owner = {cell: c for c, chips in enumerate(placement) for cell in chips}
    width = max(len(r) for r in grid.rows)
    lines = [" " * (width + 1) + " ".join(f"{c:>2}" for c in grid.columns)]
    for r, row in enumerate(grid.rows):
        cells = []
        for c in range(grid.width):
            cell = r * grid.width + c
            cells.append(marks[owner[cell]] if cell in owner else "*" if cell in grid.free else ".")
        lines.append(f"{row:>{width}} " + " ".join(f"{m:>2}" for m in cells))
    key = ", ".join(f"{marks[c]} {name} ({len(placement[c])} chips, {grid.sequences(placement[c])} sequences)"
                    for c, name in enumerate(game.colours) if placement[c])
    lines.append(f"* free, . empty; {key}" if key else "* free, . empty")
    return lines


def _marks(colours) -> list[str]:
    """One short mark per colour: its initial, or its number when initials clash."""
    initials = [name[0].upper() for name in colours]
    if len(set(initials)) == len(initials):
        return initials
    return [str(i + 1) for i in range(len(colours))]


def end_text(game, state, max_plies: int) -> str:
    colour = game.winning_colour(state)
    if colour is not None:
        seats = [str(i + 1) for i, c in enumerate(state.seats) if c == colour]
        return f"{game.colours[colour]} wins (seat{'s' if len(seats) > 1 else ''} {', '.join(seats)})."
    if state.over:
        return "No winner: every player passed for a whole round (a draw)."
    return f"No winner: the game was stopped at the --max-plies limit of {max_plies:,} moves."
