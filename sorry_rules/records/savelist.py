"""The saved games of a folder, one summary each, for `sorry-play games`.

Contract: `saved_games(folder)` reads every `*.json` file directly in `folder` as a game
record (`records.files.read_record`: no rules are loaded, no game is replayed) and returns
one `SavedEntry` per file, newest first (then by name); a file that is not a readable game
record is listed with the reason (`problem`), never raised. A folder that does not exist
holds no games.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sorry_rules.base import limits
from sorry_rules.base.errors import SaveFileError
from sorry_rules.records.files import read_record
from sorry_rules.records.savefile import resume_command, rules_text

MAX_LISTED = limits.MAX_SAVES_LISTED


@dataclass(frozen=True)
class SavedEntry:
    path: Path
    modified: float                # seconds since the epoch (the file's modification time)
    variant: str = ""              # `standard + quick-game`
    seed: object = None
    seats: tuple = ()              # ((colour, who plays it), ...): who is "person" or a bot's name
    plies: int = 0
    finished: bool | None = None
    problem: str = ""              # why the file is not a readable game record ("" when it is)
    resume: str = ""               # the command that resumes it (`savefile.resume_command`)
    replay: str = ""               # the command that replays it


def _who(kind) -> str:
    if kind is None:
        return "?"
    return kind[4:] if kind.startswith("bot:") else "person" if kind == "human" else kind


def entry_of(path: Path) -> SavedEntry:
    """The summary of one file (see the module contract)."""
    modified = _mtime(path)
    try:
        record = read_record(path)
    except SaveFileError as error:
        return SavedEntry(path, modified, problem=str(error).removeprefix(f"{path}: "))
    kinds = record.kinds or [None] * len(record.seats)
    return SavedEntry(path, modified, rules_text(record.variant),
                      record.seed, tuple((colour, _who(kind)) for colour, kind in zip(record.seats, kinds)),
                      record.plies, record.finished, resume=resume_command(record, path),
                      replay=resume_command(record, path, ("replay",)))


def saved_games(folder) -> list[SavedEntry]:
    """Every game record in `folder`, newest first (at most `MAX_LISTED`: `count_saves`
    says how many there are)."""
    dated = sorted(_save_paths(folder), key=lambda path: (-_mtime(path), path.name))[:MAX_LISTED]
    return [entry_of(path) for path in dated]


def count_saves(folder) -> int:
    """How many files `saved_games` chooses from in `folder`."""
    return len(_save_paths(folder))


def _save_paths(folder) -> list[Path]:
    folder = Path(folder)
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".json") and not name.startswith(".")]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [folder / name for name in names if (folder / name).is_file()]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
