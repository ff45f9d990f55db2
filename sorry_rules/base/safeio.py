"""Reading files a user names, when the file may be anything: regular files only, bounded.

Contract:
- `read_regular(path, limit)` returns at most `limit + 1` bytes of `path` (so a caller can
  tell a file over its limit without reading it whole), or raises `OSError` (with
  `strerror` for a person) for a file that cannot be read and for anything that is not a
  regular file: a folder, a FIFO, a device, a socket. The file is opened without blocking
  (a FIFO with no writer does not hang the reader) and checked on the open descriptor, so a
  file swapped for a FIFO between a check and the read is refused too.
- `open_regular(path)` is the same check, giving the open file (to read it line by line).
- `kind_of(path)` names what a path is ("a FIFO", "a device", ...) without opening it.
- `check_replaceable(path)` raises `NotRegularFile` when `path` exists and is not a regular
  file (a link, a folder, a FIFO, a device, a socket): no command writes through one.
- `replace_file(path, text)` writes `text` so that readers see the old file or the whole new
  one, never half (temporary file `.NAME.PID.RANDOM.tmp` in the same folder, fsync, rename,
  fsync of the folder); it refuses what `check_replaceable` refuses, and removes the
  temporary files of earlier writes of the same file whose process is gone (a kill -9 mid-write);
  `create_file(path, text)` likewise makes a file that did not exist, and never replaces one.
- `loads_json(text, where)` parses JSON with bounded nesting (`MAX_JSON_DEPTH`) and bounded
  numbers (integers of at most `MAX_JSON_DIGITS` digits, finite floats, no NaN/Infinity),
  raising `JsonLimitError` (a ValueError) past a bound and `json.JSONDecodeError` for bad
  syntax; never RecursionError, OverflowError or a 4,300-digit ValueError.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tempfile
from pathlib import Path

from sorry_rules.base.limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "something else")


def kind_of(path) -> str | None:
    """None for a regular file (or a link to one), else what `path` is ("a FIFO (named pipe)",
    "a device", "a folder", "a socket", "missing")."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "missing"
    return None if stat.S_ISREG(mode) else _kind(mode)


class NotRegularFile(OSError):
    """A path that names a folder, FIFO, device or socket where a file was wanted."""


def lstat_or_none(path):
    """`os.lstat(path)`, or None when nothing is there; raises `OSError` for a name the
    system refuses (too long, a folder on the way that is a file)."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def open_regular(path):
    """The regular file `path` opened for reading in binary (a file object; its size is
    `os.fstat(f.fileno()).st_size`), opened without blocking and checked on the descriptor;
    OSError (NotRegularFile) as `read_regular`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(0, f"it is {_kind(mode)}, not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path, limit: int) -> bytes:
    """At most `limit + 1` bytes of the regular file `path` (see the module contract), read
    in pieces so that a large `limit` reserves no memory a small file does not need."""
    with open_regular(path) as f:
        fd = f.fileno()
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def check_replaceable(path) -> None:
    """NotRegularFile when `path` exists and is not a regular file (links are not followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise NotRegularFile(0, "it is a symbolic link, not a regular file")
    if not stat.S_ISREG(mode):
        raise NotRegularFile(0, f"it is {_kind(mode)}, not a regular file")


_TEMP = re.compile(r"(?:(\d+)\.)?[A-Za-z0-9_]+\.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def remove_stray_temporaries(path) -> list[str]:
    """Remove `.NAME.*.tmp` files beside `path` left by writes whose process is gone (or, named
    without a process id, by earlier versions); the names removed."""
    path = Path(path)
    prefix = f".{path.name}."
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        match = _TEMP.fullmatch(entry.name[len(prefix):])
        if not match or not entry.is_file(follow_symlinks=False):
            continue
        if match.group(1) is not None and _alive(int(match.group(1))):
            continue
        try:
            os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            pass
    return removed


def replace_file(path, text: str, make_folder: bool = True) -> None:
    """Write `text` to `path` atomically (see the module contract); its folder is created if
    needed (with `make_folder`). Raises OSError (NotRegularFile for a path that is not a
    regular file)."""
    path = Path(path)
    check_replaceable(path)
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True)
    remove_stray_temporaries(path)
    tmp = _written(path, text)
    try:
        check_replaceable(path)  # not swapped for a link or a FIFO meanwhile
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _fsync_dir(path.parent)


def create_file(path, text: str) -> None:
    """Write `text` to `path`, which must not exist yet (FileExistsError; also for a link, a
    FIFO or a device there), so that readers never see half a file: the whole file is written
    under a temporary name, then linked to `path` (a link never replaces a file); its folder
    is created if needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stray_temporaries(path)
    tmp = _written(path, text)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links: create the file exclusively instead
            with open(path, "x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
    finally:
        _remove(tmp)
    _fsync_dir(path.parent)


def _mode_for(path: Path) -> int:
    """The permissions `path` keeps when it is replaced, or a new file's (what the umask
    leaves of rw-rw-rw-, as `open` gives): never the temporary file's private 0600."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _written(path: Path, text: str) -> str:
    """A temporary file beside `path`, named for this process, holding `text` whole (fsync),
    with the permissions `path` is to have (`_mode_for`)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


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


class JsonLimitError(ValueError):
    """JSON text over a bound of `loads_json` (nesting, a number's size)."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in JSON text, strings left out (no recursion)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise JsonLimitError(f"a number is too long (more than {MAX_JSON_DIGITS} digits)")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_JSON_DIGITS + 8:
        raise JsonLimitError(f"a number is too long (more than {MAX_JSON_DIGITS} digits)")
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str):
    raise JsonLimitError(f"{name} is not a JSON number")


def loads_json(text: str | bytes):
    """`json.loads` with the bounds of the module contract. Raises JsonLimitError (a bound),
    json.JSONDecodeError (syntax) or UnicodeDecodeError (bytes that are not UTF-8)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise JsonLimitError(f"nested too deep (more than {MAX_JSON_DEPTH} levels)")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # cannot happen below MAX_JSON_DEPTH; kept as a bound of its own
        raise JsonLimitError(f"nested too deep (more than {MAX_JSON_DEPTH} levels)") from None
