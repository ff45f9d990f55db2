"""Every counter stays within its range, `min`..`max`, however many `after:` additions to it
fire in one move: the compiler bounds each addition by the distance to the bound from the
value before the move (`compiler.vocab`), and the engine clamps a move's sum where it settles
the changes (`engine.moverules`, with `Game.counter_ranges`)."""

from __future__ import annotations

import textwrap

from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game

TWO_ADDITIONS = """
    extends: standard
    counters: {pts: {start: 0, min: -4, max: 10}}
    after:
      up: {when: "true", add: {pts: "7"}}
      again: {when: "true", add: {pts: "7"}}
      down: {when: "bumps(opponents) > 0", add: {pts: "-1000"}}
      down_again: {when: "bumps(opponents) > 0", add: {pts: "-1000"}}
    win: "home(team) == pawns(team) or pts(player) > 100"
"""


def test_two_additions_in_one_move_stay_within_the_range(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(textwrap.dedent(TWO_ADDITIONS).lstrip())
    game = load_game(str(path))
    assert game.counter_ranges == ((-4, 10),)
    for seed in range(5):
        state = game.new_game(seed, players=2)
        seen = set()
        for plies in (1, 2, 5, 40, 150):
            final = play_game(game, state, [make_player("random", seed, s) for s in range(2)], max_plies=plies)
            seen |= {row[0] for row in final.counters if row}
        assert seen <= set(range(-4, 11)), sorted(seen)
        assert 10 in seen
