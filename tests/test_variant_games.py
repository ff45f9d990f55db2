"""Seeded random games of the partnership and points variants: 1,000 per configuration
(partnership with 4 players; points with 2, 3 and 4) under `pytest -m slow`, a short run of
the same games and assertions by default. Every state keeps the invariants of
tests/invariants.py (pawns, one pawn per square, own-colour safety and Home, the deck
conserved over pile + discards + hands, hands of 5 while cards remain to draw, P4); every
game ends with a winner; the scores equal the P7 computation done here by hand."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

from .invariants import check_state
from .sizes import short_and_full

GAMES = short_and_full(10, 1000)


def _play(game, seed, players, on_turn=None):
    state = game.new_game(seed, players=players)
    check_state(game, state)
    return play_game(game, state, [RandomPlayer(seed, seat) for seat in range(players)], on_turn=on_turn)


def p7_by_hand(game, state) -> dict:
    """RULES.md P7 computed directly from the final placement (not through the rule file):
    5 per own pawn Home; the winner also 5 per opponent pawn not Home and the highest bonus:
    100 if no opponent has a pawn Home, else 50 if none has more than one, else 25 if none
    has more than two."""
    home = {c: state.placement[c].count(game.layout.home[c]) for c in state.seats}
    winner = state.seats[state.winner]
    scores = {}
    for seat, c in enumerate(state.seats):
        score = 5 * home[c]
        if c == winner:
            opponents = [o for o in state.seats if o != c]
            score += 5 * sum(4 - home[o] for o in opponents)
            most = max(home[o] for o in opponents)
            score += 100 if most == 0 else 50 if most <= 1 else 25 if most <= 2 else 0
        scores[seat] = score
    return scores


@pytest.fixture(scope="module")
def points():
    return load_game("points")


@pytest.fixture(scope="module")
def partnership():
    return load_game("partnership")


@pytest.mark.parametrize("games", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_points_games(points, players, games):
    """P1-P7: games per player count (1,000 in the full run) finish; every state keeps the invariants (hands of
    5 while cards remain, deck conserved); the winner has all 4 pawns Home (P6) and every
    player's score is the P7 computation by hand."""
    assert points.pawns == 4
    stuck_discards = 0

    def on_turn(turn, state):
        nonlocal stuck_discards
        check_state(points, state)
        stuck_discards += turn.move.kind == "discard"

    for seed in range(games):
        final = _play(points, seed, players, on_turn)
        assert final.winner is not None, f"seed {seed}: no winner after {final.plies} moves"
        winner = final.seats[final.winner]
        assert final.placement[winner].count(points.layout.home[winner]) == 4
        outcome = points.outcome(final)
        expected = p7_by_hand(points, final)
        assert {seat: total for seat, (total, _) in outcome.scores.items()} == expected, f"seed {seed}"
        assert sum(line.points for line in outcome.scores[final.winner][1]) == expected[final.winner]
    assert stuck_discards > 0  # the stuck rule (P5) did come up


@pytest.mark.parametrize("games", GAMES)
def test_partnership_games(partnership, games):
    """T1-T10: four-player games (1,000 in the full run) finish with every invariant; the winning team has all
    eight pawns Home (T8) and both partners are named winners; and players whose own pawns
    were all Home went on moving their partner's pawns (T7)."""
    layout = partnership.layout
    played_on = 0

    def on_turn(turn, state):
        nonlocal played_on
        check_state(partnership, state)
        mover = state.seats[turn.seat]
        if turn.move.kind == "move" and state.placement[mover].count(layout.home[mover]) == partnership.pawns:
            moved = {e[1] for e in turn.move.events if e[0] in ("enter", "forward", "backward", "split", "sorry", "switch")}
            played_on += mover not in moved

    for seed in range(games):
        final = _play(partnership, seed, 4, on_turn)
        assert final.winner is not None, f"seed {seed}: no winner after {final.plies} moves"
        outcome = partnership.outcome(final)
        team = partnership.team_of[final.seats[final.winner]]
        assert len(team) == 2 and set(outcome.winning_seats) == {final.seats.index(c) for c in team}
        for c in team:
            assert final.placement[c].count(layout.home[c]) == partnership.pawns
        others = [c for c in final.seats if c not in team]
        assert not all(final.placement[c].count(layout.home[c]) == partnership.pawns for c in others)
    assert played_on > 0
