"""The play front end: a game in the terminal, printed turn by turn.

Contract: output depends only on the variant, the seed and the choices made, so the same
seed prints the same game byte for byte. Only this module (and cli.py) print.
"""

from __future__ import annotations

import secrets
import sys

import click

from .describe import colour_name, describe_move, square_name
from .errors import UsageError
from .players import RandomPlayer, view_of
from .runner import play_game


def _seats_text(game, state) -> str:
    return ", ".join(colour_name(game, c) for c in state.seats)


def _card_text(game, card) -> str:
    return "-" if card is None else game.card_names[card]


def print_turn(game, turn, state) -> None:
    player = colour_name(game, state.seats[turn.seat])
    card = _card_text(game, turn.card)
    click.echo(f"{turn.ply:5}  {player:8} {card:>6}  {describe_move(game, turn.move)}")


def print_outcome(game, state) -> None:
    outcome = game.outcome(state)
    if outcome is None:
        click.echo(f"No winner after {state.plies} moves (stopped).")
        return
    names = " and ".join(colour_name(game, state.seats[s]) for s in outcome.winning_seats)
    click.echo(f"{names} win{'s' if len(outcome.winning_seats) == 1 else ''} after {state.plies} moves.")
    if game.scoring:
        for seat, (total, lines) in outcome.scores.items():
            detail = ", ".join(f"{line.label} {line.points}" for line in lines)
            click.echo(f"  {colour_name(game, state.seats[seat]):8} {total:4} points ({detail})")


class TerminalPlayer:
    """A person at the keyboard choosing by number (the rich screen is issue-4 work)."""

    name = "human"

    def choose(self, view, moves) -> int:
        game = view.game
        click.echo("")
        for c in view.seats:
            squares = ", ".join(square_name(game, sq) for sq in view.placement[c])
            click.echo(f"  {colour_name(game, c):8} {squares}")
        what = f"card {_card_text(game, view.card)}" if view.hand is None else "hand " + " ".join(game.card_names[c] for c in view.hand)
        click.echo(f"{colour_name(game, view.colour)} to play, {what}:")
        for i, move in enumerate(moves, 1):
            prefix = f"[{game.card_names[move.card]}] " if view.hand is not None and move.card is not None else ""
            click.echo(f"  {i:2}. {prefix}{describe_move(game, move)}")
        while True:
            answer = click.prompt("Your move", default="1").strip().lower()
            if answer in ("q", "quit"):
                raise click.Abort()
            if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= len(moves):
                return int(answer) - 1
            click.echo(f"Type a number from 1 to {len(moves)}, or q to quit.")


def play_command(game, seed, players, auto, max_plies) -> None:
    if seed is None:
        seed = secrets.randbelow(10**9)
    state = game.new_game(seed, players=players)
    seats = len(state.seats)
    if auto:
        seat_players = [RandomPlayer(seed, seat) for seat in range(seats)]
    else:
        if not sys.stdin.isatty():
            raise UsageError("no terminal to play on: use --auto for a game between computer players")
        seat_players = [TerminalPlayer()] + [RandomPlayer(seed, seat) for seat in range(1, seats)]
    click.echo(f"{game.name}: {seats} players ({_seats_text(game, state)}), seed {seed}; "
               f"{colour_name(game, state.seats[state.turn])} plays first.")
    state = play_game(game, state, seat_players, on_turn=lambda turn, after: print_turn(game, turn, after), max_plies=max_plies)
    print_outcome(game, state)
