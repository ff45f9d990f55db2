"""The computer players: legal, deterministic, blind to hidden cards, sensible in clear
positions, and working for hand play and teams through the engine API alone.

Strength over 1,000 games is measured by bench/bots.py, not here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sorry_rules.players.registry import BOTS, bot_names, make_player
from sorry_rules.compiler import load_game
from sorry_rules.base.errors import UsageError
from sorry_rules.players.evaluation import unseen_cards
from sorry_rules.players.expert import ExpertPlayer
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.protocol import view_of
from sorry_rules.records.position import parse_position
from sorry_rules.players.runner import play_game

from .invariants import check_state

RULES = Path(__file__).parent / "rules"
#: every kind of player once: the levels are greedy and search by other names (tests/test_search.py), and
#: `medium` with the QUICK budget below is `search` with it (the levels' own budgets: test_levels_are_players_at_budgets)
KINDS = sorted(kind for kind in BOTS if kind not in ("easy", "medium", "hard"))


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


@pytest.fixture(scope="module")
def hand_game():
    return load_game(str(RULES / "hand5.yaml"))


@pytest.fixture(scope="module")
def team_game():
    return load_game(str(RULES / "teams.yaml"))


@pytest.fixture(scope="module")
def hand_team_game():
    return load_game(str(RULES / "hand-teams.yaml"))


def _position(game, data):
    pos = parse_position(game, data)
    return pos.state


def _choose(game, kind, state, *seed):
    moves = game.legal_moves(state)
    return moves, make_player(kind, *(seed or (1, state.turn))).choose(view_of(game, state), moves)


#: small search budgets (the default budgets are for real play)
QUICK = {"expert": {"nodes": 400}, "search": {"playouts": 12, "horizon": 4}}


def _quick(kind, *seed):
    """A bot with a small search budget."""
    return make_player(kind, *seed, **QUICK.get(kind, {}))


def test_unknown_bot_is_a_usage_error():
    with pytest.raises(UsageError, match="known: easy, expert, greedy, hard, medium, random, search"):
        make_player("clever", 1, 0)


def test_help_texts_name_every_bot():
    """The help texts' names (players.names, read without loading a player) are the bots."""
    from sorry_rules.players.names import LEVELS, PLAYERS

    assert sorted(PLAYERS + tuple(LEVELS)) == bot_names()


def test_levels_are_players_at_budgets():
    """`easy`, `medium` and `hard` name players and budgets (help: players.names.LEVELS): greedy,
    a small search that keeps greedy's move unless another is clearly better, the full search."""
    from sorry_rules.players.greedy import GreedyPlayer
    from sorry_rules.players.registry import MEDIUM
    from sorry_rules.players.search import SearchPlayer

    assert type(make_player("easy", 1, 0)) is GreedyPlayer
    hard, search, medium = make_player("hard", 1, 0), make_player("search", 1, 0), make_player("medium", 1, 0)
    assert type(hard) is type(search) is type(medium) is SearchPlayer
    assert (hard.playouts, hard.horizon, hard.caution) == (search.playouts, search.horizon, search.caution)
    assert (medium.playouts, medium.horizon, medium.caution) == (MEDIUM["playouts"], MEDIUM["horizon"], MEDIUM["caution"])


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_takes_the_winning_move(standard, kind):
    """R35: with three pawns Home and one 10 steps away, a 10 forward wins; back 1 does not."""
    state = _position(standard, {"players": ["red", "blue"], "turn": "red", "card": "10",
                                 "pawns": {"red": ["home", "home", "home", "track:58"], "blue": ["track:30"]}})
    moves, choice = _choose(standard, kind, state)
    assert len(moves) == 2
    assert standard.apply(state, moves[choice]).winner == 0


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_bumps_an_advanced_opponent(standard, kind):
    """R15: a 5 that lands on Blue's far-advanced pawn sends it back to Start; the other 5
    only walks a pawn forward."""
    state = _position(standard, {"players": ["red", "blue"], "turn": "red", "card": "5",
                                 "pawns": {"red": ["track:6", "track:36", "home", "home"],
                                           "blue": ["track:11", "home", "home", "start"]}})
    moves, choice = _choose(standard, kind, state)
    assert any(e[0] == "bump" for m in moves for e in m.events)
    assert any(e[0] == "bump" and e[1] == 1 for e in moves[choice].events)


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_prefers_safety_to_staying_in_front_of_opponents(standard, kind):
    """R29: Red can move a pawn from just ahead of Blue's pawns into its safety zone, or
    move its other pawn on an empty stretch; the safe move keeps the pawn from being bumped."""
    state = _position(standard, {"players": ["red", "blue"], "turn": "red", "card": "3",
                                 "pawns": {"red": ["track:0", "track:40", "start", "start"],
                                           "blue": ["track:57", "track:58", "start", "start"]}})
    moves, choice = _choose(standard, kind, state)
    assert len(moves) == 2
    assert 0 not in moves[choice].placement[0]


@pytest.mark.parametrize("kind", KINDS)
def test_choice_depends_only_on_seed_and_view(standard, kind):
    """Bots keep no state between decisions: asking again, or after other questions, gives
    the same answer (a resumed game goes on exactly as it would have)."""
    game = standard
    state = game.new_game(11, players=4)
    seen = []
    for _ in range(60):
        state = game.draw(state)
        moves = game.legal_moves(state)
        if len(moves) > 1:
            seen.append((view_of(game, state), moves))
        state = game.apply(state, moves[0])
        if state.winner is not None:
            break
    assert len(seen) >= 5
    fresh = [_quick(kind, 5, v.seat).choose(v, m) for v, m in seen]
    reused = _quick(kind, 5, 0)
    again = [_quick(kind, 5, v.seat).choose(v, m) for v, m in reversed(seen)][::-1]
    assert fresh == again
    for (view, moves), expected in zip(seen, fresh):
        if view.seat == 0:
            assert reused.choose(view, moves) == expected


def _hidden_variants(game, state):
    """States with the same View for the player to move but other hidden cards: the pile
    reversed, and (hand play) other players' hands swapped with pile cards."""
    yield state._replace(pile=tuple(reversed(state.pile)))
    if state.hands is not None:
        hands = list(state.hands)
        pile = list(state.pile)
        for seat in range(len(hands)):
            if seat != state.turn and hands[seat] and pile:
                swapped = list(hands[seat])
                swapped[0], pile[-1] = pile[-1], swapped[0]
                hands[seat] = tuple(swapped)
        yield state._replace(hands=tuple(hands), pile=tuple(pile))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["standard", "hand_game", "hand_team_game"])
def test_bots_never_see_hidden_cards(request, kind, which):
    """A bot's choice is the same in states that differ only in what its View hides."""
    game = request.getfixturevalue(which)
    state = game.new_game(4, players=game.players_max)
    checked = 0
    for _ in range(120):
        if game.needs_draw(state):
            state = game.draw(state)
        moves = game.legal_moves(state)
        if len(moves) > 1:
            choice = _quick(kind, 9, state.turn).choose(view_of(game, state), moves)
            for other in _hidden_variants(game, state):
                assert game.legal_moves(other) == moves
                assert _quick(kind, 9, state.turn).choose(view_of(game, other), moves) == choice
            checked += 1
        state = game.apply(state, moves[0])
        if state.winner is not None or checked >= 6:
            break
    assert checked >= 3


def test_unseen_cards_are_deck_minus_what_the_player_sees(hand_game):
    game = hand_game
    state = game.new_game(2, players=4)
    for _ in range(10):
        state = game.apply(state, game.legal_moves(state)[0])
    view = view_of(game, state)
    expected = Counter(game.deck)
    expected.subtract(state.discard)
    expected.subtract(state.hands[state.turn])
    unseen = unseen_cards(view)
    assert unseen == {card: n for card, n in expected.items() if n > 0}
    hidden = Counter(state.pile)
    for seat, hand in enumerate(state.hands):
        if seat != state.turn:
            hidden.update(hand)
    assert Counter(unseen) == hidden


def test_expert_budget_is_deterministic_and_bounded(standard):
    game = standard
    state = game.new_game(3, players=2)
    decisions = 0
    while decisions < 8:
        state = game.draw(state)
        moves = game.legal_moves(state)
        if len(moves) > 1:
            view = view_of(game, state)
            deep = ExpertPlayer(1, 0)
            a = deep.choose(view, moves)
            assert deep.last_depth >= 1
            assert ExpertPlayer(1, 0).choose(view, moves) == a
            starved = ExpertPlayer(1, 0, nodes=1)
            scores = GreedyPlayer(1, 0).scores(view, moves)
            assert scores[starved.choose(view, moves)] == max(scores)
            assert starved.last_depth == 0
            timed = ExpertPlayer(1, 0, seconds=0.0)
            assert 0 <= timed.choose(view, moves) < len(moves)
            decisions += 1
        state = game.apply(state, moves[0])
        assert state.winner is None


class _Forgetful(dict):
    """A memory that keeps nothing: the expert then works out every position it meets."""

    def __setitem__(self, key, value) -> None:
        pass


@pytest.mark.parametrize("variant", ["standard", "partnership", "house/mercy-start"])
def test_expert_values_kept_for_positions_met_again_change_nothing(variant, monkeypatch):
    """A position met again in one decision's search (two cards leading to the same squares,
    R18-R25) keeps its value and the nodes working it out spent, and options of one result
    share their leaf (equal keys, flags and kinds, A24): along seeded games of four
    players (a 2's extra draw, R19; partners, T2; marks, H27), the choices, the depths
    finished and the nodes spent (where the budget held) are those of a search that works
    every position out."""
    from sorry_rules.players import expert

    game = load_game(variant)
    made = expert._Search.__init__
    searches: list = []

    def keeping(self, *args, **kwargs):
        made(self, *args, **kwargs)
        searches.append(self)

    def forgetting(self, *args, **kwargs):
        keeping(self, *args, **kwargs)
        self.known, self.alike = _Forgetful(), False

    state = game.new_game(5, players=4)
    compared = kept = 0
    while state.winner is None and compared < 24:
        state = game.draw(state) if game.needs_draw(state) else state
        moves = game.legal_moves(state)
        if len(moves) > 1:
            view, runs = view_of(game, state), []
            for init in (keeping, forgetting):
                monkeypatch.setattr(expert._Search, "__init__", init)
                player = ExpertPlayer(2, state.turn, nodes=1500)
                choice = player.choose(view, moves)
                nodes = searches[-1].nodes
                runs.append((choice, player.last_depth, nodes if nodes <= 1500 else "over"))
            assert runs[0] == runs[1]
            kept += bool(searches[-2].known)
            compared += 1
        state = game.apply(state, moves[0])
    assert compared == 24 and kept > 0


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["hand_game", "team_game", "hand_team_game"])
def test_bots_finish_hand_and_team_games(request, kind, which):
    """Every bot plays hand play (P4, P5) and partnership control (T2, T7, T8) to the end
    through the engine API alone, keeping every invariant."""
    game = request.getfixturevalue(which)
    for seed in range(1 if kind in QUICK else 3):
        state = game.new_game(seed, players=game.players_max)
        players = [_quick(kind, seed, seat) for seat in range(len(state.seats))]
        final = play_game(game, state, players, on_turn=lambda turn, s: check_state(game, s))
        assert final.winner is not None
        outcome = game.outcome(final)
        for seat in outcome.winning_seats:
            colour = final.seats[seat]
            assert all(sq == game.layout.home[c] for c in game.team_of[colour] for sq in final.placement[c])


def test_hand_play_bots_choose_among_the_whole_hand(hand_game):
    """P4: a bot in hand play may pick any card of the hand; over a game the greedy bot plays
    cards other than the first one listed."""
    game = hand_game
    state = game.new_game(6, players=2)
    cards_chosen = set()
    firsts = set()
    for _ in range(80):
        moves = game.legal_moves(state)
        choice = make_player("greedy", 6, state.turn).choose(view_of(game, state), moves)
        if len({m.card for m in moves}) > 1:
            cards_chosen.add(moves[choice].card)
            firsts.add(moves[0].card)
        state = game.apply(state, moves[choice])
        if state.winner is not None:
            break
    assert cards_chosen - firsts
