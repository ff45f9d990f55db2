"""Play for points (RULES.md section 6) at the engine level: the start position (P2), the deal
(P3), playing and refilling a hand (P4), the stuck discard (P5), the 2 in hand play (A13), the
11 decline (A21), reshuffling with hands held (A16) and the scores (P7). The positions and
legal moves are also covered as scenarios in tests/scenarios/points/."""

from __future__ import annotations

from collections import Counter

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import view_of

from .invariants import check_state


@pytest.fixture(scope="module")
def points():
    return load_game("points")


@pytest.fixture(scope="module")
def cumulative():
    return load_game("points", ["options/cumulative-bonus.yaml"])


def cards(game, *names):
    return tuple(game.card_index[n] for n in names)


def make_state(game, players, pawns, hands, pile, discard=(), turn=0):
    """A mid-game state: `pawns` {colour: [positions]} (others keep the start position),
    `hands` {colour: [cards]}, `pile` listed bottom to top (the last card is drawn next)."""
    seats = tuple(game.colours.index(p) for p in players)
    state = game.new_game(0, seats=seats, first=turn)
    placement = list(state.placement)
    for name, squares in pawns.items():
        c = game.colours.index(name)
        placement[c] = tuple(sorted(game.layout.parse(c, sq) for sq in squares))
    dealt = tuple(cards(game, *hands[p]) for p in players)
    return state._replace(placement=tuple(placement), hands=dealt, pile=cards(game, *pile),
                          discard=cards(game, *discard))


def names(game, hand):
    return sorted(game.card_names[c] for c in hand)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p2_p3_start_position_and_deal(points, players):
    """P2: three pawns in Start and one on the start exit; P3: five cards dealt to each
    player, the rest is the draw pile (45 - 5n cards); nothing discarded yet."""
    layout = points.layout
    for seed in range(5):
        state = points.new_game(seed, players=players)
        for c in state.seats:
            assert Counter(state.placement[c]) == Counter({layout.start[c]: 3, layout.start_exit[c]: 1})
        assert [len(h) for h in state.hands] == [5] * players
        assert len(state.pile) == 45 - 5 * players and state.discard == ()
        assert Counter(state.pile) + sum((Counter(h) for h in state.hands), Counter()) == Counter(points.deck)
        assert state.card is None and not points.needs_draw(state)
        check_state(points, state)


def test_p4_play_discard_refill(points):
    """P4: play one card from the hand, discard it, draw the top card as a replacement; the
    turn passes; a card that cannot move is not offered."""
    state = make_state(points, ["red", "blue"], {"red": ["track:10", "home", "home", "home"]},
                       {"red": ["3", "sorry", "sorry", "sorry", "sorry"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=["5", "8"])
    moves = points.legal_moves(state)
    assert {points.card_names[m.card] for m in moves} == {"3"}  # no pawn in Start: Sorry! cannot move
    after = points.apply(state, moves[0])
    assert names(points, after.hands[0]) == ["8", "sorry", "sorry", "sorry", "sorry"]
    assert after.hands[1] == state.hands[1]
    assert after.pile == cards(points, "5") and after.discard == cards(points, "3")
    assert after.turn == 1
    assert after.placement[0] == tuple(sorted((13, *[points.layout.home[0]] * 3)))


def test_p5_stuck_discard_then_draw_turn_ends(points):
    """P5 and A13: no card can move: discard one card of choice and draw; the turn ends, even
    when the discarded card is a 2."""
    state = make_state(points, ["red", "blue"], {"red": ["safety:5", "home", "home", "home"]},
                       {"red": ["2", "3", "5", "12", "sorry"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=["4", "7"])
    moves = points.legal_moves(state)
    assert all(m.kind == "discard" and not m.draw_again for m in moves)
    assert sorted(points.card_names[m.card] for m in moves) == ["12", "2", "3", "5", "sorry"]
    two = next(m for m in moves if points.card_names[m.card] == "2")
    after = points.apply(state, two)
    assert after.placement == state.placement
    assert names(points, after.hands[0]) == ["12", "3", "5", "7", "sorry"]
    assert after.discard == cards(points, "2") and after.pile == cards(points, "4")
    assert after.turn == 1  # a 2 discarded when stuck gives no extra play


def test_a13_two_played_from_hand_plays_again_after_refill(points):
    """A13: a 2 played from the hand keeps the turn; the hand is refilled first, and the
    next play may use the card just drawn. A second 2 chains."""
    state = make_state(points, ["red", "blue"], {"red": ["track:10", "home", "home", "home"]},
                       {"red": ["2", "sorry", "sorry", "sorry", "12"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=["4", "5", "2"])
    two = next(m for m in points.legal_moves(state) if points.card_names[m.card] == "2")
    assert two.draw_again
    after = points.apply(state, two)
    assert after.turn == 0
    assert names(points, after.hands[0]) == ["12", "2", "sorry", "sorry", "sorry"]  # the drawn 2 joins the hand
    assert after.placement[0][0] == 12
    moves = points.legal_moves(after)
    assert {points.card_names[m.card] for m in moves} == {"2", "12"}
    again = next(m for m in moves if points.card_names[m.card] == "2")
    third = points.apply(after, again)
    assert third.turn == 0 and names(points, third.hands[0]) == ["12", "5", "sorry", "sorry", "sorry"]
    twelve = next(m for m in points.legal_moves(third) if points.card_names[m.card] == "12")
    fourth = points.apply(third, twelve)
    assert fourth.turn == 1 and fourth.placement[0][0] == 26
    assert names(points, fourth.hands[0]) == ["4", "5", "sorry", "sorry", "sorry"]


def test_a13_the_words_of_a_two_in_hand_play_say_it_plays_again(points):
    """A13: in hand play a 2 lets the player play one more card after refilling: the move,
    the card's explanation and the play screen's help say "plays again", not "draws again"."""
    from sorry_rules.authoring.explain import explain_text, load_explained
    from sorry_rules.cli.screen import help_text
    from sorry_rules.engine.describe import describe_move

    state = make_state(points, ["red", "blue"], {"red": ["track:10", "home", "home", "home"]},
                       {"red": ["2", "sorry", "sorry", "sorry", "12"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=["4", "5", "2"])
    two = next(m for m in points.legal_moves(state) if points.card_names[m.card] == "2")
    assert describe_move(points, two).endswith("; plays again")
    said = " ".join(explain_text(load_explained("points"), only=("2",)).split())
    assert "Either start a pawn or move one pawn forward 2, then play again from the refilled hand." in said
    assert "'plays again' gives you another card" in help_text(points)
    assert "'draws again' gives you another card" in help_text(load_game("standard"))


def test_a21_declining_an_eleven_discards_it(points):
    """A21: the only plays are 11-switches: the player may decline; the 11 is discarded, a
    replacement drawn, the turn ends and nothing moves."""
    state = make_state(points, ["red", "blue"],
                       {"red": ["track:0", "home", "home", "home"], "blue": ["track:20", "start", "start", "start"]},
                       {"red": ["11", "12", "sorry", "12", "sorry"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=["3"])
    moves = points.legal_moves(state)
    assert sorted(m.kind for m in moves) == ["move", "pass"]
    decline = next(m for m in moves if m.kind == "pass")
    after = points.apply(state, decline)
    assert after.placement == state.placement and after.turn == 1
    assert after.discard == cards(points, "11")
    assert names(points, after.hands[0]) == ["12", "12", "3", "sorry", "sorry"]


def test_a16_reshuffle_keeps_hands(points):
    """A16: when the pile is empty the discards (the card just played included) are shuffled
    into a new pile; cards in hands stay in hands and every card is conserved."""
    state = make_state(points, ["red", "blue"], {"red": ["track:10", "home", "home", "home"]},
                       {"red": ["3", "sorry", "sorry", "sorry", "sorry"], "blue": ["1", "1", "1", "1", "1"]},
                       pile=[], discard=["5", "8", "12"])
    after = points.apply(state, points.legal_moves(state)[0])
    assert after.hands[1] == state.hands[1]
    assert len(after.hands[0]) == 5
    assert len(after.pile) == 3 and after.discard == ()
    before_cards = Counter(state.discard) + Counter(state.hands[0]) + Counter(state.hands[1])
    after_cards = Counter(after.pile) + Counter(after.hands[0]) + Counter(after.hands[1])
    assert before_cards == after_cards


def test_view_shows_only_own_hand(points):
    """P3: each player sees only their own hand (and the pile's size, not its order)."""
    state = points.new_game(7, players=3)
    view = view_of(points, state)
    assert view.hand == state.hands[state.turn]
    assert not hasattr(view, "hands") and not hasattr(view, "pile")
    assert view.pile_size == len(state.pile)


def final_state(game, players, pawns):
    """A finished game: red (seat 0) has just won."""
    hands = {p: ["1"] * 5 for p in players}
    state = make_state(game, players, pawns, hands, pile=[])
    return state._replace(winner=0)


P7_EXAMPLE = {"red": ["home"] * 4, "blue": ["start"] * 4, "yellow": ["home", "start", "start", "start"],
              "green": ["home", "home", "start", "start"]}


def test_p7_worked_example(points):
    """P7: opponents with 0, 1, 2 pawns Home: the winner scores 4*5 + 5*(4+3+2) + 25 = 90;
    every other player 5 per own pawn Home."""
    state = final_state(points, ["red", "blue", "yellow", "green"], P7_EXAMPLE)
    outcome = points.outcome(state)
    assert outcome.winner == 0 and outcome.winning_seats == (0,)
    totals = {seat: total for seat, (total, _) in outcome.scores.items()}
    assert totals == {0: 90, 1: 0, 2: 5, 3: 10}
    lines = outcome.scores[0][1]
    assert [line.points for line in lines] == [20, 45, 25]
    assert [line.label for line in outcome.scores[2][1]] == ["5 per own pawn Home"]


@pytest.mark.parametrize("homes, highest, cumulative_bonus", [
    ((0, 0, 0), 100, 175),
    ((0, 0, 1), 50, 75),
    ((0, 1, 2), 25, 25),
    ((1, 1, 1), 50, 75),
    ((2, 2, 2), 25, 25),
    ((0, 0, 3), 0, 0),
    ((3, 3, 3), 0, 0),
])
def test_p7_bonus_highest_and_cumulative(points, cumulative, homes, highest, cumulative_bonus):
    """P7: the bonus is the highest that applies (100 / 50 / 25); with the option, every
    bonus that applies is added (25 + 50 + 100)."""
    pawns = {"red": ["home"] * 4}
    for name, home in zip(["blue", "yellow", "green"], homes):
        pawns[name] = ["home"] * home + ["start"] * (4 - home)
    not_home = sum(4 - h for h in homes)
    for game, bonus in ((points, highest), (cumulative, cumulative_bonus)):
        outcome = game.outcome(final_state(game, ["red", "blue", "yellow", "green"], pawns))
        assert outcome.scores[0][0] == 20 + 5 * not_home + bonus
        for seat, home in zip((1, 2, 3), homes):
            assert outcome.scores[seat][0] == 5 * home


def test_a21_a_bare_pass_is_no_play():
    """A21 / P5: a card whose only option is a pass does not move, so a hand where no card can
    move a pawn gets the free discard of any card, not just the pass of that card."""
    from sorry_rules.compiler import compile_variant
    from sorry_rules.rules.loader import load_variant
    from sorry_rules.rules.yamlsafe import load_yaml

    layer = load_yaml('cards:\n  "11": forward 11 | pass\n', "<test>")
    game, _ = compile_variant(load_variant("points", layers=(layer,)))
    state = make_state(game, ["red", "blue"], {"red": ["safety:5", "home", "home", "home"]},
                       {"red": ["11", "3", "5", "12", "sorry"], "blue": ["1"] * 5}, pile=["4"])
    moves = game.legal_moves(state)
    assert sorted(game.card_names[m.card] for m in moves) == ["11", "12", "3", "5", "sorry"]
    assert {m.kind for m in moves} == {"discard"}
