"""Fuzzing of what a hostile author, a tampered file or a flaky disk can hand sorry-rules beyond
the rule files of `fuzzlib`: grid rule files, counters with arithmetic, movement geometry on
boards of every size, position files, saved games and results files (used by
tests/test_fuzz_hostile.py and tools/fuzz_rules.py).

Each `case_<kind>(chooser, work)` makes one case from a chooser (`fuzzlib.RandomChooser` or
`DataChooser`) and returns a `fuzzlib.Finding`, or None when sorry-rules behaved: the only
failures allowed are the error of that input (RuleFileError with every problem inside the
file it names, PositionError or UsageError, SaveFileError, ResultsFileError); anything else
(a traceback), a case over its CPU-time guard (a hang) or a broken invariant of a short game
played with what was accepted is a finding. `KINDS` lists the kinds.
"""

from __future__ import annotations

import json
import traceback
from functools import lru_cache
from pathlib import Path

from sorry_rules.base import limits
from sorry_rules.base.errors import PositionError, RuleFileError, SaveFileError, UsageError
from sorry_rules.compiler import compile_variant, load_game
from sorry_rules.records.record import checksum_of
from sorry_rules.rules.loader import load_variant
from sorry_rules.rules.yamlsafe import load_yaml

from . import fuzzlib as F

KINDS = ("grid", "counters", "geometry", "positions", "saves", "results")

_BIG = "@4400-digits@"  # a number of 4,400 digits, written into the text by `_dumps`
_HUGE = (10**6, 10**9, 10**40, _BIG, -(10**30), 2**63, 1e308, -1.5, 0, 1)


def _dumps(value) -> str:
    """JSON text of `value`, `_BIG` written as a number of 4,400 digits."""
    return json.dumps(value).replace(json.dumps(_BIG), "9" * 4400)
_WRITABLE = (10**6, 10**9, 10**40, -(10**30), 2**63, 7)  # numbers a DSL text may be given (digits)


def _guarded(case: dict, run, allowed=()):
    """Run `run()` under the CPU-time guard; a Finding for a hang or an exception not in
    `allowed`, else None (the exception in `allowed` is counted as refused)."""
    kind = case["mode"]
    try:
        with F.time_limit(F.CASE_SECONDS):
            run()
        F.STATS[f"{kind}:accepted"] += 1
    except allowed:
        F.STATS[f"{kind}:refused"] += 1
    except F.Hang as error:
        return F.Finding("hang", str(error), case)
    except AssertionError as error:
        return F.Finding("invariant", str(error)[:3000], case)
    except Exception:
        return F.Finding("exception", traceback.format_exc(limit=8), case)
    return None


def _compile_layer(case: dict, base: str, text: str, seed: int):
    """Compile `base` with the overlay `text` (an in-memory layer named fuzz.yaml): its errors
    must be located inside the overlay or the base; a variant that compiles plays a short game."""
    sources = {"fuzz.yaml": text}
    try:
        with F.time_limit(F.CASE_SECONDS):
            layer = load_yaml(text, "fuzz.yaml")
            game, _ = compile_variant(load_variant(base, layers=[layer]))
    except RuleFileError as error:
        F.STATS[f"{case['mode']}:refused"] += 1
        return F._check_error(error, sources, case)
    except F.Hang as error:
        return F.Finding("hang", f"loading: {error}", case)
    except Exception:
        return F.Finding("exception", traceback.format_exc(limit=8), case)
    F.STATS[f"{case['mode']}:compiled"] += 1
    return F.play_short(game, seed, case, case["mode"])


# ---- grid rule files --------------------------------------------------------------------------------
_GRID_PRIMITIVES = ("place on card", "place on empty", "remove opponent", "remove other unprotected", "remove own",
                    "remove partner", "place on card", "place on empty")
_GRID_COUNTS = ("chips(team) > 3", "sequences(opponents) < 1", "sides == 2", "chips(player) >= chips(opponents)",
                "sum(c in opponents: chips(c)) > 4", "max(c in players: sequences(c)) >= 1", "true")


def grid_condition(chooser, depth: int) -> str:
    """A condition on a grid position: the counts above, `can(effect)`, `not`, `and`, `or`."""
    if depth <= 0 or chooser.chance(40):
        return chooser.choice(_GRID_COUNTS)
    how = chooser.choice(["can", "can", "not", "and", "or"])
    if how == "can":
        return f"can({grid_effect(chooser, depth - 1)})"
    if how == "not":
        return f"not ({grid_condition(chooser, depth - 1)})"
    return f"({grid_condition(chooser, depth - 1)}) {how} ({grid_condition(chooser, depth - 1)})"


def grid_effect(chooser, depth: int) -> str:
    if depth <= 0 or chooser.chance(30):
        return chooser.choice(_GRID_PRIMITIVES)
    a, b = grid_effect(chooser, depth - 1), grid_effect(chooser, depth - 1)
    how = chooser.choice(["then", "|", "if", "paren"])
    if how == "if":
        return f"({a}) if {grid_condition(chooser, depth - 1)}"
    if how == "paren":
        return f"({a} | {b}) then {grid_effect(chooser, depth - 1)}"
    return f"{a} {how} {b}"


def case_grid(chooser, work: Path) -> F.Finding | None:
    """A grid variant whose cards are generated grid effects (now and then mutated) and whose
    board and win condition may change too."""
    base = chooser.choice(["sequence", "grid/mini-grid.yaml", "grid/sequence-four.yaml", "grid/sequence-quick.yaml"])
    lines = ["name: fuzz grid", "cards:"]
    cards = _cards_of(base)
    for card in {chooser.choice(cards) for _ in range(chooser.integer(1, 3))}:
        text = grid_effect(chooser, chooser.integer(0, 4))
        if chooser.chance(20):
            text = F.mutate_text(chooser, text)
        lines.append(f"  {card}: {json.dumps(text)}")
    if chooser.chance(30):
        lines.append(f"win: {json.dumps(grid_condition(chooser, 1) + ' or sequences(team) >= 2')}")
    if chooser.chance(20):
        lines.append(f"board: {{lines: {{length: {chooser.integer(2, 12)}, shared: {chooser.integer(0, 3)}}}}}")
    text = "\n".join(lines) + "\n"
    return _compile_layer({"mode": "grid", "base": base, "text": text}, base, text, chooser.integer(0, 10**6))


@lru_cache(maxsize=None)
def _cards_of(base: str) -> list:
    return sorted(load_variant(base).variant.cards)


# ---- counters with arithmetic -----------------------------------------------------------------------
def _counter_expr(chooser, names: list, depth: int) -> str:
    if depth <= 0 or chooser.chance(25):
        return chooser.choice([f"{chooser.choice(names)}({chooser.choice(['player', 'team', 'opponents', 'players'])})",
                               str(chooser.choice([0, 1, 2, 7, 999_999, 1_000_000])), "bumps(opponents)", "home(player)"])
    a, b = _counter_expr(chooser, names, depth - 1), _counter_expr(chooser, names, depth - 1)
    op = chooser.choice(["*", "*", "+", "-", "*"])
    return f"({a} {op} {b})" if not chooser.chance(10) else f"-{a}"


def case_counters(chooser, work: Path) -> F.Finding | None:
    """Counters with ranges (sometimes off) and `after:` additions that square, multiply and
    negate counters, to the mover or to other players (`to:`); win and scoring read them."""
    names = [f"c{i}" for i in range(chooser.integer(1, 3))]
    lines = ["name: fuzz counters", "counters:"]
    for name in names:
        fields = {}
        if chooser.chance(60):
            fields["start"] = chooser.choice(_HUGE) if chooser.chance(15) else chooser.integer(-5, 5)
        if chooser.chance(40):
            fields["min"] = chooser.choice((-10, 0, -(10**6), -(10**7), 3)) if chooser.chance(20) else chooser.integer(-50, 0)
        if chooser.chance(40):
            fields["max"] = chooser.choice((10, 100, 10**6, 10**7, -3)) if chooser.chance(20) else chooser.integer(5, 500)
        lines.append(f"  {name}: {_dumps(fields)}")
    lines.append("after:")
    for i in range(chooser.integer(1, 3)):
        adds = {name: _counter_expr(chooser, names, chooser.integer(0, 4)) for name in names if chooser.chance(70)}
        when = chooser.choice(["true", "bumps(opponents) > 0", f"{names[0]}(player) < 1000", "home(player) > 0"])
        consequence = {'when': when, 'add': adds or {names[0]: '1'}}
        if chooser.chance(40):  # other players' counters
            consequence["to"] = chooser.choice(["every", "opponent", "partner", "other", "bumped", "bumped opponent",
                                                "bumped own", "mover", "opponents"])
        lines.append(f"  a{i}: {json.dumps(consequence)}")
    if chooser.chance(50):
        lines.append(f"win: {json.dumps('home(team) == pawns(team) or ' + names[0] + '(player) > ' + str(chooser.choice(_WRITABLE)))}")
    if chooser.chance(40):
        lines.append(f"scoring: {{fz: {json.dumps({'kind': 'formula', 'for': 'every', 'points': _counter_expr(chooser, names, 2)})}}}")
    text = "\n".join(lines) + "\n"
    if chooser.chance(15):
        text = F.mutate_text(chooser, text, 1)
    base = chooser.choice(["standard", "points"])
    return _compile_layer({"mode": "counters", "base": base, "text": text}, base, text, chooser.integer(0, 10**6))


# ---- geometry on boards of every size ---------------------------------------------------------------
def case_geometry(chooser, work: Path) -> F.Finding | None:
    """Turns and blockers (`fuzzlib.SchemaMutator.geometry`) on boards from small to the
    largest, with moves up to a lap and splits."""
    colours = chooser.integer(2, limits.MAX_COLOURS)
    side = chooser.choice([5, 15, 60, limits.MAX_SIDE])
    safety = chooser.choice([0, 1, 5, limits.MAX_SAFETY])
    lap = side * colours + safety + 1
    steps = chooser.choice([1, 4, 12, lap // 2, lap, lap + 1])
    names = [f"c{i}" for i in range(colours)]
    gone = dict.fromkeys(("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"))  # standard's cards removed
    data = {"name": "fuzz geometry", "colours": names, "players": {"min": 2, "max": colours},
            "teams": None, "seating": None, "pawns": chooser.integer(1, 4),
            "board": {"side_length": side, "start_exit": min(4, side - 1), "safety_entry": min(2, side - 1),
                      "safety_length": safety, "slides": []},
            "deck": {**gone, "a": 4, "b": 4, "c": 2}, "unused_effects": None,
            "cards": {**gone, "a": "enter | forward 1", "b": f"forward {steps} | backward {chooser.choice([1, 4, steps])}",
                      "c": chooser.choice([f"split {min(steps, 7)}", "switch", "sorry", "forward 2 then forward 2"])},
            "geometry": _mutator().geometry(chooser)}
    text = "\n".join(f"{key}: {json.dumps(value)}" for key, value in data.items()) + "\n"
    return _compile_layer({"mode": "geometry", "text": text}, "standard", text, chooser.integer(0, 10**6))


@lru_cache(maxsize=None)
def _mutator():
    return F.SchemaMutator()


# ---- positions --------------------------------------------------------------------------------------
_SQUARES = ("start", "home", "track:0", "track:12", "track:59", "track:60", "safety:1", "safety:5", "safety:6",
            "track:²", "track:" + "9" * 50, "track:-1", "", "A1", "c3", "J10", "K11")


@lru_cache(maxsize=None)
def _position_games() -> tuple:
    return (("standard", load_game("standard")),
            ("marks", load_game("standard", ("house/freeze.yaml", "house/mercy-start.yaml"))),
            ("points", load_game("points", ("house/mulligan-8.yaml", "house/bump-points.yaml"))),
            ("take", load_game("standard", ("house/draw-two-keep-one.yaml",))),
            ("geometry", load_game("standard", ("house/bounce-back.yaml", "house/no-passing-opponents.yaml"))),
            ("ludo", load_game("ludo", ("ludo/blocks.yaml",))),
            ("parcheesi", load_game("parcheesi")),
            ("sequence", load_game("sequence")))


def _position_data(chooser, grid: bool, names=()) -> dict:
    colours = ["red", "blue", "yellow", "green"] if not grid else ["blue", "green", "red"]
    seated = colours[: chooser.integer(2, len(colours))] if chooser.chance(90) else colours[: chooser.integer(0, 1)] * 2
    cards = ["1", "2", "7", "8", "11", "sorry"] if not grid else ["4H", "JD", "2S", "QC", "JS"]
    if "1+1" in names:  # a throw of two dice, in either order
        cards = ["3+4", "4+3", "5+5", "1+2", "6+6", "2+5"]
    if chooser.chance(10):
        cards = cards + ["x", "4H", "1"]
    data: dict = {"players": seated}
    if chooser.chance(80):
        data["turn"] = chooser.choice(seated or colours)
    if grid:
        data["hand"] = [chooser.choice(cards) for _ in range(chooser.choice([0, 1, 3, 5, 7, 7, 30, 5000]))]
        cells = [f"{col}{row}" for col in "ABCDEFGHIJ" for row in range(1, 11)] + list(_SQUARES) * (chooser.chance(10))
        data["chips"] = {c: [chooser.choice(cells) for _ in range(chooser.integer(0, 12))] for c in seated
                         if chooser.chance(70)}
    else:
        if chooser.chance(50):
            data["card"] = chooser.choice(cards) if chooser.chance(70) else [chooser.choice(cards) for _ in range(3)]
        else:
            data["hand"] = [chooser.choice(cards) for _ in range(chooser.choice([0, 1, 3, 5, 5, 21, 100_000]))]
        squares = ["start", "home"] + [f"track:{i}" for i in range(60)] + [f"safety:{i}" for i in range(1, 6)]
        squares += list(_SQUARES) * chooser.chance(15)
        data["pawns"] = {c: [chooser.choice(squares) for _ in range(chooser.integer(0, 4))] for c in seated
                         if chooser.chance(70)}
        if chooser.chance(30):
            data["counters"] = {chooser.choice(colours): {chooser.choice(["bumps_made", "x"]): chooser.choice(_HUGE)}}
        if chooser.chance(30):
            data["marks"] = {chooser.choice(["frozen", "mercy", "x"]): [
                {"colour": chooser.choice(colours), "square": chooser.choice(_SQUARES), "by": chooser.choice(colours)}
                for _ in range(chooser.integer(0, 3))]}
        if chooser.chance(15):
            data["redraws"] = chooser.choice(_HUGE)
    return data


def case_positions(chooser, work: Path) -> F.Finding | None:
    """A position (mostly well-formed, then damaged as data or as bytes) read from a file and
    checked against a variant, then its moves listed: PositionError or UsageError only."""
    from sorry_rules.authoring.gridoracle import grid_moves_report
    from sorry_rules.authoring.oracle import moves_report
    from sorry_rules.records.gridposition import parse_grid_position
    from sorry_rules.records.position import parse_position, read_position_file

    name, game = chooser.choice(_position_games())
    grid = name == "sequence"
    raw = _dumps(_position_data(chooser, grid, game.card_names)).encode()
    if chooser.chance(25):
        raw = F.mutate_bytes(chooser, raw, [raw])
    path = work / ("pos.yaml" if chooser.chance(20) else "pos.json")
    path.write_bytes(raw)
    case = {"mode": "positions", "variant": name, "data": raw.decode("latin-1")[:20000]}

    def run():
        found = read_position_file(str(path))
        if grid:
            report = grid_moves_report(game, parse_grid_position(game, found.data, found.origins))
        else:
            position = parse_position(game, found.data, None, found.origins)
            seats = position.state.seats
            _within_holds(game, position.state.placement, seats)
            report = moves_report(game, position)
            for move in game.legal_moves(position.state) if position.state.card is not None else ():
                _within_holds(game, move.placement, seats)
        json.dumps(report)

    return _guarded(case, run, (PositionError, UsageError))


def _within_holds(game, placement, seats) -> None:
    """Every pawn of the seated colours counted once, no square above what it holds, colours
    together only where they may share."""
    layout = game.layout
    assert all(len(placement[c]) == game.pawns for c in seats), "a pawn lost or duplicated"
    on: dict = {}
    for c, squares in enumerate(placement):
        for sq in squares:
            if sq < layout.X:
                on.setdefault(sq, []).append(c)
    for sq, colours in on.items():
        assert len(colours) <= layout.hold[sq], f"{len(colours)} pawns on {layout.name(sq)}, which holds {layout.hold[sq]}"
        assert len(set(colours)) == 1 or layout.share[sq], f"colours together on {layout.name(sq)}"


# ---- saved games ------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _records() -> tuple:
    """Game records of a track game and a grid game, as JSON data."""
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game
    from sorry_rules.players.runner import GameRecord
    from sorry_rules.records.record import to_json
    from sorry_rules.records.savefile import new_save

    out = []
    for spec, players in (("standard", 3), ("sequence", 2)):
        game = load_game(spec)
        state = game.new_game(5, players=players)
        record = GameRecord(5, state.seats, state.turn)
        final = play_game(game, state, [make_player("random", 5, s) for s in range(players)], max_plies=30, record=record)
        saved = new_save(game, spec, (), 5, state, ["bot:random"] * players, 200)
        saved.choices = list(record.choices)
        saved.reached(final)
        out.append(json.loads(to_json(saved)))
    return tuple(out)


def _mutate_json(chooser, data):
    """`data` with up to three values replaced, removed or added (any JSON, huge numbers,
    deep nesting), the checksum made right again half of the time (a tampered file)."""
    data = json.loads(json.dumps(data))
    for _ in range(chooser.choice([0, 1, 1, 2, 3])):
        paths = list(F._paths(data))
        if not paths:
            break
        path = chooser.choice(paths)
        what = chooser.integer(0, 5)
        if what == 0:
            F._delete(data, path)
        elif what == 1:
            F._set(data, path, chooser.choice(_HUGE + (None, "", "x" * 100, True, [], {})))
        elif what == 2:
            F._set(data, path, "[" * chooser.choice([10, 100, 70]) + "1" + "]" * 3)
        elif what == 3:
            F._set(data, path, chooser.choice(["/etc/passwd", "../../../etc/shadow", "standard", "sequence",
                                               "house/freeze.yaml", "nope"]))
        elif what == 4:
            F._set(data, path, [chooser.integer(-3, 400) for _ in range(chooser.choice([0, 3, 300]))])
        else:
            F._set(data, path, json.loads(json.dumps(chooser.choice([[0, 1], {"a": 1}, 1.5, -1]))))
    if isinstance(data, dict) and chooser.chance(50) and _BIG not in json.dumps(data):
        data["checksum"] = checksum_of(data)
    return data


def case_saves(chooser, work: Path) -> F.Finding | None:
    """A saved game, tampered with (its checksum made right again or not) or damaged as bytes,
    read and restored: SaveFileError only."""
    from sorry_rules.records.files import read_record
    from sorry_rules.records.restore import restore

    data = _mutate_json(chooser, chooser.choice(_records()))
    raw = _dumps(data).encode()
    if chooser.chance(30):
        raw = F.mutate_bytes(chooser, raw, [raw])
    path = work / "save.json"
    path.write_bytes(raw)
    case = {"mode": "saves", "data": raw.decode("latin-1")[:20000]}
    return _guarded(case, lambda: restore(read_record(path), source=str(path)), (SaveFileError,))


# ---- results files ----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _results_lines(work: str) -> tuple:
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    out = Path(work) / "base-results.jsonl"
    if not out.exists():
        result = CliRunner().invoke(main, ["simulate", *_RESULTS_OPTIONS, "--out", str(out)])
        assert result.exit_code == 0, result.output
    return tuple(out.read_text().splitlines())


def case_results(chooser, work: Path) -> F.Finding | None:
    """A results file with its header or game lines tampered with (the rule data's digest made
    right again half of the time), lines torn, repeated or damaged as bytes, then summarised
    (`simulate --from`) or continued (`--continue`): a ResultsFileError (exit 1) or a report."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main
    from sorry_rules.rules.loader import content_hash

    lines = list(_results_lines(str(work.parent)))
    index = chooser.integer(0, len(lines) - 1)
    data = _mutate_json(chooser, json.loads(lines[index]))
    sides = data.get("sides") if isinstance(data, dict) else None
    rule_data = data.get("rule_data") if isinstance(data, dict) else None
    if index == 0 and isinstance(sides, dict) and isinstance(rule_data, dict) and chooser.chance(50):
        for name, side in sides.items():
            if isinstance(side, dict) and isinstance(rule_data.get(name), dict):
                side["content_hash"] = content_hash(rule_data[name])
    lines[index] = _dumps(data)
    if chooser.chance(20):
        lines.insert(chooser.integer(1, len(lines)), chooser.choice(lines))
    raw = ("\n".join(lines) + ("\n" if chooser.chance(80) else "")).encode()
    if chooser.chance(25):
        raw = F.mutate_bytes(chooser, raw, [raw])
    path = work / "results.jsonl"
    path.write_bytes(raw)
    case = {"mode": "results", "data": raw.decode("latin-1")[:20000]}
    args = ["simulate", "--from", str(path), "--format", "json"]
    if chooser.chance(10):
        args = ["simulate", *_RESULTS_OPTIONS, "--continue", str(path), "--format", "json"]

    def run():
        result = CliRunner().invoke(main, args)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        F.STATS[f"results:exit {result.exit_code}"] += 1
        # 1: a damaged file; 2 (usage): a file of other options than the command continuing it
        assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}: {result.output[-2000:]}"
        assert "Traceback" not in result.output, result.output[-3000:]

    return _guarded(case, run)


_RESULTS_OPTIONS = ("--games", "6", "--players", "2", "--jobs", "1", "--seed", "4", "--max-plies", "300")


CASES = {"grid": case_grid, "counters": case_counters, "geometry": case_geometry, "positions": case_positions,
         "saves": case_saves, "results": case_results}
