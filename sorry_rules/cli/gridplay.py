"""Playing grid variants in the terminal: computer-only games printed move by move, and the
interactive session with people at the keyboard (`GridSession`).

`cli.play` starts, resumes and replays every game; for a grid game it hands over here:
* `grid_auto_game`: computer players on every seat (`--auto`, or every seat a bot), the game
  printed one line per move (after a `Seats:` line when not every seat is `random`), then
  the board and the end; saved after every move with `--save`. The output depends only on
  the rules, the seed and the seat kinds.
* `GridSession`: `terminal.Session` (the prompt, paging, help, hints, save and quit, the
  alternate screen) drawing with `cli.gridscreen` instead of the track screen.

The computer players come from `players.registry.make_player` by name, seeded with (the
game's seed, the seat), as for track games.

Contract: only this module, `terminal` and `cli` print; games are read through the engine's
public methods.
"""

from __future__ import annotations

import click

from sorry_rules.authoring.gridoracle import describe_grid_move
from sorry_rules.cli import gridscreen
from sorry_rules.cli.seats import bot_of
from sorry_rules.cli.terminal import Session
from sorry_rules.engine.gridgame import PASS
from sorry_rules.players.registry import STRONGEST, make_player
from sorry_rules.players.runner import play_game
from sorry_rules.records.files import write_record

#: The computer player of grid seats nobody names (`--bot` overrides it), and the one whose
#: choice a hint (`h`) shows: as for track games (the bots dispatch on the board kind).
DEFAULT_BOT = "greedy"
HINT_BOT = STRONGEST


class GridSession(Session):
    """An interactive grid game (see `terminal.Session`): the grid screen, the grid help."""

    look = gridscreen
    hint_bot = HINT_BOT

    def view_scene(self, view):
        return gridscreen.view_scene(self.game, view, self.title, self.seat_names(), self.log)

    def named_move(self, answer: str, moves) -> int | str | None:
        """A cell name (`c3`) chooses the one move that puts a chip on that cell or takes one
        from it; when several moves do, the person is told their numbers."""
        grid = self.game.grid
        cell = next((i for i, name in enumerate(grid.cell_names) if name.lower() == answer), None)
        if cell is None:
            return None
        using = [i for i, move in enumerate(moves) if any(event[2] == cell for event in move.events)]
        if len(using) == 1:
            return using[0]
        name = grid.name(cell)
        if not using:
            return f"No move puts a chip on {name} or takes one from it."
        return f"Several moves use {name}: {', '.join(str(i + 1) for i in using)}; type the number of one."

    def tell_move(self, turn, state, names=None) -> list:
        """A person's move made without asking, in sentences: a pass (no card of the hand
        can be played, S9) or the only possible move; [] for a move they chose."""
        who, you = self.who(state.seats[turn.seat])
        if turn.move.kind == PASS:
            return [f"{who} {'have' if you else 'has'} no card that can be played, so the turn passes."]
        if turn.options == 1:
            label = gridscreen.move_label(self.game, turn.move, True, state.seats[turn.seat])
            return [f"Only one move was possible, so it was played: {label}"]
        return []


# ---- computer-only games ---------------------------------------------------------------------
def grid_auto_game(game, state, saved, save_path, resumed: bool) -> None:
    """Play `state` to the end with the bots of `saved.kinds`, printing every move; save to
    `save_path` (if given) after every move."""
    players = [make_player(bot_of(kind), saved.seed, seat) for seat, kind in enumerate(saved.kinds)]
    if resumed:
        click.echo(f"{game.name}: resuming at move {state.plies + 1}, seed {saved.seed}.")
    else:
        seats = ", ".join(game.colours[c] for c in state.seats)
        click.echo(f"{game.name}, seed {saved.seed}, {len(state.seats)} players: {seats}")
        if any(kind != "bot:random" for kind in saved.kinds):
            click.echo("Seats: " + ", ".join(f"{s + 1} {bot_of(kind)}" for s, kind in enumerate(saved.kinds)))

    def on_turn(turn, after):
        click.echo(turn_line(game, turn, after))
        if save_path is not None:
            saved.choices.append(turn.choice)
            saved.reached(after)
            write_record(save_path, saved)

    if save_path is not None:
        saved.reached(state)
        write_record(save_path, saved)
    state = play_game(game, state, players, on_turn=on_turn, max_plies=saved.max_plies)
    for line in board_lines(game, state.placement):
        click.echo(line)
    click.echo(end_text(game, state, saved.max_plies))


def turn_line(game, turn, after) -> str:
    """One move of a printed game: '   12  seat 2  green places a chip on F5 with 4H'."""
    return f"{turn.ply:5}  seat {turn.seat + 1:<2} {describe_grid_move(game, after.seats[turn.seat], turn.move)}"


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

