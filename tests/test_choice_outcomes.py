"""`can(X)` in a guard of `A | B | ...`, X an earlier alternative: the choice reads what X
listed on the position instead of running X again (`compiler.plays.PlayBuilder.visit_Choice`).
The answers must be those of running X: each effect below is played beside the same effect
whose `can` asks `X | X` (the same moves, not an alternative of the choice, so it is run),
on positions of seeded games, and the legal moves must be equal (R24 and A14's pass on the 11
is the pattern; inside `then` the guard reads the position the first part left)."""

from __future__ import annotations

import json

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.rules.yamlsafe import load_yaml

from sorry_rules.engine.rng import Random

CASES = [
    ("forward 11 | switch opponent | pass if can(switch opponent) and not can(forward 11)",
     "forward 11 | switch opponent | pass if can(switch opponent | switch opponent) and not can(forward 11 | forward 11)"),
    ("forward 1 | enter | pass if not can(enter)",
     "forward 1 | enter | pass if not can(enter | enter)"),
    ("forward 2 | (enter then (draw_again if can(forward 2)))",
     "forward 2 | (enter then (draw_again if can(forward 2 | forward 2)))"),
    ("backward 1 | (forward 4 if not can(backward 1)) | (pass if can(backward  1))",
     "backward 1 | (forward 4 if not can(backward 1 | backward 1)) | (pass if can(backward 1 | backward 1))"),
]


def _game(effect: str):
    """Standard with `effect` on the 3, 5, 8 and 12 (the 1 and 2 still bring pawns out)."""
    overlay = {"cards": {name: effect for name in ("3", "5", "8", "12")}}
    return load_game("standard", layers=[load_yaml(json.dumps(overlay), "overlay.yaml")])


@pytest.mark.parametrize("known, run", CASES)
def test_a_guard_reading_a_sibling_gives_the_moves_of_running_it(known, run):
    read, ran = _game(known), _game(run)
    checked = 0
    for seed in range(6):
        state, random = ran.new_game(seed, players=4), Random("choice-outcomes", seed)
        while state.winner is None and state.plies < 150:
            state = ran.draw(state) if ran.needs_draw(state) else state
            moves = ran.legal_moves(state)
            twin = read.position(state.placement, state.seats, state.turn, card=state.card)
            assert read.legal_moves(twin) == moves, (seed, state.plies)
            checked += 1
            state = ran.apply(state, moves[random.below(len(moves))])
    assert checked > 500


def test_games_played_at_once_on_one_compiled_game_play_as_alone():
    """What a choice notes lives on the position being listed, so games played in threads
    at once (simulate on a Dask worker's threads) play exactly as one by one."""
    import sys
    import threading

    from sorry_rules.players.protocol import RandomPlayer
    from sorry_rules.players.runner import play_game

    game = load_game("standard")

    def play(seed):
        state = play_game(game, game.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
        return state.plies, state.winner, state.placement

    seeds = range(24)
    alone = [play(seed) for seed in seeds]
    together: dict = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=lambda k=k: together.update({s: play(s) for s in seeds[k::3]}))
                   for k in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert [together[s] for s in seeds] == alone
