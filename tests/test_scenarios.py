"""Rule scenarios as data (tests/scenarios/**/*.yaml, format in tests/scenarios/README.md):
each position + card must give exactly the legal results the rule book demands."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from sorry_rules.compiler import compile_variant
from sorry_rules.loader import load_variant
from sorry_rules.oracle import moves_report
from sorry_rules.position import parse_position
from sorry_rules.yamlsafe import load_yaml_file

SCENARIOS = Path(__file__).parent / "scenarios"


def _files():
    return sorted(SCENARIOS.rglob("*.yaml"))


@lru_cache(maxsize=None)
def _load_file(path: Path):
    data, smap = load_yaml_file(path, str(path.relative_to(SCENARIOS)))
    variant = data["variant"]
    layers = ()
    if data.get("overlay"):
        layers = ((data["overlay"], smap),)
    spec = variant if not variant.endswith(".yaml") or not (path.parent / variant).exists() else str(path.parent / variant)
    game, _ = compile_variant(load_variant(spec, layers=layers))
    return data, game


def _cases():
    for path in _files():
        data, _ = _load_file(path)
        for scenario in data["scenarios"]:
            yield pytest.param(path, scenario, id=f"{path.relative_to(SCENARIOS)}::{scenario['id']}")


def _placement_key(game, seats, base, result: dict) -> tuple:
    """Canonical placement of an expected result; colours left out keep `base`."""
    placement = list(base)
    for name, squares in result.items():
        if name in ("pass", "card", "discard"):
            continue
        c = game.colours.index(name)
        assert c in seats, f"result names {name}, which is not playing"
        assert len(squares) == game.pawns, f"result for {name} lists {len(squares)} pawns"
        placement[c] = tuple(sorted(game.layout.parse(c, sq) for sq in squares))
    return tuple(placement)


def _expected(game, position, result: dict) -> tuple:
    key = _placement_key(game, position.state.seats, position.state.placement, result)
    return (key, bool(result.get("pass", False)), result.get("card"), result.get("discard"))


def _actual(game, state, entry: dict) -> tuple:
    key = _placement_key(game, state.seats, state.placement, entry["result"])
    return (key, bool(entry.get("pass", False)), entry.get("card"), entry.get("discard"))


@pytest.mark.parametrize("path, scenario", list(_cases()))
def test_scenario(path, scenario):
    data, game = _load_file(path)
    assert scenario.get("cites"), "every scenario cites the rule it checks"
    position = parse_position(game, scenario["position"])
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
        assert not report["forfeit"] or not wanted
    for result in expect.get("contains", []):
        assert _expected(game, position, result) in set(actual), f"expected result {result} missing; offered:\n{listing}"
    for result in expect.get("excludes", []):
        assert _expected(game, position, result) not in set(actual), f"result {result} must not be legal; offered:\n{listing}"
    if "count" in expect:
        assert len(actual) == expect["count"], listing
