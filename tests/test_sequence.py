"""Sequence (docs/SEQUENCE.md) on the grid board kind: hand-worked scenarios as data, each
citing the rule-book statements it checks. A scenario is a position (chips per colour, the
colours seated, the hand to move, whether this turn's exchange was made) and the moves
the rule book allows there, or a line count."""

from __future__ import annotations

from functools import lru_cache

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.base.errors import IllegalMoveError


@lru_cache(maxsize=None)
def sequence():
    return load_game("sequence")


def state_of(chips: dict, hand: list, players=("blue", "green"), turn="blue", exchanged=False, game=None):
    game = game or sequence()
    grid = game.grid
    placement = tuple(tuple(sorted(grid.parse(c, name) for name in chips.get(colour, ())))
                      for c, colour in enumerate(game.colours))
    seats = tuple(game.colours.index(p) for p in players)
    cards = [game.card_index[card] for card in hand]
    return game.position(placement, seats, players.index(turn), cards, exchanged)


def described(game, move) -> tuple:
    """(kind, card, cells the move touched) of a move, in names."""
    card = None if move.card is None else game.card_names[move.card]
    return move.kind, card, tuple(game.grid.name(e[2]) for e in move.events)


def moves_of(chips, hand, **kw) -> set:
    game = sequence()
    return {described(game, m) for m in game.legal_moves(state_of(chips, hand, **kw))}


def row(cells: str) -> list:
    return cells.split()


# ---- S7, S12, S6: what a hand allows -------------------------------------------------------
MOVE_SCENARIOS = [
    # (rule ids, chips, hand, exchanged, expected moves)
    ("S7: a card places on either of its two cells", {}, ["4H"], False,
     {("place", "4H", ("F5",)), ("place", "4H", ("I8",))}),
    ("S7: a covered cell is not offered", {"green": ["F5"]}, ["4H"], False,
     {("place", "4H", ("I8",))}),
    ("S7: own chip covers a cell too", {"blue": ["I8"]}, ["4H"], False,
     {("place", "4H", ("F5",))}),
    ("S12, S6, S9: both cells covered: the card is dead and is exchanged; the pass comes only after any exchange",
     {"blue": ["F5"], "green": ["I8"]}, ["4H"], False,
     {("exchange", "4H", ())}),
    ("S6: one exchange per turn: after it, a dead card gives nothing",
     {"blue": ["F5"], "green": ["I8"]}, ["4H"], True, {("pass", None, ())}),
    ("S6, S12: a dead card beside a playable one: play or exchange, no pass",
     {"blue": ["F5"], "green": ["I8"]}, ["4H", "2S"], False,
     {("exchange", "4H", ()), ("place", "2S", ("B1",)), ("place", "2S", ("G9",))}),
    ("S7: two copies of a card give each result once", {}, ["2S", "2S"], False,
     {("place", "2S", ("B1",)), ("place", "2S", ("G9",))}),
    ("S7, S12: a one-eyed Jack with no opponent chip cannot be played; it is dead",
     {"blue": ["E5"]}, ["JH"], False, {("exchange", "JH", ())}),
    ("S7: a one-eyed Jack removes any opponent chip, never an own one",
     {"blue": ["E5"], "green": ["D4", "J2"]}, ["JS"], False,
     {("remove", "JS", ("D4",)), ("remove", "JS", ("J2",))}),
    ("S10: a chip in a line of its colour is protected from one-eyed Jacks",
     {"green": row("B3 C3 D3 E3 F3 J2")}, ["JH"], False, {("remove", "JH", ("J2",))}),
    ("S10: a line through a free corner protects its four chips",
     {"green": row("B1 C1 D1 E1 J2")}, ["JH"], False, {("remove", "JH", ("J2",))}),
    ("S10: four in a row is no line: every chip may be removed",
     {"green": row("B3 C3 D3 E3")}, ["JH"], False,
     {("remove", "JH", (c,)) for c in row("B3 C3 D3 E3")}),
]


@pytest.mark.parametrize("why, chips, hand, exchanged, expected", MOVE_SCENARIOS, ids=[s[0][:40] for s in MOVE_SCENARIOS])
def test_moves(why, chips, hand, exchanged, expected):
    assert moves_of(chips, hand, exchanged=exchanged) == expected


def test_two_eyed_jack_places_on_any_empty_cell_never_a_corner():
    """S7: 100 cells less the 4 free corners less the covered ones."""
    game = sequence()
    found = moves_of({"blue": ["E5"], "green": ["D4"]}, ["JD"])
    cells = {m[2][0] for m in found}
    assert all(m[:2] == ("place", "JD") for m in found)
    assert len(cells) == 100 - 4 - 2
    assert not cells & {"A1", "J1", "A10", "J10", "E5", "D4"}
    assert game.grid.free == {game.grid.parse(0, c) for c in ("A1", "J1", "A10", "J10")}


def test_the_board_shows_each_card_twice():
    """Section 1: 4 free corners, and each of the 48 cards on exactly two cells."""
    grid = sequence().grid
    assert len(grid.free) == 4
    assert len(grid.cells_of_card) == 48
    assert all(len(cells) == 2 for cells in grid.cells_of_card.values())


# ---- S10, S11: lines and the sequence count ------------------------------------------------
COUNT_SCENARIOS = [
    ("S10: five in a row", row("A3 B3 C3 D3 E3"), 1),
    ("S10: four in a row", row("A3 B3 C3 D3"), 0),
    ("S10: a column", row("C2 C3 C4 C5 C6"), 1),
    ("S10: a diagonal", row("B2 C3 D4 E5 F6"), 1),
    ("S10: the other diagonal", row("F2 E3 D4 C5 B6"), 1),
    ("S10: a corner counts for the colour", row("B1 C1 D1 E1"), 1),
    ("S10: a broken row is no line", row("A3 B3 C3 E3 F3"), 0),
    ("S11: 6 in a row count 1", row("A3 B3 C3 D3 E3 F3"), 1),
    ("S11: 7 in a row count 1", row("A3 B3 C3 D3 E3 F3 G3"), 1),
    ("S11: 8 in a row count 1", row("A3 B3 C3 D3 E3 F3 G3 H3"), 1),
    ("S11: 9 in a row count 2", row("A3 B3 C3 D3 E3 F3 G3 H3 I3"), 2),
    ("S11: 10 in a row count 2", row("A3 B3 C3 D3 E3 F3 G3 H3 I3 J3"), 2),
    ("S11: a row with both corners: 10 cells, 2", row("B1 C1 D1 E1 F1 G1 H1 I1"), 2),
    ("S11: two lines crossing in one cell count 2", row("A5 B5 C5 D5 E5") + row("C3 C4 C6 C7"), 2),
    ("S11: a row and a column sharing their end cell count 2", row("A5 B5 C5 D5 E5") + row("E1 E2 E3 E4"), 2),
    ("S11: two diagonals crossing in one cell count 2", row("B2 C3 D4 E5 F6") + row("F2 E3 C5 B6"), 2),
    ("S11: a row and a diagonal crossing count 2", row("B4 C4 D4 E4 F4") + row("B2 C3 E5 F6"), 2),
    ("S11: two lines on one row sharing two cells count 1", row("A3 B3 C3 D3 E3 F3 G3 H3"), 1),
    ("S11: two separate rows count 2", row("A3 B3 C3 D3 E3 A7 B7 C7 D7 E7"), 2),
]


@pytest.mark.parametrize("why, cells, count", COUNT_SCENARIOS, ids=[s[0][:40] for s in COUNT_SCENARIOS])
def test_sequence_count(why, cells, count):
    grid = sequence().grid
    assert grid.sequences([grid.parse(0, c) for c in cells]) == count


def test_corners_count_for_every_colour_at_once():
    """S10: blue and green both complete a line through the same corner A1."""
    game = sequence()
    s = state_of({"blue": row("B1 C1 D1 E1"), "green": row("A2 A3 A4 A5")}, ["2S"])
    assert [game.sequences(s.placement, c) for c in (0, 1)] == [1, 1]


# ---- S13: the end --------------------------------------------------------------------------
def _winners(chips, hand, players):
    game = sequence()
    s = state_of(chips, hand, players=players)
    out = {}
    for m in game.legal_moves(s):
        after = game.apply(s, m)
        out[described(game, m)] = game.colours[game.winning_colour(after)] if after.over and after.winner is not None else None
    return out


def test_two_sides_need_two_sequences():
    """S13: with two sides the target is 2: completing a second line wins, a first does not."""
    chips = {"blue": row("A3 B3 C3 D3 E3 B7 C7 D7 E7"), "green": ["J2"]}
    found = _winners(chips, ["QC", "5H"], ("blue", "green"))
    assert found[("place", "QC", ("A7",))] == "blue"          # B7-E7 + A7: a second line
    assert found[("place", "QC", ("D8",))] is None
    chips = {"blue": row("B7 C7 D7 E7"), "green": ["J2"]}
    assert _winners(chips, ["QC"], ("blue", "green"))[("place", "QC", ("A7",))] is None


def test_three_sides_need_one_sequence():
    """S13: with three sides the target is 1."""
    chips = {"blue": row("B7 C7 D7 E7"), "green": ["J2"], "red": ["J3"]}
    found = _winners(chips, ["QC"], ("blue", "green", "red"))
    assert found[("place", "QC", ("A7",))] == "blue"
    assert found[("place", "QC", ("D8",))] is None


def test_a_team_wins_together():
    """S1, S13: with 4 players the two blue seats share the colour, so the win is the team's."""
    game = sequence()
    s = state_of({"blue": row("A3 B3 C3 D3 E3 B7 C7 D7 E7")}, ["QC"], players=("blue", "green", "blue", "green"),
                 turn="blue")
    after = game.apply(s, next(m for m in game.legal_moves(s) if m.events[0][2] == game.grid.parse(0, "A7")))
    assert after.over and game.colours[game.winning_colour(after)] == "blue"


# ---- S6, S8, S9: the turn ------------------------------------------------------------------
def test_a_play_discards_and_draws_and_passes_the_turn():
    """S7, S8."""
    game = sequence()
    s = game.new_game(3, players=2)
    play = next(m for m in game.legal_moves(s) if m.kind == "place")
    after = game.apply(s, play)
    assert len(after.hands[s.turn]) == len(s.hands[s.turn])
    assert after.discard == (play.card,) and len(after.pile) == len(s.pile) - 1
    assert after.turn != s.turn and not after.exchanged


def test_the_exchange_keeps_the_turn_once():
    """S6: the dead card is discarded, a replacement drawn, and the player goes on without a
    second exchange."""
    game = sequence()
    s = state_of({"blue": ["F5"], "green": ["I8"]}, ["4H", "2S"])
    s = s._replace(pile=(game.card_index["3S"],))
    exchange = next(m for m in game.legal_moves(s) if m.kind == "exchange")
    after = game.apply(s, exchange)
    assert after.turn == s.turn and after.exchanged
    assert sorted(game.card_names[c] for c in after.hands[after.turn]) == ["2S", "3S"]
    assert not any(m.kind == "exchange" for m in game.legal_moves(after))


def test_the_draw_reshuffles_the_discards():
    """S8: an empty pile takes the shuffled discards, the card just played among them."""
    game = sequence()
    s = state_of({}, ["2S"])._replace(discard=(game.card_index["3S"],))
    after = game.apply(s, game.legal_moves(s)[0])
    assert sorted(game.card_names[c] for c in after.hands[s.turn] + after.pile) == ["2S", "3S"]
    assert len(after.hands[s.turn]) == 1 and after.discard == ()
    s = state_of({}, ["2S"])  # no pile, no discards: the card just played is the only discard
    after = game.apply(s, game.legal_moves(s)[0])
    assert after.hands[s.turn] == (game.card_index["2S"],) and after.discard == after.pile == ()


def test_a_pass_keeps_the_hand_and_a_round_of_passes_is_a_draw():
    """S9: nothing drawn on a pass; when every seat passes in a row the game is drawn. S6, S9:
    a seat whose only card is dead exchanges it first (the pass comes after any exchange)."""
    game = sequence()
    dead = {"blue": ["F5"], "green": ["I8"]}
    s = state_of(dead, ["4H"], exchanged=True)
    s = s._replace(hands=(s.hands[0], (game.card_index["4H"],)), pile=())
    (move,) = game.legal_moves(s)
    after = game.apply(s, move)
    assert move.kind == "pass" and after.hands == s.hands and after.pile == s.pile
    assert not after.over and after.passes == 1
    (move,) = game.legal_moves(after)
    assert move.kind == "exchange"
    again = game.apply(after, move)  # the 4H goes to the discards and comes back, shuffled: still dead
    assert again.hands == after.hands and again.exchanged and again.passes == 1
    (move,) = game.legal_moves(again)
    end = game.apply(again, move)
    assert move.kind == "pass" and end.over and end.winner is None and game.legal_moves(end) == []


def test_a_play_breaks_the_round_of_passes():
    """S9: the passes must be one full round in a row."""
    game = sequence()
    s = state_of({}, ["2S"])._replace(passes=1)
    assert game.apply(s, game.legal_moves(s)[0]).passes == 0


# ---- S1, S4: seats and hands ---------------------------------------------------------------
@pytest.mark.parametrize("players, sides, hand", [(2, 2, 7), (3, 3, 6), (4, 2, 6), (6, 3, 5), (8, 2, 4), (9, 3, 4),
                                                  (10, 2, 3), (12, 3, 3)])
def test_seats_alternate_between_sides_and_hands_follow_the_player_count(players, sides, hand):
    game = sequence()
    s = game.new_game(1, players=players)
    assert len(set(s.seats)) == sides
    assert all(s.seats[i] != s.seats[(i + 1) % players] for i in range(players))  # S1: seats alternate
    assert [s.seats.count(c) for c in set(s.seats)] == [players // sides] * sides  # S1: equal teams
    assert [len(h) for h in s.hands] == [hand] * players                           # S4
    assert len(s.pile) == 104 - hand * players                                    # S3


@pytest.mark.parametrize("players", [1, 5, 7, 11, 13])
def test_other_player_counts_are_not_allowed(players):
    """S1: games of 5, 7 or 11 players are not allowed."""
    with pytest.raises(IllegalMoveError):
        sequence().new_game(1, players=players)


def test_the_deal_is_one_card_at_a_time_and_the_first_seat_comes_from_the_seed():
    """S4, S5."""
    game = sequence()
    s = game.new_game(7, players=3)
    firsts = {game.new_game(seed, players=3).turn for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert game.new_game(7, players=3) == s
