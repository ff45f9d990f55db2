"""The DSL's LALR parser kept on disk, so a command does not rebuild its tables at each start.

Contract: `cached_parser(grammar, **options)` returns a parser equal to `Lark(grammar,
**options)`: loaded
from the cache folder (`base.resources.cache_dir()`) when a valid entry exists, else built
and stored. Building the tables takes most of the parser's start-up; loading them is a
JSON read.

Safe by construction:
- The entry's name and its `key` are a SHA-256 of everything the tables depend on: the
  grammar text, the lark options, the lark version, the sorry-rules version and the Python version. A changed
  grammar or an upgrade uses another entry; old entries are never read.
- The file is JSON (no pickle, nothing executed): lark's own serialization of the parser
  (`memo_serialize`), with tuples and non-string dict keys tagged so they come back exactly,
  and a SHA-256 `checksum` of that payload. An entry that cannot be read, is not such JSON,
  has another key or checksum, or that lark refuses, is ignored and rewritten: never trusted.
- Writing goes to a temporary file renamed into place (readers see a whole entry or none);
  a folder that cannot be written (read-only home, no cache folder) only costs the rebuild.

Tables bundled with the package (`grammar/sorry-tables.json`, made by `bundle`: python
tools/parser_tables.py) serve a first run, or a run without a cache folder: an entry of the
same form whose key names what the tables are a function of (the grammar text, the lark
options and the lark version: `bundled_key`). It is tried first; when its key does not match
(a grammar edited since, another lark) or it is damaged, the user's cache and then a build
answer as before.
"""

from __future__ import annotations

import hashlib
import sys

from lark import Lark, __version__ as lark_version
from lark.grammar import Rule
from lark.lexer import TerminalDef

from sorry_rules import __version__
from sorry_rules.base.diskcache import entry_text, read_entry, write_entry
from sorry_rules.base.resources import cache_dir, data_dir

#: The file of the bundled tables, in the grammar folder.
BUNDLED = "sorry-tables.json"


def _key(grammar: str, options: dict) -> str:
    parts = (grammar, repr(sorted(options.items())), lark_version, __version__, "%d.%d" % sys.version_info[:2])
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def bundled_key(grammar: str, options: dict) -> str:
    """The key of bundled tables: the grammar, the lark options and the lark version."""
    parts = ("bundled", grammar, repr(sorted(options.items())), lark_version)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def bundle(grammar: str, **options) -> str:
    """The text of the bundled tables' file for `Lark(grammar, **options)`."""
    serialized, memo = Lark(grammar, **options).memo_serialize([TerminalDef, Rule])
    return entry_text(bundled_key(grammar, options), _encode({"data": serialized, "memo": memo}))


def _loaded(path, key: str) -> Lark | None:
    data = _read(path, key)
    if data is None:
        return None
    try:
        return Lark.load(data)
    except Exception:  # lark refused the entry (damaged in a way the checksum cannot see)
        return None


def _encode(value):
    """Plain data with tuples and dicts tagged (every JSON object of the result is a tag)."""
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _decode_object(obj: dict):
    if len(obj) != 1:
        raise ValueError("untagged object")
    return tuple(obj["t"]) if "t" in obj else {key: value for key, value in obj["d"]}


def _read(path, key: str):
    """The parser data stored at `path` for `key`, or None (missing, damaged or another key)."""
    data = read_entry(path, key, _decode_object)
    return data if isinstance(data, dict) and set(data) == {"data", "memo"} else None


def cached_parser(grammar: str, **options) -> Lark:
    """`Lark(grammar, **options)`: from the bundled tables, else through the on-disk cache
    (see the contract)."""
    parser = _loaded(data_dir("grammar") / BUNDLED, bundled_key(grammar, options))
    if parser is not None:
        return parser
    folder = cache_dir()
    if folder is None:
        return Lark(grammar, **options)
    key = _key(grammar, options)
    path = folder / f"dsl-parser-{key[:32]}.json"
    parser = _loaded(path, key)
    if parser is not None:
        return parser
    parser = Lark(grammar, **options)
    serialized, memo = parser.memo_serialize([TerminalDef, Rule])
    try:
        payload = _encode({"data": serialized, "memo": memo})
    except TypeError:
        return parser  # lark gave what the cache cannot hold: no cache this time
    write_entry(path, key, payload, "dsl-parser")
    return parser
