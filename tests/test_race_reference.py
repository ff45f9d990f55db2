"""The moves oracle of Ludo (with and without blocks, LU17), Trouble and Parcheesi against
independent references (`race_reference`, written from docs/LUDO.md, docs/TROUBLE.md and
docs/PARCHEESI.md alone) on random positions: which pieces a throw moves where, entering
(a six, LU5, TR5; a five or two dice adding up to five, PA6), the exact count into Home,
captures (every opponent token on an unsafe Ludo square, LU8, LU9; a single peg, the START
space included, TR8; a single pawn, and on its own entry space every single pawn of another
colour, PA8, PA10, PA21), safe squares (LU10, LU18, PA10), blocks and blockades (LU17, LU21,
PA9), a third six lost (LU13), the extra throws of a six, a capture and a token Home (LU13, LU15,
LU16, LU19, LU20), the finish line that holds one peg a space (TR11, TR13), two
dice die by die using as many as can be used (PA5), the 20 and 10 space bonuses (PA11,
PA14, PA16, PA17) and the third doubles (PA7, PA19); Ludo also on boards no rule file
bundles (LU2's numbers as data); Ludo's home column closed until a capture (LU25) and
Trouble's warp spaces (TR15, TR17-TR20) too."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sorry_rules.authoring.oracle import moves_report
from sorry_rules.compiler import load_game
from sorry_rules.records.position import parse_position
from tests import race_reference as ref

LUDO_SEATS = {2: ("red", "yellow"), 3: ("red", "green", "yellow"), 4: ref.COLOURS}
TROUBLE_SEATS = {2: ("red", "green"), 3: ("red", "blue", "green"), 4: ref.TROUBLE_COLOURS}
PARCHEESI_SEATS = {2: ("yellow", "red"), 3: ("yellow", "blue", "red"), 4: ref.PARCHEESI_COLOURS}


def ludo_position(rng: random.Random, board: ref.LudoBoard = ref.LUDO) -> dict:
    """Tokens in the yard, on the squares their colour passes (a few squares crowded), in
    the home column and Home; two colours share only a safe square; the mover has thrown
    a six already this turn now and then."""
    if board is ref.LUDO:
        players = LUDO_SEATS[rng.choice((2, 3, 4))]
    else:
        seated = rng.sample(board.colours, rng.randint(2, len(board.colours)))
        players = tuple(colour for colour in board.colours if colour in seated)
    crowded = [rng.randrange(board.track) for _ in range(5)]
    if board.own_start:  # start squares safe for their own colour only: crowd them too
        crowded += [board.start_square(c) for c in range(len(board.colours))]
    pawns, held = {}, {}
    for colour in players:
        c = board.colours.index(colour)
        tokens = []
        for _ in range(4):
            kind = rng.choices(("start", "track", "crowded", "safety", "home"), (3, 4, 4, 1, 1))[0]
            if kind == "track":
                token = board.where_of(c, rng.randint(0, board.to_tip))
            elif kind == "crowded":
                square = rng.choice(crowded)
                token = f"track:{square}" if board.steps_of(c, f"track:{square}") <= board.to_tip else "start"
            elif kind == "safety":
                token = f"safety:{rng.randint(1, board.column)}" if board.column else "home"
            else:
                token = kind
            if token.startswith("track:") and not board.safe(int(token[6:])) and held.setdefault(token, colour) != colour:
                token = "start"  # LU8: an unsafe square holds one colour
            tokens.append(token)
        pawns[colour] = tokens
    turn = rng.choice(players)
    position = {"players": list(players), "turn": turn, "card": str(rng.randint(1, 6)), "pawns": pawns}
    sixes = rng.choice((0, 0, 1, 2))
    if sixes:
        position["counters"] = {turn: {"sixes": sixes}}
    return position


def trouble_position(rng: random.Random) -> dict:
    """Pegs in HOME, on the track (one a space), in the finish line (one a space)."""
    players = TROUBLE_SEATS[rng.choice((2, 3, 4))]
    pegs, taken = {}, set()
    for colour in players:
        c = ref.TROUBLE_COLOURS.index(colour)
        mine = []
        for _ in range(4):
            steps = rng.choice((None, None, rng.randint(0, ref.TROUBLE_HOME), rng.randint(0, 27)))
            peg = "start" if steps is None else ref.trouble_where(c, steps)
            if peg in taken or peg in mine:
                peg = "start"
            if peg.startswith("track:"):
                taken.add(peg)
            mine.append(peg)
        pegs[colour] = mine
    return {"players": list(players), "turn": rng.choice(players), "card": str(rng.randint(1, 6)), "pawns": pegs}


def parcheesi_position(rng: random.Random) -> dict:
    """Pawns in the nest, on the spaces their colour passes (the safety spaces and a few
    others crowded: two pawns at most, two colours only on a safety space), on the home path
    (two a space at most) and Home; two dice, a total of five or a five often; now and then
    a third doubles."""
    players = PARCHEESI_SEATS[rng.choice((2, 3, 4))]
    crowded = [rng.randrange(ref.PARCHEESI_TRACK) for _ in range(6)] + [17 * c + k for c in range(4) for k in (4, 8, 12)]
    pawns, held = {}, {}
    for colour in players:
        c = ref.PARCHEESI_COLOURS.index(colour)
        mine = []
        for _ in range(4):
            kind = rng.choices(("start", "track", "crowded", "safety", "home"), (3, 4, 5, 1, 1))[0]
            if kind == "track":
                pawn = ref.parcheesi_where(c, rng.randint(0, 64))
            elif kind == "crowded":
                square = rng.choice(crowded)
                pawn = f"track:{square}" if ref.parcheesi_steps(c, f"track:{square}") <= 64 else "start"
            else:
                pawn = f"safety:{rng.randint(1, 7)}" if kind == "safety" else kind
            if pawn.startswith("track:"):
                here = held.setdefault(pawn, [])
                if len(here) < 2 and (not here or here[0] == colour or ref.parcheesi_safe(int(pawn[6:]))):
                    here.append(colour)
                else:
                    pawn = "start"
            elif pawn.startswith("safety:") and mine.count(pawn) >= 2:
                pawn = "start"
            mine.append(pawn)
        pawns[colour] = mine
    dice = sorted(rng.choice(((1, 4), (2, 3), (5, 5), (1, 5), (5, 6))) if rng.random() < 0.3 else
                  (rng.randint(1, 6), rng.randint(1, 6)))
    turn = rng.choice(players)
    position = {"players": list(players), "turn": turn, "card": f"{dice[0]}+{dice[1]}", "pawns": pawns}
    if dice[0] == dice[1] and rng.random() < 0.3:
        position["counters"] = {turn: {"doubles_thrown": 2}}
    return position


def engine_results(game, position: dict) -> set:
    """The placements of the moves the oracle lists (a lost throw's consequences and an LU6
    throw again move nothing and are left out)."""
    report = moves_report(game, parse_position(game, position))
    return {ref.placement({c: tuple(v) for c, v in move["result"].items()}) for move in report["moves"]
            if not move.get("forfeit") and "redraw" not in move}


def compare_ludo(game, blocks: bool, seed: int, positions: int, board: ref.LudoBoard = ref.LUDO) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = ludo_position(rng, board)
        if any(all(t == "home" for t in tokens) for tokens in position["pawns"].values()):
            continue  # a game already over
        sixes = position.get("counters", {}).get(position["turn"], {}).get("sixes", 0)
        want = ref.results(position["pawns"], position["turn"], int(position["card"]), blocks, sixes, board)
        assert engine_results(game, position) == want, (vars(board), position)
        compared += len(want)
    return compared


def compare_ludo_closed_column(game, seed: int, positions: int) -> int:
    """LU25 (`ludo/capture-to-enter.yaml`): the mover has captured or not (its counter
    `captures`); tokens near the tip of their arm often."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = ludo_position(rng)
        turn, tokens = position["turn"], position["pawns"][position["turn"]]
        if any(all(t == "home" for t in mine) for mine in position["pawns"].values()):
            continue  # a game already over
        c = ref.COLOURS.index(turn)
        near = ref.where_of(c, ref.LUDO.to_tip - rng.randint(0, 5))
        if rng.random() < 0.6 and not any(near in mine for mine in position["pawns"].values()):
            tokens[rng.randrange(4)] = near
        captures = rng.choice((0, 1))
        sixes = position.get("counters", {}).get(turn, {}).get("sixes", 0)
        position["counters"] = {turn: {"sixes": sixes, "captures": captures}}
        want = ref.results(position["pawns"], turn, int(position["card"]), sixes=sixes, closed=not captures)
        assert engine_results(game, position) == want, position
        compared += len(want)
    return compared


def near_the_end(rng: random.Random, position: dict, board: ref.LudoBoard = ref.LUDO) -> dict:
    """`position` with the mover's tokens Home but one, that one at most eight steps from
    Home (where a throw may win: LU14 over the extra throws)."""
    c = board.colours.index(position["turn"])
    last = board.where_of(c, max(0, board.home - rng.randint(1, 8)))
    if last.startswith("track:") and any(last in tokens for tokens in position["pawns"].values()):
        last = "start"
    position["pawns"][position["turn"]] = ["home"] * 3 + [last]
    return position


def compare_ludo_throws(game, seed: int, positions: int) -> int:
    """LU13, LU15, LU16, LU19, LU20: the extra throws each move earns, with both options on;
    a fifth of the positions near the end (LU14: a winning move earns none)."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = ludo_position(rng)
        if rng.random() < 0.2:
            position = near_the_end(rng, position)
        if any(all(t == "home" for t in tokens) for tokens in position["pawns"].values()):
            continue
        sixes = position.get("counters", {}).get(position["turn"], {}).get("sixes", 0)
        want = ref.outcomes(position["pawns"], position["turn"], int(position["card"]), sixes=sixes,
                            capture_throw=True, home_throw=True)
        got = {(ref.placement({c: tuple(v) for c, v in move["result"].items()}), move.get("extra_cards", 0))
               for move in moves_report(game, parse_position(game, position))["moves"]
               if not move.get("forfeit") and "redraw" not in move}
        assert got == want, position
        compared += len(want)
    return compared


def test_a_throw_no_token_can_use_is_thrown_again_or_lost_as_the_rule_book_says():
    """LU6, LU13, LU23: every token of the mover in the yard or Home, any run of sixes (the
    sixes of LU13 before it, LU19) and any throws thrown again this turn: a throw no token
    can use is thrown again while fewer than two were, unless it is a third six; else lost.
    (A token leaving the board on a second six, then a 4: the 4 is thrown again.)"""
    game, rng = load_game("ludo"), random.Random(23)
    kinds = Counter()
    for _ in range(400):
        position = ludo_position(rng)
        turn = position["turn"]
        position["pawns"][turn] = [rng.choice(("start", "start", "home")) for _ in range(4)]
        if all(t == "home" for t in position["pawns"][turn]):
            continue
        sixes, redraws = rng.choice((0, 1, 2, 2)), rng.randint(0, 2)
        position.update(counters={turn: {"sixes": sixes}}, redraws=redraws)
        want = ref.stuck_throw(position["pawns"], turn, int(position["card"]), sixes, redraws)
        moves = moves_report(game, parse_position(game, position))["moves"]
        got = ["redraw" if "redraw" in m else "forfeit" if m.get("forfeit") else None for m in moves]
        assert got == ([want] if want else [None] * len(moves)), (position, got)
        kinds[want] += 1
    assert kinds["redraw"] > 20 and kinds["forfeit"] > 20 and kinds[None] > 20, kinds


def compare_trouble(game, seed: int, positions: int, warps: bool = False) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = trouble_position(rng)
        pegs = position["pawns"]
        if any(all((ref.trouble_steps(ref.TROUBLE_COLOURS.index(c), p) or 0) > 27 for p in pegs[c]) for c in pegs):
            continue  # TR12: a game already won
        want = ref.trouble_results(pegs, position["turn"], int(position["card"]), warps)
        assert engine_results(game, position) == want, position
        compared += len(want)
    return compared


def compare_parcheesi(game, seed: int, positions: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = parcheesi_position(rng)
        pawns, turn = position["pawns"], position["turn"]
        if any(all(p == "home" for p in mine) for mine in pawns.values()):
            continue  # PA15: a game already won
        if "counters" in position:  # the third doubles: no die moves, what PA7 does is each way of the forfeit
            report = moves_report(game, parse_position(game, position))
            got = {ref.placement({c: tuple(v) for c, v in move["result"].items()}) for move in report["moves"]}
            want = ref.parcheesi_third_doubles(pawns, turn)
        else:
            got = engine_results(game, position)
            want = ref.parcheesi_results(pawns, turn, tuple(int(face) for face in position["card"].split("+")))
        assert got == want, position
        compared += len(want)
    return compared


#: colour names for Ludo boards of up to six colours, clockwise
LUDO_NAMES = ("red", "green", "yellow", "blue", "purple", "cyan")


def random_ludo_board(rng: random.Random, own_start: bool = False) -> ref.LudoBoard:
    """A Ludo board no bundled file has: 2-6 colours, arms of 4-16 squares (a lap of 12 or
    more), any start square and tip (not one square), a home column of 0-7 squares, up to
    two stars besides the start square; with `own_start` the start squares are safe for their
    own colour only (`board.squares.*.safe: [own]`)."""
    colours = LUDO_NAMES[:rng.randint(2, 6)]
    side = rng.randint(max(4, -(-12 // len(colours))), 16)
    start, tip = rng.sample(range(side), 2)
    stars = sorted(rng.sample([o for o in range(side) if o != start], rng.randint(0, min(2, side - 1))))
    return ref.LudoBoard(colours, side, start, tip, rng.randint(0, 7), stars, own_start)


def ludo_board_file(folder, board: ref.LudoBoard, number: int) -> str:
    """An overlay of Ludo that plays on `board`, file `number`."""
    stars = f"{{at: [{', '.join(map(str, board.stars))}], capture: false, share: true}}" if board.stars else "null"
    starts = "capture: true, safe: [own]" if board.own_start else "capture: false"
    path = folder / f"ludo-{number}.yaml"
    path.write_text(f"extends: ludo\nname: ludo-board\ncolours: [{', '.join(board.colours)}]\n"
                    f"players: {{min: 2, max: {len(board.colours)}}}\n"
                    f"board:\n  side_length: {board.side}\n  start_exit: {board.start}\n"
                    f"  safety_entry: {board.tip}\n  safety_length: {board.column}\n  squares:\n"
                    f"    start_square: {{at: [{board.start}], {starts}, share: true}}\n"
                    f"    star: {stars}\n", encoding="utf-8")
    return str(path)


def compare_ludo_boards(folder, seed: int, boards: int, positions: int) -> int:
    """`compare_ludo` on random boards (`random_ludo_board`), with blocks (LU17) on half and
    start squares safe for their own colour only on every third."""
    rng = random.Random(seed)
    compared = 0
    for number in range(boards):
        board = random_ludo_board(rng, own_start=number % 3 == 2)
        blocks = rng.random() < 0.5
        game = load_game(ludo_board_file(folder, board, number), ("ludo/blocks.yaml",) if blocks else ())
        compared += compare_ludo(game, blocks, rng.randrange(1 << 30), positions, board)
    return compared


def test_ludo_on_boards_never_bundled(tmp_path):
    """LU2's numbers as data: arms, start squares, tips, home columns, stars, colours."""
    assert compare_ludo_boards(tmp_path, seed=41, boards=6, positions=40) > 150


@pytest.mark.slow
def test_ludo_on_hundreds_of_boards(tmp_path):
    assert compare_ludo_boards(tmp_path, seed=42, boards=200, positions=200) > 20_000


@pytest.mark.parametrize("rules,blocks", [((), False), (("ludo/blocks.yaml",), True)])
def test_ludo_moves_as_its_rule_book_says(rules, blocks):
    assert compare_ludo(load_game("ludo", rules), blocks, seed=1, positions=100) > 130


def test_ludo_extra_throws_as_its_rule_book_says():
    game = load_game("ludo", ("ludo/capture-throw.yaml", "ludo/home-throw.yaml"))
    assert compare_ludo_throws(game, seed=2, positions=100) > 130


@pytest.mark.parametrize("last,throw", [("safety:2", 4), ("track:6", 6)])
def test_a_winning_move_earns_no_extra_throw(last, throw):
    """LU14 over LU13 and LU16: the last token Home ends the game at once, so neither the
    token reaching Home nor a six gives a throw (a position random ones seldom reach)."""
    game = load_game("ludo", ("ludo/capture-throw.yaml", "ludo/home-throw.yaml"))
    position = {"players": ["red", "green"], "turn": "red", "card": str(throw),
                "pawns": {"red": ["home", "home", "home", last], "green": ["track:22", "start"]}}
    report = moves_report(game, parse_position(game, position))
    assert [(move["result"]["red"], move.get("wins"), move["extra_cards"]) for move in report["moves"]] == [
        (["home"] * 4, True, 0)]
    assert not report["draw_again"]
    assert ref.outcomes(position["pawns"], "red", throw, home_throw=True, capture_throw=True) == {
        (ref.placement({**position["pawns"], "red": ("home",) * 4}), 0)}


def test_ludo_without_a_capture_goes_round_again_as_its_rule_book_says():
    """LU25, LU11, LU12 (`ludo/capture-to-enter.yaml`)."""
    assert compare_ludo_closed_column(load_game("ludo", ("ludo/capture-to-enter.yaml",)), seed=3, positions=300) > 400


def test_trouble_moves_as_its_rule_book_says():
    assert compare_trouble(load_game("trouble"), seed=1, positions=100) > 130


def test_trouble_with_warp_spaces_moves_as_its_rule_book_says():
    """TR15, TR17-TR20 (`trouble/warp.yaml`): in about a fifth of these positions a warp changes
    what the pop may do."""
    assert compare_trouble(load_game("trouble", ("trouble/warp.yaml",)), seed=2, positions=300, warps=True) > 400


def test_parcheesi_moves_as_its_rule_book_says():
    assert compare_parcheesi(load_game("parcheesi"), seed=1, positions=100) > 600


@pytest.mark.slow
def test_thousands_of_race_positions():
    assert compare_ludo(load_game("ludo"), False, seed=10, positions=5000) > 10_000
    assert compare_ludo(load_game("ludo", ("ludo/blocks.yaml",)), True, seed=11, positions=5000) > 10_000
    assert compare_trouble(load_game("trouble"), seed=12, positions=5000) > 8_000
    assert compare_trouble(load_game("trouble", ("trouble/warp.yaml",)), seed=15, positions=5000, warps=True) > 8_000
    assert compare_ludo_closed_column(load_game("ludo", ("ludo/capture-to-enter.yaml",)), seed=16, positions=5000) > 8_000
    # a fifth of these positions are near the end, with a move or two each (9,537 compared)
    assert compare_ludo_throws(load_game("ludo", ("ludo/capture-throw.yaml", "ludo/home-throw.yaml")), seed=14,
                               positions=5000) > 9_000
    assert compare_parcheesi(load_game("parcheesi"), seed=13, positions=10_000) > 50_000
