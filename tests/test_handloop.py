"""players.handloop (the lean random loop for hand play and turn policies) against
`play_game`'s own loop, over the generated moves and over the interpreter alone: the same
choices, the same turns reported (with the same states), the same final state, for many
seeds and 2-4 players, for play for points, its cumulative bonus, every turn-policy overlay
over standard and points where valid, and rule files written here to make the policies
frequent (a redraw whenever stuck, a hand action that draws again, take 3 with a redraw).
Also: the turn-policy games now have generated moves, equal to the interpreter's on random
positions with cards drawn together and redraws used."""

from __future__ import annotations

from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.compiler.codegen import COVERED
from sorry_rules.engine.rng import Random
from sorry_rules.players import fastloop, handloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, play_game

from .sizes import short_and_full
from .test_codegen import random_placement

MULLIGAN, TAKE_TWO, NO_START = "house/mulligan-8.yaml", "house/draw-two-keep-one.yaml", "house/no-start-no-cry.yaml"
CASES = [
    ("points", ()), ("points", ("options/cumulative-bonus.yaml",)), ("points", (MULLIGAN,)),
    ("standard", (TAKE_TWO,)), ("standard", (NO_START,)), ("points", (NO_START,)),
    ("partnership", (TAKE_TWO,)), ("partnership", (NO_START,)), ("standard", (TAKE_TWO, NO_START)),
    ("points", ("house/must-bump.yaml",)), ("points", ("house/revenge-7.yaml",)),  # filters
    ("points", ("house/bump-points.yaml",)), ("points", ("house/bump-bonus.yaml",)),  # after:, counters, bonus turns
    ("points", (MULLIGAN, "house/must-bump.yaml")), ("standard", (TAKE_TWO, "house/bump-bonus.yaml")),
]

#: Overlays that make the turn policies frequent: a redraw whenever a hand or a card is stuck,
#: a hand action that keeps the turn, three cards drawn at once with redraws.
OVERLAYS = {
    "redraw-always": "extends: {base}\nname: redraw-always\nturn:\n  redraw:\n    at_most: 3\n    label: again\n",
    "action-again": ("extends: {base}\nname: action-again\nturn:\n  actions:\n    swap:\n      cards: ['1', '2', '3']\n"
                     "      others: {{min: 0, max: 1}}\n      draw_again: true\n      when: start(player) > 0\n"
                     "      label: swap\n"),
    "take-three": ("extends: {base}\nname: take-three\nturn:\n  take: 3\n  redraw:\n    at_most: 1\n"
                   "    when: home(player) == 0\n    label: again\n"),
}
WRITTEN = [("redraw-always", "points"), ("redraw-always", "standard"), ("action-again", "points"), ("take-three", "standard")]


class OwnLoopRandom(RandomPlayer):
    """Chooses as `RandomPlayer` does; the lean loops take only players of exactly that type,
    so `play_game` runs its own loop (`Game.legal_moves` and `apply`) for these."""


def _games(spec, rules):
    """(generated, reference): the second with the interpreter alone."""
    reference = load_game(spec, rules)
    reference.use_fast_moves(None)
    return load_game(spec, rules), reference


def _run(game, seed: int, players: int, player_type, max_plies: int | None = None):
    start = game.new_game(seed, players=players)
    bots = [player_type(seed, s) for s in range(players)]
    turns, record = [], GameRecord(seed, start.seats, start.turn)
    limit = {} if max_plies is None else {"max_plies": max_plies}
    final = play_game(game, start, bots, on_turn=lambda turn, state: turns.append((turn, state)), record=record, **limit)
    return final, turns, record.choices, record.finished


def _run_quiet(game, seed: int, players: int, max_plies: int | None = None):
    """`_run` with no `on_turn` (the flat hand loop's inlined path where it applies)."""
    start = game.new_game(seed, players=players)
    record = GameRecord(seed, start.seats, start.turn)
    limit = {} if max_plies is None else {"max_plies": max_plies}
    final = play_game(game, start, [RandomPlayer(seed, s) for s in range(players)], record=record, **limit)
    return final, record.choices, record.finished


def _check_same_games(fast, reference, games: int, max_plies: int | None = None) -> int:
    """Every seed and player count: the lean loop (with and without `on_turn`) = play_game's
    own loop on the generated moves = play_game's own loop on the interpreter. Returns the
    plies played (for a sanity check)."""
    plies = 0
    for seed in range(games):
        players = fast.players_min + seed % (fast.players_max - fast.players_min + 1)
        start = fast.new_game(seed, players=players)
        assert handloop.applies(fast, start, [RandomPlayer(seed, s) for s in range(players)])
        assert not fastloop.applies(fast, start, [RandomPlayer(seed, s) for s in range(players)])
        lean = _run(fast, seed, players, RandomPlayer, max_plies)
        assert lean == _run(fast, seed, players, OwnLoopRandom, max_plies), (seed, players)
        assert lean == _run(reference, seed, players, RandomPlayer, max_plies), (seed, players)
        assert _run_quiet(fast, seed, players, max_plies) == (lean[0], lean[2], lean[3]), (seed, players)
        plies += lean[0].plies
    return plies


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s}{''.join('+' + r for r in rules)}" for s, rules in CASES])
@pytest.mark.parametrize("games", short_and_full(3, 200))
def test_the_hand_loop_plays_the_reference_games(spec, rules, games):
    fast, reference = _games(spec, rules)
    assert fast.fast_moves is not None and fast.features() <= COVERED
    assert _check_same_games(fast, reference, games) > 0


@pytest.mark.parametrize("spec,rules", CASES[:5], ids=[f"{s}{''.join('+' + r for r in rules)}" for s, rules in CASES[:5]])
def test_the_hand_loop_over_the_candidates_flavour_plays_the_same_games(spec, rules):
    """Without the flat flavour (a game whose flat functions were not generated) the hand
    loop lists the candidates of `FastMoves.select`: the same games."""
    fast, reference = _games(spec, rules)
    assert fast.fast_moves.flat is not None  # hand play and turn policies have the flat flavour
    fast.fast_moves.flat = None
    assert _check_same_games(fast, reference, 3) > 0


@pytest.mark.parametrize("name,base", WRITTEN, ids=[f"{n}-{b}" for n, b in WRITTEN])
@pytest.mark.parametrize("games", short_and_full(3, 120))
def test_the_hand_loop_plays_frequent_turn_policies(tmp_path, name, base, games):
    path = tmp_path / f"{name}.yaml"
    path.write_text(OVERLAYS[name].format(base=base))
    fast, reference = _games(str(path), ())
    assert fast.fast_moves is not None
    assert _check_same_games(fast, reference, games) > 0
    kinds = set()
    for seed in range(games):
        for turn, _ in _run(fast, seed, 2, RandomPlayer)[1]:
            kinds.add(turn.move.kind)
    assert kinds & {"redraw", "action"}, kinds  # the policy was used


def test_a_game_cut_short_ends_in_the_same_state():
    fast, reference = _games("points", (MULLIGAN,))
    for max_plies in (0, 1, 7, 60):
        _check_same_games(fast, reference, 3, max_plies)


def test_the_hand_loop_is_for_random_players_and_a_fresh_turn_only():
    from sorry_rules.players.greedy import GreedyPlayer

    points = load_game("points")
    start = points.new_game(1, players=2)
    assert handloop.applies(points, start, [RandomPlayer(1, 0), RandomPlayer(1, 1)])
    assert not handloop.applies(points, start, [RandomPlayer(1, 0), GreedyPlayer(1, 1)])
    take_two = load_game("standard", (TAKE_TWO,))
    start = take_two.new_game(1, players=2)
    bots = [RandomPlayer(1, 0), RandomPlayer(1, 1)]
    assert handloop.applies(take_two, start, bots) and not handloop.applies(take_two, take_two.draw(start), bots)
    freeze = load_game("standard", ("house/freeze.yaml",))  # marks, draw play: players.fastloop plays it
    assert not handloop.applies(freeze, freeze.new_game(1, players=2), bots)


@pytest.mark.parametrize("spec,rules", [("standard", (TAKE_TWO, NO_START)), ("points", (MULLIGAN, NO_START))])
def test_turn_policy_games_generate_the_interpreters_moves(spec, rules):
    """Random positions with cards drawn together (take), redraws used or not, hands with
    actions: the same legal moves with the generated moves as with the interpreter."""
    fast, reference = _games(spec, rules)
    rnd = Random("handloop", spec, *rules)
    seats = fast.seats_for(fast.players_max)
    for _ in range(150):
        placement = random_placement(fast, rnd)
        turn = rnd.below(len(seats))
        cards = tuple(fast.deck[rnd.below(len(fast.deck))] for _ in range(max(fast.hand_size, fast.take)))
        redraws = rnd.below(3)
        if fast.hand_play:
            state = fast.position(placement, seats, turn, hand=cards, redraws=redraws)
        else:
            state = fast.position(placement, seats, turn, card=cards[0], drawn=cards[1:1 + rnd.below(fast.take)],
                                  redraws=redraws)
        moves = fast.legal_moves(state)
        assert moves == reference.legal_moves(state)
        for move in moves:
            assert fast.apply(state, move) == reference.apply(state, move)


@pytest.mark.parametrize("spec", ["points", "standard", str(Path(__file__).parent / "rules" / "hand-teams.yaml")])
def test_a_card_without_pass_never_offers_a_pass_candidate(spec):
    """`FastMoves.passes`: a card whose effect has no `pass` has only move candidates (the
    hand loop then skips looking for passes); the 11 of the standard deck may pass (A14)."""
    from sorry_rules.engine.fastmoves import PASS_CODE

    game = load_game(spec)
    fast = game.fast_moves
    assert fast.passes[game.card_index["11"]] and not fast.passes[game.card_index["7"]]
    rnd = Random("passes", spec)
    for _ in range(80):
        placement = random_placement(game, rnd)
        key = fast.key(placement)
        for card, may_pass in enumerate(fast.passes):
            if not may_pass:
                for colour in game.seats_for(game.players_max):
                    assert all(c[2] != PASS_CODE for c in fast.select[card][colour](placement, key)[0])
