"""Turn flow of draw play, driven through the engine with a known draw pile (RULES R2, R3,
R5, R11, R19, R34, R35), and who draws next over whole seeded games (R19, H2, H21, R35)."""

from __future__ import annotations

from collections import Counter

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.rules.loader import load_variant
from sorry_rules.compiler import compile_variant
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.rules.yamlsafe import load_yaml

from .invariants import check_state


@pytest.fixture(scope="module")
def game():
    return load_game("standard")


def squares(game, colour, *names):
    c = game.colours.index(colour)
    return tuple(sorted(game.layout.parse(c, n) for n in names))


def state_with(game, pawns: dict, pile_top_last: list, seats=("red", "blue"), discard=()):
    seat_ids = tuple(game.colours.index(s) for s in seats)
    placement = [() for _ in game.colours]
    for name in seats:
        placement[game.colours.index(name)] = squares(game, name, *pawns.get(name, ["start"] * 4))
    state = game.position(placement, seat_ids, 0)
    cards = [game.card_index[c] for c in pile_top_last]
    return state._replace(pile=tuple(cards), discard=tuple(game.card_index[c] for c in discard))


def test_r2_new_game_shuffles_the_whole_deck(game):
    state = game.new_game(1, players=4)
    assert Counter(state.pile) == Counter(game.deck) and len(state.pile) == 45
    names = Counter(game.card_names[c] for c in game.deck)
    assert names == {"1": 5, "2": 4, "3": 4, "4": 4, "5": 4, "7": 4, "8": 4, "10": 4, "11": 4, "12": 4, "sorry": 4}
    assert state.pile != game.new_game(2, players=4).pile
    assert all(sq == game.layout.start[c] for c in state.seats for sq in state.placement[c])  # R1


def test_r3_first_player_is_random_by_seed_and_play_passes_clockwise(game):
    firsts = Counter(game.new_game(seed, players=4).turn for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 20
    state = state_with(game, {"red": ["track:10", "start", "start", "start"]}, ["5"])
    state = game.draw(state)
    state = game.apply(state, game.legal_moves(state)[0])
    assert state.turn == 1  # next seat in seat order


def test_r3_first_seat_option():
    data, smap = load_yaml("turn: {source: draw, first: first_seat}\n", "first.yaml")
    game, _ = compile_variant(load_variant("standard", layers=((data, smap),)))
    assert {game.new_game(seed, players=3).turn for seed in range(30)} == {0}


def test_r5_r19_a2_draws_again_and_chains(game):
    state = state_with(game, {}, ["5", "2", "2"])  # top card last: 2, then 2, then 5
    state = game.draw(state)
    assert game.card_names[state.card] == "2"
    moves = game.legal_moves(state)
    assert [m.draw_again for m in moves] == [True]  # R7: start a pawn, then R19 draw again
    state = game.apply(state, moves[0])
    assert state.turn == 0 and game.needs_draw(state)
    state = game.draw(state)
    assert game.card_names[state.card] == "2"  # a 2 drawn again draws again too
    state = game.apply(state, game.legal_moves(state)[0])
    assert state.turn == 0
    state = game.draw(state)
    assert game.card_names[state.card] == "5"
    state = game.apply(state, game.legal_moves(state)[0])
    assert state.turn == 1
    assert [game.card_names[c] for c in state.discard] == ["2", "2", "5"]  # R2: played cards discarded


def test_r19_unusable_two_still_draws_again(game):
    state = state_with(game, {"red": ["home", "home", "home", "safety:5"]}, ["3", "2"])
    state = game.draw(state)
    moves = game.legal_moves(state)
    assert len(moves) == 1 and moves[0].kind == "forfeit" and moves[0].draw_again
    state = game.apply(state, moves[0])
    assert state.turn == 0 and game.needs_draw(state)


def test_r11_forfeit_discards_and_passes_the_turn(game):
    state = state_with(game, {}, ["12"])
    state = game.draw(state)
    moves = game.legal_moves(state)
    assert [m.kind for m in moves] == ["forfeit"] and not moves[0].draw_again
    after = game.apply(state, moves[0])
    assert after.placement == state.placement and after.turn == 1
    assert [game.card_names[c] for c in after.discard] == ["12"]


def test_r34_empty_pile_reshuffles_the_discards(game):
    state = state_with(game, {"red": ["track:10", "start", "start", "start"]}, [], discard=["3", "5", "8"])
    state = game.draw(state)
    assert state.discard == () and len(state.pile) == 2
    assert sorted(game.card_names[c] for c in state.pile + (state.card,)) == ["3", "5", "8"]


def test_r34_long_game_conserves_cards_through_reshuffles(game):
    state = game.new_game(5, players=2)
    reshuffles = 0
    for _ in range(400):
        if state.winner is not None:
            break
        if game.needs_draw(state):
            before = len(state.discard)
            state = game.draw(state)
            reshuffles += before > 0 and len(state.discard) == 0
        state = game.apply(state, game.legal_moves(state)[0])
        check_state(game, state)
    assert reshuffles >= 1


def test_r35_the_game_ends_at_once_even_with_a_draw_again(game):
    state = state_with(game, {"red": ["home", "home", "home", "safety:4"]}, ["1", "2"])  # safety:4 + 2 = Home
    state = game.draw(state)
    winning = [m for m in game.legal_moves(state) if m.placement[0].count(game.layout.home[0]) == 4]
    assert len(winning) == 1 and winning[0].draw_again
    after = game.apply(state, winning[0])
    assert after.winner == 0
    assert game.legal_moves(after) == []
    outcome = game.outcome(after)
    assert outcome.winner == 0 and outcome.winning_seats == (0,)


@pytest.mark.parametrize("variant,rules", [
    ("standard", ()), ("partnership", ("house/bump-bonus.yaml",)),
    ("standard", ("house/bump-bonus.yaml", "house/sorry-safety.yaml")),
    ("standard", ("house/two-no-draw-again.yaml", "house/bump-bonus.yaml")),
    ("points", ("house/bump-bonus.yaml", "house/mulligan-8.yaml"))])
def test_who_draws_next_over_whole_games(variant, rules):
    """R19 (a 2 draws again, used or not, and chains; not under H2), A13 and P5 in hand play (a
    2 played gives one more play, a 2 discarded from a stuck hand none), H21 (a card whose
    move bumps an opponent, partners not counted, earns one more card, besides the 2's own; a
    Sorry! and H29 count; H23's mulligan moves nothing) and R35 (a win ends the game), over
    whole seeded games of random and greedy players: after every move the same player plays
    again exactly as often as those rules give, else the next seat plays."""
    game = load_game(variant, rules)
    twos, bonus, start = "house/two-no-draw-again.yaml" not in rules, "house/bump-bonus.yaml" in rules, game.layout.start
    hands = game.hand_play
    discarded_twos = 0
    for seed in (0, 1, 2, 138) if hands else range(3):  # seed 138: a stuck hand discards a 2 (P5)
        state = game.new_game(seed, players=4)
        flow = {"seat": None, "over": False, "due": 0, "again": 0, "before": state}

        def observe(turn, after) -> None:
            nonlocal discarded_twos
            before = flow["before"]
            if flow["seat"] is not None:
                assert turn.seat == flow["seat"], f"seed {seed} ply {turn.ply}: seat {turn.seat} drew"
            assert not flow["over"], "a move after the win"
            side = game.team_of[before.seats[before.turn]]
            bumped = any(after.placement[c].count(start[c]) > before.placement[c].count(start[c])
                         for c in before.seats if c not in side)
            two = twos and game.card_names[turn.card] == "2"
            discarded = turn.move.kind == "discard"
            discarded_twos += two and discarded
            flow["due"] += (two and not discarded) + (bonus and bumped)
            keeps = after.winner is None and flow["due"] > 0
            flow["due"] -= keeps
            flow["again"] += keeps
            flow["over"] = after.winner is not None
            flow["seat"] = turn.seat if keeps else (turn.seat + 1) % 4
            flow["before"] = after

        players = [make_player(("random", "greedy")[(seed + s) % 2], seed, s) for s in range(4)]
        assert play_game(game, state, players, on_turn=observe).winner is not None
        assert flow["again"] > 0
    assert discarded_twos > 0 or not hands, "no stuck hand discarded a 2: choose a seed where one does"
