"""`sorry-play replay FILE`: show a saved (finished or unfinished) game turn by turn.

The save is checked as for `--resume` (variant hash, replay, digest), then the game is
replayed from its seed: one line per move as in `--auto` output, the board after every move
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
    from .cli import _friendly

    _friendly(_replay)(file, boards, step)


def _replay(file, boards: bool, step: bool) -> None:
    from rich.console import Console

    from . import runner, screen
    from .describe import colour_name
    from .play import print_outcome, print_turn
    from .savefile import read_save, restore, start_state
    from .seats import bot_of

    saved = read_save(file)
    game, _ = restore(saved, source=file)
    state = start_state(game, saved, file)
    console = Console(highlight=False, emoji=False)
    step = step and sys.stdin.isatty()
    who = ", ".join(f"{colour_name(game, c)} ({bot_of(k) or 'person'})" for c, k in zip(state.seats, saved.kinds))
    click.echo(f"{game.name}: {len(state.seats)} players: {who}; seed {saved.seed}; "
               f"{colour_name(game, state.seats[state.turn])} plays first.")
    log: list = []

    def draw(at) -> None:
        scene = screen.Scene(game, at.placement, at.seats, None if at.winner is not None else at.turn, at.plies,
                             f"{game.name}, seed {saved.seed}", tuple(bot_of(k) or "person" for k in saved.kinds),
                             pile_size=len(at.pile), discard_size=len(at.discard), log=log[-8:],
                             scores=game.standing(at) if game.scoring else None)
        for line in screen.render_scene(scene, console.width):
            console.print(line)

    def on_turn(turn, after) -> None:
        log.append(screen.turn_text(game, after.seats[turn.seat], turn.move))
        print_turn(game, turn, after)
        if boards:
            draw(after)
        if step:
            click.prompt("", default="", show_default=False, prompt_suffix="")

    final = runner.replay(game, state, saved.choices, on_turn=on_turn, max_plies=saved.max_plies)
    if not boards:
        draw(final)
    if final.winner is not None:
        print_outcome(game, final)
    else:
        click.echo(f"Saved after {final.plies} moves; the game goes on (continue it with sorry-play --resume {file}).")
