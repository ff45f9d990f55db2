"""A loaded variant, and the light way to one that the cache holds.

Contract: `LoadedVariant` is what `rules.loader.load_variant` returns (re-exported there).
`cached_variant(spec, rules)` is the `LoadedVariant` of variant `spec` with `rules` overlays
when the cache holds it unchanged (`rules.loadcache`), with its models as plain values
(`rules.plain.PlainModel`: the same fields and values; enough for the compiler, which only
reads them), else None: the caller then loads it with `load_variant`, which also stores it.
Its source map is read from the files on first use. Nothing here imports pydantic or YAML
until a source map is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_rules.rules import loadcache


@dataclass(frozen=True)
class LoadedVariant:
    variant: object  # a rules.model.Variant, or its PlainModel (cached_variant)
    origins: object  # a rules.loader.Origins, or a loadcache.LazyOrigins reading them on first use
    files: tuple[str, ...]
    data: dict
    content_hash: str


def cached_variant(spec, rules: tuple = ()) -> LoadedVariant | None:
    """The cached variant, its models as plain values (module docstring), or None."""
    rules = tuple(rules)
    hit = loadcache.cached(spec, rules, lambda: _origins(spec, rules), plain=True)
    return None if hit is None else LoadedVariant(*hit)


def _origins(spec, rules: tuple):
    # lazy: YAML and the loader only when a problem of a cached variant must be located
    from sorry_rules.rules.loader import read_merged

    return read_merged(spec, rules).origins
