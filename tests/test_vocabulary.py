"""The open rule vocabulary (docs/REFERENCE.md: `counters`, `filters`, `after`, section 2.3
facts): semantics the scenarios cannot show (turn order over several cards, counters over a
whole game, hand play), and an invented house rule, not in RULES.md section 8, built from
the same constructs with no code change."""

from __future__ import annotations

import re

import pytest

from sorry_rules.base.errors import RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.records.position import parse_position
from sorry_rules.authoring.oracle import moves_report

from sorry_rules.players.runner import replay

from .invariants import check_state
from .randomplay import play_random

#: Invented: "Safe passage". A 12 may not bump (must), a move that reaches Home earns an extra
#: card, every slide taken scores a point on a counter, and five slides also win the game.
SAFE_PASSAGE = """\
extends: standard
counters:
  slides_taken: {}
filters:
  gentle_12: {cards: ["12"], must: bumps(players) == 0}
after:
  home_bonus: {when: reaches_home(player) > 0, draw_again: true}
  slide_count: {when: slides(player) > 0, add: {slides_taken: slides(player)}}
win: home(team) == pawns(team) or slides_taken(player) >= 5
"""


@pytest.fixture()
def safe_passage(tmp_path):
    path = tmp_path / "safe-passage.yaml"
    path.write_text(SAFE_PASSAGE)
    return load_game(str(path))


def report(game, pawns, card=None, hand=None, players=("red", "blue", "yellow", "green")):
    data = {"players": list(players), "turn": "red", "pawns": pawns}
    if hand is not None:
        data["hand"] = hand
    else:
        data["card"] = card
    return moves_report(game, parse_position(game, data))


def test_invented_must_filter_forfeits_a_card_left_with_no_move(safe_passage):
    """The 12's only move bumps: `must` removes it, so the 12 is forfeited."""
    pawns = {"red": ["track:10", "home", "home", "home"], "blue": ["track:22", "track:12", "start", "start"]}
    r = report(safe_passage, pawns, card="12")
    assert r["forfeit"] and r["moves"] == []
    other = report(safe_passage, pawns, card="2")
    assert any("bumps" in m["text"] for m in other["moves"]), "cards not listed keep their bumping moves"


def test_invented_consequences_in_order(safe_passage):
    """Reaching Home earns a card; a slide adds to the counter (slides taken by red's move)."""
    r = report(safe_passage, {"red": ["safety:3", "track:13", "home", "home"]}, card="3")
    by_text = {m["text"]: m for m in r["moves"]}
    home = next(m for t, m in by_text.items() if "-> home" in t)
    assert home["extra_cards"] == 1 and home["counters"]["red"] == {"slides_taken": 0}
    slide = next(m for t, m in by_text.items() if "slides" in t)
    assert slide["extra_cards"] == 0 and slide["counters"]["red"] == {"slides_taken": 1}


def test_invented_rule_plays_to_the_end_and_a_counter_can_win(safe_passage):
    """Seeded games end; the counter is saved in the state and can decide the game."""
    ended_by_counter = 0
    for seed in range(6):
        played = play_random(safe_passage, seed, 4)
        final = played.final
        assert final.winner is not None
        check_state(safe_passage, final)
        colour = final.seats[final.winner]
        slides = final.counters[colour][0]
        if final.placement[colour].count(safe_passage.layout.home[colour]) < safe_passage.pawns:
            assert slides >= 5
            ended_by_counter += 1
    assert ended_by_counter > 0, "no game was won by the counter"


def test_extra_cards_keep_the_turn_one_card_each(tmp_path):
    """H21 over draw play: a bumping 2 gives two more cards (its own draw and the bonus)."""
    game = load_game("standard", ["house/bump-bonus.yaml"])
    state = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "2",
                                  "pawns": {"red": ["track:10", "start", "start", "start"],
                                            "blue": ["track:12", "start", "start", "start"]}}).state
    state = state._replace(pile=tuple(game.card_index[n] for n in ("3", "3", "5", "5")))
    bump = next(m for m in game.legal_moves(state) if m.events and any(e[0] == "bump" for e in m.events))
    state = game.apply(state, bump)
    assert (state.turn, state.bonus) == (0, 1)
    for expected_turn in (0, 1):  # the 2's own extra card, then the bonus card, then blue
        state = game.draw(state)
        state = game.apply(state, game.legal_moves(state)[0])
        assert state.turn == expected_turn
    assert state.bonus == 0


def test_hand_filter_scope_is_the_listed_cards():
    """H20 in hand play narrows only the 7; with H17 as well, the whole hand (RULES 8: H20
    with H17 amounts to H17 for every card)."""
    pawns = {"red": ["track:10", "track:30", "start", "start"], "blue": ["track:13", "start", "start", "start"]}

    def bumping_by_card(rules):
        moves = report(load_game("points", rules), pawns, hand=["7", "3"])["moves"]
        return {(m["card"], "bumps" in m["text"]) for m in moves}

    assert bumping_by_card(["house/revenge-7.yaml"]) == {("7", True), ("3", True), ("3", False)}
    assert bumping_by_card(["house/revenge-7.yaml", "house/must-bump.yaml"]) == {("7", True), ("3", True)}
    assert ("7", False) in bumping_by_card([])


@pytest.mark.parametrize("text, where, code", [
    ("after:\n  bad: {add: {nope: 1}}\n", ":3:15:", "SR521"),
    ("win: bumps(team) > 0\n", ":2:6:", "SR304"),
    ("filters:\n  f: {must: slides_taken(player) > 0}\n", ":3:13:", "SR302"),
    ("cards: {\"1\": enter if scor(player) > 0}\ncounters: {score: {}}\n", ":2:23:", "SR302"),
    ("counters: {streak: {}}\nwin: streak(player) > 0 or streak > 1\n", ":3:28:", "SR302"),
])
def test_vocabulary_errors_are_located_and_coded(tmp_path, text, where, code):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: standard\n" + text)
    with pytest.raises(RuleFileError) as error:
        load_game(str(path))
    lines = [p.format() for p in error.value.problems]
    assert any(where in line and f"[{code}]" in line for line in lines), lines
    if "streak >" in text:  # a counter named bare is said to be read for a group
        assert any("write streak(G), e.g. streak(player)" in line for line in lines), lines


def test_a_variant_without_the_vocabulary_carries_none_of_it():
    """Pay for what you use: no filters, consequences or counters in the standard game."""
    game = load_game("standard")
    assert (game.filters, game.after, game.counters) == ((), (), ())
    assert game.new_game(1).counters == ()


def test_auto_game_shows_counters_and_their_score_line():
    """H22 over points: the end of an --auto game lists the counter and its score line, and
    each player's bump points equal their counter."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, ["--variant", "points", "--rule", "house/bump-points.yaml", "--auto", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    counters = next(line for line in lines if line.startswith("bumps made: "))
    values = dict(part.rsplit(" ", 1) for part in counters.removeprefix("bumps made: ").split(", "))
    for line in lines:
        if "points" in line and "Home  =" in line:
            name = line.split()[0]
            assert re.search(rf"[=+] {values[name]} \(1 per bump made\)", line), line


#: Invented: "Side door". A pawn moving forward may turn into its safety zone straight from its
#: own start exit (a geometry turn); moves past Home bounce (geometry); a move that enters a
#: safety zone scores a point on a counter (a consequence on the `enters_safety` fact), and a
#: 5 may not use the door (a filter): geometry combined with facts, filters and counters.
SIDE_DOOR = """\
extends: standard
geometry:
  past_home: bounce
  turns:
    side_door: {at: start_exit, moving: forward, onto: safety}
counters:
  doors: {}
filters:
  no_door_for_5: {cards: ["5"], must: enters_safety(player) == 0}
after:
  door_point: {when: enters_safety(player) > 0, add: {doors: 1}}
win: home(team) == pawns(team) or doors(player) >= 6
"""


#: Invented: "Bounty hunters". A pawn that bumps an opponent becomes wanted (a mark placed by an
#: `after:` consequence) until it moves again; any card with a backward move may instead send
#: a wanted opponent pawn on the track back to Start (an added alternative with a pawn
#: selector), the 4 must do so when it can (a filter on the bump fact) and every arrest
#: scores on a counter. Marks, selectors, `also:`, filters, consequences and counters combine.
BOUNTY = """\
extends: standard
counters:
  arrests: {}
marks:
  wanted: {until: moves, symbol: "$"}
filters:
  arrest_with_4: {cards: ["4"], prefer: bumps(opponents) > 0}
after:
  outlaw: {when: bumps(opponents) > 0 and moves(player) > 0, mark: {wanted: moved}}
  bounty: {when: bumps(opponents) > 0 and moves(player) == 0, add: {arrests: 1}}
also:
  arrest:
    having: [backward]
    effect: send opponent in track marked wanted to start
"""


@pytest.fixture()
def side_door(tmp_path):
    path = tmp_path / "side-door.yaml"
    path.write_text(SIDE_DOOR)
    return load_game(str(path))


def test_invented_geometry_turn_with_a_counter_and_a_filter(side_door):
    """From the start exit track:4: a 3 goes on to track:7 or through the door to safety:3,
    scoring a door point; an 8 through the door counts safety:1..5, Home and bounces back to
    safety:4; a 12 through the door would bounce out of the zone (illegal): only 4 + 12 = 16,
    blue's triangle, sliding to 19; the filter keeps the 5 off the door (safety:5)."""
    pawns = {"red": ["track:4", "start", "start", "start"]}
    three = {m["text"]: m for m in report(side_door, pawns, card="3")["moves"]}
    assert set(three) == {"Red pawn track:4 -> track:7", "Red pawn track:4 -> safety:3"}
    assert three["Red pawn track:4 -> safety:3"]["counters"]["red"] == {"doors": 1}
    assert three["Red pawn track:4 -> track:7"]["counters"]["red"] == {"doors": 0}
    eight = [m["text"] for m in report(side_door, pawns, card="8")["moves"]]
    assert sorted(eight) == ["Red pawn track:4 -> safety:4", "Red pawn track:4 -> track:12"]
    twelve = [m["text"] for m in report(side_door, pawns, card="12")["moves"]]
    assert twelve == ["Red pawn track:4 -> track:16, slides to track:19"]
    five = report(side_door, pawns, card="5")
    assert [m["text"] for m in five["moves"]] == ["Red pawn track:4 -> track:9"]
    state = parse_position(side_door, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5",
                                       "pawns": pawns}).state
    removed = side_door.filtered_moves(state)
    assert [(m.placement[0][0], label.split(":")[0]) for m, label in removed] == [(side_door.layout.T + 4, "filters.no_door_for_5")]


def test_invented_geometry_rule_plays_to_the_end(side_door):
    for seed in range(4):
        final = play_random(side_door, seed, 4).final
        assert final.winner is not None
        check_state(side_door, final)


@pytest.fixture()
def bounty(tmp_path):
    path = tmp_path / "bounty.yaml"
    path.write_text(BOUNTY)
    return load_game(str(path))


def test_invented_marks_selectors_and_filters_combine(bounty):
    """Red bumps blue: red's pawn is wanted. Blue's 4 must arrest it (the filter prefers the
    bump), the arrest sends it to Start, ends the mark and scores blue a point."""
    game = bounty
    first = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5",
                                  "pawns": {"red": ["track:30"], "blue": ["track:35", "track:50"]}})
    move = next(m for m in game.legal_moves(first.state) if m.placement[0][0] == 35)
    after = game.apply(first.state, move)
    assert after.marks == (((0, 35, 0),),), "the pawn that bumped is wanted"
    second = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "blue", "card": "4",
                                   "pawns": {"red": ["track:35"], "blue": ["track:50"]},
                                   "marks": {"wanted": [{"colour": "red", "square": "track:35"}]}})
    moves = game.legal_moves(second.state)
    assert len(moves) == 1 and moves[0].events == (("bump", 0, 35),), "the 4 must arrest the wanted pawn"
    arrested = game.apply(second.state, moves[0])
    assert arrested.marks == ((),) and arrested.counters[1] == (1,)
    calm = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "blue", "card": "4",
                                 "pawns": {"red": ["track:35"], "blue": ["track:50"]}})
    # nobody wanted: the 4 moves back, 50 - 4 = 46 is green's triangle, sliding to 49
    assert [m.placement[1][0] for m in game.legal_moves(calm.state)] == [49]
    assert play_random(game, 3, 4).final.winner is not None


# ---- turn policies and hand actions combined with the rest (invented, not in RULES.md) -------
#: Invented: "Gentle draws" (draw play). Three cards are drawn at once; a 12 may not bump
#: (a filter); a turn whose cards cannot move (the filter counts) draws again once while the
#: player has fewer than two pawns Home.
GENTLE_DRAWS = """\
extends: standard
turn:
  take: 3
  redraw: {at_most: 1, when: home(player) < 2, label: gentle redraw}
filters:
  gentle_12: {cards: ["12"], must: bumps(players) == 0}
"""

#: Invented: "Trade up" (hand play over points). Each bump made adds to a counter; once a
#: player has bumped, a Sorry! card may be traded with exactly two other cards of the hand
#: (all three discarded, three drawn) and the player plays again.
TRADE_UP = """\
extends: points
counters:
  bumps_made: {}
after:
  count_bumps: {when: bumps(opponents) > 0, add: {bumps_made: bumps(opponents)}}
turn:
  actions:
    trade_up: {cards: [sorry], others: {min: 2, max: 2}, when: bumps_made(player) >= 1, draw_again: true}
"""


def _load(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return load_game(str(path))


def test_invented_filter_makes_a_stuck_draw_that_redraws(tmp_path):
    """The 12's only move bumps: the filter removes it; the Sorry! drawn with it has no pawn
    in Start; so the turn redraws (once) while fewer than two pawns are Home."""
    game = _load(tmp_path, "gentle.yaml", GENTLE_DRAWS)
    pawns = {"red": ["track:10", "safety:5", "safety:4", "home"], "blue": ["track:22"]}
    data = {"players": ["red", "blue"], "turn": "red", "pawns": pawns, "card": ["12", "sorry"]}
    r = moves_report(game, parse_position(game, data))
    assert [m["text"] for m in r["moves"]] == ["discard the cards drawn (12, sorry) (no pawn can move) and draw again (gentle redraw)"]
    assert r["moves"][0]["discards"] == ["sorry"] and r["moves"][0]["redraws"] == 1
    used = moves_report(game, parse_position(game, {**data, "redraws": 1}))
    assert used["forfeit"] and used["moves"] == []
    home = {**pawns, "red": ["track:10", "safety:5", "home", "home"]}
    assert moves_report(game, parse_position(game, {**data, "pawns": home}))["forfeit"], "two pawns Home: no redraw"
    three = moves_report(game, parse_position(game, {**data, "card": ["12", "sorry", "4"]}))
    assert three["moves"] and {m["card"] for m in three["moves"]} == {"4"}
    assert all(m["discards"] == ["12", "sorry"] for m in three["moves"]), "the two other cards are discarded"


def test_invented_gentle_draws_play_to_the_end(tmp_path):
    game = _load(tmp_path, "gentle.yaml", GENTLE_DRAWS)
    for seed in range(3):
        played = play_random(game, seed, 3)
        assert played.final.winner is not None
        check_state(game, played.final)


def test_invented_action_gated_by_a_counter(tmp_path):
    """The trade is offered only once the counter says the player bumped; it keeps the turn."""
    game = _load(tmp_path, "trade.yaml", TRADE_UP)
    data = {"players": ["red", "blue"], "turn": "red", "hand": ["sorry", "3", "5", "4"],
            "pawns": {"red": ["start", "start", "start", "home"]}}
    before = moves_report(game, parse_position(game, data))
    assert all("discard" in m for m in before["moves"]), "no bump yet: a stuck hand discards (P5)"
    after = moves_report(game, parse_position(game, {**data, "counters": {"red": {"bumps_made": 1}}}))
    assert [(m["card"], m["with"]) for m in after["moves"]] == [("sorry", ["3", "4"]), ("sorry", ["3", "5"]),
                                                                  ("sorry", ["4", "5"])]
    assert all(m["draw_again"] and m["next"] == "red" for m in after["moves"])


def test_invented_trade_up_plays_to_the_end(tmp_path):
    game = _load(tmp_path, "trade.yaml", TRADE_UP)
    kinds = []
    for seed in range(4):
        played = play_random(game, seed, 2)
        assert played.final.winner is not None
        check_state(game, played.final)
        replay(game, played.start, played.choices, on_turn=lambda turn, state: kinds.append(turn.move.kind))
    assert "action" in kinds, "the trade was never played in four games"


#: Invented: only a player's first two 2s of the game draw again (a card's guard reading a
#: counter, as tests/scenarios/house/counter-guard.yaml does with a run of 2s).
TWOS = """\
extends: standard
counters:
  twos: {min: 0}
cards:
  "2": (enter | forward 2) then (draw_again if twos(player) < 2)
after:
  count_twos: {cards: ["2"], add: {twos: 1}}
"""


def test_a_cards_guard_reads_the_counters_as_the_game_has_them(tmp_path):
    """Over whole seeded games (greedy players searching with push/pop, and random ones), a 2
    that moves draws again exactly when its player had played fewer than two 2s before it."""
    path = tmp_path / "twos.yaml"
    path.write_text(TWOS)
    game = load_game(str(path))
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game

    two, seen = game.card_index["2"], {True: 0, False: 0}
    for seed in range(4):
        state = game.new_game(seed, players=3)
        kinds = ("greedy", "random", "greedy")
        runs = {}

        def on_turn(turn, after):
            colour = after.seats[turn.seat]
            before = runs.get(colour, 0)
            if turn.card == two and turn.move.kind == "move":
                assert turn.move.draw_again == (before < 2), (seed, turn.ply, before)
                seen[before < 2] += 1
            runs[colour] = after.counters[colour][0]

        play_game(game, state, [make_player(k, seed, s) for s, k in enumerate(kinds)], on_turn=on_turn)
    assert seen[True] and seen[False]


def test_a_cards_guard_reads_the_counters_inside_aggregates_too(tmp_path):
    """`max(o in players: twos(o))` in a card's guard reads each colour's counter as the
    game has it, as `twos(players)` does (the aggregate's variable is no reason to read the
    start values)."""
    path = tmp_path / "q.yaml"
    path.write_text('extends: standard\ncounters: {twos: {min: 0}}\ncards:\n'
                    '  "3": "forward 3 if max(o in players: twos(o)) >= 1"\n'
                    '  "5": "forward 5 if count(o in opponents: twos(o) > 0) == 1"\n'
                    'after: {c: {cards: ["2"], add: {twos: 1}}}\n')
    game = load_game(str(path))
    for card in ("3", "5"):
        position = {"players": ["red", "blue"], "turn": "red", "card": card, "counters": {"blue": {"twos": 1}},
                    "pawns": {"red": ["track:20"]}}
        moves = moves_report(game, parse_position(game, position))["moves"]
        assert [m["result"]["red"][0] for m in moves] == [f"track:{20 + int(card)}"], card
        position["counters"] = {}
        assert moves_report(game, parse_position(game, position))["forfeit"], card


def test_an_added_alternative_shares_the_cards_guarded_extra_draw(tmp_path):
    """`also:` adds `backward 2` to a 2 written `(enter | forward 2) then (draw_again if C)`:
    played the new way the 2 draws again under the same guard, as it does after a plain
    `then draw_again` (R19)."""
    path = tmp_path / "back2.yaml"
    path.write_text('extends: standard\ncounters: {twos: {min: 0}}\n'
                    'cards: {"2": "(enter | forward 2) then (draw_again if twos(player) < 2)"}\n'
                    'after: {c: {cards: ["2"], add: {twos: 1}}}\n'
                    'also: {back2: {cards: ["2"], effect: backward 2}}\n')
    game = load_game(str(path))
    for twos, again in ((0, True), (2, False)):
        position = {"players": ["red", "blue"], "turn": "red", "card": "2", "counters": {"red": {"twos": twos}},
                    "pawns": {"red": ["track:20"]}}
        moves = moves_report(game, parse_position(game, position))["moves"]
        back = [m for m in moves if m["result"]["red"][0] == "track:18"]
        assert len(back) == 1 and back[0].get("draw_again", False) is again, (twos, back)


@pytest.mark.parametrize("effect", ["forward 5 | send own in start to start_exit | enter",
                                    "forward 5 | enter | send own in start to start_exit"])
def test_a_filter_judges_every_way_before_one_result_is_kept(tmp_path, effect):
    """A 5 that may start a pawn two ways (a send, which is no step of the pawn's own, and an
    `enter`, which is) under a filter asking for a pawn to leave Start by a step: the start
    is legal whichever way the effect writes first (A24 merges results only after the filter
    judged each way); with a counter of the starts, the two ways are two moves."""
    path = tmp_path / "five.yaml"
    path.write_text(f'extends: standard\ncards: {{"5": "{effect}"}}\n'
                    'filters: {five_out: {cards: ["5"], must: leaves_start(player) > 0}}\n')
    game = load_game(str(path))
    position = {"players": ["red", "blue"], "turn": "red", "card": "5", "pawns": {"blue": ["track:55"]}}
    moves = moves_report(game, parse_position(game, position))["moves"]
    assert [m["result"]["red"] for m in moves] == [["track:4", "start", "start", "start"]]
    path.write_text(f'extends: standard\ncounters: {{outs: {{min: 0}}}}\ncards: {{"5": "{effect}"}}\n'
                    'after: {out: {when: leaves_start(player) > 0, add: {outs: 1}}}\n')
    game = load_game(str(path))
    moves = moves_report(game, parse_position(game, position))["moves"]
    starts = sorted(m["counters"]["red"]["outs"] for m in moves if m["result"]["red"][0] == "track:4")
    assert starts == [0, 1]


def test_setup_squares_put_pawns_out_on_each_colours_side(tmp_path):
    """`setup.squares` (REFERENCE): H5's quick start grown to any squares of a colour's own
    side, its zone or Home; seeded games from there end with every invariant kept."""
    path = tmp_path / "two-out.yaml"
    path.write_text("extends: standard\nsetup:\n  squares: [start_exit, 5, safety:2]\n", encoding="utf-8")
    game = load_game(str(path))
    layout = game.layout
    state = game.new_game(3, players=2)
    for c in state.seats:
        assert sorted(state.placement[c]) == sorted([layout.start_exit[c], (c * layout.side + 5) % layout.T,
                                                     layout.parse(c, "safety:2"), layout.start[c]])
    for seed in range(4):
        played = play_random(game, seed, 4)
        assert played.final.winner is not None
        check_state(game, played.final)
    assert load_game("standard").new_game(3, players=2).placement == \
        tuple(tuple([layout.start[c]] * 4) if c in state.seats else () for c in range(layout.C))
    grid = tmp_path / "grid.yaml"
    grid.write_text("extends: grid/mini-grid.yaml\nsetup:\n  squares: [3]\n", encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"setup.squares is a race-track rule; a grid board has no pawns \[SR512\]"):
        load_game(str(grid))
