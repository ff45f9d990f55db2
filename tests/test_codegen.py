"""Generated move functions (`compiler.codegen`) against the interpreter (the reference):
the same legal moves, in the same order, on random positions and along seeded random games
of every bundled track variant and house rule; the same games; and the generated source is
built from templates and integers only (a hostile rule file's names never reach it)."""

from __future__ import annotations

import pytest

from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler import load_game
from sorry_rules.compiler.codegen import COVERED
from sorry_rules.engine.rng import Random
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import bundled_names

from .sizes import short_and_full

TRACK_VARIANTS = ["standard", "partnership", "points"]
HOUSE = [n for n in bundled_names() if n.startswith(("house/", "options/"))]
TEST_RULES = sorted(str(p) for p in (variants_dir().parent.parent / "tests" / "rules").glob("*.yaml"))
CASES = ([(v, ()) for v in TRACK_VARIANTS] + [("standard", (h,)) for h in HOUSE]
         + [("partnership", (h,)) for h in HOUSE] + [(p, ()) for p in TEST_RULES])


def _pair(spec, rules):
    """(generated, reference): two copies of one game, the second with the interpreter alone."""
    fast = load_game(spec, rules)
    reference = load_game(spec, rules)
    reference.use_fast_moves(None)
    return fast, reference


def random_placement(game, rnd: Random) -> tuple:
    """A random legal placement: each colour's pawns in Start, Home, or on distinct exclusive squares."""
    layout = game.layout
    free = list(range(layout.X))
    placement = []
    for c in range(layout.C):
        squares = []
        for _ in range(game.pawns):
            roll = rnd.below(4)
            if roll == 0:
                squares.append(layout.start[c])
            elif roll == 1 and rnd.below(3) == 0:
                squares.append(layout.home[c])
            else:
                candidates = [sq for sq in free if sq < layout.T or layout.colour_of_square(sq) == c]
                sq = candidates[rnd.below(len(candidates))]
                free.remove(sq)
                squares.append(sq)
        placement.append(tuple(sorted(squares)))
    return tuple(placement)


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s.split('/')[-1]}{'+' + r[0] if r else ''}" for s, r in CASES])
@pytest.mark.parametrize("positions", short_and_full(40, 1500))
def test_generated_moves_equal_the_interpreter_on_random_positions(spec, rules, positions):
    fast, reference = _pair(spec, rules)
    assert fast.fast_moves is not None and fast.features() <= COVERED
    rnd = Random("codegen", spec, *rules)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        placement = random_placement(fast, rnd)
        turn = rnd.below(len(seats))
        if fast.hand_play:
            hand = tuple(fast.deck[rnd.below(len(fast.deck))] for _ in range(fast.hand_size))
            state = fast.position(placement, seats, turn, hand=hand)
            assert fast.legal_moves(state) == reference.legal_moves(state)
            continue
        for card in range(len(fast.card_names)):
            state = fast.position(placement, seats, turn, card=card)
            moves = fast.legal_moves(state)
            assert moves == reference.legal_moves(state), (placement, turn, fast.card_names[card])
            for move in moves:
                assert fast.apply(state, move) == reference.apply(state, move)


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s.split('/')[-1]}{'+' + r[0] if r else ''}" for s, r in CASES])
@pytest.mark.parametrize("games", short_and_full(2, 40))
def test_generated_moves_play_the_same_games(spec, rules, games):
    fast, reference = _pair(spec, rules)
    for seed in range(games):
        for players in sorted({fast.players_min, fast.players_max}):
            states = []

            def checked(turn, state, game=reference):
                states.append(state)

            finals = []
            for game in (fast, reference):
                start = game.new_game(seed, players=players)
                finals.append(play_game(game, start, [RandomPlayer(seed, s) for s in range(players)],
                                        on_turn=checked if game is reference else None))
            assert finals[0] == finals[1]
            for state in states[:: max(1, len(states) // 40)]:
                if state.winner is None and not fast.hand_play:
                    state = fast.draw(state)
                if state.winner is None:
                    assert fast.legal_moves(state) == reference.legal_moves(state)
