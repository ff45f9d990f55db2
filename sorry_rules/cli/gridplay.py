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
from sorry_rules.base.words import plural
from sorry_rules.cli import gridscreen, screen
from sorry_rules.cli.autosave import play_saved
from sorry_rules.cli.seats import bot_of
from sorry_rules.cli.terminal import Session
from sorry_rules.engine.describe import colour_name
from sorry_rules.engine.gridtable import PASS
from sorry_rules.pictures.trackboard import labels_of
from sorry_rules.players.registry import make_player
from sorry_rules.records.savefile import rules_text


class GridSession(Session):
    """An interactive grid game (see `terminal.Session`): the grid screen, the grid help; the
    hint's computer player is a track game's (the bots dispatch on the board kind)."""

    look = gridscreen

    def view_scene(self, view):
        return gridscreen.view_scene(self.game, view, self.title, self.seat_names(), self.log)

    def answer_words(self, n: int) -> str:
        return f"a number from 1 to {n}, or a cell such as {self.game.grid.cell_names[-1].lower()}"

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
            return [f"Only one move was possible, so it was played: {label}."]
        return []


# ---- computer-only games ---------------------------------------------------------------------
def grid_auto_game(game, state, saved, kept, resumed: bool, think: float | None = None) -> None:
    """Play `state` to the end with the bots of `saved.kinds`, printing every move; save in the
    file of `kept` (a `savefile.KeptSave`, if given) as `cli.autosave` does; `think`: a searching
    bot's seconds a move."""
    players = [make_player(bot_of(kind), saved.seed, seat, think=think) for seat, kind in enumerate(saved.kinds)]
    named = rules_text(saved.variant)
    if resumed:
        click.echo(f"{named}: resuming at move {state.plies + 1}, seed {saved.seed}.")
    else:
        seats = ", ".join(game.colours[c] for c in state.seats)
        first = f"{game.colours[state.seats[state.turn]]} at seat {state.turn + 1}"  # a side's colour sits at several seats
        click.echo(f"{named}, seed {saved.seed}, {len(state.seats)} players: {seats}; {first} plays first.")
        if any(kind != "bot:random" for kind in saved.kinds):
            click.echo("Seats: " + ", ".join(f"{s + 1} {bot_of(kind)}" for s, kind in enumerate(saved.kinds)))

    state = play_saved(game, state, players, saved, kept, lambda turn, after: click.echo(turn_line(game, turn, after)))
    for line in board_lines(game, state.placement, state.seats):
        click.echo(line)
    click.echo(end_text(game, state, saved.max_plies))


def turn_line(game, turn, after) -> str:
    """One move of a printed game, as a track game's (`play.print_turn`): '   12  Green
    4H  Green places a chip on F5'; a colour at several seats (a team) says the seat:
    'Green (seat 2)'."""
    colour = after.seats[turn.seat]
    names = [colour_name(game, c) + (f" (seat {s + 1})" if after.seats.count(c) > 1 else "")
             for s, c in enumerate(after.seats)]
    card = "-" if turn.move.card is None else game.card_names[turn.move.card]
    words = describe_grid_move(game, colour, turn.move).removesuffix(f" with {card}")
    return f"{turn.ply:5}  {names[turn.seat]:{max(8, *map(len, names))}} {card:>6}  {words[:1].upper()}{words[1:]}"


def board_lines(game, placement, seats=()) -> list[str]:
    """The grid as text: a chip shows its colour's initial (upper case), a free cell `*`,
    an empty cell `.`; then the key: every colour with chips and every seated side (`seats`:
    the colour of each seat), with its chips and sequences."""
    grid = game.grid
    marks = labels_of(game.colours)
    owner = {cell: c for c, chips in enumerate(placement) for cell in chips}
    width = max(len(r) for r in grid.rows)
    lines = [" " * (width + 1) + " ".join(f"{c:>2}" for c in grid.columns)]
    for r, row in enumerate(grid.rows):
        cells = range(r * grid.width, (r + 1) * grid.width)
        shown = (marks[owner[cell]] if cell in owner else "*" if cell in grid.free else "." for cell in cells)
        lines.append(f"{row:>{width}} " + " ".join(f"{m:>2}" for m in shown))
    key = ", ".join(f"{marks[c]} {name} ({plural(len(placement[c]), 'chip')}, "
                    f"{plural(grid.sequences(placement[c]), 'sequence')})" for c, name in enumerate(game.colours)
                    if placement[c] or c in seats)
    lines.append(f"* free, . empty; {key}" if key else "* free, . empty")
    return lines


def end_text(game, state, max_plies: int) -> str:
    """The end of a printed game, in the words of a track game's end ('Green wins after 406
    moves', `gridscreen.render_outcome`), or the move limit that stopped it."""
    if state.winner is None and not state.over:
        return screen.stopped_text(max_plies)
    return gridscreen.render_outcome(game, state)[0].plain

