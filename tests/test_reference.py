"""docs/REFERENCE.md documents every rule-file field and every DSL construct: a field added
to the pydantic models or a keyword added to the grammar without a line in the reference
fails here."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from pydantic import BaseModel

from sorry_rules.compiler import programs
from sorry_rules.rules.model import Variant
from sorry_rules.base.resources import grammar_text

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "REFERENCE.md").read_text(encoding="utf-8")


def _code_text(markdown: str) -> str:
    """Everything inside `code spans` and fenced blocks."""
    fenced = re.findall(r"```.*?```", markdown, flags=re.S)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", markdown, flags=re.S))
    return "\n".join(fenced + spans).replace("\\|", "|")


CODE = _code_text(REFERENCE)


def _models(annotation):
    """The pydantic models inside a field's type (lists, dicts, unions, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from _models(arg)


def _fields(model, seen=None):
    """(model name, field key as written in YAML) for every field, recursively."""
    seen = set() if seen is None else seen
    if model in seen:
        return
    seen.add(model)
    for name, info in model.model_fields.items():
        yield model.__name__, info.alias or name
        for sub in _models(info.annotation):
            yield from _fields(sub, seen)


def test_every_rule_file_field_is_documented():
    fields = sorted(set(_fields(Variant)))
    assert len(fields) > 40  # the walk reaches the nested models
    missing = [f"{model}.{key}" for model, key in fields if f"`{key}`" not in REFERENCE]
    assert not missing, f"fields not in docs/REFERENCE.md: {missing}"
    assert "`extends`" in REFERENCE  # the one key the loader (not the model) reads


def test_every_field_of_the_json_schema_is_documented():
    """The same check through the published JSON schema (what editors validate against)."""
    schema = Variant.model_json_schema()
    names = set(schema["properties"])
    for definition in schema["$defs"].values():
        names |= set(definition.get("properties", {}))
    missing = sorted(n for n in names if f"`{n}`" not in REFERENCE)
    assert not missing, missing


def test_every_dsl_keyword_and_operator_is_documented():
    literals = set(re.findall(r'"([^"\s]+)"', grammar_text()))
    words = sorted(w for w in literals if re.fullmatch(r"[a-z_]+", w))
    assert {"enter", "forward", "split", "among", "any", "sorry", "then", "if", "can", "count"} <= set(words)
    missing = [w for w in words if not re.search(rf"(?<![a-z_]){w}(?![a-z_])", CODE)]
    assert not missing, f"DSL keywords not in docs/REFERENCE.md: {missing}"
    operators = sorted(w for w in literals if not re.fullmatch(r"[a-z_]+", w))
    for op in ["==", "!=", "<=", ">=", "<", ">", "+", "-"]:
        operators.append(op)
    missing = [op for op in operators if op not in CODE]
    assert not missing, f"DSL operators not in docs/REFERENCE.md: {missing}"


def test_every_group_count_and_relation_is_documented():
    names = list(programs.GROUPS) + list(programs.COUNTS) + ["own", "partner", "opponent", "other"]
    missing = [n for n in names if f"`{n}`" not in REFERENCE and f"`{n}(G)`" not in REFERENCE]
    assert not missing, missing


def test_every_bundled_overlay_is_listed():
    from sorry_rules.rules.loader import bundled_names

    missing = [n for n in bundled_names() if "/" in n and f"`{n}`" not in REFERENCE]
    assert not missing, missing
