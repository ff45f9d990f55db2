"""Partnership play (RULES.md section 5) at the engine level: the teams and seats (T1), the
extra card after a 2 (T3), playing on with all own pawns Home (T7) and the team win (T8).
The card rules (T2, T4-T6, T9, T10) are scenarios in tests/scenarios/partnership/."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.base.errors import IllegalMoveError


@pytest.fixture(scope="module")
def game():
    return load_game("partnership")


def colour(game, name):
    return game.colours.index(name)


def placement_of(game, base, pawns):
    placement = list(base)
    for name, squares in pawns.items():
        c = colour(game, name)
        placement[c] = tuple(sorted(game.layout.parse(c, sq) for sq in squares))
    return tuple(placement)


def test_t1_teams_sit_opposite(game):
    """T1: red + yellow against blue + green, partners opposite in the seat order; four players."""
    state = game.new_game(1, players=4)
    assert [game.colours[c] for c in state.seats] == ["red", "blue", "yellow", "green"]
    red, blue, yellow, green = (colour(game, n) for n in ("red", "blue", "yellow", "green"))
    assert game.team_of[red] == game.team_of[yellow] == (red, yellow)
    assert game.team_of[blue] == game.team_of[green] == (blue, green)
    assert (state.seats[0], state.seats[2]) == (red, yellow)
    for players in (2, 3):
        with pytest.raises(IllegalMoveError):
            game.new_game(1, players=players)


def test_t3_card_after_a_two_may_move_the_partner(game):
    """T3: after a 2 the same player draws again, and that card may move either team colour."""
    state = game.new_game(5, players=4, first=0)
    yellow = colour(game, "yellow")
    placement = placement_of(game, state.placement, {"red": ["track:10", "home", "home", "home"],
                                                     "yellow": ["track:40", "home", "home", "home"]})
    two, five = game.card_index["2"], game.card_index["5"]
    state = state._replace(placement=placement, pile=state.pile + (five, two))
    state = game.draw(state)
    assert state.card == two
    move = next(m for m in game.legal_moves(state) if m.placement[0][0] == 12)
    assert move.draw_again
    state = game.apply(state, move)
    assert state.turn == 0 and game.needs_draw(state)
    state = game.draw(state)
    assert state.card == five
    results = {m.placement for m in game.legal_moves(state)}
    yellow_moved = placement_of(game, state.placement, {"yellow": ["track:45", "home", "home", "home"]})
    red_moved = placement_of(game, state.placement, {"red": ["track:17", "home", "home", "home"]})
    assert results == {yellow_moved, red_moved}
    assert yellow_moved[yellow] != state.placement[yellow]


def test_t7_player_with_all_home_keeps_playing(game):
    """T7: red's pawns are all Home; the turn still comes to red, who moves yellow's pawns,
    and the game goes on (T8)."""
    state = game.new_game(2, players=4, first=3)
    placement = placement_of(game, state.placement, {"red": ["home"] * 4,
                                                     "yellow": ["track:40", "start", "start", "start"]})
    three = game.card_index["3"]
    state = state._replace(placement=placement, card=three)
    state = game.apply(state, game.legal_moves(state)[0])  # green's turn (forfeit or a move)
    assert state.turn == 0 and state.winner is None
    state = state._replace(card=three)
    moves = game.legal_moves(state)
    yellow = colour(game, "yellow")
    assert [m.placement[yellow] for m in moves] == [tuple(sorted((43, *[game.layout.start[yellow]] * 3)))]
    after = game.apply(state, moves[0])
    assert after.winner is None and after.turn == 1


def test_t8_team_wins_and_outcome_names_both_seats(game):
    """T8: the move that brings the team's eighth pawn Home wins for both partners; four own
    pawns Home alone do not end the game."""
    state = game.new_game(3, players=4, first=0)
    one = game.card_index["1"]
    almost = placement_of(game, state.placement, {"red": ["safety:5", "home", "home", "home"],
                                                  "yellow": ["home", "home", "home", "track:40"]})
    state_a = state._replace(placement=almost, card=one)
    red_home = next(m for m in game.legal_moves(state_a) if m.placement[0].count(game.layout.home[0]) == 4)
    assert game.apply(state_a, red_home).winner is None
    done = placement_of(game, state.placement, {"red": ["safety:5", "home", "home", "home"], "yellow": ["home"] * 4})
    state_b = state._replace(placement=done, card=one)
    (move,) = game.legal_moves(state_b)
    final = game.apply(state_b, move)
    assert final.winner == 0
    outcome = game.outcome(final)
    assert outcome.winning_seats == (0, 2)
    assert outcome.scores == {seat: (0, ()) for seat in range(4)}  # partnership has no scoring


def test_t8_a_team_of_three_is_named_as_a_list_when_it_wins(tmp_path):
    """T8 with three partners (six colours, two teams of three): the printed game ends
    'Red, Yellow and Purple win', not 'Red and Yellow and Purple'."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    rule = tmp_path / "three-a-side.yaml"
    rule.write_text("extends: six-colours\nname: three-a-side\nteams: [[red, yellow, purple], [blue, green, cyan]]\n"
                    "rules: {control: team}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--variant", str(rule), "--auto", "--seed", "2"])
    assert result.exit_code == 0, result.output
    last = result.stdout.splitlines()[-1]
    assert last.startswith("Red, Yellow and Purple win after ") or last.startswith("Blue, Green and Cyan win after "), last
