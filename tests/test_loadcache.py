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
from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler.build import compile_variant
from sorry_rules.rules import loadcache, loader
from sorry_rules.rules.loader import bundled_names, load_variant
from sorry_rules.rules.yamlsafe import load_yaml

from .freshprocess import run_python
from .uncached import load_uncached

TESTS = Path(__file__).parent
BASE = (variants_dir() / "standard.yaml").read_text(encoding="utf-8")
OVERLAYS = [name for name in bundled_names() if name.startswith(("house/", "options/"))]
#: each overlay on the game it extends (`--rule` brings only its own changes: REFERENCE.md, "Overlays")
CASES = ([(name, ()) for name in bundled_names() if name not in OVERLAYS]
         + [(load_yaml((variants_dir() / name).read_bytes(), name)[0]["extends"], (name,)) for name in OVERLAYS]
         + [(str(path), ()) for path in sorted((TESTS / "rules").glob("*.yaml"))])


def _no_reading(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the files were read again")
    monkeypatch.setattr(loader, "read_merged", refuse)


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s}+{'+'.join(r)}" for s, r in CASES])
def test_a_hit_is_the_variant_validation_gives(cache, monkeypatch, spec, rules):
    fresh = load_uncached(spec, rules)
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
        compile_variant(load_uncached(str(path)))
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
    expected = load_uncached(str(overlay))
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
        variant = load_uncached(spec, rules).variant
        if variant.board.kind == "grid":
            continue
        for _, text, kind in dsl_texts(variant):
            tree = dsl.parse_effect(text) if kind in ("effect", "following") else dsl.parse_expr(text)
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

    script = ("import sys\n"
              "from sorry_rules.compiler.build import load_game\n"
              "game = load_game('standard')\n"
              "state = game.position(((60, 12, 72, 77), (16, 61, 62, 63), (64, 65, 66, 67), (68, 69, 70, 71)),"
              " (0, 1, 2, 3), 0, card=game.card_index['7'])\n"
              "print(len(game.legal_moves(state)), 'lark' in sys.modules)\n")
    runs = [run_python(script, tmp_path / "cache") for _ in range(2)]
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
    fresh = load_uncached(str(path))
    load_variant(str(path))
    hit = load_variant(str(path))
    assert hit.variant == fresh.variant and hit.data == fresh.data
    assert hit.variant.name == hostile and hit.variant.description.startswith('__import__("os")')


# ---- plain values for the compiler (rules.plain, rules.loaded.cached_variant) -------------------
def _games_played(game) -> list:
    from sorry_rules.players.protocol import RandomPlayer
    from sorry_rules.players.runner import play_game

    players = max(game.players_min, min(4, game.players_max))
    return [play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)],
                      max_plies=400) for seed in (1, 2)]


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s}+{'+'.join(r)}" for s, r in CASES])
def test_a_plain_hit_compiles_to_the_same_game(cache, monkeypatch, spec, rules):
    """The cached variant as plain values (no pydantic) has the models' fields and values,
    and compiles to a game that plays the same as the validated models' game."""
    from sorry_rules.rules.loaded import cached_variant
    from sorry_rules.rules.plain import PlainModel

    assert cached_variant(spec, rules) is None  # nothing stored yet
    try:
        fresh = load_variant(spec, rules)
    except RuleFileError:
        return  # a broken test rule file: never stored
    _no_reading(monkeypatch)
    plain = cached_variant(spec, rules)
    assert isinstance(plain.variant, PlainModel) and type(plain.variant).__name__ == "Variant"
    assert plain.data == fresh.data and plain.content_hash == fresh.content_hash and plain.files == fresh.files

    def same(value, model):
        if isinstance(model, _model_classes()["sorry_rules.rules.strict.Strict"]):
            assert type(value).__name__ == type(model).__name__
            assert set(vars(value)) == set(type(model).model_fields)
            for name in type(model).model_fields:
                same(getattr(value, name), getattr(model, name))
        elif isinstance(model, (list, tuple)):
            assert type(value) is type(model) and len(value) == len(model)
            for v, m in zip(value, model):
                same(v, m)
        elif isinstance(model, dict):
            assert type(value) is dict and list(value) == list(model)
            for key in model:
                same(value[key], model[key])
        else:
            assert type(value) is type(model) and value == model
    same(plain.variant, fresh.variant)
    try:
        expected, warnings = compile_variant(fresh)
    except RuleFileError as error:
        with pytest.raises(RuleFileError) as again:
            compile_variant(plain)
        assert again.value.problems == error.value.problems
        return
    game, plain_warnings = compile_variant(plain)
    assert plain_warnings == warnings
    assert (game.card_names, game.deck, game.content_hash) == (expected.card_names, expected.deck, expected.content_hash)
    assert _games_played(game) == _games_played(expected)


def _model_classes() -> dict:
    return {f"{cls.__module__}.{cls.__qualname__}": cls for cls in _strict_models()}


def _strict_models() -> list:
    from sorry_rules.rules import model  # noqa: F401 (every rule-file model is defined once this is imported)
    from sorry_rules.rules.strict import Strict

    found, pending = [], [Strict]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def test_plain_models_are_the_rule_file_models():
    """rules.plain names exactly the rule-file models; a plain value is frozen, compares by
    model and values, and no other name is built."""
    from sorry_rules.rules.plain import MODELS, plain_class

    assert MODELS == set(_model_classes())
    slide = plain_class("sorry_rules.rules.model.Slide")({"from_": 1, "to": 4})
    assert slide == plain_class("sorry_rules.rules.model.Slide")({"from_": 1, "to": 4}) != (1, 4)
    assert slide != plain_class("sorry_rules.rules.model.Tier")({"from_": 1, "to": 4})
    assert hash(slide) == hash(plain_class("sorry_rules.rules.model.Slide")({"from_": 1, "to": 4}))
    with pytest.raises(AttributeError):
        slide.to = 5
    assert not hasattr(slide, "model_fields") and slide.from_ == 1
    for name in ("os.system", "builtins.object", "sorry_rules.rules.model.Other"):
        with pytest.raises(KeyError):
            plain_class(name)


def test_a_damaged_entry_is_no_plain_hit(cache, tmp_path):
    """The light path ignores what the model path ignores, and a model name outside the
    rule-file models, even in an entry with a right checksum."""
    from sorry_rules.rules.loaded import cached_variant

    _, overlay = _pair(tmp_path)
    load_variant(str(overlay))
    assert cached_variant(str(overlay)) is not None
    [entry] = sorted(cache.glob(f"{loadcache.KIND}-*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    for name in ("os.system", "sorry_rules.rules.model.Nothing"):
        payload = stored["payload"].replace("sorry_rules.rules.model.Board", name)
        forged = dict(stored, payload=payload, checksum=hashlib.sha256(payload.encode()).hexdigest())
        entry.write_text(json.dumps(forged), encoding="utf-8")
        assert cached_variant(str(overlay)) is None
    tampered = dict(stored, payload=stored["payload"].replace('"pawns"', '"pawnz"'))
    for damage in (json.dumps(tampered), "{not json", "", "[]"):
        entry.write_text(damage, encoding="utf-8")
        assert cached_variant(str(overlay)) is None
    entry.write_text(json.dumps(stored), encoding="utf-8")
    assert cached_variant(str(overlay)).variant.name == "overlay"
    (tmp_path / "base.yaml").write_text(BASE.replace("pawns: 4", "pawns: 3"), encoding="utf-8")
    assert cached_variant(str(overlay)) is None  # a changed base


# ---- merged data validated before (loadcache.validated) ----------------------------------------
def _no_validation(monkeypatch) -> None:
    from sorry_rules.rules import model

    def refuse(*args, **kwargs):
        raise AssertionError("validated again")
    monkeypatch.setattr(model.Variant, "model_validate", refuse)


def test_files_that_merge_to_data_validated_before_are_not_validated_again(cache, tmp_path, monkeypatch):
    """A comment or the layout edited: the files are read again, the data is not validated
    again; the variant is the validated one, its problems located in the edited file."""
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    fresh = load_uncached(str(path))
    load_variant(str(path))
    assert len(sorted(cache.glob(f"{loadcache.DATA_KIND}-*.json"))) == 1
    _no_validation(monkeypatch)
    path.write_text("# a comment\n\n" + BASE.replace("pawns: 4", "pawns:   4  # four"), encoding="utf-8")
    again = load_variant(str(path))
    assert again.variant == fresh.variant and again.data == fresh.data and again.content_hash == fresh.content_hash
    assert not isinstance(again.origins, loadcache.LazyOrigins)  # read just now
    assert again.origins.mark(("pawns",)).line == fresh.origins.mark(("pawns",)).line + 2
    from sorry_rules.rules.loaded import cached_variant
    from sorry_rules.rules.plain import PlainModel

    assert isinstance(cached_variant(str(path)).variant, PlainModel)  # and kept for the next run
    path.write_text(BASE.replace("pawns: 4", "pawns: '3'"), encoding="utf-8")  # an edit `rules.leafedit` leaves alone
    with pytest.raises(AssertionError, match="validated again"):
        load_variant(str(path))


def test_the_order_of_the_data_is_part_of_it(cache, tmp_path, monkeypatch):
    """The same fields in another order (here the deck's cards) are other data: the card
    order of the game follows the file."""
    from sorry_rules.compiler.build import load_game

    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    first = load_game(str(path)).card_names
    reordered = BASE.replace('  "1": 5\n  "2": 4\n', '  "2": 4\n  "1": 5\n')
    assert reordered != BASE
    path.write_text(reordered, encoding="utf-8")
    second = load_game(str(path)).card_names
    assert list(second[:2]) == [first[1], first[0]] and second[2:] == first[2:]
    assert len(sorted(cache.glob(f"{loadcache.DATA_KIND}-*.json"))) == 2


def test_a_damaged_data_entry_is_validated_again(cache, tmp_path, monkeypatch):
    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    expected = load_uncached(str(path)).variant
    load_variant(str(path))
    [entry] = sorted(cache.glob(f"{loadcache.DATA_KIND}-*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    payload = stored["payload"].replace("sorry_rules.rules.model.Board", "os.system")
    forged = dict(stored, payload=payload, checksum=hashlib.sha256(payload.encode()).hexdigest())
    for n, damage in enumerate((json.dumps(forged), "{not json", "", "[]",
                                json.dumps(dict(stored, payload=stored["payload"].replace('"pawns"', '"pawnz"'))))):
        entry.write_text(damage, encoding="utf-8")
        path.write_text(BASE + f"# edit {n}\n", encoding="utf-8")
        assert load_variant(str(path)).variant == expected
        assert json.loads(entry.read_text(encoding="utf-8")) == stored  # validated and kept again


def test_an_edited_comment_compiles_without_pydantic(tmp_path):
    """In fresh processes: after the rule file gained a comment, load_game reads it again
    (YAML) but imports neither pydantic nor lark; the moves are the same."""

    path = tmp_path / "mine.yaml"
    path.write_text(BASE, encoding="utf-8")
    script = ("import sys\n"
              "from sorry_rules.compiler.build import load_game\n"
              f"game = load_game({str(path)!r})\n"
              "state = game.position(((60, 12, 72, 77), (16, 61, 62, 63), (64, 65, 66, 67), (68, 69, 70, 71)),"
              " (0, 1, 2, 3), 0, card=game.card_index['7'])\n"
              "print(len(game.legal_moves(state)), sorted(m for m in ('pydantic', 'lark', 'yaml') if m in sys.modules))\n")
    runs = []
    for n in range(3):
        runs.append(run_python(script, tmp_path / "cache").strip())
        path.write_text(BASE + f"# edit {n}\n", encoding="utf-8")
    cold, edited, again = runs
    assert "'pydantic'" in cold and "'lark'" in cold
    assert edited.split(" ", 1)[0] == cold.split(" ", 1)[0]
    assert edited.endswith("['yaml']") and again.endswith("['yaml']")
