"""Resource limits (docs/LIMITS.md): every oversized or hostile input gets a clear,
positioned error in bounded time and memory, and the table in docs/LIMITS.md states the
numbers the code enforces.

Time is only guarded (fuzzlib.time_limit, a generous 10 s against hangs), never asserted
as a speed; memory is measured with tracemalloc against generous bounds where it matters.
"""

from __future__ import annotations

import gc
import inspect
import json
import re
import textwrap
import tracemalloc
import weakref
from pathlib import Path

import pytest

from sorry_rules import dsl
from sorry_rules.base import limits
from sorry_rules.records import gamelog
from sorry_rules.rules import loader
from sorry_rules.rules import model
from sorry_rules.records import position
from sorry_rules.compiler import programs
from sorry_rules.players import runner
from sorry_rules.players.registry import make_player
from sorry_rules.rules import yamlsafe
from sorry_rules.compiler import compile_variant, load_game
from sorry_rules.base.errors import PositionError, RuleFileError, UsageError
from sorry_rules.rules.loader import load_variant
from sorry_rules.rules.yamlsafe import load_yaml

from .fuzzlib import position_problem, time_limit

GUARD = 10.0  # seconds; a hang guard, not a speed target
DOC = Path(__file__).resolve().parent.parent / "docs" / "LIMITS.md"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n") if isinstance(text, str) else text)
    return path


def problems_of(path, *, layers=()):
    """Load + compile under the hang guard; the located problems (file name, line, col, code)."""
    with time_limit(GUARD):
        with pytest.raises(RuleFileError) as caught:
            compile_variant(load_variant(str(path), layers=layers))
    sources = {}
    if isinstance(path, Path):
        with open(path, "rb") as handle:  # outside the measured part of the huge-file test
            sources[str(path)] = handle.read(2 * yamlsafe.MAX_BYTES).decode("utf-8", "replace")
    for problem in caught.value.problems:
        assert position_problem(problem, sources) is None, problem.format()
    return [(Path(p.file).name, p.line, p.col, p.code) for p in caught.value.problems], caught.value


def peak_memory(fn) -> int:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


# ---- YAML ---------------------------------------------------------------------------------
def test_alias_bomb_rule_file_is_refused_in_bounded_memory(tmp_path):
    """SR105: a billion-laughs rule file never expands its aliases."""
    rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        rows.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    bomb = write(tmp_path, "bomb.yaml", "\n".join(rows) + "\nname: bomb\n")
    found = []
    peak = peak_memory(lambda: found.extend(problems_of(bomb)[0]))
    assert {code for *_, code in found} == {"SR105"}
    assert len(found) == 9 + 8 * 9  # every anchor and every alias, each at its position
    assert ("bomb.yaml", 1, 4, "SR105") in found and ("bomb.yaml", 9, 8, "SR105") in found
    assert peak < 50_000_000  # 9**9 expanded items would need gigabytes


@pytest.mark.parametrize("opener", ["[", "{"])
def test_deep_yaml_nesting_is_refused(tmp_path, opener):
    """SR106: 100,000 nested flow collections."""
    deep = write(tmp_path, "deep.yaml", "name: deep\nboard: " + opener * 100_000 + "\n")
    found, _ = problems_of(deep)
    assert {code for *_, code in found} <= {"SR106", "SR103"} and "SR106" in {code for *_, code in found}


def test_huge_rule_file_is_refused_without_reading_it_all(tmp_path):
    """SR102: a file over MAX_BYTES; at most MAX_BYTES + 1 bytes are read."""
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.write(b"name: huge\ndescription: " + b"x" * (yamlsafe.MAX_BYTES * 20) + b"\n")
    def load():
        with time_limit(GUARD), pytest.raises(RuleFileError) as caught:
            load_variant(str(huge))
        return caught.value

    errors = []
    peak = peak_memory(lambda: errors.append(load()))
    assert [(p.line, p.col, p.code) for p in errors[0].problems] == [(1, 1, "SR102")]
    assert peak < 4 * yamlsafe.MAX_BYTES


def test_too_many_nodes_and_too_long_text(tmp_path):
    nodes = write(tmp_path, "nodes.yaml", "name: n\nslides: [" + "1," * yamlsafe.MAX_NODES + "]\n")
    assert [code for *_, code in problems_of(nodes)[0]] == ["SR109"]
    long = write(tmp_path, "long.yaml", "name: " + "x" * (yamlsafe.MAX_SCALAR_CHARS + 1) + "\n")
    assert [code for *_, code in problems_of(long)[0]] == ["SR103"]


# ---- huge numbers -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "field, value, code",
    [
        ("board", "{side_length: 1000000000, start_exit: 4, safety_entry: 2, safety_length: 5}", "SR204"),
        ("board", "{side_length: 15, start_exit: 4, safety_entry: 2, safety_length: 1000000000}", "SR204"),
        ("pawns", "1000000000", "SR204"),
        ("pawns", "10**9", "SR203"),
        ("pawns", "1" * 5000, "SR103"),
        ("deck", '{"1": 1000000000}', "SR204"),
        ("players", "{min: 2, max: 1000000000}", "SR204"),
        ("turn", "{source: hand, hand_size: 1000000000}", "SR204"),
    ],
)
def test_huge_numbers_in_fields(tmp_path, field, value, code):
    """A side of 10^9 squares, 10^9 pawns, a deck of 10^9 cards...: a positioned error
    before anything of that size is built."""
    path = write(tmp_path, "big.yaml", f"extends: standard\nname: big\n{field}: {value}\n")
    found = []
    peak = peak_memory(lambda: found.extend(problems_of(path)[0]))
    assert code in {c for *_, c in found}
    # located at the value in the overlay (regression: turn.hand_size was located in the
    # base file, because the union tag "hand" in pydantic's error path was taken for a key)
    assert all((name, line) == ("big.yaml", 3) for name, line, _, c in found if c == code), found
    assert peak < 50_000_000


def test_huge_numbers_in_the_dsl(tmp_path):
    path = write(tmp_path, "dsl.yaml", """
        extends: standard
        name: dsl
        cards:
          "5": forward 1000000000000
          "8": backward 99999999999999999999999999
          "7": split 1000001
        win: home(team) == 1000000000
    """)
    found, error = problems_of(path)
    assert ("dsl.yaml", 4, 16, "SR303") in found
    assert ("dsl.yaml", 5, 17, "SR303") in found
    assert ("dsl.yaml", 6, 14, "SR303") in found
    assert ("dsl.yaml", 7, 20, "SR303") in found
    assert f"at most {dsl.MAX_NUMBER}" in str(error)


def test_steps_beyond_a_lap_are_refused(tmp_path):
    """programs step bound: 1 .. T + L + 1 (one lap plus the safety zone and Home)."""
    path = write(tmp_path, "lap.yaml", 'extends: standard\nname: lap\ncards: {"5": forward 67, "8": backward 0}\n')
    found, error = problems_of(path)
    assert [c for *_, c in found] == ["SR508", "SR508"]
    assert "between 1 and 66" in str(error)
    game = load_game(str(write(tmp_path, "ok.yaml", 'extends: standard\nname: ok\ncards: {"5": forward 66}\n')))
    assert game.card_sources[game.card_index["5"]] == "forward 66"


# ---- extends -------------------------------------------------------------------------------------
def test_extends_cycles_and_depth(tmp_path):
    write(tmp_path, "self.yaml", "extends: self.yaml\nname: self\n")
    found, error = problems_of(tmp_path / "self.yaml")
    assert found == [("self.yaml", 1, 10, "SR402")] and "self.yaml -> " in str(error)
    write(tmp_path, "a.yaml", "extends: [standard, b.yaml]\nname: a\n")
    write(tmp_path, "b.yaml", "extends: c.yaml\n")
    write(tmp_path, "c.yaml", "extends: a.yaml\n")
    found, error = problems_of(tmp_path / "a.yaml")
    assert found == [("c.yaml", 1, 10, "SR402")] and "a.yaml -> " in str(error)
    depth = loader.MAX_EXTENDS_DEPTH + 3
    for i in range(depth):
        write(tmp_path, f"chain{i}.yaml", f"extends: chain{i + 1}.yaml\n" if i + 1 < depth else "extends: standard\n")
    found, error = problems_of(tmp_path / "chain0.yaml")
    assert [c for *_, c in found] == ["SR402"]
    assert f"deeper than {loader.MAX_EXTENDS_DEPTH}" in str(error)


def test_names_the_system_refuses_are_missing_files(tmp_path):
    """Regression (fuzzing): a 300-character `extends:` name raised OSError (name too long)."""
    path = write(tmp_path, "long.yaml", "extends: " + "x" * 300 + "\nname: long\n")
    assert problems_of(path)[0] == [("long.yaml", 1, 10, "SR401")]
    with pytest.raises(UsageError, match="no variant 'yyy"):
        load_variant("y" * 5000)


# ---- DSL nesting and cost ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, text",
    [
        ("expr", "(" * 10_000 + "1" + ")" * 10_000),
        ("expr", "- " * 10_000 + "1"),
        ("expr", "- " * 1999 + "1"),
        ("expr", "not " * 999 + "true"),
        ("expr", " and ".join(["true"] * 400)),
        ("expr", "1" + " + 1" * 900),
        ("effect", "forward 1" + " then forward 1" * 260),
        ("effect", "(" * 41 + "enter" + ")" * 41),
    ],
)
def test_dsl_nested_deep_is_a_clear_error(start, text):
    """Regression (fuzzing): 2,000 nested operators raised RecursionError. Every nesting
    (operators and parentheses) counts against MAX_NESTING; the text against MAX_TEXT."""
    parse = dsl.parse_effect if start == "effect" else dsl.parse_expr
    with time_limit(GUARD):
        with pytest.raises(dsl.DslError) as caught:
            parse(text)
    assert caught.value.code == "SR303"
    assert 0 <= caught.value.offset <= len(text)
    assert str(dsl.MAX_NESTING) in caught.value.message or str(dsl.MAX_TEXT) in caught.value.message


def test_nesting_up_to_the_limit_parses():
    depth = dsl.MAX_NESTING - 1
    assert isinstance(dsl.parse_expr("- " * depth + "1"), dsl.Neg)
    assert isinstance(dsl.parse_effect(" | ".join(["enter"] * 500)), dsl.Choice)  # alternatives: one level


def test_deep_dsl_in_a_rule_file_points_into_the_text(tmp_path):
    path = write(tmp_path, "deep.yaml", f"extends: standard\nname: deep\nwin: {'not ' * 500}true\n")
    found, error = problems_of(path)
    assert found == [("deep.yaml", 3, 6 + 4 * dsl.MAX_NESTING, "SR303")]
    assert "nested more than" in str(error)


@pytest.mark.parametrize(
    "field, text",
    [
        ("cards", "forward 1" + " then forward 1" * 19),                          # 4^20 outcomes
        ("cards", "(forward 1 | backward 1)" + " then (forward 1 | backward 1)" * 9),
        ("cards", "split 66 among any"),
        ("win", "sum(a in players: " * 12 + "home(a)" + ")" * 12 + " > 0"),    # 4^12 evaluations
    ],
)
def test_effects_and_expressions_too_costly_to_evaluate_are_refused(tmp_path, field, text):
    """Regression (fuzzing): a card `forward 1 then forward 1 then ...` made the first move
    that had pawns out hang (4^20 outcomes). Now a compile-time bound (programs.MAX_WORK)."""
    value = f'cards: {{"1": {json.dumps(text)}}}' if field == "cards" else f"win: {json.dumps(text)}"
    path = write(tmp_path, "cost.yaml", f"extends: standard\nname: cost\n{value}\n")
    found, error = problems_of(path)
    assert [(line, code) for _, line, _, code in found] == [(3, "SR303")]
    assert f"at most {programs.MAX_WORK:,}" in str(error)


def test_costly_but_bounded_rules_still_load(tmp_path):
    """The bound leaves room for real rules: a split among any number of a team's 8 pawns (T4
    option), a long chain of alternatives, nested aggregates over the players."""
    path = write(tmp_path, "ok.yaml", """
        extends: standard
        name: ok
        teams: [[red, yellow], [blue, green]]
        rules: {control: team}
        cards:
          "7": forward 7 | split 7 among any
          "1": enter | forward 1 | (forward 1) then (forward 1) then (forward 1) then draw_again
        win: "sum(a in team: sum(b in players: home(b) - home(a))) >= 0 and home(team) == pawns(team)"
    """)
    game = load_game(str(path))
    assert game.card_sources[game.card_index["7"]] == "forward 7 | split 7 among any"


def test_largest_board_compiles_in_bounded_time_and_memory():
    """Regression (fuzzing): tables were built step by step (O(steps) per square), so
    `forward 2451` on the largest board took minutes. Now O(colours x squares) per table."""
    colours = [f"c{i}" for i in range(model.MAX_COLOURS)]
    side, safety = model.MAX_SIDE, model.MAX_SAFETY
    lap = side * len(colours) + safety + 1
    data = {"colours": colours, "players": {"min": 2, "max": len(colours)}, "pawns": model.MAX_PAWNS,
            "board": {"side_length": side, "start_exit": 4, "safety_entry": 2, "safety_length": safety, "slides": []},
            "deck": {"a": 4, "b": 4}, "cards": {"a": f"enter | forward {lap}", "b": f"backward {lap} | forward 100"}}
    games = []
    peak = peak_memory(lambda: games.append(_compile_layer(data)))
    game = games[0]
    assert peak < 200_000_000
    state = game.new_game(1, players=len(colours))
    with time_limit(GUARD):
        for _ in range(50):
            state = game.draw(state) if game.needs_draw(state) else state
            state = game.apply(state, game.legal_moves(state)[0])


def test_a_game_on_the_largest_board_builds_only_the_moves_its_pawns_can_make():
    """Regression (LIMITS.md): the moves of every square were built for each card and colour
    when the card was first played, so one 12-player game of the standard cards on the
    largest board took about 1.2 GB (a file of 111 `forward` steps within every limit ran
    out of 6 GB). Rows of squares on such a board are now made square by square as pawns
    stand on them: a whole game, split 7 included, stays within tens of megabytes."""
    colours = [f"c{i}" for i in range(model.MAX_COLOURS)]
    data = {"colours": colours, "players": {"min": 2, "max": len(colours)},
            "board": {"side_length": model.MAX_SIDE, "start_exit": 4, "safety_entry": 2, "safety_length": 5,
                      "slides": [{"from": 1, "to": 4}, {"from": 9, "to": 13}]}}
    game = _compile_layer(data)
    finals = []
    with time_limit(GUARD):
        peak = peak_memory(lambda: finals.append(play_game_of(game, len(colours), plies=3000)))
    assert finals[0].plies == 3000 or finals[0].winner is not None
    assert peak < 60_000_000


def play_game_of(game, players: int, plies: int):
    return runner.play_game(game, game.new_game(1, players=players),
                            [make_player("random", 1, seat) for seat in range(players)], max_plies=plies)


def test_split_tables_are_built_once_per_colour_not_once_per_player():
    """Regression (fuzzing, geometry): each player's split search built the second-part
    tables of every colour, so `split 7` with every seat taken needed colours x colours
    tables (3.2 GB for 11 players on 11 sides of 200; 210 MB here). Every player's search
    now reads one shared table per colour (48 MB here, all six players together)."""
    colours = [f"c{i}" for i in range(6)]
    side = model.MAX_SIDE
    data = {"colours": colours, "players": {"min": 2, "max": len(colours)}, "pawns": 2,
            "board": {"side_length": side, "start_exit": 4, "safety_entry": 2, "safety_length": 5, "slides": []},
            "deck": {"a": 4, "b": 4}, "cards": {"a": "enter | forward 1", "b": "split 7"}}
    game = _compile_layer(data)
    split = game.card_names.index("b")
    seats = tuple(range(len(colours)))
    placement = tuple((c * side + 10, c * side + 20) for c in seats)

    def every_players_split() -> None:
        with time_limit(GUARD):
            for turn in seats:
                moves = game.legal_moves(game.position(placement, seats, turn, card=split))
                assert len(moves) > 2 and all(len(move.events) == 2 for move in moves)

    assert peak_memory(every_players_split) < 100_000_000


def _compile_layer(data):
    with time_limit(GUARD):
        return load_game("standard", layers=[load_yaml(json.dumps(data), "layer.yaml")])


def test_a_split_among_more_pawns_than_it_has_steps_is_among_any():
    """Regression (fuzzing): `split 2 among 1000000` made a million parts for every listing of
    its card (150 moves of a game took 12 s). A part takes one step at least, so a split of N
    steps has N parts at most: the card lists what `split 2 among any` lists (H14), as fast."""
    huge = _compile_layer({"cards": {"11": "split 3 among 1000000"}})
    any_ = _compile_layer({"cards": {"11": "split 3 among any"}})
    state = huge.new_game(5, players=4)
    listed = 0
    with time_limit(GUARD):
        while state.winner is None and state.plies < 400:
            state = huge.draw(state) if huge.needs_draw(state) else state
            moves = huge.legal_moves(state)
            assert moves == any_.legal_moves(state)
            listed += huge.card_names[state.card] == "11"
            state = huge.apply(state, moves[state.plies % len(moves)])
    assert listed >= 10


def test_movement_tables_have_a_memory_budget():
    """A split of 2,451 steps on the largest board would need 2,451 tables of 36,000
    entries (hundreds of megabytes); refused by programs.MAX_TABLE_CELLS."""
    colours = [f"c{i}" for i in range(model.MAX_COLOURS)]
    data = {"colours": colours, "players": {"min": 2, "max": 12}, "pawns": 2,
            "board": {"side_length": model.MAX_SIDE, "start_exit": 4, "safety_entry": 2, "safety_length": model.MAX_SAFETY},
            "deck": {"a": 4}, "cards": {"a": "enter | split 2451"}}
    with time_limit(GUARD), pytest.raises(RuleFileError) as caught:
        load_game("standard", layers=[load_yaml(json.dumps(data), "layer.yaml")])
    [problem] = caught.value.problems
    assert problem.code == "SR303" and f"at most {programs.MAX_TABLE_CELLS:,}" in problem.message
    assert (problem.line, problem.col) == (1, json.dumps(data).index("enter | split") + 9)


def test_compiled_games_are_not_kept_alive_by_caches():
    """Regression: an lru_cache on Layout.forward kept every layout ever compiled alive (a
    leak in long simulations and fuzzing)."""
    game = load_game("standard")
    ref = weakref.ref(game.layout)
    del game
    gc.collect()
    assert ref() is None


# ---- games, positions, logs ------------------------------------------------------------------
def test_a_game_that_cannot_end_stops_at_max_plies(tmp_path):
    """runner.DEFAULT_MAX_PLIES bounds play_game; a game where no pawn can ever reach Home."""
    path = write(tmp_path, "stuck.yaml", """
        name: stuck
        colours: [red, blue]
        players: {min: 2, max: 2}
        pawns: 2
        board: {side_length: 15, start_exit: 4, safety_entry: 2, safety_length: 5}
        deck: {"1": 5, "4": 4}
        cards: {"1": enter, "4": backward 4}
        win: home(player) == pawns(player)
    """)
    import inspect

    from sorry_rules.players.protocol import RandomPlayer

    game = load_game(str(path))
    assert inspect.signature(runner.play_game).parameters["max_plies"].default == runner.DEFAULT_MAX_PLIES
    record = runner.GameRecord(1, (), 0)
    with time_limit(GUARD):
        final = runner.play_game(game, game.new_game(1, players=2), [RandomPlayer(1, s) for s in range(2)],
                                 max_plies=2_000, record=record)
    assert final.winner is None and final.plies == 2_000 and not record.finished


def test_position_file_size_limit(tmp_path):
    big = tmp_path / "pos.json"
    big.write_bytes(b" " * (position.MAX_POSITION_BYTES + 10) + b"{}")
    with pytest.raises(PositionError, match="larger than"):
        position.read_position_file(str(big))


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000, "deeper than"),
    ('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", "deeper than"),
    ('{"players": ' + "1" * 5000 + "}", "number too long"),
])
def test_deeply_nested_position_file_is_a_clear_error(tmp_path, text, words):
    """Regression (limits): json's decoder raised RecursionError for deep nesting and
    ValueError for numbers of more than 4,300 digits: a traceback at the CLI."""
    path = tmp_path / "deep.json"
    path.write_text(text)
    with time_limit(GUARD), pytest.raises(PositionError, match=words):
        position.read_position_file(str(path))
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, ["moves", "--state", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # no traceback


def test_game_log_size_limit(tmp_path):
    from sorry_rules.base.errors import SaveFileError

    big = tmp_path / "log.json"
    big.write_bytes(b" " * (limits.MAX_RECORD_BYTES + 10))
    with pytest.raises(SaveFileError, match="larger than"):
        gamelog.read_log(big)


# ---- docs/LIMITS.md and base/limits.py ---------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
#: The modules that enforce a limit under a local name, and the constant of base.limits it is.
ALIASES = {
    (yamlsafe, "MAX_BYTES"): "MAX_YAML_BYTES", (yamlsafe, "MAX_DEPTH"): "MAX_YAML_DEPTH",
    (yamlsafe, "MAX_NODES"): "MAX_YAML_NODES", (yamlsafe, "MAX_SCALAR_CHARS"): "MAX_SCALAR_CHARS",
    (loader, "MAX_EXTENDS_DEPTH"): "MAX_EXTENDS_DEPTH", (model, "MAX_COLOURS"): "MAX_COLOURS",
    (model, "MAX_PAWNS"): "MAX_PAWNS", (model, "MAX_SIDE"): "MAX_SIDE", (model, "MAX_SAFETY"): "MAX_SAFETY",
    (model, "MAX_CARD_COPIES"): "MAX_CARD_COPIES", (model, "MAX_CARD_KINDS"): "MAX_CARD_KINDS",
    (model, "MAX_HAND"): "MAX_HAND", (dsl, "MAX_TEXT"): "MAX_DSL_TEXT", (dsl, "MAX_NESTING"): "MAX_DSL_NESTING",
    (dsl, "MAX_NUMBER"): "MAX_DSL_NUMBER", (programs, "MAX_WORK"): "MAX_WORK",
    (programs, "MAX_TABLE_CELLS"): "MAX_TABLE_CELLS", (runner, "DEFAULT_MAX_PLIES"): "DEFAULT_MAX_PLIES",
    (position, "MAX_POSITION_BYTES"): "MAX_POSITION_BYTES",
}


def _doc_rows():
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*`(\w+)\.(\w+)`\s*\|\s*([\d,_]+)\s*\|(.*)\|\s*(SR\d{3}|[A-Za-z]+Error|-)\s*\|\s*$", line)
        if match:
            module, name, value, _, code = match.groups()
            rows[(module, name)] = (int(value.replace(",", "").replace("_", "")), code)
    return rows


def test_limits_doc_states_every_limit_with_its_value():
    """Every MAX_* constant of base.limits is a row of docs/LIMITS.md with its value."""
    rows = _doc_rows()
    constants = {("limits", name): getattr(limits, name) for name in dir(limits)
                 if re.fullmatch(r"(MAX|DEFAULT_MAX)_[A-Z_]+", name) and isinstance(getattr(limits, name), int)}
    assert len(constants) >= 20, "no limit constants found"
    missing = sorted(set(constants) - set(rows))
    assert not missing, f"docs/LIMITS.md has no row for {missing}"
    for key, value in constants.items():
        assert rows[key][0] == value, f"docs/LIMITS.md says {key[0]}.{key[1]} = {rows[key][0]}, the code {value}"
    stale = sorted(set(rows) - set(constants))
    assert not stale, f"docs/LIMITS.md lists constants that do not exist: {stale}"


def test_every_limit_is_written_in_base_limits_only():
    """One place for limits: the modules that enforce one use base.limits' value, and no
    module of the package assigns a number to a MAX_* name (or writes the ply limit) itself."""
    for (module, local), name in ALIASES.items():
        assert getattr(module, local) == getattr(limits, name), f"{module.__name__}.{local} is not limits.{name}"
    assert inspect.signature(runner.play_game).parameters["max_plies"].default == limits.DEFAULT_MAX_PLIES
    own = re.compile(r"^\s*(DEFAULT_)?MAX_\w+\s*(:[^=]*)?=\s*[\d(]", re.M)
    for path in sorted((ROOT / "sorry_rules").rglob("*.py")):
        if path.name == "limits.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not own.search(text), f"{path.relative_to(ROOT)} defines a limit of its own: put it in base/limits.py"
        assert "20_000" not in text and "20000" not in text, f"{path.relative_to(ROOT)} writes the ply limit itself"


def test_limits_doc_codes_are_known():
    from sorry_rules.base.errors import CODES

    for (module, name), (_, code) in _doc_rows().items():
        assert code in CODES or code.endswith("Error") or code == "-", f"{module}.{name}: unknown code {code}"


def test_effects_following_a_move_are_bounded_together(tmp_path):
    """Each `after:` `then:` effect is played after every way of the move and of the effects
    before it, so their ways multiply: three `split ... among any` after every card once made
    `moves` run for minutes. Bounded together (limits.MAX_FOLLOW_WORK), at the effect where the
    chain first passes the bound; `validate` says what loading says."""
    path = write(tmp_path, "follow.yaml", """
        extends: standard
        after:
          bonus1: {when: moves(player) > 0, then: split 7 among any}
          bonus2: {when: moves(player) > 0, then: split 5 among any}
        """)
    with time_limit(GUARD), pytest.raises(RuleFileError) as raised:
        load_game(str(path))
    [problem] = raised.value.problems
    assert (problem.line, problem.code) == (4, "SR303") and "after.bonus2.then" in problem.message
    assert f"at most {limits.MAX_FOLLOW_WORK:,}" in problem.message
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "follow.yaml:4:" in result.output and "[SR303]" in result.output
    assert load_game("parcheesi").name  # six bonus effects that never all fire on one throw stay within it


def test_validate_bounds_a_card_with_its_alternatives_as_loading_does(tmp_path):
    """A card with the alternatives `also:` adds to it may pass the bound once each part
    does: loading refused such a file that `validate` called valid."""
    heavy = "(split 7 among 3) then (forward 2 unmoved | backward 1 moved) if can(split 7 among 3)"
    also = "\n".join(f"  a{i}: {{cards: ['3'], effect: '{heavy}'}}" for i in range(5))
    path = write(tmp_path, "also.yaml", f"extends: standard\nalso:\n{also}\n")
    with pytest.raises(RuleFileError) as raised:
        load_game(str(path))
    loaded = [(p.line, p.col, p.code) for p in raised.value.problems]
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert result.exit_code == 1
    said = [(p["line"], p["col"], p["code"]) for p in json.loads(result.output)["problems"]]
    assert said == loaded == [(7, 31, "SR303")]  # the last alternative's effect (after "  a4: {cards: [.3.], effect: .")
