"""The play screen: golden renderings at 80 columns (plain and in colour), and properties that
hold for any board drawn from layout data (every pawn shown, 80 columns, 24 rows).

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
from sorry_rules.cli.screen import Scene, colour_labels, render_board, render_moves, render_scene, turn_text

RULES = Path(__file__).parent / "rules"
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("SORRY_UPDATE_GOLDEN") == "1"
COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*m")


def _scene_after(game, seed, plies, names, show_hand=False):
    """A scene after `plies` random moves, for the player to move (their card or own hand)."""
    state = game.new_game(seed, players=game.players_max)
    log = []
    state = play_game(game, state, [RandomPlayer(seed, s) for s in range(len(state.seats))], max_plies=plies,
                      on_turn=lambda turn, s: log.append(turn_text(game, s.seats[turn.seat], turn.move)))
    if game.needs_draw(state):
        state = game.draw(state)
    hand = state.hands[state.turn] if show_hand else None
    names = tuple("you" if seat == state.turn else "greedy" for seat in range(len(state.seats))) if show_hand \
        else names[: len(state.seats)]
    scene = Scene(game, state.placement, state.seats, state.turn, state.plies, f"{game.name}, seed {seed}", names, card=state.card, hand=hand, pile_size=len(state.pile),
                  discard_size=len(state.discard), log=log, scores=game.standing(state) if game.scoring else None)
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


def _screen_lines(game, scene, state):
    return render_scene(scene) + render_moves(game, game.legal_moves(state), state.hands is not None)


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


def test_standard_screen_fits_80_by_24(standard, standard_scene):
    """Board, panel, the moves and a prompt fit an 80x24 terminal in the usual case."""
    scene, state = standard_scene
    text = _print(_screen_lines(standard, scene, state), colour=False)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(render_scene(scene)) <= 17
    assert len(lines) + 1 <= 24


@pytest.mark.parametrize("overlay", [None, "short-sides.yaml", "six-colours.yaml", "teams.yaml"])
def test_board_shows_every_pawn_and_count(overlay):
    """Every pawn on the track or in a safety zone is drawn with its colour's label in the cell
    of its square; Start and Home show their counts; nothing is wider than 80 columns."""
    game = load_game(str(RULES / overlay) if overlay else "standard")
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
                assert shown == labels[c], f"{game.colours[c]} pawn on {layout.name(sq)}"
            else:
                assert shown[1:] == str(squares.count(sq)), f"{game.colours[c]} {layout.name(sq)} count"
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
