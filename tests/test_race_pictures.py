"""Pictures of boards whose squares hold several pawns and have names (the race games:
variants/ludo.yaml, parcheesi.yaml, trouble.yaml and copies of them with 2, 3 and 6 colours).

The SVG of `render` is parsed: every square is drawn once, the Start and Home circles lie
inside the picture and clear of every square and of each other, the cross keeps each home
column on a straight line to the middle, each pawn of a position is drawn on its square
(several on one square at distinct spots inside it), and every named square carries its name.
The play screen shows how many pawns stand on a square and names them.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from click.testing import CliRunner

from sorry_rules.cli import screen
from sorry_rules.cli.app import main
from sorry_rules.compiler.build import load_game
from sorry_rules.pictures import geometry, replaypage, trackboard
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.position import parse_position
from tests.pictures_util import svg_root, with_class

COLOURS = {2: "[red, yellow]", 3: "[red, green, yellow]", 4: "[red, green, yellow, blue]",
           6: "[red, green, yellow, blue, purple, orange]"}


def _variant(tmp_path, base: str, colours: int) -> str:
    path = tmp_path / f"{base}-{colours}.yaml"
    path.write_text(f"extends: {base}\nname: {base}-{colours}\ncolours: {COLOURS[colours]}\n"
                    f"players: {{min: 2, max: {colours}}}\n")
    return str(path)


def _played(game, seed: int, plies: int):
    state = game.new_game(seed, players=game.players_max)
    return play_game(game, state, [make_player("random", seed, s) for s in range(len(state.seats))], max_plies=plies)


def _check_geometry(game) -> None:
    """Every circle inside the picture, clear of the squares and of the other circles."""
    layout = game.layout
    geo = geometry.build(layout)
    pools = [*layout.start, *layout.home]
    for sq in pools:
        x, y = geo.at[sq]
        r = geo.pool(sq)
        assert r <= x <= geo.width - r and r <= y <= geo.height - r, f"{layout.name(sq)} sticks out of the picture"
    for i, a in enumerate(pools):
        for b in pools[i + 1:]:
            apart = math.dist(geo.at[a], geo.at[b])
            assert apart >= geo.pool(a) + geo.pool(b) - 0.01, f"{layout.name(a)} and {layout.name(b)} overlap"
        for sq in range(layout.X):
            half = (geo.cell if sq < layout.T else geo.step) / 2
            assert math.dist(geo.at[a], geo.at[sq]) >= geo.pool(a) + half * 0.99, \
                f"{game.colours[layout.colour_of_square(a)]}'s {layout.name(a)} covers {layout.name(sq)}"
    squares = list(range(layout.X))
    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            assert math.dist(geo.at[a], geo.at[b]) >= geo.step * 0.99, f"{layout.name(a)} on {layout.name(b)}"


def _check_svg(game, state, text: str) -> None:
    layout = game.layout
    root = svg_root(text)
    assert sorted(int(el.get("data-square")) for el in with_class(root, "track")) == list(range(layout.T))
    assert sorted(int(el.get("data-square")) for el in with_class(root, "safety")) == list(range(layout.T, layout.X))
    drawn = Counter((el.get("data-colour"), int(el.get("data-square"))) for el in with_class(root, "pawn"))
    assert drawn == Counter((game.colours[c], sq) for c, squares in enumerate(state.placement) for sq in squares)
    named = sorted((el.get("data-name"), int(el.get("data-square"))) for el in with_class(root, "named-square"))
    assert named == sorted((name, sq) for name, squares in layout.named.items() for sq, _ in squares
                           if name in layout.square_symbols)
    assert sorted(el.get("data-name") for el in with_class(root, "square-name")) == sorted(layout.square_symbols)


@pytest.mark.parametrize("base", ["ludo", "parcheesi", "trouble"])
@pytest.mark.parametrize("colours", [2, 3, 4, 6])
def test_race_boards_of_any_colour_count_draw_every_square_once_and_every_circle_clear(tmp_path, base, colours):
    game = load_game(_variant(tmp_path, base, colours), ())
    _check_geometry(game)
    for state in (game.new_game(1, players=game.players_max), _played(game, 3, 150)):
        _check_svg(game, state, trackboard.board_svg(game, state))


@pytest.mark.parametrize("spec", ["ludo", "parcheesi"])
def test_a_board_of_arms_is_a_cross_with_each_home_column_running_straight_to_the_middle(spec):
    """Ludo's and Parcheesi's boards: one arm a colour; the safety squares of a colour and its
    Home lie on one line, each nearer the middle than the one before, and every Home is nearer
    the middle than any track square; each arm's track squares lie on three lines."""
    game = load_game(spec, ())
    layout = game.layout
    assert geometry.cross_fits(layout)
    geo = geometry.build(layout)
    mx, my = geo.centre
    far = lambda sq: math.dist(geo.at[sq], (mx, my))  # noqa: E731
    nearest_track = min(far(sq) for sq in range(layout.T))
    for c in range(layout.C):
        column = [layout.T + c * layout.L + j for j in range(layout.L)] + [layout.home[c]]
        assert all(far(a) > far(b) for a, b in zip(column, column[1:]))
        (x0, y0), (x1, y1) = geo.at[column[0]], geo.at[column[-2]]
        for sq in column:
            x, y = geo.at[sq]
            assert abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) / math.dist((x0, y0), (x1, y1)) < 0.01
        assert far(layout.home[c]) < nearest_track
        arm = [geo.at[c * layout.side + k] for k in range(layout.side)]
        across = {round((x - mx) * -(y1 - y0) + (y - my) * (x1 - x0)) for x, y in arm}  # distance across the arm
        assert len(across) == 3


def _position(tmp_path, spec: str, pawns: dict, card: str = "4"):
    game = load_game(spec, ())
    data = {"players": list(game.colours), "turn": game.colours[0], "card": card, "pawns": pawns}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return game, parse_position(game, data).state, path


def test_render_draws_each_of_several_pawns_on_a_square_apart_inside_it(tmp_path):
    pawns = {"red": ["track:8", "track:8", "track:10", "start"], "green": ["track:3", "start", "start", "start"],
             "yellow": ["track:3", "track:3", "start", "start"]}
    game, state, path = _position(tmp_path, "ludo", pawns)
    result = CliRunner().invoke(main, ["render", "--variant", "ludo", "--state", str(path)])
    assert result.exit_code == 0, result.output
    root = svg_root(result.stdout)
    _check_svg(game, state, result.stdout)
    geo = geometry.build(game.layout)
    on = {}
    for el in with_class(root, "pawn"):
        on.setdefault(int(el.get("data-square")), []).append(el)
    for sq, count in ((8, 2), (3, 3), (10, 1)):
        spots = {(float(el.get("cx")), float(el.get("cy"))) for el in on[sq]}
        assert len(spots) == count, "pawns drawn on top of each other"
        x, y = geo.at[sq]
        for el in on[sq]:
            r = float(el.get("r"))
            assert abs(float(el.get("cx")) - x) + r <= geo.cell * 0.75 and abs(float(el.get("cy")) - y) + r <= geo.cell * 0.75
        assert sorted(el.get("data-name") for el in on[sq]) == sorted(
            {8: ["R", "R"], 3: ["G", "Y", "Y"], 10: ["R"]}[sq])  # a position file's pawns have no numbers


def test_the_replay_page_knows_how_to_draw_several_pawns_on_a_square():
    game = load_game("ludo", ())
    _, board = replaypage.track_board(game)
    ring, safety_ring, size, track = board["crowd"]
    assert float(ring) > 0 and float(safety_ring) > 0 and 0 < size < 1 and track == game.layout.T
    assert "B.crowd" in replaypage.SCRIPT


def test_the_play_screen_counts_several_pawns_on_a_square_names_them_and_shows_named_squares(tmp_path):
    pawns = {"red": ["track:8", "track:8", "track:10", "start"], "green": ["track:3", "start", "start", "start"],
             "yellow": ["track:3", "start", "start", "start"]}
    game, state, _ = _position(tmp_path, "ludo", pawns)
    names = PawnNames.start(game, state.placement, screen.colour_labels(game.colours))
    scene = screen.state_scene(game, state, "ludo", ["you", "bot", "bot", "bot"], names=names)
    board = "\n".join(line.plain for line in screen.render_board(scene))
    panel = [line.plain for line in screen.render_panel(scene, 24, 40)]
    assert board.count("2R") == 1 and board.count("2+") == 1 and board.count("R3") == 1
    assert "Together: track:3 G1 Y1; track:8 R1 R2" in panel
    stars = {sq for sq, _ in game.layout.named["star"]}
    starts = {sq for sq, _ in game.layout.named["start_square"]}
    assert board.count("*") == len(stars - {3}) and board.count("o") == len(starts - {8})
    assert "'*' star" in screen.help_text(game) and "'2R'" in screen.help_text(game)
    # LU10: what a star does, from the board's tables, in the help
    assert "'*' star (no capture there; colours may share it)" in " ".join(screen.help_text(game).split())
    parcheesi = " ".join(screen.help_text(load_game("parcheesi")).split())  # PA21: only a pawn coming out captures there
    assert "'e' entry space (captures there only by enter; colours may share it)" in parcheesi
