"""Rule files from a hostile author (docs/LIMITS.md): every construct has a work bound the
compiler checks or a limit that stops play with a clear error; counters keep to their range
whatever their formulas compute; names and labels hold no control characters."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from sorry_rules.base import limits
from sorry_rules.base.errors import RuleFileError
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game

from .fuzzlib import time_limit

GUARD = 20.0  # seconds of CPU; a hang guard, not a speed target


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _codes(path) -> list[str]:
    with time_limit(GUARD):
        with pytest.raises(RuleFileError) as caught:
            load_game(str(path))
    return [p.code for p in caught.value.problems]


# ---- counters ---------------------------------------------------------------------------------------
SQUARING = """
    extends: standard
    counters: {pts: {start: 2}}
    after:
      square: {when: "true", add: {pts: "pts(player) * pts(player) * pts(player)"}}
    win: "home(team) == pawns(team) or pts(player) < -5"
"""


def test_a_counter_squared_every_move_stops_at_its_bound(tmp_path):
    game = load_game(str(_write(tmp_path, "square.yaml", SQUARING)))
    assert game.counter_ranges == ((-limits.MAX_COUNTER, limits.MAX_COUNTER),)
    state = game.new_game(3, players=2)
    players = [make_player("random", 3, seat) for seat in range(2)]
    with time_limit(GUARD):
        final = play_game(game, state, players, max_plies=300)
    seated = [final.counters[c][0] for c in final.seats]
    assert seated == [limits.MAX_COUNTER, limits.MAX_COUNTER]


def test_a_counter_squared_plays_saves_and_simulates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "square.yaml", SQUARING)
    with time_limit(GUARD):
        result = _invoke("--variant", "square.yaml", "--auto", "--seed", 2, "--players", 2, "--max-plies", 120,
                         "--save", "game.json")
        assert result.exit_code == 0, result.output
        result = _invoke("simulate", "--variant", "square.yaml", "--games", 3, "--players", 2, "--jobs", 1,
                         "--max-plies", 200, "--out", "run.jsonl", "--format", "json")
        assert result.exit_code == 0, result.output
        result = _invoke("simulate", "--from", "run.jsonl", "--format", "json")
        assert result.exit_code == 0, result.output
        result = _invoke("replay", "game.json")
        assert result.exit_code == 0, result.output


def test_a_narrow_counter_range_holds_and_its_start_must_lie_in_it(tmp_path):
    path = _write(tmp_path, "narrow.yaml", """
        extends: standard
        counters: {pts: {start: 0, min: -3, max: 10}}
        after:
          double: {when: "true", add: {pts: "pts(player) + 7"}}
        win: "home(team) == pawns(team) or pts(player) > 100"
    """)
    game = load_game(str(path))
    assert game.counter_ranges == ((-3, 10),)
    final = play_game(game, game.new_game(1, players=2), [make_player("random", 1, s) for s in range(2)], max_plies=60)
    assert {value for row in final.counters for value in row} <= set(range(-3, 11))
    path.write_text(path.read_text().replace("start: 0", "start: 11"))
    assert _codes(path) == ["SR508"]
    path.write_text(path.read_text().replace("max: 10", f"max: {limits.MAX_COUNTER + 1}"))
    assert "SR204" in _codes(path)


def test_a_position_counter_outside_its_range_is_refused(tmp_path):
    """A 4,300-digit counter in a position file crashed `moves` with house/bump-points."""
    for value in (10**4299, limits.MAX_COUNTER + 1, -(10**40)):
        pos = tmp_path / "pos.yaml"
        pos.write_text(f"players: [red, blue]\nturn: red\ncard: '1'\ncounters: {{red: {{bumps_made: {value}}}}}\n")
        result = _invoke("moves", "--variant", "standard", "--rule", "house/bump-points.yaml", "--state", pos,
                         "--format", "json")
        assert result.exit_code == 1 and "SR508" in result.output and "Traceback" not in result.output
        assert len(result.output) < 2000
    pos.write_text("players: [red, blue]\nturn: red\ncard: '1'\ncounters: {red: {bumps_made: 999999}}\n")
    result = _invoke("moves", "--variant", "standard", "--rule", "house/bump-points.yaml", "--state", pos,
                     "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)
