"""bench/listing_cost.py counts what it claims: one move-function call per card played in
draw play, a call per distinct card of the hand in hand play, and the counted games are
the games played without the counters (the counters are put back)."""

from __future__ import annotations

from pathlib import Path

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

BENCH = Path(__file__).resolve().parent.parent / "bench"
SEEDS = range(5, 8)


def _listing_cost(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import listing_cost

    return listing_cost


def _finals(game):
    return [play_game(game, game.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)]) for seed in SEEDS]


def test_draw_play_lists_one_card_per_card_played(monkeypatch):
    listing_cost = _listing_cost(monkeypatch)
    game = load_game("standard")
    before = _finals(game)
    plies, calls, candidates = listing_cost.counts(game, SEEDS)
    assert plies == sum(final.plies for final in before)
    assert calls == plies  # R5: one card drawn and carried out a turn (a draw-again 2 is a ply of its own)
    assert plies < candidates < 8 * plies
    assert _finals(game) == before  # the counters were taken out again


def test_hand_play_lists_every_distinct_card_of_the_hand(monkeypatch):
    listing_cost = _listing_cost(monkeypatch)
    game = load_game("points")
    before = _finals(game)
    plies, calls, _ = listing_cost.counts(game, SEEDS)
    assert plies == sum(final.plies for final in before)
    assert 2 * plies < calls <= 5 * plies  # P3, P4: a hand of five cards, each distinct card listed
    assert _finals(game) == before


def test_marks_flavour_is_counted(monkeypatch):
    listing_cost = _listing_cost(monkeypatch)
    game = load_game("standard", ("house/mercy-start.yaml",))
    plies, calls, _ = listing_cost.counts(game, SEEDS)
    assert calls == plies > 0
