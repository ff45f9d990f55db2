"""The base of every rule-file model: extra keys forbidden, strict types, frozen.

The models' validators are built on their first validation (`defer_build`), not when the
modules are imported: building all of them takes about 0.1 s, and a variant loaded from the
cache (`rules.loadcache`) is never validated again."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True, defer_build=True)
