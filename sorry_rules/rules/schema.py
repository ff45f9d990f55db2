"""The JSON Schema (draft 2020-12) of rule files, generated from the pydantic models.

A rule file is either a complete variant or an overlay (a file with `extends:`). An overlay
is merged over its bases (mappings merge key by key, `null` removes a key, anything else
replaces), so it may leave out any field at any depth of a mapping: the schema checks it
against *partial* copies of the models (nothing required, `null` allowed as a value).
A list replaces the list below it whole, so list items are checked in full.

Cross-field rules, the DSL and the whole-game analyses are beyond JSON Schema: editors
check fields and types; `sorry-play validate` checks everything.

Every description is the model's: its docstring, and each field's `Field(description=...)`
(written once there; docs/REFERENCE.md section 1 is made from the same texts).

Contract: `rule_file_schema()` is a pure function of the models;
`schema_text()` is its canonical text (the committed schema/sorry-rules.schema.json).
"""

from __future__ import annotations

import copy
import json

from sorry_rules.rules.model import EXTENDS_DOC, Variant

DRAFT = "https://json-schema.org/draft/2020-12/schema"
TITLE = "sorry-rules rule file"

def _models_schema() -> dict:
    return Variant.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")


def _tidy(node):
    """Make the generated schema say what pydantic enforces: key patterns of mappings go to
    propertyNames; pydantic's auto titles ("Side Length") go."""
    if isinstance(node, dict):
        pattern_props = node.get("patternProperties")
        if isinstance(pattern_props, dict) and len(pattern_props) == 1:
            (pattern, value), = pattern_props.items()
            del node["patternProperties"]
            node.setdefault("propertyNames", {})["pattern"] = pattern
            node["additionalProperties"] = value
        node.pop("discriminator", None)  # OpenAPI keyword; oneOf already decides
        props = node.get("properties")
        if isinstance(props, dict):
            for value in props.values():
                if isinstance(value, dict):
                    value.pop("title", None)
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)
    return node


def _partial(node, in_list: bool = False):
    """The overlay form of a schema node (see the module docstring)."""
    if isinstance(node, list):
        return [_partial(item, in_list) for item in node]
    if not isinstance(node, dict):
        return node
    if in_list:
        return node  # list items are complete
    out = {}
    for key, value in node.items():
        if key == "$ref":
            out[key] = value.replace("#/$defs/", "#/$defs/Partial")
        elif key in ("required", "minProperties"):
            continue
        elif key == "not":
            out[key] = value  # what no file may hold, overlay or not: kept whole
        elif key in ("oneOf", "anyOf", "allOf"):
            out["anyOf" if key == "oneOf" else key] = _partial(value)
        elif key == "properties":
            out[key] = {k: _nullable(_partial(v)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_partial(value))
        else:
            out[key] = value  # `items` too: lists replace, so their items are checked in full
    return out


def _nullable(node: dict) -> dict:
    """A value an overlay may also set to null (null removes the key below)."""
    if node.get("type") == "null" or any(isinstance(o, dict) and o.get("type") == "null" for o in node.get("anyOf", [])):
        return node
    doc = node.get("description")
    inner = {k: v for k, v in node.items() if k != "description"}
    wrapped = {"anyOf": [inner, {"type": "null"}]}
    if doc:
        wrapped["description"] = doc
    return wrapped


def rule_file_schema() -> dict:
    """The schema as a dict (see the module docstring)."""
    generated = _tidy(_models_schema())
    defs = generated.pop("$defs")
    defs["Variant"] = generated
    partial_defs = {f"Partial{name}": _partial(copy.deepcopy(model)) for name, model in defs.items()}
    overlay = copy.deepcopy(partial_defs.pop("PartialVariant"))
    overlay["title"] = "Overlay"
    overlay["description"] = ("A rule file with `extends:`, merged over its bases: any field may be left out, "
                              "mappings merge key by key, null removes a key, other values replace.")
    overlay["properties"] = {"extends": {
        "description": EXTENDS_DOC,
        "anyOf": [{"type": "string", "minLength": 1},
                  {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}],
    }, **overlay["properties"]}
    overlay["required"] = ["extends"]
    variant = defs.pop("Variant")
    return {
        "$schema": DRAFT,
        "title": TITLE,
        "description": ("A sorry-rules rule file (a variant of Sorry!): a complete variant, or an overlay with "
                        "`extends:`. Editors check fields and types; `sorry-play validate` also checks the DSL, "
                        "cross-field rules and whether the game can progress. Regenerate with "
                        "`sorry-play schema > schema/sorry-rules.schema.json`."),
        "type": "object",
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/Overlay"},
        "else": {"$ref": "#/$defs/Variant"},
        "$defs": {"Variant": variant, "Overlay": overlay, **dict(sorted(defs.items())), **dict(sorted(partial_defs.items()))},
    }


def schema_text() -> str:
    return json.dumps(rule_file_schema(), indent=2, ensure_ascii=False) + "\n"
