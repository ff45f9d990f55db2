"""Movement geometry as data (docs/REFERENCE.md `geometry`): bounce tables equal step-by-step
walks, route tables equal the plain tables where nothing turns, `rules.overshoot_home` maps
onto `geometry.past_home`, H32 with H19 is refused, pay for what you use, and the words of
`explain` and `moves --why`. What each rule allows is in tests/scenarios/house/ (H30, H32, the
invented no-jumping rule)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sorry_rules.authoring.explain import explain_text, load_explained
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.authoring.why import add_why, format_why_text
from sorry_rules.base.errors import RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.engine.layout import Layout
from sorry_rules.engine.routes import Blocker, Geometry, Routes, Turn
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.position import parse_position
from sorry_rules.records.savefile import new_save, read_save, restore, write_save

from .invariants import check_state

GEOMETRY_RULES = ("house/bounce-back.yaml", "house/backward-into-safety.yaml", "house/no-passing-opponents.yaml")
SEATS = ["red", "blue", "yellow", "green"]


def bounce_walk(layout, c, sq, steps):
    """H32 one step at a time: up to Home, then back down the zone; out of it: -1."""
    if sq >= layout.X or steps <= 0 or layout.colour_of_square(sq) not in (None, c):
        return -1
    down = False
    for _ in range(steps):
        if sq == layout.home[c] and not down:
            if not layout.L:
                return -1
            sq, down = layout.T + c * layout.L + layout.L - 1, True
        elif down:
            if sq == layout.T + c * layout.L:
                return -1
            sq -= 1
        else:
            sq = layout.step_forward(c, sq)
    return sq


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_bounce_tables_equal_step_by_step_walks(data):
    colours, side = data.draw(st.integers(2, 5)), data.draw(st.integers(3, 12))
    layout = Layout([f"c{i}" for i in range(colours)], side, data.draw(st.integers(0, side - 1)),
                    data.draw(st.integers(0, side - 1)), data.draw(st.integers(0, 6)), [], False, "bounce")
    for steps in {1, 2, 3, data.draw(st.integers(1, layout.T + layout.L + 3))}:
        table = layout.forward(steps)
        for c in range(layout.C):
            for sq in range(layout.size):
                assert table[c][sq] == bounce_walk(layout, c, sq, steps), (c, sq, steps)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_route_tables_without_turns_are_the_plain_tables(data):
    """With no turn, a pawn has one way, to the plain table's square (any past-Home rule)."""
    colours, side = data.draw(st.integers(2, 4)), data.draw(st.integers(3, 10))
    past = data.draw(st.sampled_from(["illegal", "stop", "bounce"]))
    layout = Layout([f"c{i}" for i in range(colours)], side, 0, data.draw(st.integers(0, side - 1)),
                    data.draw(st.integers(0, 5)), [], False, past)
    relation = tuple(tuple("own" if o == c else "opponent" for o in range(colours)) for c in range(colours))
    routes = Routes(layout, Geometry(past, (), (Blocker(passable=False),)), relation)
    for steps in {1, 2, data.draw(st.integers(1, layout.T + layout.L + 1))}:
        for direction, table in (("forward", layout.forward(steps)), ("backward", layout.backward(steps))):
            ways = routes.options(direction, steps)
            for c in range(colours):
                for sq in range(layout.size):
                    assert [w[0] for w in ways[c][sq]] == ([table[c][sq]] if table[c][sq] >= 0 else []), (direction, c, sq)


def test_passed_squares_are_those_between_start_and_end():
    layout = Layout(SEATS, 15, 4, 2, 5, [], False, "bounce")
    relation = tuple(tuple("own" if o == c else "opponent" for o in range(4)) for c in range(4))
    routes = Routes(layout, Geometry("bounce", (Turn(2, "backward", "safety"),)), relation)
    s = layout.T - 1  # safety:k of red is s + k
    assert routes.options("forward", 3)[0][10] == ((13, (11, 12), ()),)
    assert routes.options("forward", 7)[0][s + 3] == ((s + 2, (s + 4, s + 5, s + 5, s + 4, s + 3), (-1,)),)
    assert routes.options("backward", 4)[0][4] == ((0, (3, 2, 1), ()), (s + 2, (3, 2, s + 1), (0,)))


def test_overshoot_home_is_shorthand_for_past_home():
    assert load_game("standard").layout.past_home == "illegal"
    assert load_game("standard", ["house/overshoot-home.yaml"]).layout.past_home == "stop"
    assert load_game("standard", ["house/bounce-back.yaml"]).layout.past_home == "bounce"


def test_h32_with_h19_is_an_error_at_the_bounce():
    """RULES H32: a rule file with both is an error (coded, positioned)."""
    with pytest.raises(RuleFileError) as error:
        load_game("standard", ["house/overshoot-home.yaml", "house/bounce-back.yaml"])
    lines = [p.format() for p in error.value.problems]
    assert any("bounce-back.yaml:9:14:" in line and "[SR550]" in line for line in lines), lines
    assert any("overshoot-home.yaml:" in line and "[SR550]" in line for line in lines), lines  # the other place named


def test_a_variant_without_geometry_pays_nothing():
    """No route tables, no route closures: standard plays the plain tables (as H19 does)."""
    for rules in ([], ["house/overshoot-home.yaml"]):
        assert load_game("standard", rules).mechanics.routes is None
    for rule in GEOMETRY_RULES:
        assert load_game("standard", [rule]).mechanics.routes is not None


def test_a_turn_that_never_fires_plays_the_standard_game(tmp_path):
    """Route primitives list moves in the plain tables' order: same seed, same game."""
    path = tmp_path / "side.yaml"
    path.write_text("extends: standard\ngeometry:\n  turns:\n    far: {at: 7, moving: forward, onto: track}\n")
    routed, plain = load_game(str(path)), load_game("standard")
    assert routed.mechanics.routes is not None
    for seed in range(3):
        a = play_game(routed, routed.new_game(seed), [make_player("random", seed, s) for s in range(4)])
        b = play_game(plain, plain.new_game(seed), [make_player("random", seed, s) for s in range(4)])
        assert a == b


def test_land_false_blocks_like_an_own_pawn(tmp_path):
    """A blocker with `land: false`: blue's pawns cannot be landed on or Sorry!-ed (folded into
    who may be bumped), but may be passed."""
    path = tmp_path / "walls.yaml"
    path.write_text("extends: standard\ngeometry:\n  blockers:\n    blue_walls: {colours: [blue], land: false}\n")
    game = load_game(str(path))
    pawns = {"red": ["track:10", "start", "start", "start"], "blue": ["track:12", "start", "start", "start"],
             "yellow": ["track:20", "start", "start", "start"]}
    assert [m["text"] for m in report(game, pawns, "2")["moves"]] == ["Red pawn start -> track:4; draws again"]
    assert [m["text"] for m in report(game, pawns, "5")["moves"]] == ["Red pawn track:10 -> track:15"]
    sorry = [m["text"] for m in report(game, pawns, "sorry")["moves"]]
    assert sorry and all("track:12" not in t for t in sorry)


def report(game, pawns, card):
    return moves_report(game, parse_position(game, {"players": SEATS, "turn": "red", "card": card, "pawns": pawns}))


def why_text(game, pawns, card, rules):
    position = parse_position(game, {"players": SEATS, "turn": "red", "card": card, "pawns": pawns})
    explained = load_explained("standard", rules)
    return format_why_text(add_why(game, explained.cards, position, moves_report(game, position)))


def test_why_names_the_turn_the_bounce_and_the_pawn_that_blocks():
    rules = list(GEOMETRY_RULES)
    game = load_game("standard", rules)
    text = why_text(game, {"red": ["track:4", "safety:3", "start", "start"]}, "4", rules)
    assert "route: red pawn track:4 -> safety:2: H30: a backward move may turn into the own safety zone" in text
    text = why_text(game, {"red": ["safety:3", "track:10", "start", "start"], "blue": ["track:12"]}, "7", rules)
    assert "route: red pawn safety:3 -> safety:2: past Home it bounced back down the safety zone" in text
    text = why_text(game, {"red": ["safety:3", "track:10", "start", "start"], "blue": ["track:12"]}, "5", rules)
    assert "red pawn track:10: forward 5: would pass the opponent pawn (blue) on track:12, which may not be passed" in text
    text = why_text(game, {"red": ["safety:2", "start", "start", "start"]}, "12", rules)
    assert "forward 12: would bounce back out of the safety zone (4 steps to Home)" in text


def test_explain_lists_the_geometry():
    text = " ".join(explain_text(load_explained("standard", list(GEOMETRY_RULES))).split())  # lines wrapped
    assert "Past Home - house/bounce-back.yaml:9" in text
    assert "Turn 'backward_into_safety' - house/backward-into-safety.yaml:10" in text
    assert "A pawn moving backward that stands on its own safety entry with steps still to go may turn" in text
    assert "A pawn backing out of its safety zone goes on along the track: it never turns back in." in text  # H30
    assert "Blocker 'no_jumping_opponents' - house/no-passing-opponents.yaml:9" in text
    assert "An opponent's pawn on the track cannot be passed over." in text
    assert "Past Home" not in explain_text(load_explained("standard"))


@pytest.mark.parametrize("variant", ["standard", "partnership", "points"])
def test_geometry_games_play_to_the_end_and_resume(tmp_path, variant):
    """Every geometry overlay at once, in each variant: seeded games end with the invariants
    kept, and a game saved halfway resumes to the same state (geometry adds no state)."""
    game = load_game(variant, list(GEOMETRY_RULES))
    seats = len(game.new_game(1).seats)
    kinds = ["bot:random", "bot:greedy"] * (seats // 2) + ["bot:random"] * (seats % 2)
    for seed in range(2):
        state = game.new_game(seed)
        record = GameRecord(seed, state.seats, state.turn)
        players = [make_player(k[4:], seed, s) for s, k in enumerate(kinds)]
        halfway = play_game(game, state, players, max_plies=80, record=record)
        saved = new_save(game, variant, GEOMETRY_RULES, seed, state, tuple(kinds), 20_000)
        saved.choices = list(record.choices)
        saved.reached(halfway)
        write_save(tmp_path / "g.json", saved)
        again, resumed = restore(read_save(tmp_path / "g.json"))
        assert resumed == halfway
        final = play_game(again, resumed, [make_player(k[4:], seed, s) for s, k in enumerate(kinds)])
        assert final.winner is not None
        check_state(game, final)


def test_home_reached_through_a_backward_turn_is_not_unreachable(tmp_path):
    """The whole-game analysis walks the routes: with H30's turn a deck that only moves pawns
    backward can still bring them Home (SR509 is not raised); a forward-only turn cannot."""
    from pathlib import Path

    from sorry_rules.authoring.validate import validate_file

    base = Path(__file__).parent / "broken" / "home-unreachable-no-forward.yaml"
    turns = {"backward": "{at: safety_entry, moving: backward, onto: safety}", "forward": "{at: 7, moving: forward, onto: safety}"}
    codes = {}
    for name, turn in turns.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"extends: {base}\ngeometry:\n  turns:\n    t: {turn}\n")
        codes[name] = [p.code for p in validate_file(path)]
    assert codes == {"backward": [], "forward": ["SR509"]}


def test_split_into_parts_in_explain_and_why():
    """`split N into ...` in words, and why a lone pawn has no part of it."""
    rules = ["house/seven-both-ways.yaml"]
    text = explain_text(load_explained("standard", rules), only=("7",))
    assert "split 7 steps into parts played in this order (each at least 1, all used): forward with a pawn" in " ".join(text.split())
    game = load_game("standard", rules)
    why = why_text(game, {"red": ["safety:4", "home", "home", "home"]}, "7", rules)
    assert "split 7 into forward, backward: no other pawn can move the rest of the 7 steps" in why
    why = why_text(game, {"red": ["track:10", "track:11", "home", "home"]}, "7", rules)
    assert "from card 7, option 3: split 7 into forward, backward" in why


def test_bounce_with_simultaneous_splits(tmp_path):
    """H32 with the A2 option: each part bounces on its own, judged on the board before the
    split; the results equal the sequential ones here (the parts cannot meet)."""
    path = tmp_path / "simultaneous.yaml"
    path.write_text("extends: standard\nrules: {split: simultaneous}\ngeometry: {past_home: bounce}\n")
    pawns = {"red": ["safety:3", "track:10", "home", "home"]}
    results = {tuple(map(tuple, m["result"].values())) for m in report(load_game(str(path)), pawns, "7")["moves"]}
    sequential = {tuple(map(tuple, m["result"].values()))
                  for m in report(load_game("standard", ["house/bounce-back.yaml"]), pawns, "7")["moves"]}
    assert results == sequential and len(results) == 8


@pytest.mark.parametrize("variant, effect, pawns, expected", [
    # the second part moves a pawn of the player's partner (yellow): 10 + a, 40 + (7 - a); red on
    # blue's triangle 16 slides to 19, yellow on green's triangle 46 slides to 49 (R26)
    ("partnership", "split 7 into forward, forward partner", {"red": ["track:10"], "yellow": ["track:40"]},
     {("track:11", "track:49"), ("track:12", "track:45"), ("track:13", "track:44"), ("track:14", "track:43"),
      ("track:15", "track:42"), ("track:19", "track:41")}),
    # the second part moves an opponent's pawn (blue) backward: 10 + a, 30 - (7 - a); blue on its
    # own triangle 24 stays
    ("standard", "split 7 into forward, backward opponent", {"red": ["track:10"], "blue": ["track:30"]},
     {("track:11", "track:24"), ("track:12", "track:25"), ("track:13", "track:26"), ("track:14", "track:27"),
      ("track:15", "track:28"), ("track:19", "track:29")}),
    # `any`: the same pawn may take both parts (1 + 3, 2 + 2, 3 + 1 all end on 14)
    ("standard", "split 4 into forward, forward any", {"red": ["track:10"]}, {("track:14",)}),
])
def test_split_parts_choose_their_pawns(tmp_path, variant, effect, pawns, expected):
    """`split N into` parts: a partner's pawn, an opponent's pawn moved backward, the same pawn
    again; parts of the player's own colours by default (docs/REFERENCE.md section 2.1)."""
    path = tmp_path / "parts.yaml"
    path.write_text(f"extends: {variant}\ncards:\n  \"7\": \"{effect}\"\n  \"4\": \"{effect}\"\n")
    game = load_game(str(path))
    full = {c: squares + ["start"] * (4 - len(squares)) for c, squares in pawns.items()}
    card = effect.split()[1]
    results = set()
    for move in report(game, full, card)["moves"]:
        moved = tuple(sq for c in pawns for sq in move["result"][c] if sq != "start")
        results.add(moved)
    assert results == expected


@pytest.mark.parametrize("effect", ["split 0 into backward, forward", "split 1 into forward, backward",
                                    "forward 7 | split 0 into forward, forward any"])
def test_split_into_with_too_few_steps_is_a_located_error(tmp_path, effect):
    """Regression (fuzzing): `split 0 into ...` raised ValueError in the cost estimate. Too few
    steps for the parts is SR508 at the split, never a traceback."""
    from sorry_rules.authoring.validate import validate_file

    path = tmp_path / "few.yaml"
    path.write_text(f'extends: standard\ncards:\n  "7": {effect}\n')
    problems = validate_file(path)
    assert [p.code for p in problems if p.severity == "error"] == ["SR508"]
    assert problems[0].line == 3


#: a 2-colour board of 6 track squares, a count N forward and backward (from 1 to 8, the most a pawn may count here: a whole lap
#: among them), a slide, the split, and splits into a forward and a backward part (N + 1, so that
#: a part may be a whole lap); the same file with a blocker that blocks nothing, so that moves
#: are listed by the route generators instead of the plain tables
TINY = """
name: tiny
colours: [red, blue]
players: {min: 2, max: 2}
pawns: 2
board: {side_length: 3, start_exit: 1, safety_entry: 0, safety_length: 1, slides: [{from: 2, to: 4}]}
deck: {f: 1, b: 1, s: 1, i: 1, j: 1}
cards: {f: enter | forward N, b: backward N, s: split S among 2, i: "split T into forward, backward",
        j: "split T into backward, forward"}
win: home(player) == pawns(player)
rules: {bump: [partner, opponent]}
"""
INERT = "geometry: {blockers: {inert: {pawns: any, group: 12, pass: false}}}\n"
_TINY_GAMES: dict = {}


def _tiny_games(folder_of, n: int) -> tuple:
    """(plain, routed) games of TINY with count n, compiled once per test process."""
    if n not in _TINY_GAMES:
        folder = folder_of()
        text = TINY.replace(" N", f" {n}").replace(" S", f" {max(n, 2)}").replace(" T", f" {min(max(n + 1, 2), 8)}")
        (folder / "plain.yaml").write_text(text)
        (folder / "routed.yaml").write_text(text + INERT)
        _TINY_GAMES[n] = load_game(str(folder / "plain.yaml")), load_game(str(folder / "routed.yaml"))
    return _TINY_GAMES[n]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 8), squares=st.lists(st.integers(0, 5), min_size=1, max_size=4, unique=True),
       owners=st.lists(st.booleans(), min_size=4, max_size=4))
def test_the_plain_tables_and_the_route_generators_list_the_same_moves(tmp_path_factory, n, squares, owners):
    """A8, R12, R26: a count of whole laps ends on the square it left (a move); both ways of
    listing moves (the plain tables of a board without geometry, the routes of one with a
    blocker that blocks nothing) give the same results on every position and count."""
    plain, routed = _tiny_games(lambda: tmp_path_factory.mktemp("tiny"), n)
    assert plain.mechanics.routes is None and routed.mechanics.routes is not None
    pawns: dict = {"red": [], "blue": []}
    for sq, red in zip(squares, owners):
        colour = "red" if red else "blue"
        if len(pawns[colour]) < 2:
            pawns[colour].append(f"track:{sq}")
    for card in ("f", "b", "s", "i", "j"):
        data = {"players": ["red", "blue"], "turn": "red", "card": card, "pawns": pawns}
        listed = [{m.placement for m in game.legal_moves(parse_position(game, data).state)} for game in (plain, routed)]
        assert listed[0] == listed[1], (card, n, pawns)
