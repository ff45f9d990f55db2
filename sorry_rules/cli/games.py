"""`sorry-play games`: the saved games of the user's folder (or `--folder DIR`), newest first.

Each game gets two lines: the file name and when it was saved; then the variant with its
house rules, the seed, who plays each colour and how far the game has gone. Files that are
not readable game records are listed with the reason. The listing reads the records only
(`records.savelist`): no rules are loaded and no game is replayed, so it is quick.

Contract: prints to stdout; exit code 0 (an empty or missing folder says so).
"""

from __future__ import annotations

import os
import shutil
import textwrap
import time

import click

from sorry_rules.base.errors import UsageError
from sorry_rules.base.words import plural
from sorry_rules.cli.errors import friendly


def entry_lines(entry, width: int = 80) -> list[str]:
    """The lines of one saved game (`records.savelist.SavedEntry`): its file, then what it is,
    wrapped at `width` columns (never cut)."""
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.modified))
    head = f"{entry.path.name}  (saved {saved})"
    if entry.problem:
        text = f"not a readable game record: {entry.problem}"
    else:
        seats = ", ".join(f"{colour} ({who})" for colour, who in entry.seats)
        where = "finished" if entry.finished else "not finished"
        text = f"{entry.variant}, seed {entry.seed}; {seats}; {plural(entry.plies, 'move')} played, {where}"
    return [head, *textwrap.wrap(text, max(20, width), initial_indent="    ", subsequent_indent="    ",
                                 break_on_hyphens=False)]


@click.command()
@click.option("--folder", type=click.Path(file_okay=False), default=None,
              help="The folder to list (default: where games are saved, $XDG_DATA_HOME/sorry-rules).")
@friendly
def games(folder):
    """List the saved games: variant, house rules, seats, moves played and date."""
    # lazy: the record readers (pydantic) only when the command runs
    from sorry_rules.records.savefile import save_folder
    from sorry_rules.records.savelist import count_saves, saved_games

    where = save_folder() if folder is None else folder
    if folder is not None and not os.path.isdir(folder):
        raise UsageError(f"--folder {folder}: no such folder")
    found = saved_games(where)
    if not found:
        click.echo(f"No saved games in {where}{'' if str(where).endswith('.') else '.'}")
        return
    total = count_saves(where)
    shown = f"the newest {len(found):,} of {total:,}" if total > len(found) else "newest first"
    click.echo(f"Saved games in {where} ({shown}):")
    width = min(100, shutil.get_terminal_size((80, 24)).columns)
    for entry in found:
        for line in entry_lines(entry, width):
            click.echo(line)
    readable = [entry for entry in found if not entry.problem]
    unfinished = next((entry for entry in readable if not entry.finished), None)
    if unfinished is not None:
        click.echo(f"Continue one with: {unfinished.resume}")
    if readable:
        click.echo(f"Watch one again with: {readable[0].replay}")
