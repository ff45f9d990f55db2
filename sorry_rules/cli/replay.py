"""`sorry-play replay FILE`: show a saved (finished or unfinished) game turn by turn.

The record is checked as for `--resume` (variant hash, replay, digest) and the checked
replay is shown: one line per move as in `--auto` output, the board after every move with
`--boards`, a pause for Enter after every move with `--step` (in a terminal), and the final
board with the result at the end. `--html FILE` writes the game as one self-contained replay
page instead (`sorry_rules.pictures.replaypage`). Any game record works, game logs written by the tests
included. The showing is `cli.play.replay_command`.
"""

from __future__ import annotations

import shlex

import click

from sorry_rules.base.errors import UsageError
from sorry_rules.base.words import plural
from sorry_rules.cli.errors import friendly
from sorry_rules.cli.options import rules_root_option
from sorry_rules.cli.pictures import write_output


@click.command()
@click.argument("file", type=click.Path())
@click.option("--boards", is_flag=True, help="Draw the board after every move.")
@click.option("--step", is_flag=True, help="Wait for Enter after every move (in a terminal).")
@click.option("--html", "html_out", default=None, type=click.Path(dir_okay=False),
              help="Write a self-contained replay page (HTML) to FILE instead of showing the game.")
@click.option("--position", "position", default=None, type=click.IntRange(min=1), metavar="N",
              help="Print the position before move N instead of showing the game: a position file (YAML) that "
                   "`sorry-play moves --state` reads, e.g. `--position 57 > move57.yaml`.")
@rules_root_option(saves=True)
@friendly
def replay(file, boards, step, html_out, position):
    """Show the game saved in FILE turn by turn (or write it as a replay page with --html)."""
    if position is not None:
        if boards or step or html_out is not None:
            raise UsageError("--position prints one position instead of showing the game; leave out --boards, --step "
                             "and --html")
        click.echo(position_before(file, position), nl=False)
        return
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


def position_before(file, number: int) -> str:
    """The position file (YAML text) of the game saved in `file` before its move `number`
    (1 the first; one more than the moves made, the position the game stopped in), headed
    by the command that lists its moves."""
    # lazy: the record readers and the engine only when a position is asked for
    from sorry_rules.records.files import read_record
    from sorry_rules.records.positionwrite import position_data, position_text
    from sorry_rules.records.restore import restore, start_state
    from sorry_rules.records.savefile import rules_text
    from sorry_rules.records.storage import game_over

    saved = read_record(file)
    before: list = []
    game, final = restore(saved, source=file, on_turn=lambda turn, after: before.append(after))
    states = [start_state(game, saved, file), *before]
    last = len(before) if game_over(final) else len(before) + 1
    if number > last:
        ended = "and is over" if game_over(final) else f"(--position {last}: the position it stopped in)"
        raise UsageError(f"--position {number}: the game in {file} has {plural(len(before), 'move')} {ended}; give 1 to {last}")
    state = states[number - 1]
    if game.needs_draw(state):
        state = game.draw(state)
    words = " ".join(shlex.quote(w) for w in ("sorry-play", "moves", "-v", saved.variant.spec,
                                              *(w for rule in saved.variant.rules for w in ("-r", rule)),
                                              "--state", "POSITION.yaml"))
    heading = [f"{rules_text(saved.variant)}: the position before move {number} of {file}",
               f"list its moves: {words}"]
    return position_text(position_data(game, state), heading)
