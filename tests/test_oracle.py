"""The engine against the interpreter it replaces (kept as an oracle while the engine migrates):
on every bundled track rule file, the same legal moves in the same order and the same states
after them, on the positions of seeded random games."""

from __future__ import annotations

import pytest

from sorry_rules.compiler.build import compile_variant
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import bundled_names, load_variant
from tests.uncached import load_uncached  # noqa: F401  (the cache folder fixture lives in conftest)

TRACK = [name for name in bundled_names() if not name.startswith("grid/") and not name.startswith("sequence")]


def _states(game, seed: int, players: int, every: int = 7) -> list:
    states = []

    def watch(turn, state):
        if turn.ply % every == 0 and state.winner is None:
            states.append(state)
    play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)],
              on_turn=watch, max_plies=600)
    return states


@pytest.mark.parametrize("name", TRACK)
def test_the_engine_gives_the_interpreters_moves_and_states(name):
    loaded = load_variant(name)
    game, _ = compile_variant(loaded)
    oracle, _ = compile_variant(loaded, oracle=True)
    oracle.use_fast_moves(None)
    players = min(4, game.players_max)
    checked = 0
    for seed in range(3):
        for state in _states(game, seed, players):
            if game.needs_draw(state):
                state = game.draw(state)
            assert oracle.needs_draw(state) is False
            mine, theirs = game.legal_moves(state), oracle.legal_moves(state)
            assert [tuple(m) for m in mine] == [tuple(m) for m in theirs], f"{name} seed {seed} ply {state.plies}"
            for move in mine:
                assert tuple(game.apply(state, move)) == tuple(oracle.apply(state, move))
            checked += 1
    assert checked > 20
