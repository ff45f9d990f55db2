"""Rule scenarios as data (tests/scenarios/**/*.yaml, format in tests/scenarios/README.md):
each position + card (or hand) must give exactly the legal results the rule book demands.

A file names its `variant:`, optional bundled or local overlays `rules: [...]` (applied like
`--rule`, in order; a scenario's own `rules:` replaces the file's) and an optional inline
`overlay:` merged last. `pawns: initial` in a position stands for the variant's starting
placement. Results may also state `wins:`, `scores:`, `draw_again:`, `extra_cards:` and
`counters:` of the move, and under turn policies `discards:`, `next:` and `redraws:`; under
`marks:` a result's `marks:` (the marks after the move, none when left out) is part of what
identifies it, and `with:` (an action's other cards) and `redraw: true` identify a result like
`card:` and `discard:`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from sorry_rules.compiler import compile_variant
from sorry_rules.rules.loader import load_variant
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.records.position import parse_position
from sorry_rules.rules.yamlsafe import load_yaml_file

SCENARIOS = Path(__file__).parent / "scenarios"


def _files():
    return sorted(SCENARIOS.rglob("*.yaml"))


def _spec(path: Path, name: str) -> str:
    """A variant or overlay named in a scenario file: a path beside the file, else bundled."""
    local = path.parent / name
    return str(local) if name.endswith((".yaml", ".yml")) and local.exists() else name


@lru_cache(maxsize=None)
def _read(path: Path):
    data, smap = load_yaml_file(path, str(path.relative_to(SCENARIOS)))
    return data, smap


def _game(path: Path, rules: tuple):
    """The game of a scenario file with `rules` overlays (applied like --rule), then the
    file's inline `overlay:`. Files naming the same variant and overlays, without an inline
    overlay, share one game (scenarios only read it)."""
    data, _ = _read(path)
    return _compiled(_spec(path, data["variant"]), tuple(_spec(path, r) for r in rules),
                     path if data.get("overlay") else None)


@lru_cache(maxsize=None)
def _compiled(variant: str, rules: tuple, inline: Path | None):
    layers = ((_read(inline)[0]["overlay"], _read(inline)[1]),) if inline is not None else ()
    game, _ = compile_variant(load_variant(variant, rules=list(rules), layers=layers))
    return game


def _rules_of(data: dict, scenario: dict) -> tuple:
    """A scenario's `rules:` replaces the file's (so one file can show a position with and
    without a house rule)."""
    rules = scenario["rules"] if "rules" in scenario else data.get("rules", [])
    return tuple(rules)


def _position_data(game, position: dict) -> dict:
    """`pawns: initial` stands for the variant's starting placement (its `setup:`)."""
    if position.get("pawns") != "initial":
        return position
    seats = tuple(game.colours.index(name) for name in position["players"])
    placement = game.initial_placement(seats)
    pawns = {game.colours[c]: [game.layout.name(sq) for sq in placement[c]] for c in seats}
    return {**position, "pawns": pawns}


def _cases():
    for path in _files():
        data, _ = _read(path)
        for scenario in data["scenarios"]:
            yield pytest.param(path, scenario, id=f"{path.relative_to(SCENARIOS)}::{scenario['id']}")


def _placement_key(game, seats, base, result: dict) -> tuple:
    """Canonical placement of an expected result; colours left out keep `base`."""
    placement = list(base)
    for name, squares in result.items():
        if name in ("pass", "card", "discard", "wins", "scores", "draw_again", "extra_cards", "counters", "marks", "with",
                    "redraw", "discards", "next", "redraws", "forfeit"):
            continue
        c = game.colours.index(name)
        assert c in seats, f"result names {name}, which is not playing"
        assert len(squares) == game.pawns, f"result for {name} lists {len(squares)} pawns"
        placement[c] = tuple(sorted(game.layout.parse(c, sq) for sq in squares))
    return tuple(placement)


def _marks_key(game, marks) -> tuple:
    """Under `marks:` the marks after a move are part of its result: a result without
    `marks:` has none; entries compare as a multiset (`by` defaults to the pawn's colour)."""
    if not game.marks:
        return ()
    return tuple(sorted((name, e["colour"], e["square"], e.get("by", e["colour"]))
                        for name, entries in (marks or {}).items() for e in entries))


def _expected(game, position, result: dict) -> tuple:
    key = _placement_key(game, position.state.seats, position.state.placement, result)
    return (key, bool(result.get("pass", False)), result.get("card"), result.get("discard"),
            _marks_key(game, result.get("marks")), tuple(result.get("with", ())), bool(result.get("redraw", False)),
            bool(result.get("forfeit", False)))


def _actual(game, state, entry: dict) -> tuple:
    key = _placement_key(game, state.seats, state.placement, entry["result"])
    return (key, bool(entry.get("pass", False)), entry.get("card"), entry.get("discard"),
            _marks_key(game, entry.get("marks")), tuple(entry.get("with", ())), "redraw" in entry,
            bool(entry.get("forfeit", False)))


@pytest.mark.parametrize("path, scenario", list(_cases()))
def test_scenario(path, scenario):
    data, _ = _read(path)
    game = _game(path, _rules_of(data, scenario))
    assert scenario.get("cites"), "every scenario cites the rule it checks"
    position = parse_position(game, _position_data(game, scenario["position"]))
    report = moves_report(game, position)
    expect = scenario["expect"]
    actual = [_actual(game, position.state, entry) for entry in report["moves"]]
    listing = "\n".join(f"  {entry['text']}" for entry in report["moves"]) or "  (none)"
    assert len(actual) == len(set(actual)), f"duplicate results offered (A24):\n{listing}"
    if "forfeit" in expect or ("results" not in expect and "contains" not in expect):
        assert report["forfeit"] == expect.get("forfeit", False), f"forfeit expected {expect.get('forfeit', False)}; moves:\n{listing}"
    if "draw_again" in expect:
        assert report["draw_again"] == expect["draw_again"]
    if "results" in expect:
        wanted = {_expected(game, position, r) for r in expect["results"]}
        missing = wanted - set(actual)
        extra = set(actual) - wanted
        assert not missing and not extra, (
            f"{len(missing)} expected result(s) missing, {len(extra)} unexpected; the engine offered:\n{listing}"
        )
        assert not report["forfeit"] or all(w[-1] for w in wanted), "a forfeit lists only the ways it goes (after:)"
    for result in expect.get("contains", []):
        assert _expected(game, position, result) in set(actual), f"expected result {result} missing; offered:\n{listing}"
    for result in expect.get("excludes", []):
        assert _expected(game, position, result) not in set(actual), f"result {result} must not be legal; offered:\n{listing}"
    if "count" in expect:
        assert len(actual) == expect["count"], listing
    by_key = dict(zip(actual, report["moves"]))
    for result in expect.get("results", []) + expect.get("contains", []):
        entry = by_key[_expected(game, position, result)]
        if "wins" in result:
            assert entry.get("wins", False) == result["wins"], f"{entry['text']}: wins expected {result['wins']}"
        if "draw_again" in result:
            assert entry.get("draw_again", False) == result["draw_again"], f"{entry['text']}: draw_again expected {result['draw_again']}"
        if "extra_cards" in result:
            assert entry.get("extra_cards") == result["extra_cards"], f"{entry['text']}: extra cards {entry.get('extra_cards')}"
        if "counters" in result:
            assert entry.get("counters") == result["counters"], f"{entry['text']}: counters {entry.get('counters')}"
        for key in ("discards", "next", "redraws"):
            if key in result:
                assert entry.get(key) == result[key], f"{entry['text']}: {key} {entry.get(key)}, expected {result[key]}"
        if "scores" in result:
            assert entry.get("scores") == result["scores"], f"{entry['text']}: scores {entry.get('scores')}, expected {result['scores']}"
