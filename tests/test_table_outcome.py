"""The table's search moves: `push`, `pop` and `outcome` against the position they change.

Bots score positions one ply ahead by pushing each option and taking it back, or by reading
its result without playing it (`Table.outcome`). On every option of every decision of seeded
random games: a pushed option leaves the table's occupancy (which pawn colour stands on each
square, and how many pawns where squares hold several) that of its placement, a pop gives
back the occupancy before, and `outcome` says exactly what the push gave, or nothing. The rule
files have draw-again cards (R19), hand play, cards drawn together, marks, squares holding
several pawns, and A2's simultaneous split, whose parts may land where a later part leaves;
`outcome` steps aside where playing does more than move pawns and pass the turn:
consequences (`after:`, H27) and wins judged after every move (Trouble's finish line).
"""

from __future__ import annotations

import json

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.position import Position
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play
from sorry_rules.rules.yamlsafe import load_yaml

SIMULTANEOUS = {"rules": {"split": "simultaneous"}}
#: (rule file, players, overlay, seeds): one game each, three where a split's parts may meet
CASES = [("standard", 4, None, (7,)), ("standard", 2, None, (7,)), ("partnership", 4, None, (7,)),
         ("points", 3, None, (7,)), ("house/freeze", 4, None, (7,)), ("house/blockade", 4, None, (7,)),
         ("house/draw-two-keep-one", 3, None, (7,)), ("house/split-7-any", 2, None, (7,)),
         ("house/mercy-start", 4, None, (7,)), ("house/start-exit-penalty", 2, None, (7,)), ("ludo", 4, None, (7,)),
         ("trouble", 3, None, (7,)), ("standard", 4, SIMULTANEOUS, (0, 1, 2)), ("house/freeze", 4, SIMULTANEOUS, (0, 1, 2))]


def _occupancy(pos) -> tuple:
    return pos.occ, pos.cnt


def _checked_game(game, players: int, seed: int) -> tuple[int, int]:
    """Play a random game, checking every option of every decision; (options read without
    playing, options in all)."""
    counts = [0, 0]

    def checking(seat):
        bot = RandomPlayer(seed, seat)

        def pick(table, options):
            seen = table.seen()  # what a player reasons on: no pile, so push and pop restore all
            before = _occupancy(seen.pos)
            assert before == _occupancy(Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks))
            for option in options:
                read = seen.outcome(option)
                seen.push(option)
                played = (seen.pos.placement(), seen.turn), seen.winner, seen.over
                fresh = Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks)
                assert _occupancy(seen.pos) == _occupancy(fresh), f"{option.events}: occupancy after the push"
                seen.pop()
                assert _occupancy(seen.pos) == before, f"{option.events}: occupancy after the pop"
                counts[1] += 1
                if read is not None:
                    counts[0] += 1
                    assert played == (read, None, False), f"{option} read as {read}, played as {played}"
            return bot.pick(table, options)
        return pick

    final = play(game, game.new_game(seed, players=players), [checking(s) for s in range(players)], max_plies=400)
    assert final.plies > 0
    return counts[0], counts[1]


@pytest.mark.parametrize(("name", "players", "overlay", "seeds"), CASES,
                         ids=[f"{name}-{players}{'-simultaneous' if overlay else ''}" for name, players, overlay, _ in CASES])
def test_pushed_options_keep_the_occupancy_and_outcome_reads_what_a_push_gives(name, players, overlay, seeds):
    layers = [load_yaml(json.dumps(overlay), "overlay.yaml")] if overlay else []
    game = load_game(name, layers=layers)
    read = total = 0
    for seed in seeds:
        counts = _checked_game(game, players, seed)
        read, total = read + counts[0], total + counts[1]
    assert total > 30 * len(seeds)
    if not game.after and game.win_on_home_only:
        assert read > total // 2, "most options are read without playing them"
    else:
        assert read == 0
