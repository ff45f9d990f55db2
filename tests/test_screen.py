"""The play screen: golden renderings at 80x24 (plain and in colour), and properties that
hold for any board drawn from layout data (every pawn shown, 80 columns, 24 rows), for the
longest move lists of every bundled variant and test rule file (every page fits 80x24).

Golden files live in tests/golden/. They are never rewritten by a normal run: after a
deliberate change to the screen, regenerate them with SORRY_UPDATE_GOLDEN=1 and review the
diff."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from sorry_rules.cli import boardmap
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.cli.paging import fit
from sorry_rules.cli.screen import (MILEPOST, Scene, colour_labels, help_text, start_names, render_board, render_moves, render_outcome, render_scene,
                                    render_turn, state_scene, turn_text)
from sorry_rules.records.position import parse_position

RULES = Path(__file__).parent / "rules"
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("SORRY_UPDATE_GOLDEN") == "1"
COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*m")


def _scene_after(game, seed, plies, names, show_hand=False):
    """A scene after `plies` random moves, for the player to move (their card or own hand)."""
    state = game.new_game(seed, players=game.players_max)
    log = []
    pawns = [start_names(game, state)]

    def follow(turn, after):
        log.append(turn_text(game, after.seats[turn.seat], turn.move, pawns[0]))
        pawns[0] = pawns[0].after(turn.move, after.placement, after.marks)

    state = play_game(game, state, [RandomPlayer(seed, s) for s in range(len(state.seats))], max_plies=plies,
                      on_turn=follow)
    if game.needs_draw(state):
        state = game.draw(state)
    hand = state.hands[state.turn] if show_hand else None
    names = tuple("you" if seat == state.turn else "greedy" for seat in range(len(state.seats))) if show_hand \
        else names[: len(state.seats)]
    scene = Scene(game, state.placement, state.seats, state.turn, state.plies, f"{game.name}, seed {seed}", names,
                  card=state.card, hand=hand, pile_size=len(state.pile),
                  discard_size=len(state.discard), log=log, scores=game.standing(state) if game.scoring else None,
                  names=pawns[0])
    return scene, state


def _print(lines, colour: bool) -> str:
    out = io.StringIO()
    if colour:
        console = Console(file=out, width=80, color_system="standard", force_terminal=True, highlight=False)
    else:
        console = Console(file=out, width=80, color_system=None, force_terminal=False, highlight=False)
    for line in lines:
        console.print(line)
    return out.getvalue()


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {path} missing: generate it with SORRY_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from the golden file (SORRY_UPDATE_GOLDEN=1 to accept)"


NAMES = ("you", "greedy", "greedy", "expert", "random", "random")


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


@pytest.fixture(scope="module")
def standard_scene(standard):
    return _scene_after(standard, 5, 60, NAMES)


PROMPT_LINES = 1     # the prompt is the 24th line


def _turn(game, scene, state, page=0, width=80, height=24):
    return render_turn(scene, game.legal_moves(state), state.hands is not None,
                       f"{game.colours[scene.seats[scene.turn]].capitalize()} (you) to play. Your moves", page, width, height)


def _screen_lines(game, scene, state, page=0):
    return _turn(game, scene, state, page).lines


@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_golden_standard_screen(standard, standard_scene, colour):
    scene, state = standard_scene
    text = _print(_screen_lines(standard, scene, state), colour)
    assert bool(COLOUR_CODE.search(text)) == colour
    _golden(f"standard-80-{'colour' if colour else 'plain'}.txt", text)


def test_golden_hand_and_teams_screen():
    game = load_game(str(RULES / "hand-teams.yaml"))
    scene, state = _scene_after(game, 3, 40, NAMES, show_hand=True)
    text = _print(_screen_lines(game, scene, state), colour=False)
    assert "Teams: Red+Yellow vs Blue+Green" in text
    assert "Your hand: " in text
    _golden("hand-teams-80-plain.txt", text)


def test_golden_six_colour_board():
    game = load_game(str(RULES / "six-colours.yaml"))
    scene, state = _scene_after(game, 2, 80, NAMES)
    text = _print(render_scene(scene), colour=False)
    _golden("six-colours-80-plain.txt", text)


def test_golden_second_page_of_a_seven():
    """A 7 with four pawns out: page 2 of the split options, numbered on from page 1."""
    game = load_game("standard")
    scene, state = _position_scene(game, LONG_LISTS["standard"], [f"Blue {n}: track:{n} -> track:{n + 3}" for n in range(12)])
    text = _print(_screen_lines(game, scene, state, page=1), colour=False)
    assert "Your moves 7-11 of" in text   # move 10 takes two lines: five moves fill the page
    _golden("standard-7-page2-80x24-plain.txt", text)


def test_standard_screen_fits_80_by_24(standard, standard_scene):
    """Board, panel, the moves and a prompt fit an 80x24 terminal in the usual case."""
    scene, state = standard_scene
    text = _print(_screen_lines(standard, scene, state), colour=False)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(render_scene(scene)) <= 17
    assert len(lines) + PROMPT_LINES <= 24


#: Positions with long move lists: a 7 (or a hand holding 7, 11 and Sorry!) with every pawn
#: of the player to move out on the track among opponents, so that splits and switches
#: multiply. Team variants get the partner's pawns out too.
SPREAD = {"red": ["track:2", "track:9", "track:20", "track:58"], "blue": ["track:5", "track:13", "track:22", "track:24"],
          "yellow": ["track:30", "track:35", "track:44", "track:50"], "green": ["track:3", "track:16", "track:26", "track:40"]}
LONG_LISTS = {
    "standard": {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7", "pawns": SPREAD},
    "partnership": {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7", "pawns": SPREAD},
    "points": {"players": ["red", "blue", "yellow", "green"], "turn": "red", "hand": ["7", "11", "sorry", "10", "1"],
               "pawns": {"red": SPREAD["red"][:3], "blue": SPREAD["blue"], "yellow": SPREAD["yellow"]}},
    "hand5.yaml": {"players": ["red", "blue", "yellow", "green"], "turn": "red", "hand": ["7", "11", "sorry", "10", "1"],
                   "pawns": {"red": SPREAD["red"][:3], "blue": SPREAD["blue"], "green": SPREAD["green"]}},
    "hand-teams.yaml": {"players": ["red", "blue", "yellow", "green"], "turn": "yellow",
                        "hand": ["7", "11", "sorry", "10", "2"], "pawns": SPREAD},
    "six-colours.yaml": {"players": ["red", "blue", "yellow", "green", "purple", "orange"], "turn": "red", "card": "7",
                         "pawns": {**SPREAD, "purple": ["track:70", "track:75"], "orange": ["track:80", "track:85"]}},
    "six-colours": {"players": ["red", "blue", "yellow", "green", "purple", "cyan"], "turn": "red", "card": "7",
                    "pawns": {**SPREAD, "purple": ["track:70", "track:75"], "cyan": ["track:80", "track:85"]}},
    "three-colours": {"players": ["red", "blue", "yellow"], "turn": "red", "card": "7",
                      "pawns": {"red": ["track:2", "track:9", "track:20", "track:43"], "blue": SPREAD["blue"],
                                "yellow": ["track:35", "track:41"]}},
    "short-sides.yaml": {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7",
                         "pawns": {"red": ["track:2", "track:9", "track:20", "track:33"], "blue": ["track:5", "track:13"],
                                   "green": ["track:25", "track:36"]}},
}


def _game(name):
    return load_game(str(RULES / name) if name.endswith(".yaml") else name)


def _position_scene(game, data, log=()):
    pos = parse_position(game, data)
    state = pos.state
    names = tuple("you" if seat == state.turn else "greedy" for seat in range(len(state.seats)))
    scene = Scene(game, state.placement, state.seats, state.turn, state.plies, f"{game.name}, seed 1", names,
                  card=state.card, hand=state.hands[state.turn] if state.hands is not None else None,
                  pile_size=len(state.pile), discard_size=len(state.discard), log=list(log),
                  scores=game.standing(state) if game.scoring else None, names=start_names(game, state))
    return scene, state


@pytest.mark.parametrize("name", list(LONG_LISTS))
def test_every_page_of_the_longest_move_lists_fits_80_by_24(name):
    """Every page of a long move list (with a full last moves list and a one-line prompt)
    fits 80x24; the pages show every move once, in order, numbered over the whole list, and
    no move text is cut short when shortening can make it fit."""
    game = _game(name)
    log = [f"Blue {n}: track:{n} -> track:{n + 5}, bumps Green (track:{n + 5}); then track:1 -> track:2" for n in range(12)]
    scene, state = _position_scene(game, LONG_LISTS[name], log)
    moves = game.legal_moves(state)
    assert len(moves) >= 15, f"{name}: only {len(moves)} moves; the position should give a long list"
    first = _turn(game, scene, state)
    assert first.pages >= 2
    numbers = []
    for page in range(first.pages):
        turn = _turn(game, scene, state, page)
        assert (turn.page, turn.pages) == (page, first.pages)
        text = _print(turn.lines, colour=False)
        lines = text.splitlines()
        assert len(lines) + PROMPT_LINES <= 24, f"{name} page {page + 1}: {len(lines)} lines\n{text}"
        assert max(len(line) for line in lines) <= 80, f"{name} page {page + 1}:\n{text}"
        assert f"Your moves {turn.first + 1}-{turn.first + turn.count} of {len(moves)}:" in text
        below = text.split(f"Your moves {turn.first + 1}-")[1]   # the moves, after the heading
        numbers += [int(m) for m in re.findall(r"^ *(\d+)\. ", below, re.M)]
    assert numbers == list(range(1, len(moves) + 1))


def test_a_long_message_gives_up_lines_rather_than_push_the_board_off_80_by_24(standard):
    """README: the screen fits 80x24. A notice of four lines or more above the moves (the
    turns played for the person, and why the last card was lost) is cut at a word, ending
    with "...", where the board (16 rows) leaves no room for it; a short one stays whole."""
    scene, state = _position_scene(standard, LONG_LISTS["standard"])
    moves = standard.legal_moves(state)
    why = ("2 turns were played for you since your last choice (forfeits and forced moves, in Last moves); the last: "
           "You drew 11: no move is allowed with it, so the card is forfeited. Why: red "
           "pawns start: card 11 cannot start a pawn; red pawn safety:3: forward 11: would overshoot Home (3 steps to "
           "Home); switch opponent: in its safety zone (a switch needs a track pawn); and more words to make it long.")
    for message, whole in ((why, False), ("Card 7 drawn.", True)):
        turn = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, 80, 24, message)
        text = _print(turn.lines, colour=False)
        assert len(text.splitlines()) + PROMPT_LINES <= 24, text
        assert (message in " ".join(text.split())) is whole and (" ..." in text) is not whole, text


def test_pages_are_clamped_and_use_the_room_they_have(standard):
    scene, state = _position_scene(standard, LONG_LISTS["standard"])
    small, tall = _turn(standard, scene, state), _turn(standard, scene, state, height=40)
    assert small.count == 24 - len(render_scene(scene)) - 2      # header and prompt
    assert len(tall.lines) + 1 == 40 and tall.count == 40 - len(render_scene(scene)) - 2 - 1  # one move takes two lines
    assert _turn(standard, scene, state, page=99).page == small.pages - 1
    assert _turn(standard, scene, state, page=-1).page == 0


def test_a_message_comes_whole_above_the_header_line(standard):
    scene, state = _position_scene(standard, LONG_LISTS["standard"])
    moves = standard.legal_moves(state)
    message = "You drew 11: no move is allowed with it, so the card is forfeited. " + "x" * 60
    told = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, 80, 24, message=message)
    at = len(render_scene(scene))
    assert len(told.lines) + 1 <= 24  # the prompt still fits
    # the message wraps onto a second line, whole (nothing is cut), above the header
    assert " ".join(line.plain.strip() for line in told.lines[at:at + 2]) == message.strip()
    assert told.lines[at + 1].plain == "  " + "x" * 60
    assert told.lines[at + 2].plain.startswith("Red (you) to play. Your moves 1-")
    assert all(line.cell_len <= 80 for line in told.lines)


def test_move_texts_are_shortened_not_wrapped():
    text = "track:11 -> track:12, bumps Blue (track:12); then track:58 -> safety:2, bumps Green (track:1)"
    assert fit(text, 100) == text
    assert fit(text, 80) == "track:11 -> track:12, bumps Blue; then track:58 -> safety:2, bumps Green"
    assert fit(text, 70) == "track:11 -> track:12, bumps Blue; track:58 -> safety:2, bumps Green"
    assert fit(text, 30) == "track:11->track:12, bumps Blu…" and len(fit(text, 30)) == 30
    many = "track:20 -> track:24, bumps Blue (track:21), bumps Green (track:22), bumps Red (track:23)"
    assert fit(many, 60) == "track:20 -> track:24, bumps Blue, bumps Green, bumps Red"
    assert fit(many, 50) == "track:20 -> track:24, bumps Blue, Green, Red"


def test_own_pawns_are_not_named_in_the_moves_but_others_are():
    game = load_game("partnership")
    scene, state = _position_scene(game, LONG_LISTS["partnership"])
    text = _print(render_moves(game, game.legal_moves(state), False, colour=0), colour=False)
    assert "Red pawn" not in text and "Yellow pawn" in text
    assert re.search(r"^ *1\. track:", text, re.M)


@pytest.mark.parametrize("name", ["standard", "points", "six-colours.yaml"])
def test_end_screen_fits_80_by_24(name):
    """The last screen (board, panel, who won, the scores folded to 80 columns and the two
    lines on the saved game) fits 80x24 with four players and more."""
    game = _game(name)
    state = game.new_game(4, players=game.players_max)
    state = play_game(game, state, [RandomPlayer(4, s) for s in range(len(state.seats))])
    assert state.winner is not None
    scene = state_scene(game, state, f"{game.name}, seed 4", NAMES[: len(state.seats)], ["Red 1: start -> track:4"] * 12)
    lines = _print(render_scene(scene) + render_outcome(game, state, 80), colour=False).splitlines()
    assert len(lines) + 2 <= 24 and max(len(line) for line in lines) <= 80, "\n".join(lines)
    if game.scoring:   # the folded lines hold the same parts as the --auto line
        auto = [line.plain for line in render_outcome(game, state)]
        folded = "".join(line.plain for line in render_outcome(game, state, 80)).replace(" ", "")
        assert folded == "".join(line for line in auto if line != "Scores:").replace(" ", "")


@pytest.mark.parametrize("spec", ["standard", "six-colours", "three-colours", str(RULES / "hand-teams.yaml"), "ludo",
                                  "parcheesi", "trouble"])
def test_help_fits_80_columns_and_tells_how_to_page_and_count_squares(spec):
    game = load_game(spec)
    text = help_text(game)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80   # a help longer than the screen comes in screens (Session.help_screen)
    assert "n  next page" in text and "p  previous page" in text and "a hint" in text
    label = colour_labels(game.colours)[0]
    assert f"{label}1-{label}{game.pawns} are {game.colours[0].capitalize()}'s pawns" in text
    assert f"The {game.layout.T} track squares are numbered from\n0 clockwise" in text
    assert "safety:K is the K-th square of a safety zone" in text
    assert ("a slide's start" in text) == any(info is not None for info in game.layout.slide_at)
    assert ("your throw" in text and "card" not in text) == (game.dice is not None)


def test_help_says_where_slides_say_who_takes_them(tmp_path):
    """Where a slide names its own takers (`board.slides.*.slide_on`) the help does not say
    whose slides a pawn takes, and points to `sorry-play explain`."""
    rule = tmp_path / "takers.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4}\n    - {from: 9, to: 13, slide_on: []}\n")
    text = " ".join(help_text(load_game(str(rule))).split())
    assert "land exactly on a slide start" in text and "`sorry-play explain` says whose" in text
    assert "another colour's slide start" in " ".join(help_text(load_game("standard")).split())


@pytest.mark.parametrize("overlay", [None, "short-sides.yaml", "six-colours.yaml", "teams.yaml", "six-colours",
                                     "three-colours"])
def test_board_shows_every_pawn_and_count(overlay):
    """Every pawn on the track or in a safety zone is drawn with its name (R2) in the cell of
    its square (its colour's label where names do not fit a cell: two-letter labels); every
    empty track square numbered a multiple of MILEPOST shows its number (unless a pawn or a
    count comes right before it); Start and Home show their counts; nothing is wider than 80
    columns."""
    game = load_game(str(RULES / overlay) if overlay and overlay.endswith(".yaml") else overlay or "standard")
    scene, state = _scene_after(game, 1, 70, NAMES)
    bmap = boardmap.build(game.layout)
    layout = game.layout
    labels = colour_labels(game.colours)
    rows = [line.plain for line in render_board(scene, bmap)]
    where = {cell.square: rc for rc, cell in bmap.cells.items() if cell.kind != "label"}
    assert set(where) == set(range(layout.size)), "every square has a cell"
    for c, squares in enumerate(state.placement):
        for sq in squares:
            r, col = where[sq]
            shown = rows[r][2 * col: 2 * col + 2].strip()
            if sq < layout.X:
                named = scene.names.by_square()[sq]
                assert shown == (named if len(labels[c]) == 1 else labels[c]), f"{game.colours[c]} pawn on {layout.name(sq)}"
                assert named.startswith(labels[c]) and named[len(labels[c]):].isdigit()
            else:
                assert shown[1:] == str(squares.count(sq)), f"{game.colours[c]} {layout.name(sq)} count"
    taken = {sq for squares in state.placement for sq in squares}
    numbered = 0
    for sq in range(0, layout.T, MILEPOST):
        r, col = where[sq]
        width = len(str(sq))
        followed = bmap.cells.get((r, col + 1))  # a number filling its cell does not run into a pawn or a Start after it
        if sq in taken or rows[r][2 * col - 1: 2 * col].isalnum() or \
                width == 2 and followed is not None and (followed.square in taken or followed.kind in ("start", "home")):
            assert sq in taken or rows[r][2 * col: 2 * col + 2] != str(sq) or not rows[r][2 * col + 2:2 * col + 3].isalnum()
            continue
        assert rows[r][2 * col: 2 * col + width] == str(sq), f"track:{sq} is numbered on the board"
        numbered += 1
    assert numbered >= layout.T // MILEPOST // 2
    for line in render_scene(scene):
        assert line.cell_len <= 80
    panel = _print(render_scene(scene), colour=False)
    for c in state.seats:
        assert game.colours[c].capitalize() in panel


def test_layouts_follow_the_board_data(standard):
    """The square drawing is used when the four safety zones fit inside the ring, the sides
    drawing otherwise (six colours, or zones too long to fit)."""
    assert boardmap.build(standard.layout).kind == "square"
    assert boardmap.build(standard.layout).rows == standard.layout.side + 1
    assert boardmap.build(load_game(str(RULES / "short-sides.yaml")).layout).kind == "square"
    assert boardmap.build(load_game(str(RULES / "six-colours.yaml")).layout).kind == "sides"


def test_long_safety_zone_falls_back_to_sides(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(f"extends: {RULES / 'short-sides.yaml'}\nname: long-zone\nboard: {{safety_length: 9}}\n")
    game = load_game(str(path))
    assert boardmap.build(game.layout).kind == "sides"


def test_hand_is_shown_only_when_given():
    game = load_game(str(RULES / "hand5.yaml"))
    scene, state = _scene_after(game, 2, 10, NAMES)
    assert scene.hand is None
    text = _print(render_scene(scene), colour=False)
    assert "Your hand" not in text
    for seat, hand in enumerate(state.hands):
        scene.hand = hand
        text = _print(render_scene(scene), colour=False)
        shown = re.search(r"Your hand: ([^\n]*)", text).group(1).split()
        assert sorted(shown) == sorted(game.card_names[c] for c in hand)


def test_colour_labels_are_unique_and_unlike_board_glyphs():
    assert colour_labels(["red", "blue", "yellow", "green"]) == ("R", "B", "Y", "G")
    assert colour_labels(["red", "rose"]) == ("Re", "Ro")
    assert colour_labels(["red", "orange"]) == ("Re", "Or")  # O would look like a slide's end
    assert len(set(colour_labels(["a", "a", "a"]))) == 3


def test_moves_list_explains_passes_and_discards(standard):
    from sorry_rules.records.position import parse_position

    pos = parse_position(standard, {"players": ["red", "blue"], "turn": "red", "card": "11",
                                    "pawns": {"red": ["track:58", "safety:5", "home", "home"], "blue": ["track:10"]}})
    moves = standard.legal_moves(pos.state)
    text = _print(render_moves(standard, moves, False), colour=False)
    assert "pass (play nothing)" in text and "may be declined" in text
    hand_game = load_game(str(RULES / "hand5.yaml"))
    stuck = parse_position(hand_game, {"players": ["red", "blue"], "turn": "red", "hand": ["3", "4", "5"],
                                       "pawns": {"red": ["start", "start", "start", "start"]}})
    text = _print(render_moves(hand_game, hand_game.legal_moves(stuck.state), True), colour=False)
    assert "discard 3" in text and "no card in your hand can move" in text


def test_scores_so_far_count_the_components_for_every_player():
    """P7-style scoring: during the game each seat shows its points from the components that
    count for everyone (5 per own pawn Home); the winner's extras wait for the end."""
    game = load_game(str(RULES / "points.yaml"))
    scene, state = _scene_after(game, 3, 150, NAMES)
    home = [state.placement[c].count(game.layout.home[c]) for c in state.seats]
    assert game.standing(state) == {seat: 5 * n for seat, n in enumerate(home)}
    assert any(home)
    text = _print(render_scene(scene), colour=False)
    for seat, n in enumerate(home):
        assert re.search(rf"{game.colours[state.seats[seat]].capitalize()} .*home {n}\s+{5 * n} pts", text)
    assert load_game("standard").standing(state) == {}


def test_card_names_in_brackets_are_shown_not_read_as_markup():
    """A hand's moves name their card in brackets; names like 'sorry' must stay visible."""
    from sorry_rules.records.position import parse_position

    game = load_game(str(RULES / "hand5.yaml"))
    pos = parse_position(game, {"players": ["red", "blue"], "turn": "red", "hand": ["sorry", "1"],
                                "pawns": {"red": ["start", "start", "start", "start"], "blue": ["track:10"]}})
    text = _print(render_moves(game, game.legal_moves(pos.state), True), colour=False)
    assert "[sorry] Red pawn start -> track:10, bumps Blue" in text
    assert "[1] Red pawn start -> track:4" in text


def test_counters_are_shown_during_the_game_with_every_seats_value():
    """H22 (counters): the live screen shows each declared counter with every seat's value, as
    the state holds it, and still fits 80x24; a variant without counters shows no such line."""
    game = load_game("standard", ["house/bump-points.yaml"])
    for seed in range(1, 40):
        scene, state = _scene_after(game, seed, 120, NAMES)
        if any(any(values) for values in state.counters):
            break
    else:
        pytest.fail("no seed bumped in 120 moves")
    scene = Scene(**{**scene.__dict__, "counters": state.counters})
    text = _print(render_scene(scene), colour=False)
    expected = "bumps made: " + ", ".join(f"{game.colours[c].capitalize()} {state.counters[c][0]}" for c in state.seats)
    assert expected in text
    lines = _screen_lines(game, scene, state)
    assert len(lines) <= 24 and all(len(_print([line], colour=False).rstrip("\n")) <= 80 for line in lines)
    plain = load_game("standard")
    plain_scene, _ = _scene_after(plain, 3, 60, NAMES)
    assert "bumps made" not in _print(render_scene(plain_scene), colour=False)


def test_the_last_moves_wrap_and_are_never_cut(standard):
    """A long last move (a 7 split with bumps and a slide) wraps in the panel; its words all
    show, and the screen still fits 80x24."""
    long = ("Yellow 7: Y2 track:33 -> track:36, bumps B1 (track:36), slides to track:39; "
            "then Y3 track:49 -> track:53, bumps G4 (track:53)")
    scene, state = _position_scene(standard, LONG_LISTS["standard"], [long] * 2)
    lines = [line.plain for line in render_scene(scene)]
    panel = " ".join(line[34:].strip() for line in lines)
    shortened = fit(long, 1, cut=False)                        # bump squares left out, arrows tightened
    assert shortened.replace(" ", "") in panel.replace(" ", "") and "…" not in panel
    assert all(len(line) <= 80 for line in lines)
    assert len(render_turn(scene, standard.legal_moves(state), False, "Red (you) to play. Your moves").lines) + 1 <= 24


def test_paging_goes_on_from_the_move_shown_first_when_the_room_changes():
    """Pages of 3 while a message takes a line, then of 4: the next page begins right after
    the last move shown, and the pages before it are counted from the start."""
    from sorry_rules.cli.paging import paged

    sizes = [1] * 10
    pages, shown = paged(sizes, 3)
    assert pages[shown] == (0, 3)
    pages, shown = paged(sizes, 4, first=pages[1][0])  # "n" with more room: from move 3 on
    assert pages[shown] == (3, 4) and shown == 1 and pages == [(0, 3), (3, 4), (7, 3)]
    pages, shown = paged(sizes, 4, first=0)
    assert pages == [(0, 4), (4, 4), (8, 2)] and shown == 0
    assert paged(sizes, 4, page=9) == ([(0, 4), (4, 4), (8, 2)], 2)  # a page number is clamped


def test_the_help_of_a_team_game_says_partners_pawns_are_moved_too():
    """T2: in partnership your moves list your partner's pawns; the help says so, and only
    where a player moves another colour's pawns."""
    from sorry_rules.cli.screen import help_text

    assert "Partners play together: your moves list your partner's pawns" in \
        " ".join(help_text(load_game("partnership")).split())
    assert "Partners" not in help_text(load_game("standard"))


@pytest.mark.parametrize("spec, players, width", [("parcheesi", 4, 80), ("ludo", 4, 80), ("standard", 4, 80),
                                                  ("six-colours", 6, 80), ("standard", 4, 60), ("partnership", 4, 60),
                                                  ("standard", 2, 60), ("parcheesi", 4, 60), ("ludo", 4, 60)])
def test_a_tall_panel_leaves_out_old_moves_rather_than_the_top_of_the_board(spec, players, width):
    """The panel beside the board (seats, throw, dice, last moves) may be taller than the
    board; the screen of a choice then shows fewer of the last moves, so that its first line
    is still the board's top row and the whole screen, prompt included, fits 80x24 (and
    60x24, where the panel sits beside the board with its lines wrapped)."""
    game = load_game(spec)
    state = game.draw(game.new_game(6, players=players))
    log = [f"Blue {n}: B1 track:{n} -> track:{n + 5}, bumps G2 (track:{n + 5}); then B2 track:1 -> track:2"
           for n in range(12)]
    scene = state_scene(game, state, f"{game.name}, seed 6", ["you"] + ["greedy"] * (players - 1), log)
    board = render_board(scene, boardmap.build(game.layout))
    moves = game.legal_moves(state)
    for message in ("", "'zz' is not a move: type a number from 1 to 9, n or p for another page, ? for help, h for "
                        "a hint, q to save and quit"):
        turn = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, width, 24, message)
        assert len(turn.lines) + 1 <= 24 and all(line.cell_len <= width for line in turn.lines), \
            "\n".join(line.plain for line in turn.lines)
        assert turn.lines[0].plain.startswith(board[0].plain.rstrip()[:20])


def test_a_hint_shows_the_page_of_the_move_it_names():
    """`h` on a long, paged list: the screen drawn with the hint is the page that holds the
    move it names, begun where that page began, so the person sees it without paging (a page
    begun at the hinted move shifted every page after it)."""
    from sorry_rules.cli.terminal import Session
    from sorry_rules.players.protocol import view_of
    from sorry_rules.records.savefile import new_save

    game = load_game("standard")
    state = parse_position(game, LONG_LISTS["standard"]).state
    saved = new_save(game, "standard", (), 1, state, ["human", "bot:greedy", "bot:greedy", "bot:greedy"], 100)
    out = io.StringIO()
    session = Session(game, saved.kinds, saved, None, console=Console(file=out, width=80, height=24, force_terminal=True,
                                                                      color_system=None))
    session.hinter = type("Fixed", (), {"choose": lambda self, view, moves: len(moves) - 1})()  # the last move
    session.clear = lambda: None
    session.state = state
    view = view_of(game, state)
    moves = game.legal_moves(state)
    session.show(view, moves)
    assert session.pages > 1 and session.first == 0
    starts = list(session.starts)
    session.show_hint(view, moves)
    assert session.first in (starts[-1], len(moves) - 1)  # where the page began, or at the move when it no longer fits
    following = [start for start in session.starts if start > session.first]
    assert session.first <= len(moves) - 1 < (following[0] if following else len(moves))
    session.first = 0
    session.show(view, moves)
    session.hinter = type("Fixed", (), {"choose": lambda self, view, moves: 1})()  # a move of the first page
    session.show_hint(view, moves)
    assert session.first == 0 and session.page == 0
    assert f"Hint: {len(moves)}. " in out.getvalue()


@pytest.mark.parametrize("rules, whose, sweep", [
    ((), "another colour's slide start", "bumping every pawn on the way"),
    (("house/slide-own-colour.yaml",), "any colour's slide start", "bumping every pawn on the way"),
    (("house/slide-spares-own.yaml",), "another colour's slide start", "that it may bump (the others stay)"),
])
def test_the_help_says_whose_slides_are_taken_and_what_they_sweep(rules, whose, sweep):
    """H10 and H12 change the slides; the help the player reads says so (it described the
    standard slides under every house rule)."""
    text = " ".join(help_text(load_game("standard", rules)).split())
    assert f"land exactly on {whose}" in text and sweep in text


def test_a_forced_move_names_every_card_it_was_chosen_from():
    """H25: two cards drawn, one played, the other discarded: a forced move names both, and
    the one discarded; P4: in hand play it names the hand it was the only move of."""
    import io

    from rich.console import Console

    from sorry_rules.cli.terminal import Session
    from sorry_rules.compiler import load_game
    from sorry_rules.players.runner import Turn
    from sorry_rules.records.savefile import new_save

    for variant, rules, others, said in (
            ("standard", ("house/draw-two-keep-one.yaml",), ("2",),
             ["You drew 1 and 2; only one move was possible, so it was played: ", "The other card drawn (2) is discarded."]),
            ("points", (), ("3", "4", "5", "7"), ["Only one move was possible with your hand (1, 3, 4, 5, 7), so it was "
                                                 "played: "])):
        game = load_game(variant, rules)
        state = game.new_game(1, players=2)
        saved = new_save(game, variant, rules, 1, state, ["human", "bot:random"], 100)
        session = Session(game, saved.kinds, saved, None, console=Console(file=io.StringIO(), width=80, color_system=None))
        one = game.card_index["1"]
        move = next(m for m in game.legal_moves(game.position(state.placement, state.seats, 0, card=one,
                                                                hand=(one,) if game.hand_play else None))
                    if m.kind == "move")
        told = session.tell_move(Turn(1, 0, one, move, 0, 1, tuple(game.card_index[c] for c in others)), state)
        assert [line[:len(start)] for line, start in zip(told, said)] == said, told
        assert len(told) == len(said)


def test_the_loop_tells_each_turn_what_it_was_chosen_from():
    """`Turn.others`: under H25 the other card drawn (one for each card played), in hand play
    the rest of the hand (P3: five cards, one played)."""
    from sorry_rules.compiler import load_game
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game

    for variant, rules, size in (("standard", ("house/draw-two-keep-one.yaml",), 1), ("points", (), 4)):
        game = load_game(variant, rules)
        turns = []
        play_game(game, game.new_game(3, players=2), [make_player("random", 3, s) for s in range(2)],
                  on_turn=lambda turn, state: turns.append(turn), max_plies=30)
        played = [turn for turn in turns if turn.move.kind == "move"]
        assert played and all(len(turn.others) == size for turn in played), [t.others for t in played]


def test_the_help_explains_the_marks_of_a_game_that_has_them():
    """H31 (freeze): the board draws a frozen pawn as R#; the help says what '#' is, and a game
    without marks says nothing of them."""
    text = " ".join(help_text(load_game("standard", ("house/freeze.yaml",))).split())
    assert "shows the mark's symbol in place of its number ('R#')" in text and "'#' frozen" in text
    assert "Marks:" not in help_text(load_game("standard"))


def test_a_forced_move_of_hand_play_never_shows_the_hand_to_the_next_person():
    """P4 with two people at one keyboard: the screen of a forced move is seen by whoever holds
    the keyboard, before any hand-over: it names whose turn it was, never their hand."""
    import io

    from rich.console import Console

    from sorry_rules.cli.terminal import Session
    from sorry_rules.players.runner import Turn
    from sorry_rules.records.savefile import new_save

    game = load_game("points")
    state = game.new_game(1, players=2)
    saved = new_save(game, "points", (), 1, state, ["human", "human"], 100)
    session = Session(game, saved.kinds, saved, None, console=Console(file=io.StringIO(), width=80, color_system=None))
    one = game.card_index["1"]
    move = next(m for m in game.legal_moves(game.position(state.placement, state.seats, 0, hand=(one,))) if m.kind == "move")
    [told] = session.tell_move(Turn(1, 0, one, move, 0, 1, tuple(game.card_index[c] for c in ("3", "4", "5", "7"))), state)
    seated = game.colours[state.seats[0]].capitalize()
    assert told.startswith(f"{seated}: only one move was possible, so it was played: ") and "(1, 3" not in told, told


def test_a_move_that_loses_a_bonus_says_so_on_the_play_screen():
    """PA11, PA23: the person's moves on the play screen say which of them leave a capture's 20
    spaces that no pawn can move (as `moves` says "not played (no way)"); the others do not."""
    from sorry_rules.cli.terminal import Session
    from sorry_rules.players.protocol import view_of
    from sorry_rules.records.savefile import new_save

    game = load_game("parcheesi")
    state = parse_position(game, {"players": ["yellow", "blue", "red", "green"], "turn": "yellow", "card": "2+3",
                                  "pawns": {"yellow": ["safety:5", "track:28", "track:40", "track:40"],
                                            "blue": ["track:30", "track:52", "track:52"]}}).state
    saved = new_save(game, "parcheesi", (), 1, state, ["human", "bot:greedy", "bot:greedy", "bot:greedy"], 100)
    out = io.StringIO()
    session = Session(game, saved.kinds, saved, None, console=Console(file=out, width=200, height=80, force_terminal=True,
                                                                      color_system=None))
    session.clear = lambda: None
    session.state = state
    moves = game.legal_moves(state)
    session.show(view_of(game, state), moves)
    lines = [line for line in out.getvalue().splitlines() if re.match(r"\s*\d+\. ", line)]
    assert len(lines) == len(moves)
    lost = [line for line in lines if line.endswith("(PA11: a capture earns 20 spaces: no way to play it)")]
    assert len(lost) == 2 and all("bumps B" in line for line in lost)
    assert any("bumps B" in line and "no way" not in line for line in lines)


def test_the_moves_of_the_page_stand_on_the_board_where_they_end(standard):
    """On a terminal each move of the page shows its number on the empty square it ends on
    (R13: a 5 moves a pawn five squares): the player sees where a move goes without counting;
    a square with a pawn (a bump) keeps showing the pawn; other pages' moves are not drawn."""
    from sorry_rules.cli import boardmap

    state = parse_position(standard, {"players": ["red", "blue"], "turn": "red", "card": "5",
                                      "pawns": {"red": ["track:10", "track:30", "start", "start"], "blue": ["track:35"]}})
    scene, _ = _position_scene(standard, {"players": ["red", "blue"], "turn": "red", "card": "5",
                                          "pawns": {"red": ["track:10", "track:30", "start", "start"],
                                                    "blue": ["track:35"]}})
    moves = standard.legal_moves(state.state)
    cells = {cell.square: (r, c) for (r, c), cell in boardmap.build(standard.layout).cells.items()
             if cell.kind == "track"}

    def shown(lines, square):
        r, c = cells[square]
        return _print(lines[r:r + 1], colour=False)[c * 2:c * 2 + 2]

    plain = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, 80, 24)
    scene.mark_targets = True
    marked = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, 80, 24)
    assert len(marked.lines) == len(plain.lines) and marked.count == plain.count
    ends = {move.placement[0][0] if move.placement[0][0] != 10 else move.placement[0][1]: i + 1
            for i, move in enumerate(moves)}
    assert set(ends) == {15, 35}, ends          # track:10 -> 15 (empty), track:30 -> 35 (bumps blue)
    assert shown(marked.lines, 15) == f"{ends[15]} " and shown(plain.lines, 15) == "15"
    assert shown(marked.lines, 35) == shown(plain.lines, 35) == "B1"  # the pawn a move bumps stays in view
    assert "bold underline" in str([span.style for line in marked.lines for span in line.spans])
    # right after a pawn the number stands apart from its name: "R1 2", not "R12"
    data = {"players": ["red", "blue"], "turn": "red", "card": "1", "pawns": {"red": ["track:9", "start", "start", "start"]}}
    scene, state = _position_scene(standard, data)
    moves = standard.legal_moves(state)
    scene.mark_targets = True
    lines = render_turn(scene, moves, False, "Red (you) to play. Your moves", 0, 80, 24).lines
    step = next(i for i, move in enumerate(moves) if 10 in move.placement[0]) + 1
    assert shown(lines, 9) + shown(lines, 10) == f"R1 {step}", _print(lines[:1], colour=False)
