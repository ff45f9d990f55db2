"""Tests of the hardened YAML loader (sorry_rules.rules.yamlsafe)."""

from __future__ import annotations

import math
import time

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sorry_rules.rules import yamlsafe

from .sizes import short_and_full
from sorry_rules.base.errors import RuleFileError
from sorry_rules.rules.yamlsafe import MAX_BYTES, MAX_DEPTH, MAX_NODES, MAX_SCALAR_CHARS, Mark, SourceMap, load_yaml, load_yaml_file

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


@pytest.fixture(params=LOADERS, ids=lambda loader: loader.__name__)
def loader(request, monkeypatch):
    """Run a test with libyaml and with PyYAML's pure-Python parser."""
    monkeypatch.setattr(yamlsafe, "_LOADER", request.param)
    return request.param


def problems_of(source, file="rules.yaml"):
    with pytest.raises(RuleFileError) as info:
        load_yaml(source, file)
    return [(p.code, p.line, p.col) for p in info.value.problems], info.value.problems


def codes(source):
    return [code for code, _, _ in problems_of(source)[0]]


# --- scalars: YAML 1.2 core schema -------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"),
        ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
        ("null", None), ("Null", None), ("NULL", None), ("~", None), ("", None),
        ("060", 60), ("0", 0), ("-12", -12), ("+7", 7), ("0o17", 15), ("0x1F", 31), ("0xff", 255),
        ("1_000", "1_000"), ("0b101", "0b101"), ("0o18", "0o18"), ("12:30", "12:30"),
        ("1.5", 1.5), ("-.5", -0.5), ("1e3", 1000.0), ("2.5E-1", 0.25), ("1.", 1.0),
        (".inf", math.inf), ("-.inf", -math.inf), ("+.Inf", math.inf),
        ("2024-01-01", "2024-01-01"), ("forward 7", "forward 7"), ("nULL", "nULL"), ("tRue", "tRue"),
    ],
)  # fmt: skip
def test_plain_scalars_follow_the_core_schema(loader, text, expected):
    data, _ = load_yaml(f"v: {text}\n", "f")
    assert data["v"] == expected and type(data["v"]) is type(expected)


def test_nan(loader):
    assert math.isnan(load_yaml("v: .nan", "f")[0]["v"])


def test_quoted_and_block_scalars_are_always_text(loader):
    data, _ = load_yaml("a: '060'\nb: \"true\"\nc: 'null'\nd: |\n  12\ne: >-\n  no\nf: ''\n", "f")
    assert data == {"a": "060", "b": "true", "c": "null", "d": "12\n", "e": "no", "f": ""}


def test_keys_are_their_source_text(loader):
    data, _ = load_yaml("1: a\n060: b\nnull: c\ntrue: d\n'q': e\n~: f\n1.5: g\n", "f")
    assert data == {"1": "a", "060": "b", "null": "c", "true": "d", "q": "e", "~": "f", "1.5": "g"}
    assert all(type(k) is str for k in data)


def test_sequences_mappings_and_root_scalars(loader):
    assert load_yaml("- 1\n- [a, {b: c}]\n", "f")[0] == [1, ["a", {"b": "c"}]]
    assert load_yaml("hello", "f")[0] == "hello"


@pytest.mark.parametrize("source", ["", "# only a comment\n", "---\n", "---\n...\n", "\n\n"])
def test_empty_document_is_none(loader, source):
    assert load_yaml(source, "f")[0] is None


def test_utf8_bom_is_accepted_and_not_counted(loader):
    data, smap = load_yaml("\ufeffa: 1\n".encode(), "f")
    assert data == {"a": 1}
    assert smap.get(("a",)) == Mark("f", 1, 4)


def test_bytes_and_str_give_the_same_result(loader):
    source = "a: [1, 'x']\nb: é\n"
    assert load_yaml(source, "f")[0] == load_yaml(source.encode(), "f")[0]


def test_number_too_long(loader):
    found, problems = problems_of("a: 1\nb: " + "9" * 5000 + "\n")
    assert found == [("SR103", 2, 4)]
    assert "too long" in problems[0].message


def test_scalar_too_long(loader):
    assert problems_of("a: " + "x" * (MAX_SCALAR_CHARS + 1))[0] == [("SR103", 1, 4)]
    load_yaml("a: " + "x" * MAX_SCALAR_CHARS, "f")


# --- structure problems -----------------------------------------------------------------


def test_all_duplicate_keys_are_reported(loader):
    source = "a: 1\nb: 2\na: 3\nc:\n  x: 1\n  x: 2\nb: 4\nd: {k: 1, k: 2}\n"
    found, problems = problems_of(source)
    assert found == [("SR104", 3, 1), ("SR104", 6, 3), ("SR104", 7, 1), ("SR104", 8, 11)]
    assert "'a'" in problems[0].message and "line 1" in problems[0].message
    assert "'x'" in problems[1].message and "line 5" in problems[1].message


def test_duplicate_quoted_and_plain_key(loader):
    assert problems_of("a: 1\n'a': 2\n")[0] == [("SR104", 2, 1)]


def test_anchors_and_aliases_are_rejected_each_time(loader):
    found, problems = problems_of("a: &x 1\nb: *x\nc: [*x, &y {k: 1}]\n")
    assert found == [("SR105", 1, 4), ("SR105", 2, 4), ("SR105", 3, 5), ("SR105", 3, 9)]
    assert "&x" in problems[0].message and "*x" in problems[1].message


def test_alias_as_key_is_rejected(loader):
    assert codes("a: &k 1\n*k : 2\n") == ["SR105", "SR105"]


LOL_BOMB = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_alias_bomb_is_rejected_quickly(loader):
    started = time.perf_counter()
    found, _ = problems_of(LOL_BOMB)
    assert time.perf_counter() - started < 10.0  # a hang guard, not a speed target
    assert {code for code, _, _ in found} == {"SR105"}
    assert ("SR105", 1, 4) in found and ("SR105", 9, 8) in found
    assert len(found) == 9 + 8 * 9


@pytest.mark.parametrize(
    "source, line, col",
    [
        ("a: !!python/object/apply:os.system ['echo hi']\n", 1, 4),
        ("a: 1\nb: !foo bar\n", 2, 4),
        ("a: !!str 1\n", 1, 4),
        ("a: !!map {b: 1}\n", 1, 4),
        ("- ! x\n", 1, 3),
    ],
)
def test_tags_are_rejected(loader, source, line, col):
    assert problems_of(source)[0] == [("SR107", line, col)]


def test_tag_message_shows_the_tag(loader):
    assert "!!python/object" in problems_of("a: !!python/object:os.system x\n")[1][0].message


def test_more_than_one_document(loader):
    assert problems_of("a: 1\n---\nb: 2\n")[0] == [("SR108", 2, 1)]
    assert problems_of("--- 1\n--- 2\n--- 3\n")[0] == [("SR108", 2, 1)]


def test_collection_as_key_is_rejected(loader):
    found, problems = problems_of("? [a, b]\n: 1\nok: 2\n")
    assert found == [("SR103", 1, 3)]
    assert "plain text" in problems[0].message


def test_problems_inside_an_ignored_value_are_still_found(loader):
    # the second 'a' is a duplicate; its value is still checked
    assert problems_of("a: 1\na: {x: 1, x: 2}\n")[0] == [("SR104", 2, 1), ("SR104", 2, 11)]


def test_nesting_limit(loader):
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    load_yaml(ok, "f")
    too_deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert problems_of(too_deep)[0] == [("SR106", 1, MAX_DEPTH + 1)]


def test_nesting_limit_reported_once_and_rest_still_checked(loader):
    deep = "[" * (MAX_DEPTH + 3) + "]" * (MAX_DEPTH + 3)
    found = problems_of(f"a: {deep}\nb: {deep}\nc: 1\nc: 2\n")[0]
    # the root mapping is level 1, so the 64th '[' (column 3 + 64) is one too many
    assert found == [("SR106", 1, MAX_DEPTH + 3), ("SR104", 4, 1)]


def test_block_nesting_limit(loader):
    source = "".join("  " * i + "k:\n" for i in range(MAX_DEPTH + 1)) + "  " * (MAX_DEPTH + 1) + "v\n"
    assert problems_of(source)[0] == [("SR106", MAX_DEPTH + 1, 2 * MAX_DEPTH + 1)]


@pytest.mark.parametrize("opener", ["[", "{", "- "])
def test_hundred_thousand_levels_fail_fast_without_recursion(loader, opener):
    # PyYAML's pure-Python scanner needs seconds for 100,000 block levels: 10,000 there.
    levels = 10_000 if opener == "- " and loader is yaml.SafeLoader else 100_000
    started = time.perf_counter()
    found = problems_of(opener * levels)[0]
    assert time.perf_counter() - started < 10.0  # a hang guard, not a speed target
    assert found and {code for code, _, _ in found} <= {"SR106", "SR103"}


@pytest.mark.parametrize("limit", short_and_full(2_000, MAX_NODES))
def test_too_many_nodes(limit, monkeypatch):
    """The node limit, at a small limit by default and at the real one under `slow`
    (tests/test_limits.py checks the real limit as a hang guard in the default run)."""
    monkeypatch.setattr(yamlsafe, "MAX_NODES", limit)
    source = "[" + "1," * limit + "]"
    assert problems_of(source)[0] == [("SR109", 1, 2 * limit)]
    load_yaml("[" + "1," * (limit - 1) + "]", "f")


# --- bytes and size ------------------------------------------------------------------------


def test_too_large():
    started = time.perf_counter()
    assert problems_of(b"a" * 2_000_000)[0] == [("SR102", 1, 1)]
    assert problems_of("a" * 2_000_000)[0] == [("SR102", 1, 1)]
    assert problems_of("é" * (MAX_BYTES // 2 + 1))[0] == [("SR102", 1, 1)]  # counted in UTF-8 bytes
    assert time.perf_counter() - started < 10.0  # a hang guard, not a speed target


def test_invalid_utf8_reports_position_of_bad_byte():
    found, problems = problems_of(b"a: 1\nb: x\xc3\x28y\n")
    assert found == [("SR101", 2, 5)]
    assert "0xc3" in problems[0].message
    assert problems_of(b"\xff")[0] == [("SR101", 1, 1)]
    assert problems_of("é\n\xe9".encode("latin-1"))[0] == [("SR101", 1, 1)]


@pytest.mark.parametrize("bom", [b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00"])
def test_utf16_and_utf32_are_rejected(bom):
    assert problems_of(bom + "a: 1".encode("utf-16-le"))[0] == [("SR101", 1, 1)]


def test_control_characters_are_rejected():
    assert problems_of(b"\x00\x01binary")[0] == [("SR101", 1, 1)]
    found, problems = problems_of("a: 1\nb: x\x07\n")
    assert found == [("SR101", 2, 5)] and "U+0007" in problems[0].message
    assert codes("a: '\ud800'") == ["SR101"]  # lone surrogate in a str


# --- syntax errors -------------------------------------------------------------------------


def test_syntax_error_position_and_message(loader):
    found, problems = problems_of("a: 1\nb: c: d\n")
    assert found == [("SR103", 2, 5)]
    assert "mapping values are not allowed" in problems[0].message


def test_problems_before_a_syntax_error_are_kept(loader):
    found = problems_of("a: 1\na: 2\nb: &x 3\nc: [\n")[0]
    assert [code for code, _, _ in found] == ["SR104", "SR105", "SR103"]


def test_unclosed_flow_and_bad_indentation(loader):
    assert codes("a: [1, 2\n") == ["SR103"]
    assert codes("a:\n  - b\n c: d\n") == ["SR103"]
    assert codes("\t- x\n") == ["SR103"]


def test_problem_file_is_the_name_given(loader):
    with pytest.raises(RuleFileError) as info:
        load_yaml("a: [", "variants/x.yaml")
    assert info.value.problems[0].file == "variants/x.yaml"
    assert str(info.value).startswith("variants/x.yaml:")


# --- reading files -------------------------------------------------------------------------


def test_load_yaml_file(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("a: 1\n")
    data, smap = load_yaml_file(path)
    assert data == {"a": 1} and smap.file == str(path)
    assert load_yaml_file(str(path), "shown.yaml")[1].get(("a",)) == Mark("shown.yaml", 1, 4)


@pytest.mark.parametrize("make", ["missing", "directory"])
def test_unreadable_file(tmp_path, make):
    path = tmp_path / "x.yaml"
    if make == "directory":
        path.mkdir()
    with pytest.raises(RuleFileError) as info:
        load_yaml_file(path, "x.yaml")
    assert [(p.file, p.code, p.line, p.col) for p in info.value.problems] == [("x.yaml", "SR100", 1, 1)]


def test_large_file_is_read_bounded(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (3 * MAX_BYTES))
    with pytest.raises(RuleFileError) as info:
        load_yaml_file(path)
    assert [p.code for p in info.value.problems] == ["SR102"]


# --- SourceMap -----------------------------------------------------------------------------

DOC = """\
name: standard
cards:
  - id: seven
    effect: "forward 7 | )"
  - id: sorry
    text: |
      first line
        second ) line
    plain: just some words )
    single: 'it''s )'
    double: "tab\\there )"
    folded: >
      folded
      words )
"""


@pytest.fixture
def doc(loader):
    return load_yaml(DOC, "std.yaml")


def col_of(line_no: int, needle: str) -> int:
    return DOC.splitlines()[line_no - 1].index(needle) + 1


def test_marks_of_nodes_and_keys(doc):
    data, smap = doc
    assert smap.get(()) == Mark("std.yaml", 1, 1)
    assert smap.get(("name",)) == Mark("std.yaml", 1, 7)
    assert smap.get(("cards",)) == Mark("std.yaml", 3, 3)
    assert smap.get(("cards", 1)) == Mark("std.yaml", 5, 5)
    assert smap.get(("cards", 1, "id")) == Mark("std.yaml", 5, 9)
    assert smap.get(("cards", 0, "nope")) is None
    assert smap.key_mark(("cards", 0, "effect")) == Mark("std.yaml", 4, 5)
    assert smap.key_mark(("cards",)) == Mark("std.yaml", 2, 1)
    assert smap.key_mark(("cards", 0)) is None and smap.key_mark(()) is None
    assert set(smap.paths()) >= {(), ("name",), ("cards", 1, "folded")}


def test_locate_falls_back_to_ancestors(doc):
    _, smap = doc
    assert smap.locate(("cards", 0, "effect")) == smap.get(("cards", 0, "effect"))
    assert smap.locate(["cards", 1, "missing", 3]) == smap.get(("cards", 1))
    assert smap.locate(("cards", "1", "id")) == smap.get(("cards", 1, "id"))  # index given as text
    assert smap.locate(("nothing",)) == smap.get(())
    assert SourceMap("empty.yaml").locate(("a",)) == Mark("empty.yaml", 1, 1)


@pytest.mark.parametrize(
    "path, line",
    [
        (("cards", 0, "effect"), 4),
        (("cards", 1, "text"), 8),
        (("cards", 1, "plain"), 9),
        (("cards", 1, "single"), 10),
        (("cards", 1, "double"), 11),
        (("cards", 1, "folded"), 14),
    ],
)
def test_position_in_scalar_finds_the_exact_character(doc, path, line):
    data, smap = doc
    value = data["cards"][path[1]][path[2]]
    assert smap.position_in_scalar(path, value.index(")")) == Mark("std.yaml", line, col_of(line, ")"))


def test_position_in_scalar_details(doc):
    data, smap = doc
    effect = ("cards", 0, "effect")
    assert smap.position_in_scalar(effect, 0) == Mark("std.yaml", 4, col_of(4, "forward"))
    assert smap.position_in_scalar(effect, 10) == Mark("std.yaml", 4, col_of(4, "|"))
    end = len(data["cards"][0]["effect"])
    assert smap.position_in_scalar(effect, end) == Mark("std.yaml", 4, col_of(4, ')"') + 1)  # just past the text
    assert smap.position_in_scalar(effect, 10_000) == smap.position_in_scalar(effect, end)
    text = ("cards", 1, "text")
    assert smap.position_in_scalar(text, 0) == Mark("std.yaml", 7, col_of(7, "first"))
    assert smap.position_in_scalar(text, data["cards"][1]["text"].index("second")) == Mark("std.yaml", 8, col_of(8, "second"))
    double = ("cards", 1, "double")
    assert smap.position_in_scalar(double, 3) == Mark("std.yaml", 11, col_of(11, "\\t"))  # the escape
    assert smap.position_in_scalar(double, 4) == Mark("std.yaml", 11, col_of(11, "here"))
    # not a scalar: nearest known node
    assert smap.position_in_scalar(("cards", 1), 3) == smap.get(("cards", 1))


def test_position_in_multiline_flow_scalars(loader):
    source = 'a: first part\n  second ) part\nb: "one\n   two )"\n'
    data, smap = load_yaml(source, "f")
    assert data == {"a": "first part second ) part", "b": "one two )"}
    assert smap.position_in_scalar(("a",), data["a"].index(")")) == Mark("f", 2, 10)
    assert smap.position_in_scalar(("b",), data["b"].index(")")) == Mark("f", 4, 8)


def test_literal_block_with_indentation_indicator_and_crlf(loader):
    data, smap = load_yaml("a: |2\n    indented )\r\n  x\r\n", "f")
    assert data["a"] == "  indented )\nx\n"
    assert smap.position_in_scalar(("a",), data["a"].index(")")) == Mark("f", 2, 14)


# --- never anything but RuleFileError ------------------------------------------------------


def check_total(source) -> None:
    try:
        load_yaml(source, "fuzz.yaml")
    except RuleFileError as error:
        assert error.problems
        assert all(p.line >= 1 and p.col >= 1 and p.file == "fuzz.yaml" for p in error.problems)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise_anything_else(source):
    check_total(source)


YAMLISH = st.lists(st.sampled_from(list("ab01 :-[]{},&*!|>'\"#?\n\t.~\\é\x00") + ["  ", "\n  ", "- ", ": ", "---"]), max_size=80).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=500), YAMLISH))
def test_arbitrary_text_never_raises_anything_else(source):
    check_total(source)


@settings(max_examples=100, deadline=None)
@given(YAMLISH, st.integers(min_value=-5, max_value=300))
def test_positions_in_scalars_are_always_valid(source, offset):
    try:
        _, smap = load_yaml(source, "f")
    except RuleFileError:
        return
    for path in smap.paths():
        mark = smap.position_in_scalar(path, offset)
        assert mark.line >= 1 and mark.col >= 1


@pytest.mark.parametrize(
    "source, line, col",
    [("a: 1\nse", 2, 3), ("a: [1,", 1, 7), ("a: 1\nse\n", 3, 1), ("a: [1,\n", 2, 1)],
)
def test_errors_at_the_end_of_the_text_point_inside_the_file(loader, source, line, col):
    """Regression (fuzzing): libyaml counts a line break after a last line without one, so
    an error at the end of `a: [1,` was reported at 2:1 of a one-line file. Both parsers now
    give the end of the text."""
    found, _ = problems_of(source)
    assert [(ln, c) for code, ln, c in found] == [(line, col)]


@pytest.mark.parametrize("value, said", [
    ("@sorry", "'@' may not begin a value in YAML: put the value in quotes, \"@sorry\""),
    ("`forward 3`", "'`' may not begin a value in YAML: put the value in quotes, \"`forward 3`\""),
    ("| forward 3", "'|' begins a block of text on the lines below in YAML: put the value in quotes, \"| forward 3\""),
])
def test_a_value_beginning_with_a_reserved_character_is_told_to_be_quoted(value, said):
    found, problems = problems_of(f'cards:\n  "3": {value}\n')
    assert [code for code, _, _ in found] == ["SR103"] and problems[0].message.startswith(said)


def test_text_after_an_alias_is_no_second_problem():
    """`"12": *forward 12` is one problem, the alias (SR105): the parser's complaint about the
    text after it (it read an indentation error) is not said."""
    found, _ = problems_of('cards:\n  "12": *forward 12\n')
    assert found == [("SR105", 2, 9)]
