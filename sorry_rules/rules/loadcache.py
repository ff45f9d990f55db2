"""Validated rule files kept on disk: a variant whose files did not change is not read and validated again.

Contract: `cached(spec, rules, reread)` returns the parts of the `LoadedVariant` (variant, origins,
files, data, content hash) that `rules.loader.load_variant(spec, rules)` stored with `store`, or
None. The variant's models are equal to
freshly validated ones (`==`), built by `model_construct` from the stored field values with no
validation: they were valid when stored, and nothing they depend on changed since. Its
`origins` (the source map, only needed to locate a problem found later, e.g. by the compiler)
is read again from the files on first use (`reread`).

The entry (`base.diskcache`: JSON data only, checksummed, keyed by the code fingerprint, the
working folder and the names asked for) lists what the result depends on, and it is used only
when all of that is unchanged:
- every file read (the variant, the overlays and their `extends:` chains) still has the same
  SHA-256 of its bytes;
- the variant's and overlays' names, and every `extends:` name, still resolve to the same files.
Anything else (no entry, a damaged or foreign entry, a value of an unknown model) is a miss:
the caller reads and validates the files, then stores the result again.

Model values are stored tagged, so they come back exactly: a model as {"$m": its name, "v":
{field: value}, "s": the fields that were set}, a tuple as {"$t": [...]}, a mapping as
{"$d": [[key, value], ...]}; lists, strings, numbers, booleans and None as themselves. Only
the rule-file models (subclasses of `rules.strict.Strict`) can be named.
"""

from __future__ import annotations

import os
from pathlib import Path

from sorry_rules.base import diskcache
from sorry_rules.rules.locate import resolve
from sorry_rules.rules.strict import Strict

KIND = "variant"


def _models() -> dict[str, type]:
    found: dict[str, type] = {}
    pending = [Strict]
    while pending:
        cls = pending.pop()
        found[f"{cls.__module__}.{cls.__qualname__}"] = cls
        pending.extend(cls.__subclasses__())
    return found


def encode(value):
    """Tagged plain data of a validated value (see the module docstring); TypeError for
    anything else."""
    if isinstance(value, Strict):
        cls = type(value)
        return {"$m": f"{cls.__module__}.{cls.__qualname__}",
                "v": {name: encode(getattr(value, name)) for name in cls.__pydantic_fields__},
                "s": sorted(value.__pydantic_fields_set__)}
    if isinstance(value, tuple):
        return {"$t": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"$d": [[encode(k), encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__}")


def decode(data, models: dict[str, type]):
    """The value `encode` gave `data` for; KeyError or ValueError for anything else."""
    if isinstance(data, list):
        return [decode(v, models) for v in data]
    if not isinstance(data, dict):
        return data
    if set(data) == {"$t"}:
        return tuple(decode(v, models) for v in data["$t"])
    if set(data) == {"$d"}:
        return {decode(k, models): decode(v, models) for k, v in data["$d"]}
    if set(data) != {"$m", "v", "s"}:
        raise ValueError("untagged mapping")
    cls = models[data["$m"]]
    values = {name: decode(v, models) for name, v in data["v"].items()}
    if set(values) != set(cls.__pydantic_fields__):
        raise ValueError(f"fields of {cls.__qualname__} changed")
    return cls.model_construct(_fields_set=set(data["s"]), **values)


def _key(spec, rules) -> str:
    return diskcache.digest(KIND, diskcache.code_fingerprint(), os.getcwd(), os.fspath(spec),
                            *(os.fspath(item) for item in rules))


def _unchanged(entry: dict, spec, rules) -> bool:
    wanted = [spec, *rules]
    if [name for name, _ in entry["names"]] != [os.fspath(item) for item in wanted] or not entry["inputs"]:
        return False
    for name, found in entry["names"]:
        if str(resolve(name)) != found:
            return False
    for file, sha in entry["inputs"]:
        if sha is None or diskcache.file_digest(file) != sha:
            return False
    for name, folder, found in entry["lookups"]:
        target = resolve(name, Path(folder))
        if (None if target is None else str(target)) != found:
            return False
    return True


def cached(spec, rules, reread) -> tuple | None:
    """(variant, origins, files, data, content_hash) stored for `spec` with `rules` when all
    it depends on is unchanged, else None. `reread()` gives the source map (`Origins`) again
    when it is first needed."""
    if not diskcache.enabled():
        return None
    entry = diskcache.read(KIND, _key(spec, rules))
    try:
        if entry is None or not _unchanged(entry, spec, rules):
            return None
        variant = decode(entry["variant"], _models())
        if type(variant).__name__ != "Variant":
            return None
        return variant, LazyOrigins(reread), tuple(entry["files"]), decode(entry["data"], {}), entry["content_hash"]
    except (KeyError, ValueError, TypeError, AttributeError):
        return None


def store(spec, rules, loaded, inputs: tuple, lookups: tuple) -> None:
    """Keep `loaded` (just validated from `spec` and `rules`), with what it depends on."""
    if not diskcache.enabled() or not inputs or any(sha is None for _, sha in inputs):
        return
    try:
        payload = {
            "names": [[os.fspath(item), str(resolve(os.fspath(item)))] for item in [spec, *rules]],
            "inputs": [list(item) for item in inputs],
            "lookups": [list(item) for item in lookups],
            "files": list(loaded.files),
            "content_hash": loaded.content_hash,
            "variant": encode(loaded.variant),
            "data": encode(loaded.data),
        }
    except TypeError:
        return
    diskcache.write(KIND, _key(spec, rules), payload)


class LazyOrigins:
    """The `Origins` (source map) of a cached variant, read from its files on first use."""

    def __init__(self, reread):
        self._reread = reread
        self._origins = None

    def _real(self):
        if self._origins is None:
            self._origins = self._reread()
        return self._origins

    @property
    def maps(self):
        return self._real().maps

    @property
    def fallback(self):
        return self._real().fallback

    def mark(self, path):
        return self._real().mark(path)

    def key_mark(self, path):
        return self._real().key_mark(path)

    def in_text(self, path, offset: int):
        return self._real().in_text(path, offset)
