"""Position files must seat a number of colours the variant is played with: Sorry! 2-4
(RULES.md), Sequence 2 or 3 colours (SEQUENCE.md S1, section 5). One colour alone is refused
with a located problem (SR510) by `moves` and `render`, for track and grid boards, so no
one-colour position reports a winner that depends on how the win rule is written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main

TRACK = {"players": ["red"], "turn": "red", "card": "1", "pawns": {"red": ["start"]}}
GRID = {"players": ["blue"], "turn": "blue", "hand": ["4H"], "chips": {"blue": ["E5"]}}


@pytest.mark.parametrize("variant, position, said", [
    ("standard", TRACK, "players: 1 colour seated; standard is played by 2-4 colours [SR510]"),
    ("sequence", GRID, "players: 1 colour seated; sequence is played by 2-3 colours [SR510]"),
])
@pytest.mark.parametrize("command", [["moves"], ["moves", "--why"], ["render"]])
def test_one_colour_is_refused_with_a_located_problem(tmp_path, variant, position, said, command):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(position, indent=1), encoding="utf-8")
    result = CliRunner().invoke(main, [*command, "--variant", variant, "--state", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:" in result.output and said in result.output


def test_two_colours_are_still_a_position(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(json.dumps(dict(TRACK, players=["red", "blue"])), encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", "--variant", "standard", "--state", str(path)])
    assert result.exit_code == 0, result.output
    assert "track:4" in result.output
