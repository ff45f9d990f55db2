"""Properties of the dice games from arbitrary positions (hypothesis): pawns stacked up to a
square's hold, blockades, shared named squares, any throw and counter values. From each
position every legal move keeps every invariant of tests/invariants.py (no pawn lost or
duplicated, no square above its hold, colours together only where they may share, the
turn passing, events explaining the move), and a short random game from there does too,
within a CPU-time guard (no hang)."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sorry_rules.compiler import load_game

from . import fuzzlib as F
from .invariants import check_moves, check_state, check_step
from .sizes import short_and_full

SPECS = [("ludo", ()), ("ludo", ("ludo/blocks.yaml", "ludo/capture-throw.yaml")), ("parcheesi", ()), ("trouble", ())]


@lru_cache(maxsize=None)
def _game(i: int):
    spec, rules = SPECS[i]
    return load_game(spec, rules)


@st.composite
def positions(draw, game):
    """A state of `game`: 2 to all colours seated, each pawn on a square its colour may use,
    squares filled no further than they hold (and by one colour where they may not share),
    no colour whose win condition holds (a game already won: position files refuse it)."""
    layout = game.layout
    seats = sorted(draw(st.sets(st.integers(0, layout.C - 1), min_size=2, max_size=layout.C)))
    on: dict = {}
    placement = []
    for c in range(layout.C):
        if c not in seats:
            placement.append(())
            continue
        own = [*range(layout.T), *range(layout.T + c * layout.L, layout.T + (c + 1) * layout.L)]
        squares = []
        for _ in range(game.pawns):
            sq = draw(st.sampled_from([*own, *own[:8], layout.home[c], layout.start[c], layout.start[c]]))
            if sq < layout.X:
                here = on.get(sq, [])
                if len(here) >= layout.hold[sq] or (here and not layout.share[sq] and set(here) != {c}):
                    sq = layout.start[c]
                else:
                    on.setdefault(sq, []).append(c)
            squares.append(sq)
        placement.append(tuple(sorted(squares)))
    turn = draw(st.integers(0, len(seats) - 1))
    card = draw(st.integers(0, len(game.card_names) - 1))
    counters = tuple(tuple(draw(st.integers(0, 2)) for _ in game.counters) for _ in range(layout.C))
    for c in seats:  # a colour whose win holds has won: that game is over, not a position to play on
        if game.win_holds(c, tuple(placement), counters, ()) and layout.home[c] in placement[c]:
            home = placement[c].index(layout.home[c])
            placement[c] = tuple(sorted(placement[c][:home] + placement[c][home + 1:] + (layout.start[c],)))
    return game.position(tuple(placement), tuple(seats), turn, card=card, counters=counters)


def _play_on(game, state, seed: int, plies: int = 60) -> None:
    """A short random game from `state` with every invariant after every step."""
    rnd = random.Random(seed)
    for _ in range(plies):
        if state.winner is not None:
            return
        if game.needs_draw(state):
            state = game.draw(state)
        moves = game.legal_moves(state)
        check_moves(game, state, moves)
        move = moves[rnd.randrange(len(moves))]
        after = game.apply(state, move)
        check_state(game, after)
        check_step(game, state, move, after)
        state = after


@pytest.mark.parametrize("examples", short_and_full(25, 400))
@pytest.mark.parametrize("spec", range(len(SPECS)))
def test_every_move_from_any_position_keeps_every_invariant(spec, examples):
    game = _game(spec)

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(data=st.data())
    def run(data):
        state = data.draw(positions(game))
        with F.time_limit(F.CASE_SECONDS):
            check_state(game, state)
            moves = game.legal_moves(state)
            check_moves(game, state, moves)
            for move in moves:
                after = game.apply(state, move)
                check_state(game, after)
                check_step(game, state, move, after)
            if game.dice is not None:  # throws need no pile: play on from the position
                _play_on(game, game.apply(state, moves[data.draw(st.integers(0, len(moves) - 1))]),
                         data.draw(st.integers(0, 2**16)))

    run()
