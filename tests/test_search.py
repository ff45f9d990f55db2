"""The search player: legal moves on every board kind, its budget kept, the same choice for
the same seed and budget, hidden cards never read, and plans a one-ply player misses.

Strength over 1,000 games is measured by bench/bots.py, not here."""

from __future__ import annotations

from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.protocol import view_of
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.players.sampling import Deals, hand_sizes
from sorry_rules.players.search import SearchPlayer
from sorry_rules.players import winchance
from sorry_rules.players.winchance import fit
from sorry_rules.records.position import parse_position

from .invariants import check_state

RULES = Path(__file__).parent / "rules"
SMALL = {"playouts": 12, "horizon": 4}


@pytest.fixture(scope="module")
def hand_game():
    return load_game(str(RULES / "hand5.yaml"))


def _decisions(game, seed: int, players: int, count: int) -> list:
    """(view, moves) of the first `count` decisions among two or more moves of a random game."""
    state = game.new_game(seed, players=players)
    out = []
    random = make_player("random", seed, 0)
    for _ in range(400):
        if game.needs_draw(state):
            state = game.draw(state)
        moves = game.legal_moves(state)
        view = view_of(game, state)
        if len(moves) > 1:
            out.append((view, moves))
        state = game.apply(state, moves[random.choose(view, moves)])
        if state.winner is not None or len(out) >= count:
            break
    return out


@pytest.mark.parametrize("variant, players", [("standard", 2), ("partnership", 4), ("points", 3), ("sequence", 2),
                                              ("house/mercy-start", 2), ("ludo", 3), ("parcheesi", 2)])
def test_plays_legal_games_to_the_end(variant, players):
    """Every choice is one of the legal moves (the loop refuses any other) and every state
    keeps the invariants, on track and grid rule files, teams, hand play and dice (throws
    drawn with replacement: the deals guess no pile)."""
    game = load_game(variant)
    state = game.new_game(3, players=players)
    bots = [SearchPlayer(3, seat, **SMALL) if seat == 0 else make_player("greedy", 3, seat) for seat in range(players)]
    watch = None if game.board_kind != "track" else (lambda turn, s: check_state(game, s))
    final = play_game(game, state, bots, on_turn=watch, max_plies=400 if variant != "sequence" else 120)
    assert final.plies > 20


def test_budget_is_kept_and_counted():
    game = load_game("standard")
    decisions = _decisions(game, 5, 2, 6)
    assert len(decisions) >= 4
    for playouts in (1, 7, 30):
        player = SearchPlayer(1, 0, playouts=playouts, horizon=4)
        for view, moves in decisions:
            assert 0 <= player.choose(view, moves) < len(moves)
            assert player.last_playouts <= max(playouts, 0)
            if playouts >= 2 * len(moves):
                assert player.last_playouts >= playouts // 2
    timed = SearchPlayer(1, 0, playouts=10_000, seconds=0.0)
    view, moves = decisions[0]
    assert 0 <= timed.choose(view, moves) < len(moves)
    assert timed.last_playouts < 10_000


def test_a_thinking_time_is_the_budget_and_is_kept(monkeypatch):
    """`--think`: with time to spare the search plays more playouts than its fixed budget
    (it only ever cut the budget short), and never runs past the time given. The clock is
    a counter (each reading 0.1 ms later), so the test does not depend on the machine."""
    from sorry_rules.players import search

    clock = iter(range(10**9))
    monkeypatch.setattr(search.time, "perf_counter", lambda: next(clock) * 1e-4)
    game = load_game("standard")
    view, moves = next((view, moves) for view, moves in _decisions(game, 5, 2, 12) if len(moves) > 2)
    fixed = SearchPlayer(1, 0)
    fixed.choose(view, moves)
    timed = SearchPlayer(1, 0, seconds=0.05)
    start = search.time.perf_counter()
    assert 0 <= timed.choose(view, moves) < len(moves)
    assert timed.last_playouts > fixed.last_playouts
    assert search.time.perf_counter() - start <= 0.05 + 0.01  # the deadline, and the readings after it


def test_a_throw_of_several_dice_shares_the_default_playouts():
    """The default budget per decision is shared among the dice of a throw (a Parcheesi ply
    weighs every way of spending its two dice), so a decision stays well under a second."""
    assert SearchPlayer(1).budget(load_game("parcheesi"))[0] * 2 == SearchPlayer(1).budget(load_game("ludo"))[0]


@pytest.mark.parametrize("variant", ["standard", "sequence"])
def test_same_seed_and_budget_same_choice(variant):
    """The choice depends only on the seed parts, the view, the moves and the budget (not on
    earlier decisions), and other seeds do make other deals."""
    game = load_game(variant)
    decisions = _decisions(game, 8, 2, 5)
    first = [SearchPlayer(4, v.seat, **SMALL).analyse(v, m) for v, m in decisions]
    reused = SearchPlayer(4, 0, **SMALL)
    again = [reused.analyse(v, m) if v.seat == 0 else SearchPlayer(4, v.seat, **SMALL).analyse(v, m)
             for v, m in reversed(decisions)][::-1]
    assert first == again
    view, _ = decisions[0]
    one, other = Deals(view, 1).table(0), Deals(view, 2).table(0)
    assert (one.pile, one.hands) != (other.pile, other.hands)


def test_deals_hold_exactly_the_unseen_cards(hand_game):
    """A deal puts the cards the player cannot see into the other hands (a full hand each
    at most, P3) and the pile; the player's own hand and the discards are as seen."""
    game = hand_game
    state = game.new_game(2, players=3)
    for _ in range(12):
        state = game.apply(state, game.legal_moves(state)[0])
    view = view_of(game, state)
    table = Deals(view, 9).table(3)
    assert table.hands[view.seat] == list(state.hands[view.seat])
    assert sorted(table.pile + [c for s, h in enumerate(table.hands) if s != view.seat for c in h]) == \
        sorted(state.pile + tuple(c for s, h in enumerate(state.hands) if s != view.seat for c in h))
    assert [len(h) for h in table.hands] == [len(h) for h in state.hands]
    assert hand_sizes(view, 40) == [5 if s != view.seat else len(view.hand) for s in range(3)]


def test_wins_by_playing_the_two_first(hand_game):
    """A13, R35: in hand play a 2 keeps the turn. Red holds a 2 and an 8 with its last pawn 10
    from Home and Blue one step from winning: the 2 then the 8 win now; the greedy player
    takes the 8's bigger step (into the safety zone) and gives Blue a turn."""
    state = parse_position(hand_game, {
        "players": ["red", "blue"], "turn": "red", "hand": ["2", "8", "sorry", "sorry", "sorry"],
        "pawns": {"red": ["home", "home", "home", "track:58"], "blue": ["home", "home", "home", "safety:5"]}}).state
    moves = hand_game.legal_moves(state)
    view = view_of(hand_game, state)
    names = [hand_game.card_names[m.card] for m in moves]
    assert sorted(names) == ["2", "8"]
    assert names[GreedyPlayer(1, 0).choose(view, moves)] == "8"
    player = SearchPlayer(1, 0, **SMALL)
    analysis = player.analyse(view, moves)
    assert names[analysis.choice] == "2"
    assert analysis.chances[analysis.choice] == 1.0
    choice, why = player.advise(view, moves)
    assert choice == analysis.choice and "win chance after it 100%" in why


def test_sets_up_a_capture_the_greedy_player_misses(hand_game):
    """R15, A13: Blue's far-advanced pawn stands 7 ahead of Red's pawn on track:5. A 2 (the
    turn goes on) and then the 5 bump it; the greedy player spends the 5 on its other pawn's
    step into the safety zone (R29) and bumps nothing."""
    state = parse_position(hand_game, {
        "players": ["red", "blue"], "turn": "red", "hand": ["2", "5", "sorry", "sorry", "sorry"],
        "pawns": {"red": ["home", "home", "track:58", "track:5"], "blue": ["home", "home", "start", "track:12"]}}).state
    moves = hand_game.legal_moves(state)
    view = view_of(hand_game, state)
    greedy = moves[GreedyPlayer(1, 0).choose(view, moves)]
    assert hand_game.card_names[greedy.card] == "5" and 5 in greedy.placement[0]
    chosen = moves[SearchPlayer(1, 0, **SMALL).choose(view, moves)]
    assert hand_game.card_names[chosen.card] == "2" and 7 in chosen.placement[0]
    after = hand_game.apply(state, chosen)
    assert after.turn == state.turn
    assert any(e[0] == "bump" and e[1] == 1 for m in hand_game.legal_moves(after) for e in m.events)


def test_fit_recovers_a_logistic_curve():
    """The win-chance fit: outcomes that turn from losses to wins around x = 3 (with some
    noise on either side) give a rising curve through one half near 3."""
    xs = [x / 4 for x in range(-40, 41)]
    ys = [1.0 if (x > 3) != (i % 7 == 0) else 0.0 for i, x in enumerate(xs)]
    a, b = fit(xs, ys)
    assert b > 0
    assert abs(-a / b - 3) < 1.5
    assert fit([], []) == (0.0, 0.0)


def test_the_fit_is_kept_in_the_cache_folder_and_read_back_exactly(cache, monkeypatch):
    """The fitted numbers depend only on the rules, the seats and the code: a new process
    (a new game object) reads them back bit for bit instead of replaying the fitting games;
    a damaged entry or other seats are fitted afresh."""
    spec = str(RULES / "short-sides.yaml")  # not bundled: no fit is shipped for it (tests/test_winchances.py)
    first = winchance.win_chance_for(load_game(spec), 2)
    fitted = (first.a, first.b)
    played = []
    monkeypatch.setattr(winchance, "samples", lambda game, players: played.append(players) or ([], []))
    again = winchance.win_chance_for(load_game(spec), 2)
    assert (again.a, again.b) == fitted and played == []
    assert (winchance.win_chance_for(load_game(spec), 3).a, played) == (0.0, [3])
    for entry in cache.glob(f"{winchance.KIND}-*.json"):
        entry.write_text(entry.read_text().replace("[", "[1.5, "))
    assert (winchance.win_chance_for(load_game(spec), 2).b, played) == (0.0, [3, 2])


def test_the_hint_compares_like_with_like():
    """The hint's two figures are the same estimate (the mean win chance over each move's
    playouts): the move it names and the next best, searched longest beside it; it never
    sets a static evaluation of the position before the move against them."""
    from sorry_rules.players.hints import reason
    from sorry_rules.players.search import Analysis

    analysis = Analysis(1, [0.30, 0.55, 0.52, None], [24, 96, 96, 0], 216, [0.2, 0.5, 0.4, None])
    assert reason(analysis, type("M", (), {"events": ()})()) == "your win chance after it 55%; after the next best move 52%"
