"""Fuzzing of the DSL parser, the compiler and the rule-file loader (tests/fuzzlib.py).

Properties: no input makes them raise anything but DslError (parser) or RuleFileError
(loader, compiler); every error is located inside the text or file it names (DSL errors in
an overlay inside the DSL scalar itself); a rule file that compiles plays a short game with
every invariant. Each case has a generous hang guard (fuzzlib.CASE_SECONDS; a short game
fuzzlib.PLAY_SECONDS).

The default run is a short round (FAST_EXAMPLES hypothesis examples per property, a few
hundred mutated files); `pytest -m slow` runs every property with 1,500 examples (`soak`),
the mutation rounds at their former default size (400 and 150 files) and SORRY_FUZZ_CASES
cases per fixed-seed loop (default 20000).
The standalone `tools/fuzz_rules.py --seconds N` runs the same cases for a given time.
"""

from __future__ import annotations

import functools
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from sorry_rules import dsl
from sorry_rules.rules.yamlsafe import load_yaml

from . import fuzzlib as F
from .sizes import short_and_full

SLOW_CASES = int(os.environ.get("SORRY_FUZZ_CASES", "20000"))


@functools.lru_cache(maxsize=None)
def _grammar() -> F.DslGenerator:
    """The grammar-derived generator, built by the first test that uses it (building it reads
    the lark grammar: not done at collection, which every test process runs)."""
    return F.DslGenerator()


TYPED = F.TypedGenerator()
FILES = F.bundled_files()
NAMES = sorted(FILES)
FAST_EXAMPLES = 25
fast = settings(max_examples=FAST_EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
soak = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))


def _fail_on(finding):
    assert finding is None, finding.format()


# ---- (a) generated DSL programs ---------------------------------------------------------
def _sentence(data):
    chooser = F.DataChooser(data)
    start = chooser.choice(["effect", "expr"])
    return start, _grammar().text(chooser, start, chooser.integer(1, 9))


def _sentence_case(data):
    start, text = _sentence(data)
    note(f"{start}: {text!r}")
    _fail_on(F.check_dsl(text, start, generated=True))


@fast
@given(data=st.data())
def test_sentences_of_the_grammar_parse_or_hit_a_limit(data):
    """A sentence generated from the grammar parses, or is refused by a limit (SR303:
    number, length, nesting) or as a construct the language refuses (SR304), never as a
    syntax error."""
    _sentence_case(data)


@pytest.mark.parametrize("text, offset", [
    ("enter marked player unmarked player", 6),   # a pawn asked marked and unmarked
    ("enter own own", 10),                        # the owner named twice
    ("enter own in track in track", 19),          # a zone named twice
])
def test_selectors_the_grammar_allows_but_the_language_refuses(text, offset):
    """Sentences of the grammar (found by the sentence fuzzer) whose selector contradicts
    itself are refused as constructs not allowed (SR304) at the selector, not as syntax
    errors."""
    with pytest.raises(dsl.DslError) as refused:
        dsl.parse_effect(text)
    assert (refused.value.code, refused.value.offset) == ("SR304", offset)
    assert F.check_dsl(text, "effect", generated=True) is None


@pytest.mark.slow
@soak
@given(data=st.data())
def test_soak_sentences_of_the_grammar(data):
    _sentence_case(data)


def _mutated_case(data):
    start, text = _sentence(data)
    text = F.mutate_text(F.DataChooser(data), text)
    note(f"{start}: {text!r}")
    _fail_on(F.check_dsl(text, start))


@fast
@given(data=st.data())
def test_mutated_programs_give_only_positioned_dsl_errors(data):
    _mutated_case(data)


@pytest.mark.slow
@soak
@given(data=st.data())
def test_soak_mutated_programs(data):
    _mutated_case(data)


def _text_case(text):
    _fail_on(F.check_dsl(text, "effect"))
    _fail_on(F.check_dsl(text, "expr"))


@fast
@given(text=st.text(max_size=200))
def test_arbitrary_text_gives_only_positioned_dsl_errors(text):
    _text_case(text)


@pytest.mark.slow
@soak
@given(text=st.text(max_size=200))
def test_soak_arbitrary_text(text):
    _text_case(text)


def _overlay_case(data):
    chooser = F.DataChooser(data)
    start = chooser.choice(["effect", "expr"])
    if chooser.chance(50):
        text = TYPED.effect(chooser, chooser.integer(1, 4)) if start == "effect" else \
            TYPED.expr(chooser, chooser.choice([bool, int]), chooser.integer(1, 4))
    else:
        text = _grammar().text(chooser, start, chooser.integer(1, 7))
    if chooser.chance(30):
        text = F.mutate_text(chooser, text)
    slot = chooser.choice(["win", "points"])
    seed = chooser.integer(0, 1000)
    note(f"{start} in {slot if start == 'expr' else 'cards'}: {text!r} seed={seed}")
    if start == "effect":
        return F.check_overlay(text, None, seed=seed)
    return F.check_overlay(None, text, slot, seed=seed)


@fast
@given(data=st.data())
def test_programs_through_an_overlay_compile_or_point_into_their_text(data):
    """Generated programs as a card effect, win condition or scoring formula of an overlay:
    compile (then a short game keeps every invariant) or every problem lies in the text."""
    _fail_on(_overlay_case(data))


@pytest.mark.slow
@soak
@given(data=st.data())
def test_soak_programs_through_an_overlay(data):
    _fail_on(_overlay_case(data))


# ---- (b) mutated rule files -----------------------------------------------------------------
def _byte_round(tmp_path, cases: int, seed: int) -> int:
    chooser = F.RandomChooser(random.Random(seed))
    others = [FILES[n] for n in NAMES]
    for i in range(cases):
        name = NAMES[i % len(NAMES)]
        data = F.mutate_bytes(chooser, FILES[name], others)
        _fail_on(F.check_rule_file(name, data, tmp_path / str(i % 20), seed=i))
    return cases


def _schema_round(tmp_path, cases: int, seed: int) -> int:
    chooser = F.RandomChooser(random.Random(seed))
    mutator = F.SchemaMutator()
    datas = {n: load_yaml(FILES[n], n)[0] for n in NAMES}
    for i in range(cases):
        name = NAMES[i % len(NAMES)]
        data = F.dump_yaml(mutator.mutate(chooser, datas[name]))
        _fail_on(F.check_rule_file(name, data, tmp_path / str(i % 20), seed=i))
    return cases


@pytest.mark.parametrize("cases", short_and_full(60, 400))
def test_byte_mutations_of_every_bundled_file(tmp_path, cases):
    """Bit flips, deletions, insertions, duplicated ranges, splices of other bundled files and
    huge numbers: a RuleFileError located in the file, or a variant that plays."""
    assert _byte_round(tmp_path, cases, seed=7) == cases


@pytest.mark.parametrize("cases", short_and_full(25, 150))
def test_schema_mutations_of_every_bundled_file(tmp_path, cases):
    """Fields changed along the schema (geometry, colours, teams, turn, rules, DSL texts)."""
    assert _schema_round(tmp_path, cases, seed=11) == cases


RACE = ["ludo.yaml", "parcheesi.yaml", "trouble.yaml", "ludo/blocks.yaml", "standard.yaml"]


def _race_round(tmp_path, cases: int, seed: int) -> int:
    """`SchemaMutator.race` on the race games and standard (dice, squares that hold several
    pawns, named squares, blockades, consequences with `then:` and `forfeits:`), now and then
    after other mutations; returns how many cases compiled and played."""
    chooser = F.RandomChooser(random.Random(seed))
    mutator = F.SchemaMutator()
    datas = {n: load_yaml(FILES[n], n)[0] for n in RACE}
    played = F.STATS["file:played"]
    for i in range(cases):
        name = RACE[i % len(RACE)]
        data = mutator.mutate(chooser, datas[name]) if chooser.chance(30) else json.loads(json.dumps(datas[name]))
        mutator.race(chooser, data)
        _fail_on(F.check_rule_file(name, F.dump_yaml(data), tmp_path / str(i % 20), seed=i))
    return F.STATS["file:played"] - played


@pytest.mark.parametrize("cases", short_and_full(40, 300))
def test_race_constructs_compile_and_play_or_point_into_the_file(tmp_path, cases):
    """A fair share of the cases compile and play a short game with every invariant (no pawn
    lost or duplicated, no square above what it holds); the others are located problems."""
    assert _race_round(tmp_path, cases, seed=13) >= cases // 10


@pytest.mark.slow
def test_soak_race_constructs(tmp_path):
    _race_round(tmp_path, SLOW_CASES // 4, seed=1013)


@pytest.mark.slow
def test_soak_byte_mutations(tmp_path):
    _byte_round(tmp_path, SLOW_CASES, seed=1007)


@pytest.mark.slow
def test_soak_schema_mutations(tmp_path):
    _schema_round(tmp_path, SLOW_CASES // 4, seed=1011)


# ---- the checks themselves can fail --------------------------------------------------------
def test_checks_catch_misplaced_problems_and_foreign_exceptions(tmp_path, monkeypatch):
    from sorry_rules.base.errors import Problem

    sources = {"f.yaml": "a: 1\nbb: 2\n"}
    assert F.position_problem(Problem("f.yaml", 2, 4, "SR203", "x"), sources) is None
    assert "past the end of line" in F.position_problem(Problem("f.yaml", 2, 9, "SR203", "x"), sources)
    assert "past the end" in F.position_problem(Problem("f.yaml", 9, 1, "SR203", "x"), sources)
    assert "1-based" in F.position_problem(Problem("f.yaml", 0, 1, "SR203", "x"), sources)
    assert "unknown problem code" in F.position_problem(Problem("f.yaml", 1, 1, "SR999", "x"), sources)

    def broken(text):
        raise KeyError("boom")

    monkeypatch.setattr(dsl, "parse_effect", broken)
    finding = F.check_dsl("enter", "effect")
    assert finding is not None and finding.kind == "exception" and "KeyError" in finding.message


def test_hang_guard_reports_a_hang():
    def spin(text):
        while True:
            pass

    # the guard is a CPU-time timer (fuzzlib.time_limit): any positive value takes the same
    # path (SIGPROF, Hang, a "hang" finding); the spin only has to outlast it
    original, F.CASE_SECONDS = F.CASE_SECONDS, 0.05
    try:
        import unittest.mock

        with unittest.mock.patch.object(dsl, "parse_expr", spin):
            finding = F.check_dsl("1", "expr")
    finally:
        F.CASE_SECONDS = original
    assert finding is not None and finding.kind == "hang"


# ---- position files (the moves oracle's input) ------------------------------------------------
_squares = st.one_of(st.sampled_from(["start", "home", "track:0", "track:59", "track:60", "safety:1", "safety:5",
                                      "safety:6", "track:²", "safety:٣", "track:１", "track:" + "9" * 5000, "track:-1",
                                      "Track: 3", "track:3:4", ""]), st.text(max_size=12), st.integers(), st.none())
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                     max_leaves=12)
_colours = st.sampled_from(["red", "blue", "yellow", "green", "purple", "RED", ""])
_seated = st.lists(st.sampled_from(["red", "blue", "yellow", "green"]), min_size=1, max_size=4, unique=True)
_mark_entries = st.lists(st.one_of(st.fixed_dictionaries({"colour": _colours, "square": _squares},
                                                          optional={"by": st.one_of(_colours, _json)}), _json), max_size=4)
_marks = st.dictionaries(st.sampled_from(["frozen", "mercy", "frosen", ""]), st.one_of(_mark_entries, _json), max_size=3)
_card_names = st.sampled_from(["1", "2", "4", "7", "8", "10", "11", "sorry"])
_positions = st.fixed_dictionaries(
    {"players": _seated, "card": st.one_of(_card_names, st.lists(_card_names, max_size=3)),
     "pawns": st.dictionaries(st.sampled_from(["red", "blue", "yellow", "green"]), st.lists(_squares, max_size=5), max_size=4)},
    optional={"turn": _colours, "hand": st.lists(st.sampled_from(["1", "7", "8", "x"]), max_size=6), "marks": _marks,
              "redraws": st.integers(-1, 4)},
)  # mostly well-formed, so the checks deep inside are reached
_damaged = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(st.lists(_colours, max_size=6), _json),
        "turn": st.one_of(_colours, _json),
        "card": st.one_of(st.sampled_from(["1", "2", "7", "11", "sorry", "6", 7]), _json),
        "hand": st.one_of(st.lists(st.sampled_from(["1", "7", "x"]), max_size=6), _json),
        "pawns": st.one_of(st.dictionaries(_colours, st.one_of(st.lists(_squares, max_size=6), _json), max_size=4), _json),
        "marks": st.one_of(_marks, _json),
        "redraws": _json,
        "extra": _json,
    },
)


@fast
@given(data=st.one_of(_positions, _damaged, _json), marked=st.booleans())
def test_position_data_gives_only_position_errors(data, marked):
    """Any position data: a PositionError, or a position whose moves report is JSON data
    (read by standard, and by standard with the marks of H27 and H31)."""
    _position_case(data, marked)


@pytest.mark.slow
@soak
@given(data=st.one_of(_positions, _damaged, _json), marked=st.booleans())
def test_soak_position_data(data, marked):
    _position_case(data, marked)


def _position_case(data, marked=False):
    from sorry_rules.base.errors import PositionError
    from sorry_rules.authoring.oracle import moves_report
    from sorry_rules.records.position import parse_position

    import json

    for game in (_marked() if marked else _standard(), _geometry(), *_games()[1:]):  # turn policies too
        try:
            with F.time_limit(F.CASE_SECONDS):
                found = parse_position(game, data)
                report = moves_report(game, found)
        except PositionError:
            continue
        assert json.loads(json.dumps(report)) == report


def _geometry():
    """Standard with every geometry construct: a bounce, a backward turn, pawns not passed."""
    from sorry_rules.compiler import load_game

    global _GEOMETRY
    try:
        return _GEOMETRY
    except NameError:
        _GEOMETRY = load_game("standard", ["house/bounce-back.yaml", "house/backward-into-safety.yaml",
                                           "house/no-passing-opponents.yaml"])
        return _GEOMETRY


def _marked():
    """Standard with marks (H27 mercy, H31 frozen), loaded once."""
    from sorry_rules.compiler import load_game

    global _MARKED
    try:
        return _MARKED
    except NameError:
        _MARKED = load_game("standard", ("house/freeze.yaml", "house/mercy-start.yaml", "house/sorry-safety.yaml",
                                         "house/safety-sprint.yaml"))
        return _MARKED


def _games():
    from sorry_rules.compiler import load_game

    global _GAMES
    try:
        return _GAMES
    except NameError:
        _GAMES = (_standard(), load_game("standard", ["house/draw-two-keep-one.yaml", "house/no-start-no-cry.yaml"]),
                  load_game("points", ["house/mulligan-8.yaml", "house/no-start-no-cry.yaml"]))
        return _GAMES


def _standard():
    from sorry_rules.compiler import load_game

    global _STANDARD
    try:
        return _STANDARD
    except NameError:
        _STANDARD = load_game("standard")
        return _STANDARD


def test_unicode_digits_are_not_numbers(tmp_path, monkeypatch):
    """Regression (position fuzzing): "²".isdigit() is true but int("²") fails, so the
    position `track:²`, a seating key "²" and the answer "²" at the terminal prompt raised
    ValueError (tracebacks)."""
    from sorry_rules.base.errors import PositionError
    from sorry_rules.records.position import parse_position

    game = _standard()
    for square in ("track:²", "safety:٣", "track:" + "9" * 5000):
        with pytest.raises(PositionError, match="pawns.red"):
            parse_position(game, {"players": ["red", "blue"], "card": "1", "pawns": {"red": [square]}})
    path = tmp_path / "seating.yaml"
    path.write_text('extends: standard\nname: seating\nseating: {"²": [red, blue]}\n')
    from sorry_rules.compiler import load_game
    from sorry_rules.base.errors import RuleFileError

    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    assert [(p.line, p.col, p.code) for p in caught.value.problems] == [(3, 11, "SR510")]

    from sorry_rules.players.protocol import view_of
    from sorry_rules.cli.terminal import Session

    session = Session.__new__(Session)  # only the prompt loop: no screen, no save file
    answers, said = iter(["²", "9" * 5000, "1"]), []
    session.hot_seat, session.last_asked, session.game = False, None, game
    session.read, session.show, session.echo = (lambda prompt: next(answers)), (lambda view, moves: None), said.append
    state = game.draw(game.new_game(1, players=2))
    moves = game.legal_moves(state)
    assert session.ask(view_of(game, state), moves) == 0
    assert len(said) == 2 and all("is not a move" in line for line in said)
