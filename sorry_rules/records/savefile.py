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
folder. A new game's first save is made by `claim` or `claim_default`, which never replace
a file: a save never overwrites another game (the same game's later saves replace its own
file through `KeptSave`, which goes on in a new file when another window played the same save on).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from sorry_rules.base import limits
from sorry_rules.base.errors import SaveFileError, SorryRulesError
from sorry_rules.base.safeio import create_file, kind_of
from sorry_rules.base.resources import variants_dir
from sorry_rules.records.files import FORMAT, VERSION, read_record, to_json, write_record
from sorry_rules.records.record import Record, VariantRef
from sorry_rules.records.restore import restore
from sorry_rules.records.storage import state_digest
from sorry_rules.rules.loader import resolve
from sorry_rules.rules.yamlsafe import load_yaml_file

__all__ = ["FORMAT", "VERSION", "KeptSave", "SavedGame", "claim", "claim_default", "default_save_path", "new_save", "read_save",
           "restore", "rule_label", "rules_text", "save_folder", "spec_for_save", "state_digest", "to_json", "write_save"]

#: A saved game is a game record; these are the names the play front end uses.
SavedGame = Record
read_save = read_record
write_save = write_record


MAX_SAME_NAME = limits.MAX_SAVES_SAME_NAME


def save_folder() -> Path:
    """The user's folder of saved games: $XDG_DATA_HOME/sorry-rules, else ~/.local/share/sorry-rules."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "sorry-rules"


def rule_label(spec: str) -> str:
    """A rule file as people name it: `house/quick-game.yaml` or `/x/y/quick-game.yaml` ->
    `quick-game`."""
    name = str(spec).replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-5] if name.endswith(".yaml") else name[:-4] if name.endswith(".yml") else name


def rules_text(ref) -> str:
    """The variant and its house rules for a title: `standard + quick-game + must-bump`;
    `ref`: a record's `VariantRef`."""
    return " + ".join([variant_label(ref), *(rule_label(rule) for rule in ref.rules)])


def variant_label(ref) -> str:
    """The name of `ref`'s game (a record's `VariantRef`), or of the file it is built on when
    an overlay renamed it after itself (`quick + quick`)."""
    name = ref.name or ref.spec
    return rule_label(ref.spec) if name in {rule_label(rule) for rule in ref.rules} else name


def name_for_people(game_name: str, spec: str) -> str:
    """The game's name in titles, `games` and default save names: its own, or, for a rule file
    that keeps the name of the file it extends (an overlay given as the variant), both:
    `standard + quick-game`."""
    path = resolve(str(spec))
    if path is None:
        return game_name
    try:
        data, _ = load_yaml_file(path)
    except SorryRulesError:
        return game_name
    if not isinstance(data, dict) or "extends" not in data or "name" in data:
        return game_name
    return f"{game_name} + {rule_label(spec)}"


def default_save_path(name: str, seed, rules=()) -> Path:
    """Where a game is saved unless `--save` says otherwise: named by the variant, its house
    rules and the seed (`standard+quick-game-5.json`) in `save_folder()`. `claim_default`
    takes the first of these names that no other game has."""
    label = "+".join([name.replace(" + ", "+"), *(rule_label(rule) for rule in rules)])
    safe = re.sub(r"[^A-Za-z0-9_.+-]+", "-", label).strip("-.") or "game"
    return save_folder() / f"{safe}-{seed}.json"


def claim(path, record: Record) -> Path:
    """Write `record` as a new save at `path`; a file already there is never replaced:
    SaveFileError saying how to continue that game or save this one elsewhere. Missing folders
    on the way are made; a file where a folder should be is a SaveFileError."""
    path = Path(path)
    blocking = next((folder for folder in reversed(path.parents) if folder.exists() and not folder.is_dir()), None)
    if blocking is not None:
        raise SaveFileError(f"cannot save to {path}: {blocking} is a file, not a folder: save this game elsewhere "
                            "(--save OTHER.json)")
    try:
        create_file(path, to_json(record))
    except FileExistsError:
        other = kind_of(path) if not path.is_symlink() else "a symbolic link"
        if other is not None:
            raise SaveFileError(f"{path} is {other}, not a regular file: save this game elsewhere (--save OTHER.json)") \
                from None
        try:
            read_record(path)
        except SaveFileError:  # not a game record (a text, notes, a damaged save): named as such
            raise SaveFileError(f"{path} exists and is not a game record; a save never replaces a file: save this "
                                "game elsewhere (--save OTHER.json)") from None
        raise SaveFileError(f"{path} holds another game already, and a save never replaces one: continue that game "
                            f"with --resume {path}, or save this one elsewhere (--save OTHER.json)") from None
    except OSError as error:
        raise SaveFileError(f"cannot write the game record to {path}: {error.strerror or error}") from None
    return path


def claim_default(record: Record, rules=()) -> Path:
    """Write `record` as a new save under the first free name of `default_save_path`
    (`-2`, `-3`, ... added before `.json` when the plain name holds another game)."""
    return _claim_first_free(default_save_path(variant_label(record.variant), record.seed, rules), record, 1)


def _claim_first_free(plain: Path, record: Record, first: int) -> Path:
    """Write `record` as a new file: `plain` (with `first` 1), else the first free of
    `plain` with `-2`, `-3`, ... before its suffix."""
    for n in range(first, MAX_SAME_NAME + 1):
        path = plain if n == 1 else plain.with_name(f"{plain.stem}-{n}{plain.suffix}")
        try:
            create_file(path, to_json(record))
            return path
        except FileExistsError:
            continue
        except OSError as error:
            raise SaveFileError(f"cannot write the game record to {path}: {error.strerror or error}") from None
    raise SaveFileError(f"{plain.parent} holds {MAX_SAME_NAME} games of {plain.stem} already: save this one with --save FILE")


class KeptSave:
    """The save file of a game being played. `write(record)` replaces the file with `record`
    while the file holds this game so far: the same rules (content hash: their files may have
    moved), seed and seats, and choices that `record`'s begin with (or no file). Where the file holds anything else (the same save
    resumed in another window and played on there, or edited), it is left as it is and the game
    goes on in a new file beside it (`NAME-2.json`, ...): `path` names that file from then on
    and `write` returns the sentence that says so; else None. Raises SaveFileError."""

    def __init__(self, path):
        self.path = Path(path)

    def write(self, record: Record) -> str | None:
        if self._holds_this_game(record):
            write_record(self.path, record)
            return None
        left, self.path = self.path, _claim_first_free(self.path, record, 2)
        return (f"{left} holds moves this game did not make (was it resumed in another window too?): it is left "
                f"as it is, and this game goes on in {self.path}.")

    def _holds_this_game(self, record: Record) -> bool:
        try:
            there = read_record(self.path)
        except SaveFileError:
            return not os.path.lexists(self.path)
        same = (there.variant.content_hash, there.seed, there.seats) == (record.variant.content_hash, record.seed, record.seats)
        return same and record.choices[:len(there.choices)] == there.choices


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


def resume_command(record: Record, path, verb: tuple = ("--resume",)) -> str:
    """The command that resumes `record`, saved at `path` (or, with `verb` ("replay",),
    replays it), from any working directory: with `--rules-root` for each folder of its rule
    files outside the save's folder (they are read only from the working directory's tree,
    the save's folder and such roots)."""
    folder = Path(os.path.abspath(path)).parent
    roots: list[str] = []
    for spec in (record.variant.spec, *record.variant.rules):
        parent = Path(str(spec)).parent
        if Path(str(spec)).is_absolute() and not parent.is_relative_to(folder) and str(parent) not in roots:
            roots.append(str(parent))
    words = ["sorry-play", *verb, str(path), *(word for root in roots for word in ("--rules-root", root))]
    return " ".join(shlex.quote(word) for word in words)


def new_save(game, variant: str, rules, seed, state, kinds, max_plies: int) -> Record:
    """The record of `game` (loaded as `load_game(variant, rules)`), started as `state` =
    `game.new_game(seed, ...)` with the seed choosing the first seat, played by `kinds`."""
    saved = Record(
        variant=VariantRef(spec=spec_for_save(variant), rules=[spec_for_save(r) for r in rules],
                           name=name_for_people(game.name, variant), content_hash=game.content_hash),
        seed=seed, seats=[game.colours[c] for c in state.seats], kinds=list(kinds), max_plies=max_plies,
    )
    saved.reached(state)
    return saved
