"""`sorry-play replay FILE`: show a saved (finished or unfinished) game turn by turn.

The save is checked as for `--resume` (variant hash, replay, digest) and the checked replay
is shown: one line per move as in `--auto` output, the board after every move
with `--boards`, a pause for Enter after every move with `--step` (in a terminal), and the
final board with the result at the end.
"""

from __future__ import annotations

import sys

import click


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--boards", is_flag=True, help="Draw the board after every move.")
@click.option("--step", is_flag=True, help="Wait for Enter after every move (in a terminal).")
def replay(file, boards, step):
    """Show the game saved in FILE turn by turn."""
    from sorry_rules.cli.errors import friendly as _friendly

    _friendly(_replay)(file, boards, step)


def _replay(file, boards: bool, step: bool) -> None:
    from rich.console import Console

    from sorry_rules.cli import screen
    from sorry_rules.engine.describe import colour_name
    from sorry_rules.cli.play import print_outcome, print_turn
    from sorry_rules.records.savefile import read_save, restore
    from sorry_rules.cli.seats import bot_of
    from sorry_rules.cli.terminal import LOG_LENGTH

    saved = read_save(file)
    moves: list = []
    game, final = restore(saved, source=file, on_turn=lambda turn, after: moves.append((turn, after)))
    console = Console(highlight=False, emoji=False)
    step = step and sys.stdin.isatty()
    names = tuple(bot_of(kind) or "person" for kind in saved.kinds)
    who = ", ".join(f"{colour_name(game, c)} ({name})" for c, name in zip(final.seats, names))
    click.echo(f"{game.name}: {len(final.seats)} players: {who}; seed {saved.seed}; "
               f"{colour_name(game, final.seats[saved.first])} plays first.")
    log: list = []

    def draw(at) -> None:
        scene = screen.state_scene(game, at, f"{game.name}, seed {saved.seed}", names, log[-LOG_LENGTH:])
        for line in screen.render_scene(scene, console.width):
            console.print(line)

    for turn, after in moves:
        log.append(screen.turn_text(game, after.seats[turn.seat], turn.move))
        print_turn(game, turn, after)
        if boards:
            draw(after)
        if step:
            click.prompt("", default="", show_default=False, prompt_suffix="")
    if not boards:
        draw(final)
    if final.winner is not None:
        print_outcome(game, final)
    else:
        click.echo(f"Saved after {final.plies} moves; the game goes on (continue it with sorry-play --resume {file}).")
