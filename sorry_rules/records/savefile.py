"""Saved games: game records (`records.record`) written by `sorry-play` while a game is played.

A saved game is a `Record` with its players (`kinds`) and move limit (`max_plies`); it is
written after every move (atomically, `records.files.write_record`), and `--resume` and
`replay` read it back with `read_record` and rebuild the game with `records.restore.restore`
(rules checked by content hash, choices replayed from the seed, digest checked), so a save
resumes exactly or not at all. This module adds what only saves need: where they go by
default, how a variant is named in them, and a new save for a game about to start; the rest
is re-exported under the names the play front end uses.

Contract: `new_save` gives a record of a game that has not moved yet; `spec_for_save` names
bundled rule files as given and other files by absolute path, so a save resumes from any
folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sorry_rules.base.resources import variants_dir
from sorry_rules.records.files import FORMAT, VERSION, read_record, to_json, write_record
from sorry_rules.records.record import Record, VariantRef
from sorry_rules.records.restore import restore
from sorry_rules.records.storage import state_digest
from sorry_rules.rules.loader import resolve

__all__ = ["FORMAT", "VERSION", "SavedGame", "default_save_path", "new_save", "read_save", "restore", "spec_for_save",
           "state_digest", "to_json", "write_save"]

#: A saved game is a game record; these are the names the play front end uses.
SavedGame = Record
read_save = read_record
write_save = write_record


def default_save_path(name: str, seed) -> Path:
    """Where a game is saved unless `--save` says otherwise: one file per variant name and
    seed in the user's data folder ($XDG_DATA_HOME/sorry-rules, else ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "game"
    return Path(base) / "sorry-rules" / f"{safe}-{seed}.json"


def spec_for_save(spec: str) -> str:
    """How a variant or overlay is written in a save: bundled names as given, files as
    absolute paths (so a save resumes from any folder)."""
    path = resolve(str(spec))
    if path is None:
        return str(spec)
    try:
        path.resolve().relative_to(variants_dir().resolve())
        return str(spec)
    except ValueError:
        return str(path.resolve())


def new_save(game, variant: str, rules, seed, state, kinds, max_plies: int) -> Record:
    """The record of `game` (loaded as `load_game(variant, rules)`), started as `state` =
    `game.new_game(seed, ...)` with the seed choosing the first seat, played by `kinds`."""
    saved = Record(
        variant=VariantRef(spec=spec_for_save(variant), rules=[spec_for_save(r) for r in rules], name=game.name,
                           content_hash=game.content_hash),
        seed=seed, seats=[game.colours[c] for c in state.seats], kinds=list(kinds), max_plies=max_plies,
    )
    saved.reached(state)
    return saved
