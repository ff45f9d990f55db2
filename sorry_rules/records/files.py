"""Reading and writing game records: the one place that turns files into `Record`s and back.

Every version this sorry-rules reads is listed in `READERS`: the current record
(`records.record`, written by `write_record`) and the two version-1 formats it replaced
(`records.legacy`: save files and game logs), which are upgraded on reading.

Contract: `to_json(record)` and `from_json(text)` round-trip exactly. `from_json` and
`read_record` raise `SaveFileError` with a message for a person (naming the file, and the
field or the version) for every damaged, foreign, newer, edited or malformed file; no other
exception escapes for bad file contents, and nothing larger than `MAX_RECORD_BYTES` is read.
`write_record` replaces the file atomically (the old file or the whole new one, never half
of one) and raises `SaveFileError`.
"""

from __future__ import annotations

import json
import os

from pydantic import ValidationError

from sorry_rules.base.errors import SaveFileError
from sorry_rules.base.limits import MAX_RECORD_BYTES
from sorry_rules.base.safeio import JsonLimitError, check_replaceable, loads_json, read_regular, replace_file
from sorry_rules.records.legacy import LOG_FORMAT, SAVE_FORMAT, LogV1, SaveV1
from sorry_rules.records.record import FORMAT, VERSION, Record, RecordFile, checksum_of, problem_text, to_json

__all__ = ["FORMAT", "VERSION", "READERS", "RESULTS_FORMAT", "from_json", "read_record", "to_json", "write_record"]


def _current(data: dict, where: str) -> Record:
    stored = _validated(RecordFile, data, where)
    if stored.checksum != checksum_of(data):
        raise SaveFileError(f"{where}: the game record was edited or damaged (checksum mismatch)")
    return Record.model_validate({name: getattr(stored, name) for name in Record.model_fields})


def _save_v1(data: dict, where: str) -> Record:
    if data.get("checksum") != checksum_of(data, ensure_ascii=True):
        raise SaveFileError(f"{where}: the save file was edited or damaged (checksum mismatch)")
    return _validated(SaveV1, data, where).upgrade()


def _log_v1(data: dict, where: str) -> Record:
    return _validated(LogV1, data, where).upgrade()


def _validated(model, data: dict, where: str):
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as error:
        raise SaveFileError(f"{where}: damaged game record ({problem_text(error)})") from None


#: the `format` of the results files of `sorry-play simulate` and `compare` (`simulation.simfile`):
#: named here so that one given where a game record belongs is said to be one
RESULTS_FORMAT = "sorry-rules-simulation"

#: (format, version) -> reader of that version's JSON object.
READERS = {(FORMAT, VERSION): _current, (SAVE_FORMAT, 1): _save_v1, (LOG_FORMAT, 1): _log_v1}
_READS = f"this sorry-rules reads {FORMAT} version {VERSION}, and version 1 of {SAVE_FORMAT} and {LOG_FORMAT}"


def _is_record(data) -> bool:
    """Whether JSON `data` says it is a game record of a format in `READERS` (of any version)."""
    return isinstance(data, dict) and isinstance(data.get("format"), str) and data["format"] in {fmt for fmt, _ in READERS}


def _decode(text: str | bytes, where: str):
    """The JSON value of a record file's text. Raises SaveFileError."""
    if len(text) > MAX_RECORD_BYTES:
        raise SaveFileError(f"{where}: larger than {MAX_RECORD_BYTES:,} bytes; not a game record")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError(f"{where}: not UTF-8 text; not a game record") from None
    try:
        return loads_json(text)
    except json.JSONDecodeError as error:
        detail = f"line {error.lineno}, column {error.colno}: {error.msg}"
        if error.lineno > 1 and _results_header(text.partition("\n")[0]):
            raise SaveFileError(f"{where}: a results file of `sorry-play simulate` or `compare`, not a game record: "
                                f"report it with `sorry-play simulate --from {where}` (or `compare --from`)") from None
        if text.strip() and not text.lstrip().startswith("{"):  # another kind of file: not a record cut short
            raise SaveFileError(f"{where}: not a sorry-rules game record (a game record is a JSON object, which begins with {{; "
                                f"{detail})") from None
    except JsonLimitError as error:  # nested too deep, a number too long or not finite
        detail = str(error)
    raise SaveFileError(f"{where}: damaged or truncated ({detail})")


def _results_header(line: str) -> bool:
    """Whether `line` is the first line of a `simulate` or `compare` results file."""
    try:
        header = loads_json(line)
    except (json.JSONDecodeError, JsonLimitError):
        return False
    return isinstance(header, dict) and header.get("format") == RESULTS_FORMAT


def from_json(text: str | bytes, where: str = "game record") -> Record:
    """Parse and check a record of any version in `READERS` (older ones are upgraded).
    Raises SaveFileError naming `where` and what is wrong."""
    data = _decode(text, where)
    if not _is_record(data):
        raise SaveFileError(f"{where}: not a sorry-rules game record (no \"format\": \"{FORMAT}\")")
    fmt, version = data["format"], data.get("version")
    whole = isinstance(version, int) and not isinstance(version, bool)
    reader = READERS.get((fmt, version)) if whole else None
    if reader is None:
        if not whole:
            raise SaveFileError(f"{where}: its version {version!r} is no whole number (write it without quotes); "
                                f"{_READS}")
        newer = version > max(v for f, v in READERS if f == fmt)
        why = "written by a newer sorry-rules" if newer else "an unknown version"
        raise SaveFileError(f"{where}: {fmt} version {version!r} is {why}; {_READS}")
    return reader(data, where)


def read_record(path: str | os.PathLike) -> Record:
    """Read and check a record file. Raises SaveFileError (unreadable, too large, damaged,
    foreign, newer, edited)."""
    try:
        raw = read_regular(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        raise SaveFileError(f"{path}: cannot read the game record: no such file") from None
    except IsADirectoryError:
        raise SaveFileError(f"{path}: cannot read the game record: it is a folder") from None
    except OSError as error:  # NotRegularFile among them: its strerror says what the path is
        raise SaveFileError(f"{path}: cannot read the game record: {error.strerror or error}") from None
    return from_json(raw, str(path))


#: Files this process has written a record to (known to be records: not checked again).
_WRITTEN: set[str] = set()


def _check_replacing(path) -> None:
    """SaveFileError unless `path` is missing or is a game record file of sorry-rules (of any
    version, damaged or not): nothing else is ever replaced by a record."""
    key = os.path.abspath(path)
    if key in _WRITTEN or not os.path.lexists(path):
        return
    try:
        check_replaceable(path)
        raw = read_regular(path, MAX_RECORD_BYTES)
    except OSError as error:
        raise SaveFileError(f"{path}: not replaced: {error.strerror or error}") from None
    try:
        data = loads_json(raw)
    except ValueError:
        data = None
    if not _is_record(data):
        raise SaveFileError(f"{path}: not replaced: the file is not a game record of sorry-rules "
                            "(choose another file to save to)")


def write_record(path: str | os.PathLike, record: Record) -> None:
    """Write `record` to `path` atomically (its folder is created if needed). Only a missing
    file or a game record is replaced; a link, a FIFO, a device, a folder or any other file
    is a SaveFileError naming it (`_check_replacing`)."""
    _check_replacing(path)
    try:
        replace_file(path, to_json(record))
    except OSError as error:
        raise SaveFileError(f"cannot write the game record to {path}: {error.strerror or error}") from None
    _WRITTEN.add(os.path.abspath(path))
