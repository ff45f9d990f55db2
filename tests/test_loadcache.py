"""Validated rule files from the cache (`rules.loadcache`): a hit gives a variant equal to a
freshly validated one, whose problems are still located in the files; a changed variant,
overlay, base or lookup, other code, or a damaged entry is read and validated afresh."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sorry_rules.base import diskcache
from sorry_rules.base.errors import RuleFileError
from sorry_rules.base.resources import CACHE_ENV, variants_dir
from sorry_rules.compiler.build import compile_variant
from sorry_rules.rules import loadcache, loader
from sorry_rules.rules.loader import bundled_names, load_variant
from sorry_rules.rules.yamlsafe import load_yaml

TESTS = Path(__file__).parent
BASE = (variants_dir() / "standard.yaml").read_text(encoding="utf-8")
OVERLAYS = [name for name in bundled_names() if name.startswith(("house/", "options/"))]
CASES = ([(name, ()) for name in bundled_names() if name not in OVERLAYS]
         + [("standard", (name,)) for name in OVERLAYS]
         + [(str(path), ()) for path in sorted((TESTS / "rules").glob("*.yaml"))])


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def _fresh(spec, rules=()):
    """The variant loaded with no cache at all (read, merged and validated)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, "off")
        return load_variant(spec, rules)


def _no_reading(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the files were read again")
    monkeypatch.setattr(loader, "read_merged", refuse)


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s}+{'+'.join(r)}" for s, r in CASES])
def test_a_hit_is_the_variant_validation_gives(cache, monkeypatch, spec, rules):
    fresh = _fresh(spec, rules)
    first = load_variant(spec, rules)
    assert first.variant == fresh.variant
    _no_reading(monkeypatch)
    hit = load_variant(spec, rules)
    assert hit.variant == fresh.variant
    assert hit.data == fresh.data and hit.content_hash == fresh.content_hash and hit.files == fresh.files
    assert repr(hit.variant) == repr(fresh.variant)
    game, warnings = compile_variant(hit)
    assert game.content_hash == fresh.content_hash


def test_the_source_map_of_a_hit_is_read_on_first_use(cache, tmp_path):
    """A problem found after loading (here by the compiler) is located in the file as on a
    fresh load: the cached variant reads its source map again when asked."""
    path = tmp_path / "two-teams.yaml"
    path.write_text(BASE.replace("colours: [red, blue, yellow, green]",
                                 "colours: [red, blue, yellow, green]\nteams: [[red, yellow], [red, blue]]"), encoding="utf-8")
    with pytest.raises(RuleFileError) as cold:
        compile_variant(_fresh(str(path)))
    load_variant(str(path))
    hit = load_variant(str(path))
    assert isinstance(hit.origins, loadcache.LazyOrigins)
    with pytest.raises(RuleFileError) as warm:
        compile_variant(hit)
    assert warm.value.problems == cold.value.problems
    assert all(p.file.endswith("two-teams.yaml") and p.line > 1 for p in warm.value.problems)


def _pair(folder: Path) -> tuple[Path, Path]:
    base, overlay = folder / "base.yaml", folder / "overlay.yaml"
    base.write_text(BASE, encoding="utf-8")
    overlay.write_text("extends: base.yaml\nname: overlay\n", encoding="utf-8")
    return base, overlay


def test_a_changed_file_base_or_overlay_is_validated_again(cache, tmp_path):
    base, overlay = _pair(tmp_path)
    house = tmp_path / "house.yaml"
    house.write_text("pawns: 3\n", encoding="utf-8")
    assert load_variant(str(overlay), (str(house),)).variant.pawns == 3
    house.write_text("pawns: 2\n", encoding="utf-8")
    assert load_variant(str(overlay), (str(house),)).variant.pawns == 2
    base.write_text(BASE.replace("pawns: 4", "pawns: 5"), encoding="utf-8")
    assert load_variant(str(overlay)).variant.pawns == 5
    overlay.write_text("extends: base.yaml\nname: overlay\npawns: 0\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as error:
        load_variant(str(overlay))
    assert any(p.file.endswith("overlay.yaml") and p.line == 3 for p in error.value.problems)


def test_an_extends_name_that_now_finds_another_file_is_validated_again(cache, tmp_path):
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("extends: standard\nname: overlay\n", encoding="utf-8")
    assert load_variant(str(overlay)).variant.pawns == 4
    (tmp_path / "standard").write_text(BASE.replace("pawns: 4", "pawns: 3"), encoding="utf-8")
    assert load_variant(str(overlay)).variant.pawns == 3


def test_a_damaged_or_foreign_entry_is_ignored_and_rewritten(cache, tmp_path, monkeypatch):
    _, overlay = _pair(tmp_path)
    expected = _fresh(str(overlay))
    load_variant(str(overlay))
    [entry] = sorted(cache.glob(f"{loadcache.KIND}-*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    tampered = dict(stored, payload=stored["payload"].replace('"pawns"', '"pawnz"'))
    unknown_model = dict(stored, payload=stored["payload"].replace("sorry_rules.rules.model.Board", "os.system"))
    for damage in (json.dumps(tampered), "{not json", "", json.dumps(dict(stored, key="0" * 64)), "[]"):
        entry.write_text(damage, encoding="utf-8")
        assert load_variant(str(overlay)).variant == expected.variant
        assert json.loads(entry.read_text(encoding="utf-8")) == stored
    # a well-formed entry naming something that is not a rule-file model is not decoded
    payload = unknown_model["payload"]
    entry.write_text(json.dumps(dict(unknown_model, checksum=hashlib.sha256(payload.encode()).hexdigest())), encoding="utf-8")
    assert load_variant(str(overlay)).variant == expected.variant


def test_other_code_does_not_reuse_a_variant(cache, tmp_path, monkeypatch):
    _, overlay = _pair(tmp_path)
    load_variant(str(overlay))
    monkeypatch.setattr(diskcache, "code_fingerprint", lambda: "another version of the code")
    read = []
    real = loader.read_merged
    monkeypatch.setattr(loader, "read_merged", lambda *a, **k: read.append(a) or real(*a, **k))
    load_variant(str(overlay))
    assert read


def test_in_memory_layers_are_never_cached(cache, tmp_path):
    data, smap = load_yaml("pawns: 2\n", "<layer>")
    assert load_variant("standard", (), ((data, smap),)).variant.pawns == 2
    assert not list(cache.glob(f"{loadcache.KIND}-*.json"))
    assert load_variant("standard").variant.pawns == 4


def test_values_are_kept_exactly():
    models = {"x": None}
    for value in ({"a": [1, (2, "3")], 4: None}, [True, 1.5, "é"], (), {}):
        assert loadcache.decode(json.loads(json.dumps(loadcache.encode(value))), models) == value
    with pytest.raises(TypeError):
        loadcache.encode({1, 2})


# ---- the DSL trees of a compiled variant (compiler.astcache) ----------------------------------
def test_every_bundled_dsl_tree_is_kept_exactly():
    """Every DSL text of every bundled variant and test rule file: the kept tree is the parsed one."""
    from sorry_rules import dsl
    from sorry_rules.compiler import astcache
    from sorry_rules.compiler.build import dsl_texts

    count = 0
    for spec, rules in CASES:
        variant = _fresh(spec, rules).variant
        if variant.board.kind == "grid":
            continue
        for _, text, kind in dsl_texts(variant):
            tree = dsl.parse_effect(text) if kind == "effect" else dsl.parse_expr(text)
            assert astcache.decode(json.loads(json.dumps(astcache.encode(tree)))) == tree
            count += 1
    assert count > 100


def test_a_damaged_tree_entry_is_ignored(cache):
    from sorry_rules.compiler import astcache
    from sorry_rules.compiler.build import load_game

    load_game("standard")
    [entry] = sorted(cache.glob(f"{astcache.KIND}-*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    payload = stored["payload"].replace('"Forward"', '"Exec"')
    entry.write_text(json.dumps(dict(stored, payload=payload, checksum=hashlib.sha256(payload.encode()).hexdigest())),
                     encoding="utf-8")
    loaded = load_variant("standard")
    assert not astcache.preload(loaded.files, loaded.content_hash)
    for damage in ("{not json", json.dumps(dict(stored, payload=payload))):
        entry.write_text(damage, encoding="utf-8")
        assert not astcache.preload(loaded.files, loaded.content_hash)
    entry.write_text(json.dumps(stored), encoding="utf-8")
    assert astcache.preload(loaded.files, loaded.content_hash)
    assert not astcache.preload(loaded.files, "0" * 64)  # the same files with other contents
    with pytest.raises((TypeError, KeyError, ValueError)):
        astcache.decode({"$n": "DslError", "f": [0, "x"]})


def test_a_variant_loaded_again_is_compiled_without_lark(tmp_path):
    """In a fresh process, with the caches filled by an earlier one: the rule file is not
    validated again and no DSL text is parsed (lark is never imported); the moves are the same."""
    import os
    import subprocess
    import sys

    script = ("import sys\n"
              "from sorry_rules.compiler.build import load_game\n"
              "game = load_game('standard')\n"
              "state = game.position(((60, 12, 72, 77), (16, 61, 62, 63), (64, 65, 66, 67), (68, 69, 70, 71)),"
              " (0, 1, 2, 3), 0, card=game.card_index['7'])\n"
              "print(len(game.legal_moves(state)), 'lark' in sys.modules)\n")
    env = dict(os.environ, **{CACHE_ENV: str(tmp_path / "cache")})
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    moves_cold, lark_cold = runs[0].split()
    moves_warm, lark_warm = runs[1].split()
    assert (lark_cold, lark_warm) == ("True", "False")
    assert moves_cold == moves_warm and int(moves_cold) > 0


def test_rule_file_text_stays_data(cache, tmp_path):
    """Strings shaped like the cache's own tags, or like code, come back as the same strings."""
    hostile = '{"$m": "os.system", "v": {}, "s": []}'
    path = tmp_path / "hostile.yaml"
    text = BASE.replace("name: standard", f"name: '{hostile}'", 1)
    text = text.replace("description: Standard Sorry!", "description: __import__(\"os\") Standard Sorry!", 1)
    path.write_text(text, encoding="utf-8")
    fresh = _fresh(str(path))
    load_variant(str(path))
    hit = load_variant(str(path))
    assert hit.variant == fresh.variant and hit.data == fresh.data
    assert hit.variant.name == hostile and hit.variant.description.startswith('__import__("os")')
