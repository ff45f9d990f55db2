"""Files that must not be lost or half-written (save files, game logs), and state digests.

Contract: `write_atomically` leaves either the old file or the whole new one, never a
mix (temporary file in the same folder, fsync, rename, fsync of the folder); `write_new`
likewise makes a file that did not exist and never replaces one (FileExistsError); both
raise OSError. `state_digest` is a stable fingerprint of every field of an engine State.
`game_over` says whether a state of any board kind has ended.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from sorry_rules.base.safeio import replace_file


def state_digest(state) -> str:
    """SHA-256 of a State's fields as JSON (tuples as lists): the same on every machine. The
    fields after the tenth (counters, pending extra cards, cards drawn with `turn.take`, redraws
    used) count only when set, so a digest of a game that uses none of them is unchanged."""

    def plain(value):
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    fields = tuple(state)
    while len(fields) > 12 and not fields[-1]:
        fields = fields[:-1]  # later fields (the turn policies' drawn cards and redraws) count only when set
    if len(fields) > 10 and not any(fields[10:]):
        fields = fields[:10]  # counters and bonus are left out when unused: older digests stay valid
    return hashlib.sha256(json.dumps(plain(fields), separators=(",", ":")).encode()).hexdigest()


def game_over(state) -> bool:
    """Whether the game of `state` has ended: a winner, or (grid games) ended without one."""
    return state.winner is not None or bool(getattr(state, "over", False))


def write_atomically(path, text: str) -> None:
    """Write `text` to `path` (its folder created if needed) so readers never see half a file;
    never through a link, into a FIFO, a device or over a folder (`base.safeio.replace_file`)."""
    replace_file(path, text)


def write_new(path, text: str) -> None:
    """Write `text` to `path`, which must not exist yet (FileExistsError), so that readers
    never see half a file: the whole file is written under a temporary name, then linked to
    `path` (a link never replaces a file)."""
    _write_via_temporary(path, text, _link_new)


def _link_new(tmp: str, path: Path) -> None:
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: create the file exclusively instead
        with open(tmp, encoding="utf-8") as source, open(path, "x", encoding="utf-8") as handle:
            handle.write(source.read())
            handle.flush()
            os.fsync(handle.fileno())


def _write_via_temporary(path, text: str, put) -> None:
    """Write `text` whole to a temporary file beside `path` (fsync), `put(tmp, path)` it in
    place, and fsync the folder; the temporary file never stays behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        put(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
