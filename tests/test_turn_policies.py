"""Turn policies and hand actions (docs/REFERENCE.md `turn:`: `take`, `redraw`, `actions`):
the turn flow the scenarios cannot show (what `draw` and `apply` do to the pile, the
discards, the hands and the turn), the bots on move lists with the new kinds, and saved
games that resume and replay through them. The positions themselves are in
tests/scenarios/house/ (H23, H25, H26)."""

from __future__ import annotations

from collections import Counter

import pytest

from sorry_rules.cli import screen
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import view_of
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.position import parse_position
from sorry_rules.records.savefile import new_save, read_save, restore, state_digest, write_save

from .invariants import check_state

H23 = ("points", "house/mulligan-8.yaml")
H25 = ("standard", "house/draw-two-keep-one.yaml")
H26 = ("standard", "house/no-start-no-cry.yaml")


@pytest.fixture(scope="module")
def games():
    return {rule: load_game(base, [rule]) for base, rule in (H23, H25, H26)}


def _cards(game, *names):
    return tuple(game.card_index[n] for n in names)


def test_h25_draws_two_and_a_two_draws_two_again(games):
    game = games[H25[1]]
    state = game.new_game(4, players=2)
    drawn = game.draw(state)
    assert drawn.card == state.pile[-1] and drawn.drawn == (state.pile[-2],) and len(drawn.pile) == len(state.pile) - 2
    two = game.card_index["2"]
    s = game.position(state.placement, state.seats, 0, card=two, drawn=_cards(game, "5"))
    s = s._replace(pile=_cards(game, "3", "4", "7"))
    start = next(m for m in game.legal_moves(s) if m.card == two)
    after = game.apply(s, start)
    assert after.turn == 0 and after.card is None and after.discard == (two, game.card_index["5"])
    again = game.draw(after)
    assert (again.card, again.drawn) == (game.card_index["7"], (game.card_index["4"],))


def test_h25_reshuffles_between_the_two_draws(games):
    """One card left in the pile: the second card comes from the reshuffled discards (R34)."""
    game = games[H25[1]]
    state = game.new_game(1, players=2)._replace(pile=_cards(game, "5"), discard=_cards(game, "8", "8", "8"))
    drawn = game.draw(state)
    assert drawn.card == game.card_index["5"] and drawn.drawn == _cards(game, "8")
    assert drawn.pile == _cards(game, "8", "8") and drawn.discard == ()


def test_h25_the_unplayed_card_is_discarded_after_the_played_one(games):
    game = games[H25[1]]
    state = game.new_game(2, players=2)
    while True:
        state = game.draw(state)
        moves = game.legal_moves(state)
        move = moves[-1]
        after = game.apply(state, move)
        cards = (state.card,) + state.drawn
        if move.kind == "move":
            rest = list(cards)
            rest.remove(move.card)
            assert after.discard[-len(cards):] == (move.card, *rest)
            break
        assert move.kind == "forfeit" and Counter(after.discard[-len(cards):]) == Counter(cards)
        state = after
    check_state(game, after)


def test_h26_redraws_count_within_the_turn_and_reset_after(games):
    game = games[H26[1]]
    state = game.new_game(3, players=2)._replace(pile=_cards(game, "1", "4", "3", "5"))
    seat = state.turn
    for used in (1, 2):
        state = game.draw(state)
        (move,) = game.legal_moves(state)
        assert move.kind == "redraw" and move.draw_again
        state = game.apply(state, move)
        assert state.turn == seat and state.redraws == used
    state = game.draw(state)  # the 4: a third stuck card is forfeited
    (move,) = game.legal_moves(state)
    assert move.kind == "forfeit"
    state = game.apply(state, move)
    assert state.turn != seat and state.redraws == 0
    assert state.discard[-3:] == _cards(game, "5", "3", "4")


def test_h23_discards_all_and_draws_as_many(games):
    game = games[H23[1]]
    state = game.new_game(5, players=2)
    p = state.turn
    hand = _cards(game, "8", "3", "5", "4", "sorry")
    state = state._replace(hands=tuple(hand if i == p else h for i, h in enumerate(state.hands)),
                           placement=tuple(tuple(sorted((game.layout.start[c],) * 3 + (game.layout.home[c],))) if c in state.seats else ()
                                           for c in range(len(game.colours))))
    moves = game.legal_moves(state)
    assert {m.kind for m in moves} == {"action"}, "stuck with an 8: only mulligans, no free discard"
    move = next(m for m in moves if len(m.cards) == 2)
    after = game.apply(state, move)
    assert after.discard[-3:] == (move.card, *move.cards)
    assert len(after.hands[p]) == 5 and after.turn != p
    assert Counter(after.hands[p]) == Counter(hand) - Counter((move.card, *move.cards)) + Counter(state.pile[-3:])


@pytest.mark.parametrize("rule", [H23, H25, H26], ids=lambda r: r[1])
@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_bots_play_the_new_flows_to_the_end_and_resume(tmp_path, games, rule, kind):
    """Greedy and expert choose among moves with the new kinds and several drawn cards; a game
    saved half way resumes to the same end, and the record replays to the final state."""
    base, name = rule
    game = games[name]
    seed = 6
    kinds = (f"bot:{kind}", "bot:random")

    def players():
        return [make_player(k[4:], seed, seat, **({"nodes": 300} if k == "bot:expert" else {})) for seat, k in enumerate(kinds)]

    start = game.new_game(seed, players=2)
    record = GameRecord(seed, start.seats, start.turn)
    seen = Counter()
    final = play_game(game, start, players(), record=record, on_turn=lambda turn, s: seen.update([turn.move.kind]))
    assert final.winner is not None
    check_state(game, final)
    assert seen.keys() & {"redraw", "action"} or name == H25[1], seen
    half = game.new_game(seed, players=2)
    half_record = GameRecord(seed, half.seats, half.turn)
    middle = play_game(game, half, players(), record=half_record, max_plies=len(record.choices) // 2)
    saved = new_save(game, base, (name,), seed, start, kinds, 20_000)
    saved.choices = list(half_record.choices)
    saved.reached(middle)
    write_save(tmp_path / "g.json", saved)
    again, state = restore(read_save(tmp_path / "g.json"))
    assert state == middle
    resumed = play_game(again, state, players())
    assert state_digest(resumed) == state_digest(final)


def test_screen_shows_the_cards_drawn_and_the_redraws(games):
    game = load_game("standard", [H25[1], H26[1]])
    position = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": ["5", "12"], "redraws": 1,
                                     "pawns": {"red": ["start", "start", "start", "start"]}})
    state = position.state
    view = view_of(game, state)
    scene = screen.Scene(game, state.placement, state.seats, 0, 0, "t", ("you", "bot"), card=view.card,
                         drawn=view.drawn, redraws=view.redraws)
    panel = [line.plain for line in screen.render_panel(scene, 0)]
    assert "Cards: 5 12 (play one, discard the rest)" in panel
    assert any(line.startswith("Extra cards this turn: 1 of 2") for line in panel)
    ludo = load_game("ludo")  # LU6: three tries at a six with no token out; none with a token out, none taken
    for pawns, said in ((["start", "start", "start", "start"], True), (["track:5"], False)):
        stuck = parse_position(ludo, {"players": ["red", "green"], "turn": "red", "card": "3",
                                      "pawns": {"red": pawns}}).state
        panel = [line.plain for line in screen.render_panel(screen.state_scene(ludo, stuck, "t", ("you", "bot")), 0)]
        assert any(line.startswith("Extra throws this turn: 0 of 2") for line in panel) is said, panel
    moves = [line.plain for line in screen.render_moves(game, game.legal_moves(state), False, width=200)]
    assert moves[0] == " 1. discard the cards drawn (5, 12) (no pawn can move) and draw again (H26 no start, no cry: discard and draw again)"


@pytest.mark.parametrize("text, where, code", [
    ("extends: sequence\nturn: {take: 2}\n", "2:14", "SR512"),
    ("extends: sequence\nturn:\n  actions: {a: {cards: [AS], others: {min: 1, max: 1}}}\n", "3:12", "SR512"),
    ("extends: points\nturn: {take: 3}\n", "2:14", "SR513"),
    ("extends: standard\nturn:\n  redraw: {at_most: 2, when: bumps(player) > 0}\n", "3:30", "SR304"),
    ("extends: points\nturn:\n  actions: {a: {cards: [\"8\"], others: {min: 2, max: 1}}}\n", "3:39", "SR204"),
    # a race-track rule on a grid board is refused, not ignored
    ("extends: sequence\nafter: {a: {when: \"true\", draw_again: true}}\n", "2:1", "SR512"),
    ("extends: sequence\nfilters: {f: {must: \"true\"}}\n", "2:1", "SR512"),
    ("extends: sequence\ncounters: {pts: {start: 0}}\n", "2:1", "SR512"),
    ("extends: sequence\nrules: {must_bump: true}\n", "2:20", "SR512"),
    ("extends: sequence\nsetup: {on_start_exit: 1}\n", "2:24", "SR512"),
    ("extends: sequence\nteams: [[blue, green]]\n", "2:1", "SR512"),
])
def test_turn_policy_problems_are_located_and_coded(tmp_path, text, where, code):
    from sorry_rules.authoring.validate import validate_file

    path = tmp_path / "bad.yaml"
    path.write_text(text)
    found = [(f"{p.line}:{p.col}", p.code) for p in validate_file(path) if p.severity == "error"]
    assert (where, code) in found, found


@pytest.mark.parametrize("data, code", [
    ({"card": ["5", "7", "8"]}, "SR604"),
    ({"card": ["5", "x"]}, "SR502"),
    ({"card": "5", "redraws": 3}, "SR606"),
    ({"card": "5", "cards_due": 1}, "SR606"),
    ({"card": "5", "cards_due": 101}, "SR204"),
    ({"card": {"a": 1}}, "SR203"),
])
def test_turn_state_in_positions_is_checked(data, code):
    from sorry_rules.base.errors import PositionError

    game = load_game("standard", [H25[1], H26[1]])
    with pytest.raises(PositionError) as error:
        parse_position(game, {"players": ["red", "blue"], **data})
    assert code in {p.code for p in error.value.problems}


def test_cards_still_due_keep_the_turn_after_a_move_that_earns_none():
    """H21: a bump earns another card; one still due from earlier in the turn (a position's
    `cards_due`) is taken after a move that bumps nothing, so the same player plays next."""
    from sorry_rules.authoring.oracle import moves_report

    game = load_game("standard", ("house/bump-bonus.yaml",))
    data = {"players": ["red", "blue"], "turn": "red", "card": "5",
            "pawns": {"red": ["track:10", "track:30"], "blue": ["track:35"]}}
    plain = {m["text"]: m["extra_cards"] for m in moves_report(game, parse_position(game, data))["moves"]}
    due = {m["text"]: m["extra_cards"] for m in moves_report(game, parse_position(game, {**data, "cards_due": 1}))["moves"]}
    bump = "Red pawn track:30 -> track:35, bumps Blue (track:35)"
    assert plain == {"Red pawn track:10 -> track:15": 0, bump: 1}
    assert due == {"Red pawn track:10 -> track:15": 1, bump: 2}


def test_a_forfeit_with_cards_still_due_says_the_turn_goes_on():
    """H21: a card with no move is forfeited, and the card still due from a bump earlier in the
    turn comes all the same: the report says so (`cards_due`, and the forfeit's
    `extra_cards`), in the words the printed game uses, and the game plays it."""
    from sorry_rules.authoring.oracle import format_report_text, moves_report

    game = load_game("standard", ("house/bump-bonus.yaml",))
    data = {"players": ["red", "blue"], "turn": "red", "card": "sorry", "pawns": {"red": ["track:10"]}}
    due = parse_position(game, {**data, "cards_due": 1})
    report = moves_report(game, due)
    assert (report["forfeit"], report["draw_again"], report["cards_due"], report["extra_cards"]) == (True, False, 1, 1)
    assert format_report_text(report).splitlines() == [
        "red to play, card sorry; 1 extra card still due this turn:",
        "  no legal move: the card is forfeited (then draws again: still due this turn)"]
    (forfeit,) = game.legal_moves(due.state)
    assert game.apply(due.state, forfeit).turn == due.state.turn  # red draws again
    plain = moves_report(game, parse_position(game, data))
    assert "cards_due" not in plain and "extra_cards" not in plain
    assert format_report_text(plain).splitlines()[1] == "  no legal move: the card is forfeited"


def test_moves_names_who_plays_next_except_after_a_winning_move():
    """`moves` under a turn policy (H23 here) says who plays next; a move that wins (R35,
    P6) ends the game, so none is named."""
    from sorry_rules.authoring.oracle import moves_report

    game = load_game("points", ("house/mulligan-8.yaml",))
    position = parse_position(game, {"players": ["red", "blue"], "turn": "red", "hand": ["8", "8", "11", "12", "5"],
                                     "pawns": {"red": ["track:0", "home", "home", "home"], "blue": ["track:20"]}})
    moves = moves_report(game, position)["moves"]
    winning = [m for m in moves if m.get("wins")]
    assert len(winning) == 1 and "next" not in winning[0]
    assert all(m["next"] == "blue" for m in moves if not m.get("wins"))


def test_a_forfeit_of_cards_drawn_together_names_them_all():
    """H25: neither card drawn can move, so both are discarded; the forfeit names both (and
    the discards get both, in the order drawn)."""
    from sorry_rules.engine.describe import describe_move

    game = load_game("standard", ("house/draw-two-keep-one.yaml",))
    position = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": ["12", "10"]})
    (move,) = game.legal_moves(position.state)
    assert move.kind == "forfeit"
    assert describe_move(game, move) == "no legal move: the cards drawn (12, 10) are discarded"
    after = game.apply(position.state, move)
    assert [game.card_names[c] for c in after.discard[-2:]] == ["12", "10"]


def test_printed_games_say_the_cards_discarded_and_the_extra_cards_still_due():
    """H25: a card played from the two drawn names the other, discarded with it; H21: a bump
    with a 2 earns two more cards, and the move after it, which earns none, says that its
    extra card is the one still due rather than its own."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    lines = CliRunner().invoke(main, ["--auto", "-r", "house/draw-two-keep-one.yaml", "-p", "2", "-s", "3"]).output
    played = [line for line in lines.splitlines()[1:] if "->" in line]
    assert played and all(line.endswith(" discarded") or "; draws again; " in line or "wins" in line for line in played)
    lines = CliRunner().invoke(main, ["--auto", "-r", "house/bump-bonus.yaml", "-p", "2", "-s", "3"]).output.splitlines()
    due = [i for i, line in enumerate(lines) if line.endswith("; draws again (still due this turn)")]
    assert due and all(" 2  " in lines[i - 1] and "bumps" in lines[i - 1] or "(still due" in lines[i - 1] for i in due)
