"""Edits of plain values decided without pydantic (`rules.leafedit`, `rules.loadcache.edited`):
what it answers is what pydantic gives; what it cannot decide (a bound crossed, a type or key
changed, a model with validators, a union it cannot settle) is left to pydantic, which reports
the problems as before; a damaged table or entry is no answer."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from pydantic import ValidationError

from sorry_rules.base.errors import RuleFileError
from sorry_rules.base.resources import variants_dir
from sorry_rules.rules import leafedit, loadcache, model
from sorry_rules.rules.loader import bundled_names, load_variant

from .freshprocess import run_python
from .uncached import load_uncached

BASE = (variants_dir() / "standard.yaml").read_text(encoding="utf-8")
TABLE = leafedit.table_of_models()


def _decided(data, new):
    """leafedit's answer for `new` given the validated `data`: the encoded variant (None: no answer)."""
    variant = model.Variant.model_validate(data)
    return leafedit.edited(TABLE, loadcache.encode(variant), data, new)


def _edits(data) -> list:
    """Edits of plain leaves of `data`, valid or not: (a description, the edited copy)."""
    edits = []

    def put(label, path, value):
        new = copy.deepcopy(data)
        node = new
        for key in path:
            if not (isinstance(node, dict) and key in node or isinstance(node, list) and isinstance(key, int)
                    and key < len(node)):
                return
            parent, node = node, node[key]
        parent[path[-1]] = value
        edits.append((label, new))

    first = next(iter(data.get("deck", {"-": 0})))
    for value in (0, 1, 7, 1000, 1001, -1, True):
        put(f"deck {value}", ("deck", first), value)
    for value in (2, 3, 16, 200, 201):
        put(f"side {value}", ("board", "side_length"), value)
    put("slide", ("board", "slides", 0, "to"), 5)
    for value in ("team", "own", "mine"):
        put(f"control {value}", ("rules", "control"), value)
    put("split", ("rules", "split"), "simultaneous")
    put("must_bump", ("rules", "must_bump"), True)
    put("must_bump int", ("rules", "must_bump"), 1)
    put("pawns", ("pawns",), 3)
    put("name", ("name",), "x" * 81)
    put("name ok", ("name",), "renamed")
    put("card", ("cards", next(iter(data.get("cards", {"-": 0})))), "forward 9")
    put("win", ("win",), "home(team) == 3")
    put("first", ("turn", "first"), "first_seat")
    put("hand", ("turn", "hand_size"), 3)
    put("source", ("turn", "source"), "hand")
    put("kind", ("board", "kind"), "grid")
    put("colour", ("colours", 0), "purple")
    for name in data.get("filters", {}):
        put("filter", ("filters", name, "label"), "changed")
    for name in data.get("scoring", {}):
        put("score", ("scoring", name, "label"), "changed")
    return edits


CASES = [name for name in bundled_names()]


@pytest.mark.parametrize("spec", CASES)
def test_every_answer_is_what_pydantic_gives(spec):
    data = load_uncached(spec).data
    answered = 0
    for label, new in _edits(data):
        decided = _decided(data, new)
        try:
            expected = model.Variant.model_validate(new)
        except ValidationError:
            assert decided is None, label  # invalid: left to pydantic, which reports it
            continue
        if decided is not None:
            assert decided == loadcache.encode(expected), label
            answered += 1
    assert answered > 0


def test_what_it_leaves_to_pydantic():
    data = load_uncached("standard").data
    same = copy.deepcopy(data)
    assert _decided(data, same) == loadcache.encode(model.Variant.model_validate(data))  # nothing changed
    for change in (lambda d: d.update(pawns="4"),               # a type
                   lambda d: d.update(unused_effects=[]),        # a key added
                   lambda d: d["board"]["slides"].pop(),         # a list's length
                   lambda d: d["deck"].update({"12": 4.0}),      # a float
                   lambda d: d.update(colours=list(reversed(d["colours"]))) or d["colours"].append("x")):
        new = copy.deepcopy(data)
        change(new)
        assert _decided(data, new) is None
    reordered = copy.deepcopy(data)
    reordered["deck"] = dict(reversed(list(data["deck"].items())))
    assert _decided(data, reordered) is None  # the order of a mapping is data


def test_models_that_are_not_plainly_strict_are_guarded():
    from typing import Annotated

    from pydantic import AfterValidator, BaseModel, ConfigDict, Field

    class Loose(BaseModel):
        x: int = 0

    class Stripping(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid", str_strip_whitespace=True)
        x: str = ""

    class Checked(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        x: dict[str, Annotated[int, AfterValidator(abs)]] = Field(default_factory=dict)

    class NotStrictField(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        x: int = Field(default=0, strict=False)

    class Plain(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        x: dict[str, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)

    assert all(leafedit.is_guarded(cls) for cls in (Loose, Stripping, Checked, NotStrictField))
    assert not leafedit.is_guarded(Plain) and not leafedit.is_guarded(model.Board)


def test_models_with_validators_are_guarded():
    assert "sorry_rules.rules.vocab.MoveFilter" in TABLE["guarded"]
    assert "sorry_rules.rules.model.Variant" not in TABLE["guarded"]
    overlays = [n for n in bundled_names() if "filters" in load_uncached(n).data]
    assert overlays
    data = load_uncached(overlays[0]).data
    name = next(iter(data["filters"]))
    field = "must" if "must" in data["filters"][name] else "prefer"
    new = copy.deepcopy(data)
    new["filters"][name][field] = "true"
    assert _decided(data, new) is None  # a field of MoveFilter, whose validator ties must and prefer


def test_an_edit_is_loaded_without_pydantic_and_equals_validation(cache, tmp_path, monkeypatch):
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    load_variant(str(path))  # validated with pydantic: the variant and the models' table kept
    assert len(sorted(cache.glob(f"{loadcache.TABLE_KIND}-*.json"))) == 1
    for n, text in enumerate((BASE.replace('"12": 4', '"12": 6'), BASE.replace("pawns: 4", "pawns: 3"),
                              BASE.replace("forward 3 ", "forward 4 "))):
        assert text != BASE
        path.write_text(text, encoding="utf-8")
        fresh = load_uncached(str(path))
        with monkeypatch.context() as patch:
            patch.setattr(model.Variant, "model_validate", _refuse)
            edited = load_variant(str(path))
        assert edited.variant == fresh.variant and edited.data == fresh.data
        assert edited.content_hash == fresh.content_hash and edited.files == fresh.files
    path.write_text(BASE.replace('"12": 4', '"12": 1001'), encoding="utf-8")  # out of bounds: pydantic reports it
    with pytest.raises(RuleFileError) as caught:
        load_variant(str(path))
    with pytest.raises(RuleFileError) as expected:
        load_uncached(str(path))
    assert caught.value.problems == expected.value.problems


def _refuse(*args, **kwargs):
    raise AssertionError("validated with pydantic")


def test_a_damaged_table_or_entry_is_no_answer(cache, tmp_path, monkeypatch):
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    load_variant(str(path))
    [table] = sorted(cache.glob(f"{loadcache.TABLE_KIND}-*.json"))
    [entry] = sorted(cache.glob(f"{loadcache.KIND}-*.json"))
    kept_table, kept_entry = table.read_text(encoding="utf-8"), entry.read_text(encoding="utf-8")
    stored = json.loads(kept_table)
    payload = json.loads(stored["payload"])
    payload["schema"]["$defs"]["Board"]["properties"]["side_length"]["maximum"] = 10_000
    forged = json.dumps(payload, separators=(",", ":"))
    damages = [(table, "{not json"), (table, json.dumps(dict(stored, payload=forged))),  # its checksum fails
               (table, json.dumps(dict(stored, payload='{"schema": {}}', checksum=hashlib.sha256(b'{"schema": {}}').hexdigest()))),
               (entry, "[]")]
    for n, (file, damage) in enumerate(damages):
        file.write_text(damage, encoding="utf-8")
        path.write_text(BASE.replace("side_length: 15", f"side_length: {300 + n}"), encoding="utf-8")
        with pytest.raises(RuleFileError) as caught:  # a size over the models' bound: pydantic still says so
            load_variant(str(path))
        assert any(p.code == "SR204" for p in caught.value.problems)
        table.write_text(kept_table, encoding="utf-8")
        entry.write_text(kept_entry, encoding="utf-8")
    path.write_text(BASE.replace("side_length: 15", "side_length: 16"), encoding="utf-8")
    with monkeypatch.context() as patch:
        patch.setattr(model.Variant, "model_validate", _refuse)
        assert load_variant(str(path)).variant.board.side_length == 16  # restored: decided again


def test_an_edited_number_compiles_without_pydantic_or_lark(tmp_path):
    """In fresh processes: after a number of the rule file changed, load_game reads it again
    (YAML) but imports neither pydantic nor lark; the moves follow the edit."""
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    script = ("import sys\n"
              "from sorry_rules.compiler.build import load_game\n"
              f"game = load_game({str(path)!r})\n"
              "print(len(game.deck), sorted(m for m in ('pydantic', 'lark', 'yaml') if m in sys.modules))\n")
    runs = []
    for n in range(3):
        runs.append(run_python(script, tmp_path / "cache").strip())
        path.write_text(BASE.replace('"12": 4', f'"12": {5 + n}'), encoding="utf-8")
    cold, edited, again = runs
    assert "'pydantic'" in cold and "'lark'" in cold
    assert edited == "46 ['yaml']" and again == "47 ['yaml']"
