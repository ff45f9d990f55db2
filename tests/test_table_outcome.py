"""`Table.outcome`: the placement and the turn an option leads to, read without playing it.

The players score positions one ply ahead with it (`players.greedy`, `players.expert`), so
it must say exactly what `push` then reading the table says, or nothing: on every option of
seeded random games of rule files with draw-again cards (R19), hand play, cards drawn
together, marks and squares holding several pawns; and it steps aside where playing does more
than move pawns and pass the turn: consequences (`after:`, H27) and wins judged after every
move (Trouble's finish line).
"""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play

CASES = [("standard", 4), ("standard", 2), ("partnership", 4), ("points", 3), ("house/freeze", 4),
         ("house/blockade", 4), ("house/draw-two-keep-one", 3), ("house/split-7-any", 2), ("house/mercy-start", 4),
         ("house/start-exit-penalty", 2), ("ludo", 4), ("trouble", 3)]


def _checked_game(name: str, players: int, seed: int) -> tuple[int, int]:
    """Play a random game, checking every option of every decision; (options read without
    playing, options in all)."""
    game = load_game(name)
    counts = [0, 0]

    def checking(seat):
        bot = RandomPlayer(seed, seat)

        def pick(table, options):
            seen = table.seen()  # what a player reasons on: no pile, so push and pop restore all
            for option in options:
                read = seen.outcome(option)
                seen.push(option)
                played = (seen.pos.placement(), seen.turn), seen.winner, seen.over
                seen.pop()
                counts[1] += 1
                if read is not None:
                    counts[0] += 1
                    assert played == (read, None, False), f"{name}: {option} read as {read}, played as {played}"
            return bot.pick(table, options)
        return pick

    final = play(game, game.new_game(seed, players=players), [checking(s) for s in range(players)], max_plies=400)
    assert final.plies > 0
    return counts[0], counts[1]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_an_option_read_without_playing_it_is_what_playing_it_gives(name, players):
    read, total = _checked_game(name, players, seed=7)
    assert total > 30
    game = load_game(name)
    if not game.after and game.win_on_home_only:
        assert read > total // 2, "most options are read without playing them"
    else:
        assert read == 0
