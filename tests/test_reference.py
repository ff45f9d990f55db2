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


# ---- field descriptions: written once, on the models ------------------------------------------
def _reference_fields():
    """tools/reference_fields.py (a script, not a package module)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("reference_fields", ROOT / "tools" / "reference_fields.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_field_tables_of_the_reference_are_the_models_descriptions():
    """Section 1's `meaning` cells are generated from `Field(description=...)`: after a change
    to a description, run `python tools/reference_fields.py` and commit docs/REFERENCE.md."""
    tool = _reference_fields()
    assert tool.render(REFERENCE) == REFERENCE, "docs/REFERENCE.md is out of date: run python tools/reference_fields.py"
    assert set(tool.models()) == {name for name, _ in _fields(Variant)}
    for cls in tool.models().values():
        for key, text in tool.descriptions(cls).items():
            row = re.search(rf"^\| `{re.escape(key)}` \|.*\| {re.escape(text.replace('|', chr(92) + '|'))} \|", REFERENCE, re.M)
            assert row, f"{cls.__name__}.{key}"


def test_field_table_generator_refuses_tables_that_do_not_match_the_models():
    tool = _reference_fields()
    without_row = REFERENCE.replace("| `safety_length` |", "| `safety_lenght` |", 1)
    without_table = REFERENCE.replace("<!-- fields: Tier -->", "", 1)
    twice = REFERENCE.replace("<!-- fields: Slide -->", "<!-- fields: Board -->", 1)
    for broken, words in [(without_row, "'safety_lenght', which is not a field of Board"),
                          (without_table, "no field table for ['Tier']"), (twice, "a second table")]:
        try:
            tool.render(broken)
        except tool.FieldTableError as error:
            assert words in str(error)
        else:
            raise AssertionError(words)
    missing = "\n".join(line for line in REFERENCE.split("\n") if not line.startswith("| `must_bump` |"))
    try:
        tool.render(missing)
    except tool.FieldTableError as error:
        assert "misses ['must_bump']" in str(error)
    else:
        raise AssertionError("a missing row passed")


def test_field_table_tool_checks_and_rewrites(tmp_path, monkeypatch):
    tool = _reference_fields()
    assert tool.main(["--check"]) == 0
    stale = tmp_path / "REFERENCE.md"
    stale.write_text(REFERENCE.replace("| Fewest players. |", "| fewest players |"), encoding="utf-8")
    monkeypatch.setattr(tool, "REFERENCE", stale)
    assert tool.main(["--check"]) == 1
    assert tool.main([]) == 0
    assert stale.read_text(encoding="utf-8") == REFERENCE
