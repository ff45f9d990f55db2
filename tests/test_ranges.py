"""The values a condition can take (`compiler.ranges`), behind the SR529 warning: the analysis
is sound (a truth value it rules out never occurs when the facts take values within their
bounds), exact where the expression is made of constants, and validate reports what it finds."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sorry_rules import dsl
from sorry_rules.authoring.validate import validate_file
from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler.ranges import Interval, ValueRange

BOUNDS = {"bumps": Interval(0, 4), "home": Interval(0, 4), "slides": Interval(0, 0)}
GROUP = 3  # bumps(players) of 3 colours: 0..12

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
            "!=": operator.ne}


def evaluate(node, facts: dict):
    """The value of expression `node` when each call `f(players)` takes `facts[f]`."""
    if isinstance(node, dsl.Number):
        return node.value
    if isinstance(node, dsl.Bool):
        return node.value
    if isinstance(node, dsl.Call):
        return facts[node.function]
    if isinstance(node, dsl.Not):
        return not evaluate(node.operand, facts)
    if isinstance(node, dsl.Neg):
        return -evaluate(node.operand, facts)
    left, right = evaluate(node.left, facts), evaluate(node.right, facts)
    if node.op == "and":
        return left and right
    if node.op == "or":
        return left or right
    return (_ARITH.get(node.op) or _COMPARE[node.op])(left, right)


numbers = st.recursive(
    st.one_of(st.integers(0, 20).map(str), st.sampled_from(["bumps(players)", "home(players)", "slides(players)"])),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"-{x}")),
    max_leaves=6)
conditions = st.recursive(
    st.tuples(numbers, st.sampled_from(sorted(_COMPARE)), numbers).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"not ({x})")),
    max_leaves=4)


@settings(max_examples=150, deadline=None)
@given(conditions, st.integers(0, 12), st.integers(0, 12))
def test_a_truth_value_ruled_out_never_occurs(text, bumps, home):
    ast = dsl.parse_expr(text)
    possible = ValueRange(BOUNDS, GROUP).visit(ast)
    assert evaluate(ast, {"bumps": bumps, "home": home, "slides": 0}) in possible


@settings(max_examples=100, deadline=None)
@given(st.tuples(st.integers(-9, 9), st.sampled_from(sorted(_COMPARE)), st.integers(-9, 9)))
def test_constant_conditions_are_known_exactly(parts):
    a, op, b = parts
    ast = dsl.parse_expr(f"{a} {op} {b}".replace("-", "- "))
    assert ValueRange(BOUNDS, GROUP).visit(ast) == frozenset((_COMPARE[op](a, b),))


def test_facts_are_bounded_by_the_pawns_of_the_group():
    assert ValueRange(BOUNDS, GROUP).visit(dsl.parse_expr("bumps(players) * 2 + 1")) == Interval(1, 25)
    assert ValueRange(BOUNDS, GROUP).visit(dsl.parse_expr("bumps(players) > 12")) == frozenset((False,))
    assert ValueRange(BOUNDS, GROUP).visit(dsl.parse_expr("bumps(players) > 11")) == frozenset((True, False))


def test_a_counter_may_take_any_value():
    assert ValueRange(BOUNDS, GROUP).visit(dsl.parse_expr("bumps_made(player) > 1000000")) == frozenset((True, False))


def _warnings(path) -> list[str]:
    return [p.message for p in validate_file(path) if p.code == "SR529"]


def test_validate_warns_of_a_slide_filter_on_a_board_without_slides(tmp_path):
    text = "extends: standard\nboard: {slides: []}\nfilters:\n  slide_please: {prefer: slides(player) > 0}\n"
    (tmp_path / "none.yaml").write_text(text)
    (tmp_path / "some.yaml").write_text(text.replace("board: {slides: []}\n", ""))
    assert _warnings(tmp_path / "none.yaml") == [
        "filters.slide_please: this condition can never hold, so the filter never prefers a move"]
    assert _warnings(tmp_path / "some.yaml") == []


@pytest.mark.parametrize("condition, never", [
    ("count(pawns own in track) > 4", True),        # a colour has 4 pawns
    ("count(pawns own in track) > 3", False),
    ("count(pawns opponent) > 12", True),           # three opponents of 4 pawns
    ("count(pawns opponent) > 11", False),
    ("count(pawns any marked x) > 16", True),
])
def test_a_count_of_pawns_is_bounded_by_the_colours_its_owner_chooses(tmp_path, condition, never):
    (tmp_path / "f.yaml").write_text(f"extends: standard\nmarks: {{x: {{immobile: true}}}}\ncards: {{'1': enter | "
                                     f"forward 1 | mark x own}}\nfilters:\n  f: {{must: {condition}}}\n")
    assert _warnings(tmp_path / "f.yaml") == (
        ["filters.f: this condition can never hold, so the filter removes every move it judges"] if never else [])


@pytest.mark.parametrize("base, condition, said", [
    ("ludo", "total <= 6", "always"),     # one die of faces 1-6
    ("ludo", "total > 6", "never"),
    ("ludo", "doubles", "never"),          # one die never throws doubles
    ("parcheesi", "doubles", None),
    ("parcheesi", "total > 6", None),
    ("standard", "total > 0", "never"),    # a card's total is 0
])
def test_the_facts_of_a_throw_are_bounded_by_the_dice(tmp_path, base, condition, said):
    (tmp_path / "f.yaml").write_text(f"extends: {base}\nfilters:\n  f: {{must: {condition}}}\n")
    words = {"always": "filters.f: this condition always holds, so the filter removes no move",
             "never": "filters.f: this condition can never hold, so the filter removes every move it judges"}
    assert _warnings(tmp_path / "f.yaml") == ([words[said]] if said else [])


def test_validate_is_silent_on_the_bundled_rule_files():
    for path in sorted(variants_dir().rglob("*.yaml")):
        assert _warnings(path) == [], path


def test_validate_warns_of_a_win_no_one_can_reach(tmp_path):
    """R35 with more pawns Home than a side has (a quick game over H3's three pawns): no game
    ends but by its move limit. Partners count together (T8), so eight is reachable there."""
    (tmp_path / "five.yaml").write_text("extends: standard\nwin: home(team) >= 5\n")
    (tmp_path / "three.yaml").write_text("extends: house/three-pawns.yaml\nwin: home(player) == 4\n")
    (tmp_path / "partners.yaml").write_text("extends: partnership\nwin: home(team) >= 8\n")
    (tmp_path / "nine.yaml").write_text("extends: partnership\nwin: home(team) >= 9\n")
    never = "win: this condition can never hold ({} pawns a colour), so no one ever wins: every game runs to its move limit"
    assert _warnings(tmp_path / "five.yaml") == [never.format(4)]
    assert _warnings(tmp_path / "three.yaml") == [never.format(3)]
    assert _warnings(tmp_path / "partners.yaml") == []
    assert _warnings(tmp_path / "nine.yaml") == [never.format(4)]
