"""The win-chance fits shipped with the bundled rule files (variants/win-chances.json, written
by tools/fit_win_chances.py): one for every bundled rule file and seat count, each what
fitting gives now, read before any fitting; a damaged file gives no fits."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players import winchance

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("fit_win_chances", ROOT / "tools" / "fit_win_chances.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _refit(tool, jobs: dict) -> list:
    """The (rule file, seats) of `jobs` ({key: (rule file, seats)}, as `wanted` gives them)
    whose shipped fit is not what fitting gives now. Equal to the last few bits, not bit for
    bit: another C library's `exp` may round its last bit otherwise, which is no change of
    the players."""
    shipped = winchance.shipped()
    return [job for key, job in sorted(jobs.items())
            if not all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-15) for x, y in zip(tool.fit_of(job), shipped[key]))]


def test_every_bundled_rule_file_and_seat_count_has_its_fit():
    assert _tool().main(["--check"]) == 0, "run python tools/fit_win_chances.py"


def test_a_shipped_fit_is_what_fitting_gives_now():
    """Standard Sorry! with two seats, refitted (the fits depend on the bots' and the
    engine's code too: a change there shows here first)."""
    key = f"{load_game('standard').content_hash} 2"
    assert _refit(_tool(), {key: ("standard.yaml", 2)}) == [], "run python tools/fit_win_chances.py"


@pytest.mark.slow
def test_every_shipped_fit_is_what_fitting_gives_now():
    tool = _tool()
    assert _refit(tool, tool.wanted()) == [], "run python tools/fit_win_chances.py"


def test_a_shipped_fit_is_read_before_any_fitting(cache, monkeypatch):
    """A first decision on a bundled rule file plays no fitting games and writes nothing."""
    monkeypatch.setattr(winchance, "samples", lambda game, players: pytest.fail("fitted"))
    for spec, players in (("parcheesi", 2), ("sequence", 3), ("partnership", 4)):
        game = load_game(spec)
        chance = winchance.win_chance_for(game, players)
        assert (chance.a, chance.b) == winchance.shipped()[f"{game.content_hash} {players}"]
    assert not cache.exists() or not list(cache.glob(f"{winchance.KIND}-*"))


@pytest.mark.parametrize("text", ["{not json", "[]", '{"fits": []}', '{"fits": {"k 2": [1.0, "x"]}}',
                                  '{"fits": {"k 2": [NaN, 1.0]}}', '{"fits": {"k 2": [1, 2]}}', ""])
def test_a_damaged_file_gives_no_fits(tmp_path, monkeypatch, text):
    (tmp_path / winchance.SHIPPED).write_text(text, encoding="utf-8")
    monkeypatch.setattr(winchance, "variants_dir", lambda: tmp_path)
    winchance.shipped.cache_clear()
    try:
        assert winchance.shipped() == {}
        (tmp_path / winchance.SHIPPED).write_text(json.dumps({"fits": {"k 2": [1.5, -0.25], "k 3": [1.0]}}))
        winchance.shipped.cache_clear()
        assert winchance.shipped() == {"k 2": (1.5, -0.25)}
    finally:
        winchance.shipped.cache_clear()
