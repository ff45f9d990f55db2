"""bench/issue_table.py runs without apologies and without limit_sorry (both optional), and
its growth cases are valid rule files of the sizes they claim."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sorry_rules.compiler import load_game
from sorry_rules.rules.loader import load_variant

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _issue_table(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import apologies_rate
    import issue_table

    monkeypatch.setattr(apologies_rate, "HAVE_APOLOGIES", False)
    return issue_table


def test_runs_without_apologies_or_limit_sorry(monkeypatch, tmp_path, capsys):
    issue_table = _issue_table(monkeypatch)
    args = ["--rounds", "1", "--seconds", "0.01", "--no-growth", "--limit", str(tmp_path / "absent.py")]
    assert issue_table.main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["apologies"] is None and result["limit_sorry"] is None
    assert {"sorry-rules 4p", "sorry-rules 2p", "sorry-rules movegen"} <= set(result["medians"])
    assert issue_table.main(args) == 0
    text = capsys.readouterr()
    assert "| sorry-rules, in-process" in text.out and "pip install apologies" in text.err


def test_growth_cases_have_the_sizes_they_claim(monkeypatch, tmp_path):
    issue_table = _issue_table(monkeypatch)
    cases = issue_table.growth_cases(str(tmp_path))
    assert len({label for label, *_ in cases}) == len(cases)
    for label, variant, overlays, players in cases:
        game = load_game(variant, overlays)
        state = game.new_game(1, players=players)
        assert len(state.seats) == players, label
        if label.startswith("pawns"):
            assert game.pawns == int(label.split()[1]), label
        data = load_variant(variant, overlays).data
        squares = data["board"]["side_length"] * len(data["colours"])
        if label.startswith("track"):
            assert squares == int(label.split()[1]), label
        if "six-colours" in label:
            assert squares == 90, label
    assert "issue_table" in sys.modules
