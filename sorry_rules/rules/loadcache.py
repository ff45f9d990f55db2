"""Validated rule files kept on disk: a variant whose files did not change is not read and validated again.

Contract: `cached(spec, rules, reread[, plain])` returns the parts of the `LoadedVariant` (variant, origins,
files, data, content hash) that `rules.loader.load_variant(spec, rules)` stored with `store`, or
None. The variant's models are equal to
freshly validated ones (`==`), built by `model_construct` from the stored field values with no
validation: they were valid when stored, and nothing they depend on changed since. Its
`origins` (the source map, only needed to locate a problem found later, e.g. by the compiler)
is read again from the files on first use (`reread`). With `plain`, the models come back as
`rules.plain.PlainModel`s of the same values instead (for the compiler, which only reads
them: `rules.loaded.cached_variant`), and pydantic is not imported.

A second kind of entry (`validated`, `keep_validated`) is keyed by the merged data itself (its
JSON text, in order) and the code: the variant that validating that data gave. Files that
changed without changing what they merge to (a comment, the layout) are read again but not
validated again.

Files whose merged data changed only in plain values (a number, a word, a DSL text) are not
validated with pydantic either when `rules.leafedit` can decide the edit (`edited`): from the
data and variant of the first kind of entry for the same names (stored before the edit), and
the models' constraint table (a third kind, `keep_table`, keyed by the code alone, written the
first time data is validated with pydantic).

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
import sys
from pathlib import Path

from sorry_rules.base import diskcache
from sorry_rules.rules.locate import extra_roots, resolve
from sorry_rules.rules.plain import plain_class

KIND = "variant"
DATA_KIND = "validated-data"
TABLE_KIND = "model-table"


def _models() -> dict[str, type]:
    # lazy: pydantic and the models only to build models (importing this module stays light)
    from sorry_rules.rules.strict import model_classes

    return model_classes()


def encode(value):
    """Tagged plain data of a validated value (see the module docstring); TypeError for
    anything else."""
    # no model value exists unless the models' module was imported (and then pydantic): not imported here
    strict = sys.modules.get("sorry_rules.rules.strict")
    if strict is not None and isinstance(value, strict.Strict):
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


def decode(data, models: dict[str, type] | None):
    """The value `encode` gave `data` for; KeyError or ValueError for anything else. With
    `models` None, each model value comes back as a `rules.plain.PlainModel` of its values
    (no pydantic); `models` must then hold names only (their classes are never built)."""
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
    name = data["$m"]
    values = {field: decode(v, models) for field, v in data["v"].items()}
    if not isinstance(name, str) or not all(isinstance(field, str) for field in values):
        raise ValueError("not a model value")
    if models is None:
        return plain_class(name)(values)
    cls = models[name]
    if set(values) != set(cls.__pydantic_fields__):
        raise ValueError(f"fields of {cls.__qualname__} changed")
    return cls.model_construct(_fields_set=set(data["s"]), **values)


def _key(spec, rules) -> str:
    return diskcache.digest(KIND, diskcache.code_fingerprint(), os.getcwd(), os.fspath(spec),
                            *(os.fspath(item) for item in rules), "roots", *map(str, extra_roots()))


def _unchanged(entry: dict, spec, rules) -> bool:
    """Whether the names asked for, the bytes of every file read and every `extends:` lookup
    are as `entry` stored them."""
    return ([name for name, _ in entry["names"]] == [os.fspath(item) for item in [spec, *rules]]
            and all(str(resolve(name)) == found for name, found in entry["names"])
            and inputs_unchanged(entry["inputs"], entry["lookups"]))


def inputs_unchanged(inputs, lookups) -> bool:
    """Whether every file of `inputs` ((file, SHA-256 of its bytes) pairs, at least one) still
    has those bytes and every `extends:` name of `lookups` ((name, folder, the file it found
    or None)) still finds the same file: what a result kept on disk depends on."""
    return (bool(inputs) and all(sha is not None and diskcache.file_digest(file) == sha for file, sha in inputs)
            and all(_name_of(resolve(name, Path(folder))) == found for name, folder, found in lookups))


def _name_of(target) -> str | None:
    return None if target is None else str(target)


def cached(spec, rules, reread, plain: bool = False) -> tuple | None:
    """(variant, origins, files, data, content_hash) stored for `spec` with `rules` when all
    it depends on is unchanged, else None (module docstring). With `plain` the models are not
    imported: the entry's key names the code, so they are those that stored it."""
    if not diskcache.enabled():
        return None
    entry = diskcache.read(KIND, _key(spec, rules))
    try:
        if entry is None or not _unchanged(entry, spec, rules):
            return None
        variant = decode(entry["variant"], None if plain else _models())
        if type(variant).__name__ != "Variant":
            return None
        return variant, LazyOrigins(reread), tuple(entry["files"]), decode(entry["data"], {}), entry["content_hash"]
    except (KeyError, ValueError, TypeError, AttributeError):
        return None


def store(spec, rules, loaded, inputs: tuple, lookups: tuple, encoded=None) -> None:
    """Keep `loaded` (just validated from `spec` and `rules`), with what it depends on;
    `encoded` is `encode(loaded.variant)` when the caller has it (None: encoded here; a
    variant of plain values is kept only so)."""
    if not diskcache.enabled() or not inputs or any(sha is None for _, sha in inputs):
        return
    try:
        payload = {
            "names": [[os.fspath(item), str(resolve(os.fspath(item)))] for item in [spec, *rules]],
            "inputs": [list(item) for item in inputs],
            "lookups": [list(item) for item in lookups],
            "files": list(loaded.files),
            "content_hash": loaded.content_hash,
            "variant": encode(loaded.variant) if encoded is None else encoded,
            "data": encode(loaded.data),
        }
    except TypeError:
        return
    diskcache.write(KIND, _key(spec, rules), payload)


def validated(data, plain: bool = False) -> tuple | None:
    """(variant, its encoding) that validating the merged rule data `data` gave before
    (`keep_validated`), else None; with `plain`, its models as `rules.plain.PlainModel`s.
    Validation is a function of the data and the code alone, and the key names both: data
    merged from files that changed only in comments or layout is not validated again."""
    if not diskcache.enabled():
        return None
    key = diskcache.data_key(DATA_KIND, data)
    entry = diskcache.read(DATA_KIND, key) if key is not None else None
    try:
        encoded = entry["variant"]
    except (KeyError, TypeError):
        return None
    return _kept(data, encoded, plain)


def keep_validated(data, variant):
    """Keep `variant`, just validated from merged rule data `data`, for `validated`; its
    encoding, or None when it cannot be kept."""
    key = diskcache.data_key(DATA_KIND, data) if diskcache.enabled() else None
    try:
        encoded = encode(variant)
    except TypeError:
        return None
    if key is not None:
        diskcache.write(DATA_KIND, key, {"variant": encoded})
    return encoded


class LazyOrigins:
    """The `Origins` (source map) of a cached variant, read from its files on first use:
    every attribute (`maps`, `fallback`, `mark`, `key_mark`, `in_text`) is the real one's."""

    def __init__(self, reread):
        self._reread = reread
        self._origins = None

    def __getattr__(self, name):
        if name.startswith("_"):  # not set (a copy being built): never read the files for it
            raise AttributeError(name)
        if self._origins is None:
            self._origins = self._reread()
        return getattr(self._origins, name)


def _table_key() -> str:
    return diskcache.digest(TABLE_KIND, diskcache.code_fingerprint())


def keep_table() -> None:
    """Keep the models' constraint table (`rules.leafedit.table_of_models`) for `edited`,
    unless kept already; call it only where pydantic and the models are loaded."""
    if not diskcache.enabled() or diskcache.read(TABLE_KIND, _table_key()) is not None:
        return
    from sorry_rules.rules.leafedit import table_of_models  # lazy: the models, loaded by the caller

    diskcache.write(TABLE_KIND, _table_key(), table_of_models())


def edited(spec, rules, data, plain: bool = False) -> tuple | None:
    """(variant, its encoding) that validating merged rule data `data` of `spec` with `rules`
    gives, decided from the variant stored for the same names before (whatever files it came
    from) when `data` differs from that variant's data in plain values only
    (`rules.leafedit.edited`), else None; with `plain`, its models as `rules.plain.PlainModel`s."""
    if not diskcache.enabled():
        return None
    return edited_from(diskcache.read(KIND, _key(spec, rules)), data, plain)


def edited_from(previous, data, plain: bool = False) -> tuple | None:
    """As `edited`, from `previous`: {"data": encoded data, "variant": the encoding of the
    variant validating it gave} (as `keep_previous` makes, or an entry of `store`)."""
    if not diskcache.enabled():
        return None
    from sorry_rules.rules.leafedit import edited as decide  # lazy: only when the data changed

    table = diskcache.read(TABLE_KIND, _table_key())
    try:
        encoded = decide(table, previous["variant"], decode(previous["data"], {}), data)
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
    return None if encoded is None else _kept(data, encoded, plain)


def _kept(data, encoded, plain: bool) -> tuple | None:
    """(variant, `encoded`) when `encoded` decodes to a variant (with `plain`, of
    `rules.plain.PlainModel`s), kept under `data`'s key as `keep_validated` keeps it (the same
    data again is a plain hit); None when it does not decode."""
    try:
        variant = decode(encoded, None if plain else _models())
        if type(variant).__name__ != "Variant":
            return None
    except (KeyError, ValueError, TypeError, AttributeError):
        return None
    key = diskcache.data_key(DATA_KIND, data)
    if key is not None:
        diskcache.write(DATA_KIND, key, {"variant": encoded})
    return variant, encoded


def previous_entry(data, encoded) -> dict | None:
    """What `edited_from` takes: merged rule data `data` and the encoding of the variant it
    validated to; None when `data` cannot be kept."""
    try:
        return {"data": encode(data), "variant": encoded}
    except TypeError:
        return None
