"""The fields a pydantic model accepts at a place in its data, for "unknown field" messages.

Contract: `known_fields(model, loc)` follows a pydantic error location (mapping keys,
sequence indices and union tags) from `model` through nested models, lists, dicts, unions
and `Annotated` types, and returns the sorted field names (as written in files: aliases)
of every model it can be at there; [] when the location leads to no model. Pure.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Literal, Union

from pydantic import BaseModel


def _members(annotation) -> list:
    """The alternatives of a type: Annotated is unwrapped, unions are spread."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [m for arg in typing.get_args(annotation) for m in _members(arg)]
    return [annotation]


def _is_model(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _field(model: type[BaseModel], key):
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info.annotation
    return None


def _step(annotation, part) -> list | None:
    """The types one location part leads to from `annotation`; None when it does not apply."""
    if _is_model(annotation):
        found = _field(annotation, part) if isinstance(part, str) else None
        return None if found is None else _members(found)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (list, tuple) and isinstance(part, int) and args:
        return _members(args[0])
    if origin is dict and isinstance(part, str) and len(args) == 2:
        return _members(args[1])
    return None


def _tagged(current: list, part) -> list:
    """The models of a union whose tag (a Literal field) is `part`: pydantic puts the tag of
    a discriminated union in error locations (turn.hand.hand_size)."""
    if len(current) < 2:
        return []
    return [m for m in current if _is_model(m) and any(
        typing.get_origin(info.annotation) is Literal and part in typing.get_args(info.annotation)
        for info in m.model_fields.values())]


def other_kinds(model: type[BaseModel], loc: tuple, name: str) -> list[str]:
    """Where `loc` (a location ending in a union tag, turn.draw) picked one model of a union
    whose tag is a Literal field: the "field: value" of each other member that has a field
    `name` (["source: dice"] for `dice` under a draw turn); [] otherwise."""
    current = [model]
    for i, part in enumerate(loc):
        tagged = _tagged(current, part)
        if tagged and i == len(loc) - 1:
            return [f"{field}: {typing.get_args(info.annotation)[0]}" for m in current if _is_model(m) and m not in tagged
                    and _field(m, name) is not None
                    for field, info in m.model_fields.items() if typing.get_origin(info.annotation) is Literal
                    and len(typing.get_args(info.annotation)) == 1 and _field(tagged[0], field) is not None]
        following = tagged or [member for annotation in current for member in _step(annotation, part) or []]
        if not following:
            return []
        current = following
    return []


def known_fields(model: type[BaseModel], loc: tuple) -> list[str]:
    """Field names (aliases) of the model(s) reached from `model` along `loc`."""
    current = [model]
    for part in loc:
        tagged = _tagged(current, part)
        if tagged:
            current = tagged
            continue
        following = [member for annotation in current for member in _step(annotation, part) or []]
        if not following:  # a union tag ("hand" in turn.hand.x) or a name pydantic added: stay
            continue
        current = following
    return sorted({info.alias or name for annotation in current if _is_model(annotation)
                   for name, info in annotation.model_fields.items()})
