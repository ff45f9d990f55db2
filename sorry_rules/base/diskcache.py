"""Results kept on disk between commands, as checked JSON data (the rule-file caches).

Contract: `enabled()` says whether results are kept at all; `read(kind, key)` returns the
payload last stored by `write(kind, key, payload)` for that exact key, or None; a payload is
plain JSON data (dicts, lists, strings, numbers), never pickle or code. The folder is
`base.resources.cache_dir()` (SORRY_RULES_CACHE_DIR, "off" for none). What a payload means,
and whether it is still true, is the caller's business: an entry is found by its key only,
so the key must name every input.

Safe by construction, as the DSL parser cache (`dsl.parsercache`):
- The file name holds the SHA-256 `key`, and the entry repeats the key and carries a SHA-256
  `checksum` of its payload text: an entry that cannot be read, is not such JSON, has another
  key or checksum, is ignored (the caller rebuilds and writes it again).
- Writing goes to a temporary file renamed into place; a folder that cannot be written
  costs only the rebuild.

`code_fingerprint()` names the code that produced a result: the sorry-rules version, every
module of the package and the grammar (their bytes), the bundled rule files' names, the
Python version and the installed pydantic, pydantic-core, lark and PyYAML (their files'
place, size and time, read without importing them). A result of other code is never reused,
even in a checkout whose version number did not change. `file_digest(path)` is the SHA-256
of a file's bytes, read as the rule-file reader reads them (`read_limited`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import time
from functools import lru_cache
from pathlib import Path

from sorry_rules import __version__
from sorry_rules.base.limits import MAX_YAML_BYTES
from sorry_rules.base.resources import cache_dir, data_dir
from sorry_rules.base.safeio import read_regular

_PACKAGE = Path(__file__).resolve().parent.parent
_LIBRARIES = ("pydantic", "pydantic_core", "lark", "yaml")


def digest(*parts: str) -> str:
    """SHA-256 (hex) of the parts, each ended by a NUL."""
    sha = hashlib.sha256()
    for part in parts:
        sha.update(part.encode("utf-8", "surrogatepass"))
        sha.update(b"\0")
    return sha.hexdigest()


def data_key(kind: str, data) -> str | None:
    """The key of a result of plain data `data` (merged rule data) and the code alone: its
    JSON text in its own key order (which can matter: the order of a rule file's cards) with
    `code_fingerprint()`; None for data JSON cannot hold."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return digest(kind, code_fingerprint(), text)


def read_limited(path) -> bytes:
    """At most MAX_YAML_BYTES + 1 bytes of `path` (what the rule-file reader parses); OSError
    when it cannot be read or is not a regular file (a FIFO, a device: never blocks)."""
    return read_regular(path, MAX_YAML_BYTES)


def file_digest(path) -> str | None:
    """SHA-256 of `read_limited(path)`, or None when the file cannot be read."""
    try:
        return hashlib.sha256(read_limited(path)).hexdigest()
    except OSError:
        return None


def _library(name: str) -> str:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    origin = getattr(spec, "origin", None)
    if not origin:
        return f"{name}:-"
    try:
        stat = os.stat(origin)
    except OSError:
        return f"{name}:{origin}"
    return f"{name}:{origin}:{stat.st_size}:{stat.st_mtime_ns}"


def _files(folder, suffixes: tuple) -> list[tuple[str, str]]:
    """(path relative to `folder` with "/", full path) of the files under it ending in
    `suffixes`, sorted (os.walk: far cheaper than pathlib at start-up)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        relative = os.path.relpath(dirpath, folder).replace(os.sep, "/")
        for name in filenames:
            if name.endswith(suffixes):
                found.append((name if relative == "." else f"{relative}/{name}", os.path.join(dirpath, name)))
    return sorted(found)


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The fingerprint of the code and libraries a cached result comes from (see above)."""
    sha = hashlib.sha256()
    sha.update(f"{__version__}\0{sys.version}\0".encode())
    for folder, suffixes in ((_PACKAGE, (".py",)), (data_dir("grammar"), (".lark",))):
        for relative, path in _files(folder, suffixes):
            with open(path, "rb") as file:
                sha.update(relative.encode() + b"\0" + file.read() + b"\0")
    variants = data_dir("variants")
    sha.update(f"{variants}\0".encode())
    for relative, _ in _files(variants, (".yaml", ".yml")):
        sha.update(relative.encode() + b"\0")
    for name in _LIBRARIES:
        sha.update(_library(name).encode() + b"\0")
    return sha.hexdigest()


def enabled() -> bool:
    """Whether there is a cache folder (callers skip computing keys when there is none)."""
    return cache_dir() is not None


def _path(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{kind}-{key[:40]}.json"


def read(kind: str, key: str):
    """The payload stored for (`kind`, `key`), or None (no cache, none, damaged, another key)."""
    path = _path(kind, key)
    return None if path is None else read_entry(path, key)


def write(kind: str, key: str, payload) -> None:
    """Store `payload` (plain JSON data) for (`kind`, `key`); quietly nothing when it cannot."""
    path = _path(kind, key)
    if path is not None:
        write_entry(path, key, payload, kind)


def read_entry(path, key: str, object_hook=None):
    """The payload of the entry file `path` (JSON data, its objects passed to `object_hook`
    when given), or None when the file cannot be read, is not an entry or is another key's,
    or its payload does not match its checksum (see the contract)."""
    try:
        with open(path, encoding="utf-8", errors="surrogatepass") as file:
            entry = json.load(file)
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("payload"), str):
            return None
        payload = entry["payload"]
        if hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest() != entry.get("checksum"):
            return None
        return json.loads(payload, object_hook=object_hook)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def entry_text(key: str, payload) -> str:
    """The text of an entry holding `payload` (plain JSON data) for `key`: the key, the
    payload's JSON text and its SHA-256 checksum. TypeError or ValueError for a payload JSON
    cannot hold."""
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    checksum = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return json.dumps({"key": key, "checksum": checksum, "payload": text}, ensure_ascii=False)


def write_entry(path: Path, key: str, payload, kind: str) -> None:
    """Store `payload` for `key` in the entry file `path` (a temporary file named after
    `kind`, renamed into place); quietly nothing when it cannot."""
    try:
        entry = entry_text(key, payload)
        os.makedirs(path.parent, exist_ok=True)
        handle, temporary = _new_file(path.parent, kind)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as file:
                file.write(entry)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, TypeError, ValueError, RecursionError):
        pass  # no cache this time: the result was computed anyway


def _new_file(folder: Path, kind: str) -> tuple[int, str]:
    """A new file of this process in `folder`, opened for writing: (descriptor, path). As
    `tempfile.mkstemp` (created, never an existing file: O_EXCL; readable by the user only),
    without importing tempfile and what it imports (about 25 ms, most of a cached write)."""
    for attempt in range(100):
        name = os.path.join(folder, f".{kind}-{os.getpid()}-{time.monotonic_ns()}-{attempt}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no new file name in {folder}")
