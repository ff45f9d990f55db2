"""Checks of the one table a game is played on against what is worked out afresh (used by
tests/test_table_consistency.py and by the fuzzer's short games, tests/fuzzlib.py).

- `check_one_table`: at every ply of a seeded random game played on one table changed in
  place, its options are `Game.legal_moves` of its state (the same `Move`s).
- `check_pushes`: at every decision of a seeded random game, every option pushed leaves the
  occupancy of its placement, popped gives back the placement, turn and occupancy before,
  and `Table.outcome` reads exactly what the push gave, or nothing.

Both raise AssertionError saying where the table went off.
"""

from __future__ import annotations

from sorry_rules.engine.position import Position
from sorry_rules.engine.rng import below_at
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play


def occupancy(pos) -> tuple:
    """Which colour stands on each square, and how many pawns where squares hold several (a
    copy: the table changes its lists in place)."""
    return tuple(pos.occ), None if pos.cnt is None else tuple(pos.cnt)


def check_pushes(game, players: int, seed: int, max_plies: int = 400) -> tuple[int, int]:
    """Play a random game, checking every option of every decision; (options read without
    playing, options in all)."""
    counts = [0, 0]

    def checking(seat):
        bot = RandomPlayer(seed, seat)

        def pick(table, options):
            seen = table.seen()  # what a player reasons on: no pile, so push and pop restore all
            before = occupancy(seen.pos)
            where = (seen.pos.placement(), seen.turn)
            assert before == occupancy(Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks))
            for option in options:
                read = seen.outcome(option)
                seen.push(option)
                played = (seen.pos.placement(), seen.turn), seen.winner, seen.over
                fresh = Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks)
                assert occupancy(seen.pos) == occupancy(fresh), f"{option.events}: occupancy after the push"
                seen.pop()
                assert occupancy(seen.pos) == before, f"{option.events}: occupancy after the pop"
                assert (seen.pos.placement(), seen.turn) == where, f"{option.events}: placement after the pop"
                counts[1] += 1
                if read is not None:
                    counts[0] += 1
                    assert played == (read, None, False), f"{option} read as {read}, played as {played}"
            return bot.pick(table, options)
        return pick

    final = play(game, game.new_game(seed, players=players), [checking(s) for s in range(players)],
                 max_plies=max_plies)
    assert final.plies > 0
    return counts[0], counts[1]


def check_one_table(game, seed: int, players: int, max_plies: int = 1500) -> None:
    """Play a random game on one table, comparing its options with the legal moves of a table
    built afresh from its state at every ply."""
    table = game.table(game.new_game(seed, players=players))
    while not table.over and table.plies < max_plies:
        options = table.options()
        kept = sorted(map(repr, (table.move(option) for option in options)))
        assert kept == sorted(map(repr, game.legal_moves(table.state()))), f"seed {seed}: ply {table.plies}"
        table.play(options[below_at(seed * 7919 + 1, table.plies, len(options))])
