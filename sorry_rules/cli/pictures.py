"""`sorry-play render`: a picture of any rule file's board, and the one writer of picture
files that `render`, `replay --html` and `simulate`/`compare --plot` share.

Contract: the SVG goes to `-o FILE`, or to stdout without it; a file that cannot be written,
or an existing file that is no SVG picture or HTML page (a saved game, a results file: never
overwritten), is a `SorryRulesError` (a message, exit code 1), a bad position file a `PositionError`
located at its line and column, a saved game given as a position file one message saying
to use `--game`, a damaged saved game or a move it does not have a `SaveFileError`. The
drawing is `sorry_rules.pictures`.
"""

from __future__ import annotations

from pathlib import Path

import click

from sorry_rules.base.errors import SorryRulesError, UsageError
from sorry_rules.base.safeio import lstat_or_none, read_regular, replace_file
from sorry_rules.cli.errors import every_problem, friendly
from sorry_rules.cli.options import variant_options


#: what the pictures and pages sorry-rules writes hold near their start (`pictures.svg.GENERATOR`,
#: the replay page's generator): such a file may be replaced by the next one, no other file
OUR_MARKS = (b'data-generator="sorry-rules"', b'<meta name="generator" content="sorry-rules">')


def check_output(path: str | None) -> None:
    """Refuse, before any work, an output path `write_output` would refuse: a file that is no
    picture or page sorry-rules wrote (a saved game, a results file, notes, a picture of the
    user's own: never overwritten), or
    anything that is not a regular file, or a folder that does not exist."""
    if path is None or path == "-":
        return
    target = Path(path)
    if not target.parent.is_dir():
        if target.parent.exists():
            raise SorryRulesError(f"cannot write {path}: {str(target.parent)!r} is a file, not a folder")
        raise SorryRulesError(f"cannot write {path}: no such folder {str(target.parent)!r}")
    try:
        if lstat_or_none(target) is None:
            return
    except OSError as error:  # a name the system refuses (too long)
        raise SorryRulesError(f"cannot write {path}: {error.strerror or error}") from None
    if target.is_symlink():  # replaced atomically, a link would be lost: never written through
        raise SorryRulesError(f"cannot write {path}: it is a symbolic link, not a regular file; choose another file name")
    try:
        head = read_regular(target, 512)
    except OSError as error:
        raise SorryRulesError(f"cannot write {path}: {error.strerror or error}") from None
    if head.strip() and not any(mark in head for mark in OUR_MARKS):  # an empty file holds nothing to lose
        raise SorryRulesError(f"{path} exists and is not a picture or page sorry-rules wrote: it is left as it is; "
                              "choose another file name")


def write_output(path: str | None, text: str) -> None:
    """Write `text` to the file `path` (UTF-8, atomically; never through a link, into a FIFO or
    a device, or over a folder, and over an existing file only when it is a picture or page,
    `check_output`), or to stdout when `path` is None or `-`."""
    if path is None or path == "-":
        click.echo(text, nl=False)
        return
    check_output(path)
    try:
        replace_file(path, text, make_folder=False)
    except OSError as error:
        raise SorryRulesError(f"cannot write {path}: {error.strerror or error}") from None


@click.command()
@variant_options
@click.option("--state", "state_file", default=None, type=click.Path(),
              help="Position file (JSON or YAML, as for `moves`) whose pieces to draw (default: the start of a game).")
@click.option("--game", "game_file", default=None, type=click.Path(),
              help="A saved game (or game log) to draw, at its last move or at --move N; its rules are the game's.")
@click.option("--move", "move", default=None, type=click.IntRange(min=0),
              help="With --game: draw the board after move N (0: the start), with that move's path.")
@click.option("--output", "-o", default=None, type=click.Path(dir_okay=False), help="Write the SVG to FILE (default: stdout).")
@friendly
def render(variant, rules, state_file, game_file, move, output):
    """Draw the board of a rule file as SVG, with the pieces of a position or of a saved game
    at any move."""
    # lazy: the compiler, position files, game records and the drawing only when `render` runs
    from sorry_rules.compiler.build import load_game
    from sorry_rules.pictures.boards import board_svg, position_of
    from sorry_rules.records.position import read_position_file

    if game_file is not None:
        _render_game(game_file, move, output, given={"--variant": variant != "standard", "--rule": bool(rules),
                                                     "--state": state_file is not None})
        return
    if move is not None:
        raise UsageError("--move goes with --game FILE (a saved game)")
    with every_problem(variant, rules):
        game = load_game(variant, rules)
    position = None if state_file is None else position_of(game, read_position_file(state_file))
    write_output(output, board_svg(game, position))


def _render_game(game_file: str, move: int | None, output: str | None, given: dict) -> None:
    """`render --game FILE [--move N]`: the board of a saved game after move N (default: the
    last), checked and replayed as `replay` does."""
    # lazy: the game records and their drawing only for --game
    from sorry_rules.pictures.boards import game_svg
    from sorry_rules.records.files import read_record

    clashing = [name for name, value in given.items() if value]
    if clashing:
        raise UsageError(f"--game draws a saved game with its own rules; leave out {', '.join(clashing)}")
    write_output(output, game_svg(read_record(game_file), move, source=game_file))
