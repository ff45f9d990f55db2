"""`sorry-play replay FILE`: show a saved (finished or unfinished) game turn by turn.

The record is checked as for `--resume` (variant hash, replay, digest) and the checked
replay is shown: one line per move as in `--auto` output, the board after every move with
`--boards`, a pause for Enter after every move with `--step` (in a terminal), and the final
board with the result at the end. Any game record works, game logs written by the tests
included. The showing is `cli.play.replay_command`.
"""

from __future__ import annotations

import click

from sorry_rules.cli.errors import friendly


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--boards", is_flag=True, help="Draw the board after every move.")
@click.option("--step", is_flag=True, help="Wait for Enter after every move (in a terminal).")
@friendly
def replay(file, boards, step):
    """Show the game saved in FILE turn by turn."""
    from sorry_rules.cli.play import replay_command  # lazy: the play machinery (compiler, rich) only when it runs

    replay_command(file, boards, step)
