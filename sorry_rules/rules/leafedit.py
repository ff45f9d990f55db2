"""Rule data that differs from data validated before only in plain values: validated without pydantic.

An author's usual edit changes a value: a number (a deck count, a board size), a word of a
closed set (`control: own` -> `team`), a text (a card's DSL effect). Validating the merged
data again with pydantic costs importing pydantic and building the models' validators (about
0.25 s of CPU, most of a `sorry-play moves` run); this module decides such an edit from the
variant validated before and a table of the models' plain constraints instead.

Contract: `edited(table, encoded, old, new)` returns the tagged encoding (`rules.loadcache`)
of the variant that validating rule data `new` gives, given `encoded`, the encoding of the
variant validating `old` gave, or None when it cannot tell (the caller then validates `new`
with pydantic, which also reports any problem: this path never reports one). It answers only
when
- `new` has the shape of `old`: the same mappings with the same keys in the same order, the
  same list lengths, and the same type at every leaf; only leaves (int, str, bool) differ;
- every changed leaf's schema (`table`, made by `table_of_models` from the models' JSON
  Schema) is plain: a type with bounds (`minimum`, `maximum`, exclusive ones, `minLength`,
  `maxLength`) or a `const`/`enum`, no pattern, format or anything else; the new value has
  that type exactly (strict models: `True` is not an int) and meets the bounds;
- no model on the way to a changed leaf has a validator of its own (`model_validator`,
  `field_validator`, or a validator function in a field's annotation: those may tie fields
  together or change values), a setting that transforms values, a field that is not strict,
  or allows extra keys: the table lists such models as guarded (`is_guarded`);
- every union on the way is an optional value that is not None, or a union of models told
  apart by a tag (a `discriminator`, or a `const` field in every member) whose chosen member
  is the model the encoding names: the same tag picks the same member, and a changed tag is
  not a valid value of the member's `const`.
Strict models with extra keys forbidden validate each field on its own (`rules.model`: no
cross-field checks there), so with the same keys and container sizes every other constraint
(required and unknown fields, key patterns, list and mapping sizes) holds as it did for
`old`; the result is `encoded` with the changed leaves replaced, and a field's value is the
data's value itself for such leaves (pydantic keeps ints, strings and booleans as they are).

`table_of_models()` builds the table (imports pydantic and the models: call it only where they
are loaded anyway); it is plain JSON data, kept by the caller under the code's fingerprint.
"""

from __future__ import annotations

import json
from functools import lru_cache

#: Keywords a leaf's schema may have for `edited` to check it (anything else: no answer).
LEAF_KEYWORDS = frozenset({"type", "title", "description", "default", "minimum", "maximum", "exclusiveMinimum",
                           "exclusiveMaximum", "minLength", "maxLength", "const", "enum"})
BOUND_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength"})
_TYPES = {bool: "boolean", int: "integer", str: "string"}


class _NoAnswer(Exception):
    """The edit is not one this module can decide."""


@lru_cache(maxsize=1)
def table_of_models() -> dict:
    """The plain constraints of the rule-file models: {"schema": Variant's JSON Schema (by
    alias), "guarded": the models (module.qualname) with validators of their own,
    "aliases": {model: {alias: field name}}}. Built once per process (it depends on the code
    alone); callers read it and never change it."""
    from sorry_rules.rules.model import Variant  # lazy: pydantic and the models (loaded by the caller anyway)
    from sorry_rules.rules.strict import model_classes

    models = model_classes()
    return {"schema": Variant.model_json_schema(by_alias=True),
            "guarded": sorted(name for name, cls in models.items() if is_guarded(cls)),
            "aliases": {name: {info.alias: field for field, info in cls.model_fields.items() if info.alias}
                        for name, cls in models.items()}}


#: Model settings that change values or loosen the types; a model with any of them is guarded.
TRANSFORMS = ("str_strip_whitespace", "str_to_lower", "str_to_upper", "coerce_numbers_to_str", "use_enum_values")


def is_guarded(cls) -> bool:
    """Whether an edit of a value inside pydantic model `cls` must go to pydantic: it has
    validators of its own (decorators, or validator functions in a field's annotation), is not
    strict with extra keys forbidden, sets a value transformation, or has a field that is not strict."""
    config = cls.model_config
    if config.get("strict") is not True or config.get("extra") != "forbid" or any(config.get(t) for t in TRANSFORMS):
        return True
    decorators = cls.__pydantic_decorators__
    if any((decorators.model_validators, decorators.field_validators, decorators.validators,
            decorators.root_validators)):
        return True
    return any(_annotation_has_function(info.annotation) or any(_is_function(m) for m in info.metadata)
               for info in cls.model_fields.values())


def _is_function(metadata) -> bool:
    """A validator function, or a strictness turned off (`Field(strict=False)`, `Strict(False)`)."""
    from pydantic import functional_validators as functions

    return getattr(metadata, "strict", None) is False or isinstance(
        metadata, (functions.AfterValidator, functions.BeforeValidator, functions.PlainValidator, functions.WrapValidator))


def _annotation_has_function(annotation) -> bool:
    from typing import get_args

    metadata = getattr(annotation, "__metadata__", ())
    if any(_is_function(m) or any(_is_function(x) for x in getattr(m, "metadata", ())) for m in metadata):
        return True
    return any(_annotation_has_function(arg) for arg in get_args(annotation))


# ---- deciding an edit ----------------------------------------------------------------------
def _diff(old, new, path: tuple, found: list) -> bool:
    """Whether `new` has the shape of `old` (module docstring); adds (path, old value, new
    value) of each leaf where they differ to `found`."""
    if type(old) is not type(new):
        return False
    if isinstance(old, dict):
        return list(old) == list(new) and all(_diff(old[k], new[k], path + (k,), found) for k in old)
    if isinstance(old, list):
        return len(old) == len(new) and all(_diff(a, b, path + (i,), found) for i, (a, b) in enumerate(zip(old, new)))
    if old == new:
        return True
    if type(old) not in _TYPES:
        return False
    found.append((path, old, new))
    return True


def edited(table, encoded, old, new):
    """The encoding of the variant `new` validates to, or None (module docstring)."""
    leaves: list = []
    if not _diff(old, new, (), leaves):
        return None
    result = json.loads(json.dumps(encoded))  # a copy to change
    try:
        schema = table["schema"]
        for path, before, value in leaves:
            _replace(table, schema, result, path, before, value)
    except (_NoAnswer, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None
    return result


def _replace(table, root: dict, node, path: tuple, before, value) -> None:
    """Put `value` at data path `path` of encoded variant `node` (where the data had
    `before`), checked against `root`."""
    schema = root
    for index, key in enumerate(path):
        schema = _resolve(table, root, schema, node)
        container, slot, schema = _step(table, schema, node, key)
        if index == len(path) - 1:
            if type(container[slot]) is not type(before) or container[slot] != before:
                raise _NoAnswer("the encoding does not hold the data's value")
            _check_leaf(_resolve_ref(root, schema), before, value)
            container[slot] = value
        else:
            node = container[slot]
    if not path:
        raise _NoAnswer("no path")


def _resolve_ref(root: dict, schema: dict) -> dict:
    while "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/") or set(schema) - {"$ref", "title", "description", "default"}:
            raise _NoAnswer(ref)
        schema = root["$defs"][ref[len("#/$defs/"):]]
    return schema


def _resolve(table, root: dict, schema: dict, node) -> dict:
    """The schema `node` (an encoded value) was validated by: references followed, unions
    settled (module docstring); the model it names must not be guarded."""
    schema = _resolve_ref(root, schema)
    members = schema.get("oneOf") or schema.get("anyOf")
    if members:
        schema = _resolve_ref(root, _member(root, schema, members, node))
    if isinstance(node, dict) and "$m" in node:
        if node["$m"] in table["guarded"] or schema.get("title") != node["$m"].rpartition(".")[2]:
            raise _NoAnswer(node["$m"])
    return schema


def _member(root: dict, schema: dict, members: list, node) -> dict:
    others = [m for m in members if m != {"type": "null"}]
    if len(members) == 2 and len(others) == 1 and node is not None:
        return others[0]  # an optional value that is not None
    if not (isinstance(node, dict) and "$m" in node):
        raise _NoAnswer("a union of plain values")
    short = node["$m"].rpartition(".")[2]
    chosen = [m for m in members if m.get("$ref") == f"#/$defs/{short}"]
    if len(chosen) != 1:
        raise _NoAnswer("no member")
    if "discriminator" not in schema:
        for member in members:
            properties = _resolve_ref(root, member).get("properties", {})
            if not any("const" in p for p in properties.values()):
                raise _NoAnswer("an untagged union")
    return chosen[0]


def _step(table, schema: dict, node, key):
    """(container, slot, schema) of the child `key` (a data key or index) of encoded `node`."""
    if isinstance(node, dict) and "$m" in node:
        field = table["aliases"].get(node["$m"], {}).get(key, key)
        if not isinstance(key, str) or key not in schema["properties"] or field not in node["v"]:
            raise _NoAnswer(key)
        return node["v"], field, schema["properties"][key]
    if isinstance(node, dict) and set(node) == {"$d"}:
        pairs = [pair for pair in node["$d"] if pair[0] == key and type(pair[0]) is type(key)]
        child = schema.get("additionalProperties")
        if not isinstance(child, dict):
            patterns = schema.get("patternProperties", {})
            child = next(iter(patterns.values())) if len(patterns) == 1 else None
        if len(pairs) != 1 or not isinstance(child, dict):
            raise _NoAnswer(key)
        return pairs[0], 1, child
    if isinstance(node, list) and isinstance(key, int) and schema.get("type") == "array":
        return node, key, schema["items"]
    raise _NoAnswer(key)


def _check_leaf(schema: dict, old, value) -> None:
    """Raise _NoAnswer unless `value` is valid by leaf schema `schema` (and `old`, the value
    there before, was a plain leaf)."""
    if set(schema) - LEAF_KEYWORDS or type(old) is not type(value) or type(value) not in _TYPES:
        raise _NoAnswer("not a plain leaf")
    if "type" in schema and schema["type"] != _TYPES[type(value)]:
        raise _NoAnswer("type")
    if "const" in schema and not (type(schema["const"]) is type(value) and schema["const"] == value):
        raise _NoAnswer("const")
    if "enum" in schema and not any(type(e) is type(value) and e == value for e in schema["enum"]):
        raise _NoAnswer("enum")
    if "type" not in schema and "const" not in schema and "enum" not in schema:
        raise _NoAnswer("no type")
    bounds = {int: (("minimum", lambda b: value >= b), ("maximum", lambda b: value <= b),
                    ("exclusiveMinimum", lambda b: value > b), ("exclusiveMaximum", lambda b: value < b)),
              str: (("minLength", lambda b: len(value) >= b), ("maxLength", lambda b: len(value) <= b))}
    allowed = bounds.get(type(value), ())
    for keyword in BOUND_KEYWORDS & set(schema):
        if not any(keyword == name and holds(schema[keyword]) for name, holds in allowed):
            raise _NoAnswer(keyword)
