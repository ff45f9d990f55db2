"""`sorry-play --variant V --auto` for grid variants: computer players on every seat, the
game printed one line per move, then the board and the end.

Each seat is a random player seeded with (the game's seed, its seat), as `--auto` does for
track games, so the same command prints the same game byte for byte. The interactive
screen, other bots, saving and resuming are not offered for grid variants yet: asking for
them is a usage error that says so.

Contract: only this module prints; it reads the game through the engine's public methods.
"""

from __future__ import annotations

import secrets

import click

from sorry_rules.authoring.gridoracle import describe_grid_move
from sorry_rules.base.errors import UsageError
from sorry_rules.engine.rng import Random


def grid_auto_command(game, seed, players, auto, max_plies, extras: dict) -> None:
    """Play and print a computer-only game of the grid variant `game`."""
    asked = [name for name, given in extras.items() if given]
    if not auto or asked:
        wanted = ", ".join(asked) if asked else "play without --auto"
        raise UsageError(f"{game.name}: only --auto games are offered for grid variants so far (not: {wanted})")
    if seed is None:
        seed = secrets.randbelow(10**9)
    state = game.new_game(seed, players=players if players is not None else min(game.seating))
    seats = ", ".join(game.colours[c] for c in state.seats)
    click.echo(f"{game.name}, seed {seed}, {len(state.seats)} players: {seats}")
    choosers = [Random(seed, seat) for seat in range(len(state.seats))]
    while not state.over and state.plies < max_plies:
        moves = game.legal_moves(state)
        move = moves[choosers[state.turn].below(len(moves))] if len(moves) > 1 else moves[0]
        colour = state.seats[state.turn]
        click.echo(f"{state.plies + 1:5}  seat {state.turn + 1:<2} {describe_grid_move(game, colour, move)}")
        state = game.apply(state, move)
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
