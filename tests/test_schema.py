"""`sorry-play schema`: the JSON Schema of rule files, its committed copy in schema/, and the
yaml-language-server line every bundled variant begins with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from sorry_rules.cli.app import main
from sorry_rules.rules.loader import bundled_names
from sorry_rules.base.resources import variants_dir
from sorry_rules.rules.schema import rule_file_schema, schema_text
from sorry_rules.rules.yamlsafe import load_yaml, load_yaml_file

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "schema" / "sorry-rules.schema.json"
BROKEN = Path(__file__).parent / "broken"
HEADER = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


@pytest.fixture(scope="module")
def validator():
    schema = rule_file_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_committed_schema_is_current():
    assert COMMITTED.is_file(), "schema/sorry-rules.schema.json is missing: run `sorry-play schema > schema/sorry-rules.schema.json`"
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), (
        "schema/sorry-rules.schema.json is out of date with the models: "
        "regenerate it with `sorry-play schema > schema/sorry-rules.schema.json` and commit it")


def test_schema_command_prints_the_schema():
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert result.stdout == schema_text()
    data = json.loads(result.stdout)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert data["title"] and data["description"]


def test_every_field_has_a_description_and_models_keep_their_docstrings():
    from sorry_rules.rules import model

    defs = rule_file_schema()["$defs"]
    for name, definition in defs.items():
        assert definition.get("description"), name
        for field, spec in definition.get("properties", {}).items():
            assert spec.get("description"), f"{name}.{field} has no description (add Field(description=...) in rules/model.py)"
    for name in ("Board", "Rules", "Slide", "Setup", "HandTurn", "DrawTurn", "TierScore", "FormulaScore"):
        doc = " ".join(getattr(model, name).__doc__.split())
        assert " ".join(defs[name]["description"].split()) == doc


def test_field_descriptions_are_written_once_on_the_models():
    """The schema's field descriptions are the models' `Field(description=...)` texts, word for
    word (pydantic leaves out a field description equal to its model's docstring: keep them
    different), and `extends` has the loader's text."""
    from sorry_rules.rules import model

    defs = rule_file_schema()["$defs"]
    checked = 0
    for name, definition in defs.items():
        cls = getattr(model, name, None)
        if cls is None:
            continue  # Overlay and the Partial copies
        fields = {info.alias or key: info for key, info in cls.model_fields.items()}
        assert set(definition["properties"]) == set(fields), name
        for key, info in fields.items():
            assert info.description, f"{name}.{key}"
            assert definition["properties"][key]["description"] == info.description, f"{name}.{key}"
            checked += 1
    assert checked > 40
    assert defs["Overlay"]["properties"]["extends"]["description"] == model.EXTENDS_DOC
    assert defs["PartialBoard"]["properties"]["slides"]["description"] == model.Board.model_fields["slides"].description


def test_every_bundled_variant_validates_and_starts_with_the_schema_line(validator):
    for name in bundled_names():
        path = variants_dir() / name
        text = path.read_text(encoding="utf-8")
        match = HEADER.match(text)
        assert match, f"{name} must begin with '# yaml-language-server: $schema=...'"
        assert (path.parent / match.group(1)).resolve() == COMMITTED, f"{name}: the schema path does not lead to {COMMITTED}"
        data, _ = load_yaml_file(path)
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], name


def _errors(validator, text):
    data, _ = load_yaml(text, "t.yaml")
    return [e.message for e in validator.iter_errors(data)]


def test_overlays_need_no_required_field_and_may_remove_keys(validator):
    """An overlay (with extends:) leaves out what its base gives; null removes a key."""
    assert _errors(validator, "extends: standard\ncards:\n  sorry: sorry opponent | forward 4\n") == []
    assert _errors(validator, "extends: [standard]\nboard: {slides: [{from: 1, to: 4}]}\ndeck: {'2': null}\ncards: {'2': null}\n") == []
    assert _errors(validator, "extends: standard\nturn: {source: hand, hand_size: 5}\nrules: {must_bump: true}\n") == []


def test_overlays_still_get_field_and_type_checks(validator):
    assert _errors(validator, "extends: standard\nboard: {slide: []}\n")
    assert _errors(validator, "extends: standard\npawns: '3'\n")
    assert _errors(validator, "extends: standard\nboard: {slides: [{from: 1}]}\n"), "list items are complete"
    assert _errors(validator, "extends: 5\n")


def test_a_full_variant_without_extends_needs_every_required_field(validator):
    errors = _errors(validator, "name: x\ncolours: [a, b]\n")
    assert "'players' is a required property" in errors and "'win' is a required property" in errors


def test_schema_agrees_with_validate_on_the_broken_corpus(validator):
    """Broken files with a schema problem (SR2xx, and SR516: `uniqueItems`) fail the JSON
    Schema too; files whose only problems are beyond a schema (DSL, cross-field, analyses)
    pass it."""
    checked = 0
    for expected in sorted(BROKEN.glob("*.expected")):
        codes = {line.rsplit("[", 1)[1].rstrip("]") for line in expected.read_text(encoding="utf-8").splitlines()}
        if any(code.startswith(("SR1", "SR4")) for code in codes):
            continue  # not YAML this schema can read, or a base it cannot see
        data, _ = load_yaml_file(expected.with_suffix(".yaml"))
        invalid = bool(list(validator.iter_errors(data)))
        # SR516 (a word listed twice) is the JSON Schema's `uniqueItems`: the models leave it to the cross-field checks
        if any(code in ("SR201", "SR202", "SR203", "SR204", "SR516") for code in codes):
            assert invalid, expected.name
        else:
            assert not invalid, expected.name
        checked += 1
    assert checked >= 20
