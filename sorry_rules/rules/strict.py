"""The base of every rule-file model: extra keys forbidden, strict types, frozen.

The models' validators are built on their first validation (`defer_build`), not when the
modules are imported: building all of them takes about 0.1 s, and a variant loaded from the
cache (`rules.loadcache`) is never validated again."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True, defer_build=True)


def model_classes() -> dict[str, type]:
    """Every rule-file model class loaded (`Strict` and its subclasses, at any depth), by
    `module.qualname`: the name a model is kept under (`rules.loadcache`, `rules.leafedit`)."""
    found: dict[str, type] = {}
    pending = [Strict]
    while pending:
        cls = pending.pop()
        found[f"{cls.__module__}.{cls.__qualname__}"] = cls
        pending.extend(cls.__subclasses__())
    return found
