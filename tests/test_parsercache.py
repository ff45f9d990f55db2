"""The DSL parser's tables cached on disk (`sorry_rules.dsl.parsercache`): a valid entry is
loaded instead of rebuilt and parses exactly as the built parser does; a damaged, foreign or
unreadable entry is never trusted (rebuilt and rewritten); the cache can be turned off."""

from __future__ import annotations

import json
import os

import lark
import pytest

from sorry_rules.base.resources import CACHE_ENV, grammar_text
from sorry_rules.dsl import parser as dsl_parser
from sorry_rules.dsl import parsercache
from sorry_rules.dsl.ast import DslError

OPTIONS = {"parser": "lalr", "start": ["effect", "expr"], "propagate_positions": True}
TEXTS = [("effect", "forward 5"), ("effect", "enter then forward 1 | backward 4"), ("effect", "split 7"),
         ("expr", "1 + 2 * 3")]
BAD = [("effect", "forwrd 5"), ("effect", "forward"), ("expr", "1 + ")]


@pytest.fixture(autouse=True)
def no_bundled_tables(request, monkeypatch):
    """The user's cache is tested without the bundled tables (tested on their own below)."""
    if "bundled" not in request.node.name:
        monkeypatch.setattr(parsercache, "BUNDLED", "no-such-tables.json")


def _entries(folder):
    return sorted(folder.glob("dsl-parser-*.json")) if folder.exists() else []


def _no_building(monkeypatch):
    """Make building a parser from the grammar fail: only a cache hit can succeed."""
    def refuse(*args, **kwargs):
        raise AssertionError("the parser was built, not loaded")

    monkeypatch.setattr(parsercache, "Lark", type("NoBuild", (), {"__new__": refuse, "load": lark.Lark.load}))


def _outcome(parser, start, text):
    try:
        return ("ok", parser.parse(text, start=start))
    except lark.exceptions.UnexpectedInput as error:
        return ("error", type(error).__name__, getattr(error, "pos_in_stream", None), sorted(getattr(error, "expected", ())))


def test_an_entry_is_written_then_loaded_and_parses_like_the_built_parser(cache, monkeypatch):
    built = parsercache.cached_parser(grammar_text(), **OPTIONS)
    entry, = _entries(cache)
    _no_building(monkeypatch)
    loaded = parsercache.cached_parser(grammar_text(), **OPTIONS)
    assert loaded is not built
    for start, text in TEXTS + BAD:
        assert _outcome(loaded, start, text) == _outcome(built, start, text), text
    tree = loaded.parse("enter then forward 1", start="effect")
    assert tree.meta.start_pos == 0 and tree.meta.end_pos == len("enter then forward 1")   # positions kept
    assert _entries(cache) == [entry]


@pytest.mark.parametrize("damage", [
    lambda text: "{not json",
    lambda text: "",
    lambda text: json.dumps(dict(json.loads(text), checksum="0" * 64)),
    lambda text: json.dumps(dict(json.loads(text), key="another grammar")),
    lambda text: json.dumps(dict(json.loads(text), payload=json.loads(text)["payload"].replace('"lalr"', '"earley"'))),
])
def test_a_damaged_entry_is_rebuilt_never_trusted(cache, damage):
    parsercache.cached_parser(grammar_text(), **OPTIONS)
    entry, = _entries(cache)
    entry.write_text(damage(entry.read_text(encoding="utf-8")), encoding="utf-8")
    parser = parsercache.cached_parser(grammar_text(), **OPTIONS)
    assert parser.parse("forward 5", start="effect") is not None
    assert json.loads(entry.read_text(encoding="utf-8"))["key"] == parsercache._key(grammar_text(), OPTIONS)


def test_an_entry_lark_refuses_is_rebuilt(cache):
    """A payload with a valid checksum that lark cannot load (e.g. written by a faulty tool)."""
    parsercache.cached_parser(grammar_text(), **OPTIONS)
    entry, = _entries(cache)
    stored = json.loads(entry.read_text(encoding="utf-8"))
    payload = json.dumps(parsercache._encode({"data": {"options": {}}, "memo": {}}))
    import hashlib

    stored.update(payload=payload, checksum=hashlib.sha256(payload.encode()).hexdigest())
    entry.write_text(json.dumps(stored), encoding="utf-8")
    assert parsercache.cached_parser(grammar_text(), **OPTIONS).parse("split 7", start="effect") is not None
    assert json.loads(entry.read_text(encoding="utf-8"))["payload"] != payload


def test_another_grammar_or_options_use_another_entry(cache):
    parsercache.cached_parser(grammar_text(), **OPTIONS)
    parsercache.cached_parser(grammar_text(), **dict(OPTIONS, propagate_positions=False))
    parsercache.cached_parser(grammar_text() + "\n// another grammar\n", **OPTIONS)
    assert len(_entries(cache)) == 3


def test_tagged_json_gives_back_exactly_the_data():
    data = {"a": (1, (2, "x")), 3: [None, True, 1.5], (4, 5): {"k": ()}, "t": {"d": 1}}
    encoded = json.dumps(parsercache._encode(data))
    assert json.loads(encoded, object_hook=parsercache._decode_object) == data


def test_no_cache_when_turned_off_or_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    assert parsercache.cached_parser(grammar_text(), **OPTIONS).parse("forward 5", start="effect") is not None
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocked / "cache"))
    assert parsercache.cached_parser(grammar_text(), **OPTIONS).parse("forward 5", start="effect") is not None
    assert not (blocked / "cache").exists() and os.listdir(tmp_path) == ["file"]


def test_a_text_is_parsed_once_and_errors_are_raised_every_time():
    assert dsl_parser.parse_effect("forward 5 | backward 1") is dsl_parser.parse_effect("forward 5 | backward 1")
    for _ in range(2):
        with pytest.raises(DslError) as error:
            dsl_parser.parse_effect("forwrd 5")
        assert error.value.offset == 0


# ---- the tables bundled with the package (grammar/sorry-tables.json) -----------------------
def test_the_bundled_tables_are_current_and_parse_like_the_built_parser(tmp_path, monkeypatch):
    """The committed file's key names this grammar and the installed lark (else: python
    tools/parser_tables.py), and a parser loaded from it, with no cache folder and no
    building, parses exactly as a built one."""
    from sorry_rules.dsl.larkparse import PARSER_OPTIONS

    assert PARSER_OPTIONS == OPTIONS
    built = lark.Lark(grammar_text(), **OPTIONS)
    monkeypatch.setenv(CACHE_ENV, "off")
    _no_building(monkeypatch)
    loaded = parsercache.cached_parser(grammar_text(), **OPTIONS)
    for start, text in TEXTS + BAD:
        assert _outcome(loaded, start, text) == _outcome(built, start, text), text
    assert not list(tmp_path.iterdir())


def test_bundled_tables_of_another_grammar_or_damaged_are_not_used(tmp_path, monkeypatch):
    from sorry_rules.base.resources import data_dir

    monkeypatch.setenv(CACHE_ENV, "off")
    grammar = tmp_path / "grammar"
    grammar.mkdir()
    text = (data_dir("grammar") / parsercache.BUNDLED).read_text(encoding="utf-8")
    monkeypatch.setattr(parsercache, "data_dir", lambda name: grammar)
    stored = json.loads(text)
    payload = stored["payload"].replace('"__type__"', '"__tipe__"')
    damages = ["{not json", "", json.dumps(dict(stored, payload=payload)), json.dumps(dict(stored, key="0" * 64))]
    built = []
    real = parsercache.Lark
    monkeypatch.setattr(parsercache, "Lark", type("Counting", (), {
        "__new__": lambda cls, *a, **k: built.append(1) or real(*a, **k), "load": real.load}))
    for damage in damages:
        (grammar / parsercache.BUNDLED).write_text(damage, encoding="utf-8")
        parser = parsercache.cached_parser(grammar_text(), **OPTIONS)
        assert parser.parse("forward 5", start="effect") is not None
    assert len(built) == len(damages)
    (grammar / parsercache.BUNDLED).write_text(text, encoding="utf-8")
    parsercache.cached_parser(grammar_text(), **OPTIONS)
    assert len(built) == len(damages)  # the whole file: loaded, not built
    parsercache.cached_parser(grammar_text() + "\n// another grammar\n", **OPTIONS)
    assert len(built) == len(damages) + 1
