"""Saved games: what is needed to rebuild a game exactly, written atomically as JSON.

A save holds the format name and version, the variant (spec, overlays and the content hash of
the merged rule data), the seed, the seated colours, who plays each seat, the move limit and
every choice made so far (one per applied move, forced ones included, as in
`runner.GameRecord.choices`), plus a digest of the state those choices lead to and a checksum
of the whole record. Resuming loads the variant, checks its hash, replays the choices from
the seed and checks the digest, so a save resumes exactly or not at all.

Contract: `write_save` replaces the file atomically (temporary file in the same folder,
fsync, `os.replace`), so a crash leaves the old save or the new one, never half of one.
`read_save` and `restore` raise `SaveFileError` with a message for a person for every damaged,
edited, foreign, newer or mismatched file; they never let another exception escape for bad
file contents.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sorry_rules.base.errors import SaveFileError, SorryRulesError
from sorry_rules.records.storage import state_digest, write_atomically  # noqa: F401  (state_digest is part of this API)

FORMAT = "sorry-rules-save"
VERSION = 1
MAX_BYTES = 16 * 1024 * 1024


@dataclass
class SavedGame:
    variant: str                 # rule file (bundled name or absolute path)
    rules: list                  # overlays, in order
    content_hash: str            # `game.content_hash` of the merged rule data
    seed: int
    seats: list                  # colour names, in seat order
    first: int                   # seat that moved first
    kinds: list                  # per seat: "human" or "bot:<name>"
    max_plies: int
    choices: list = field(default_factory=list)
    plies: int = 0               # moves applied (= len(choices))
    finished: bool = False
    state_digest: str = ""       # `state_digest` of the state the choices lead to

    def reached(self, state) -> None:
        """Record that the choices now lead to `state` (move count, finished, digest)."""
        self.plies = state.plies
        self.finished = state.winner is not None
        self.state_digest = state_digest(state)


def default_save_path(name: str, seed: int) -> Path:
    """Where a game is saved unless `--save` says otherwise: one file per variant name and
    seed in the user's data folder ($XDG_DATA_HOME/sorry-rules, else ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "game"
    return Path(base) / "sorry-rules" / f"{safe}-{seed}.json"


def spec_for_save(spec: str) -> str:
    """How a variant or overlay is written in a save: bundled names as given, files as
    absolute paths (so a save resumes from any folder)."""
    from sorry_rules.rules.loader import resolve
    from sorry_rules.base.resources import variants_dir

    path = resolve(str(spec))
    if path is None:
        return str(spec)
    try:
        path.resolve().relative_to(variants_dir().resolve())
        return str(spec)
    except ValueError:
        return str(path.resolve())


def _checksum(record: dict) -> str:
    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def to_json(saved: SavedGame) -> str:
    record = {"format": FORMAT, "version": VERSION, **asdict(saved)}
    record["checksum"] = _checksum(record)
    return json.dumps(record, indent=1, sort_keys=True) + "\n"


def write_save(path, saved: SavedGame) -> None:
    """Write `saved` to `path` atomically (the folder is created if needed)."""
    try:
        write_atomically(path, to_json(saved))
    except OSError as error:
        raise SaveFileError(f"cannot save the game to {path}: {error.strerror or error}") from None


_FIELDS = {
    "variant": str, "rules": list, "content_hash": str, "seed": int, "seats": list, "first": int,
    "kinds": list, "max_plies": int, "choices": list, "plies": int, "finished": bool, "state_digest": str,
}


def read_save(path) -> SavedGame:
    """Read and check a save file. Raises SaveFileError."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise SaveFileError(f"{path}: too large to be a saved game")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such save file") from None
    except IsADirectoryError:
        raise SaveFileError(f"{path}: is a folder, not a save file") from None
    except OSError as error:
        raise SaveFileError(f"{path}: cannot read the save file: {error.strerror or error}") from None
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SaveFileError(f"{path}: damaged save file (not valid JSON)") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise SaveFileError(f"{path}: not a sorry-rules saved game")
    version = record.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveFileError(f"{path}: damaged save file (no format version)")
    if version > VERSION:
        raise SaveFileError(f"{path}: saved by a newer sorry-rules (format version {version}; this one reads {VERSION})")
    if version < 1:
        raise SaveFileError(f"{path}: unknown save format version {version}")
    if record.get("checksum") != _checksum(record):
        raise SaveFileError(f"{path}: the save file was edited or damaged (checksum mismatch)")
    for name, kind in _FIELDS.items():
        value = record.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SaveFileError(f"{path}: damaged save file (field {name!r} missing or of the wrong type)")
    saved = SavedGame(**{name: record[name] for name in _FIELDS})
    _check_shape(path, saved)
    return saved


def _check_shape(path, saved: SavedGame) -> None:
    def bad(what: str):
        raise SaveFileError(f"{path}: damaged save file ({what})")

    if not all(isinstance(r, str) for r in saved.rules):
        bad("overlays must be names")
    if not saved.seats or not all(isinstance(s, str) for s in saved.seats):
        bad("seats must be colour names")
    if len(saved.kinds) != len(saved.seats) or not all(isinstance(k, str) for k in saved.kinds):
        bad("one player kind per seat")
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in saved.choices):
        bad("choices must be move numbers")
    if saved.plies != len(saved.choices):
        bad("move count and choices disagree")
    if not 0 <= saved.first < len(saved.seats) or saved.max_plies < 1:
        bad("numbers out of range")


def start_state(game, saved: SavedGame, source="the save file"):
    """The state the saved game began from (same seed, same seats). Raises SaveFileError."""
    colours = [name.lower() for name in game.colours]
    try:
        seats = tuple(colours.index(name.lower()) for name in saved.seats)
    except ValueError:
        raise SaveFileError(f"{source}: seats {saved.seats} do not fit the variant's colours") from None
    try:
        state = game.new_game(saved.seed, seats=seats)
    except SorryRulesError as error:
        raise SaveFileError(f"{source}: {error}") from None
    if state.turn != saved.first:
        raise SaveFileError(f"{source}: the seed does not give the saved first player (damaged save)")
    return state


def restore(saved: SavedGame, source="the save file", on_turn=None):
    """Rebuild `(game, state)` from a save: load the variant, check its hash, replay the
    choices from the seed (reporting each move to `on_turn(turn, state)` if given) and check
    the digest. Raises SaveFileError."""
    from sorry_rules.compiler.build import load_game
    from sorry_rules.players.runner import replay

    try:
        game = load_game(saved.variant, tuple(saved.rules))
    except SorryRulesError as error:
        raise SaveFileError(f"{source}: the game's rule file {saved.variant!r} does not load now:\n{error}") from None
    if game.content_hash != saved.content_hash:
        raise SaveFileError(f"{source}: the rule file {saved.variant!r} has changed since the game was saved "
                            "(content hash differs); the game cannot be resumed with these rules")
    state = start_state(game, saved, source)
    try:
        state = replay(game, state, saved.choices, on_turn=on_turn, max_plies=saved.max_plies)
    except (ValueError, SorryRulesError) as error:
        raise SaveFileError(f"{source}: the saved moves do not replay: {error}") from None
    if state.plies != saved.plies or state_digest(state) != saved.state_digest:
        raise SaveFileError(f"{source}: the saved moves do not lead to the saved position (damaged save)")
    return game, state
