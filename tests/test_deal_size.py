"""SR508 and the first deal: the deck must hold the largest deal of any player count the
variant is played with, `turn.hand_size_by_players` included (a grid file dealing 3 cards
each to 12 players is valid with a deck of 55, though 12 hands of its 2-player size would
not be)."""

from __future__ import annotations

from click.testing import CliRunner

from sorry_rules.cli.app import main

TWELVE = """\
name: mini-grid-twelve
extends: grid/mini-grid.yaml
players: {{min: 2, max: 12}}
seating:
  "12": [amber, teal, plum, amber, teal, plum, amber, teal, plum, amber, teal, plum]
turn:
  source: hand
  hand_size: 7
  hand_size_by_players: {{"4": 4, "12": {twelve}}}
  first: first_seat
  exchange: dead
  stuck: pass
"""


def validate(tmp_path, twelve: int):
    path = tmp_path / "twelve.yaml"
    path.write_text(TWELVE.format(twelve=twelve), encoding="utf-8")
    return CliRunner().invoke(main, ["validate", str(path)])


def test_a_deal_that_fits_by_player_count_is_valid(tmp_path):
    # 2 x 7, 3 x 7, 4 x 4 and 12 x 3 = 36 cards at most; the deck has 55
    result = validate(tmp_path, 3)
    assert result.exit_code == 0, result.output


def test_the_largest_deal_too_big_is_named_with_its_player_count(tmp_path):
    result = validate(tmp_path, 5)  # 12 x 5 = 60 > 55
    assert result.exit_code == 1
    assert "12 hands of 5 need 60 cards; the deck has 55 [SR508]" in result.output
    assert "twelve.yaml:9:40: error: 12 hands" in result.output  # at the size that needs them, not at hand_size
