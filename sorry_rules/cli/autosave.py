"""Saving a computer-only game (`--auto --save`): often enough while it runs, whole at the end.

Contract: `play_saved(game, state, players, saved, kept, show)` plays the game to its end,
showing each move with `show(turn, after)` once it is kept, and keeps the game record `saved`
in the file of `kept` (a `savefile.KeptSave`; None: no file) as `AutoSave` does.
`AutoSave(kept, saved)` keeps `saved` in that file while its game is played: `start(state)`
writes it at once; `moved(choice, after)` records each move and writes the file when `EVERY`
seconds have passed since the last write; `close()` writes what was played, when the game
ends or is stopped (Ctrl-C, an error). So the file ends whole and up to date, byte for byte
the record of every move, while a fast game between computer players does not replace its
file (two fsyncs, `records.files.write_record`) after each of its hundreds of moves. A
person's game (`terminal.Session`) is saved after every move. Where another window played
the same save on, the game goes on in a new file (`KeptSave`), said on stderr.
"""

from __future__ import annotations

import time

import click

from sorry_rules.players.runner import play_game

#: the most seconds between two writes of a running game
EVERY = 0.5


class AutoSave:
    """See the module docstring."""

    def __init__(self, kept, saved):
        self.kept, self.saved = kept, saved
        self.point = None     # (the last state played, how many choices lead to it): one store, never torn
        self.written = 0.0

    def start(self, state) -> None:
        self.point = (state, len(self.saved.choices))
        self._write()

    def moved(self, choice: int, after) -> None:
        self.saved.choices.append(choice)
        self.point = (after, len(self.saved.choices))
        if time.monotonic() - self.written >= EVERY:
            self._write()

    def close(self) -> None:
        del self.saved.choices[self.point[1]:]  # a choice stopped before its state was kept
        self._write()

    def _write(self) -> None:
        self.saved.reached(self.point[0])
        moved = self.kept.write(self.saved)
        if moved:
            click.echo(moved, err=True)
        self.written = time.monotonic()


def play_saved(game, state, players, saved, kept, show):
    """The final state of `state` played to the end (`saved.max_plies` at most) by `players`;
    see the module docstring."""
    autosave = AutoSave(kept, saved) if kept is not None else None

    def on_turn(turn, after):
        if autosave is not None:  # first: a move shown is a move kept, whenever Ctrl-C comes
            autosave.moved(turn.choice, after)
        show(turn, after)

    if autosave is not None:
        autosave.start(state)
    try:
        return play_game(game, state, players, on_turn=on_turn, max_plies=saved.max_plies)
    finally:
        if autosave is not None:
            autosave.close()
