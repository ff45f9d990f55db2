"""Every counter stays within its range, `min`..`max`, however many `after:` additions to it
fire in one move: the additions are made in the order written, each stopping at the bounds
(`engine.moverules`, with `Game.counter_ranges`); the compiler bounds a formula's value by
the width of the range (`compiler.vocab`), which changes nothing else."""

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


def test_additions_in_one_move_are_made_in_order_each_stopping_at_the_bounds(tmp_path):
    """REFERENCE "Counters": from 2 in 0..5, +4 then -4 gives 5 then 1 (the additions were
    each bounded from the value before the move and summed: 3)."""
    from sorry_rules.records.position import parse_position

    for start, first, second, expected in ((2, 4, -4, 1), (2, 10, -10, 0), (5, -10, 10, 5), (0, 3, 1, 4)):
        path = tmp_path / "order.yaml"
        path.write_text(textwrap.dedent(f"""
            extends: standard
            counters: {{c: {{start: {start}, min: 0, max: 5}}}}
            after:
              first: {{add: {{c: {first}}}}}
              second: {{add: {{c: {second}}}}}
            win: "home(team) == pawns(team) or c(player) > 100"
        """).lstrip())
        game = load_game(str(path))
        state = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "5",
                                      "pawns": {"red": ["track:10"]}}).state
        (move,) = game.legal_moves(state)
        assert game.apply(state, move).counters[0] == (expected,), (start, first, second)
