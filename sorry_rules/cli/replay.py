"""`sorry-play replay FILE`: show a saved (finished or unfinished) game turn by turn.

The record is checked as for `--resume` (variant hash, replay, digest) and the checked
replay is shown: one line per move as in `--auto` output, the board after every move with
`--boards`, a pause for Enter after every move with `--step` (in a terminal), and the final
board with the result at the end. `--html FILE` writes the game as one self-contained replay
page instead (`sorry_rules.pictures.replaypage`). Any game record works, game logs written by the tests
included. The showing is `cli.play.replay_command`.
"""

from __future__ import annotations

import click

from sorry_rules.base.errors import UsageError
from sorry_rules.cli.errors import friendly
from sorry_rules.cli.options import rules_root_option
from sorry_rules.cli.pictures import write_output


@click.command()
@click.argument("file", type=click.Path())
@click.option("--boards", is_flag=True, help="Draw the board after every move.")
@click.option("--step", is_flag=True, help="Wait for Enter after every move (in a terminal).")
@click.option("--html", "html_out", default=None, type=click.Path(dir_okay=False),
              help="Write a self-contained replay page (HTML) to FILE instead of showing the game.")
@rules_root_option(saves=True)
@friendly
def replay(file, boards, step, html_out):
    """Show the game saved in FILE turn by turn (or write it as a replay page with --html)."""
    if html_out is not None:
        if boards or step:
            raise UsageError("--html writes a page instead of showing the game; leave out --boards and --step")
        # lazy: the record readers, the drawing and the grid move words only for --html
        from sorry_rules.authoring.gridoracle import describe_grid_move
        from sorry_rules.pictures.replaypage import record_page
        from sorry_rules.records.files import read_record

        write_output(html_out, record_page(read_record(file), source=file, describe_grid=describe_grid_move))
        return
    from sorry_rules.cli.play import replay_command  # lazy: the play machinery (compiler, rich) only when it runs

    replay_command(file, boards, step)
