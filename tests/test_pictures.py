"""Pictures (sorry_rules.pictures): board SVGs of every bundled rule file, the replay page,
the simulation plots, the `render`, `replay --html` and `--plot` commands, and the pictures
in docs/pictures/ (issue 15).

Every SVG is parsed with xml.etree and every page with html.parser; the tests count the
marked elements (classes and data- attributes, see each module's docstring) against the
engine: squares and cells of the layout, pawns and chips where the state puts them, one
line per sequence made, every move of a replayed game in the page.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sorry_rules.cli.app import main
from sorry_rules.compiler.build import load_game
from sorry_rules.engine.rng import Random
from sorry_rules.pictures import boards, gridboard, plots, replaypage, trackboard
from sorry_rules.pictures.paths import move_paths
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.files import read_record, write_record
from sorry_rules.records.gamelog import new_log
from tests.pictures_util import (Page, assert_self_contained_page, assert_self_contained_svg, placements_of, svg_root,
                                 with_class)

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "variants").rglob("*.yaml"))
TEST_RULES = ["tests/rules/six-colours.yaml", "tests/rules/short-sides.yaml", "tests/rules/hand-teams.yaml"]


def _is_grid(game) -> bool:
    return getattr(game, "grid", None) is not None


def _played(game, seed: int, plies: int):
    """A seeded game between random players, `plies` moves in (or over)."""
    if _is_grid(game):
        state = game.new_game(seed, players=game.players_min)
        choosers = [Random(seed, s) for s in range(len(state.seats))]
        while not state.over and state.plies < plies:
            moves = game.legal_moves(state)
            state = game.apply(state, moves[choosers[state.turn].below(len(moves))])
        return state
    state = game.new_game(seed, players=game.players_max)
    return play_game(game, state, [make_player("random", seed, s) for s in range(len(state.seats))], max_plies=plies)


def _pawns_drawn(root) -> Counter:
    return Counter((el.get("data-colour"), int(el.get("data-square"))) for el in with_class(root, "pawn"))


def _pawns_of(game, placement) -> Counter:
    return Counter((game.colours[c], sq) for c, squares in enumerate(placement) for sq in squares)


def _check_track(game, state, text: str) -> None:
    layout = game.layout
    root = svg_root(text)
    assert_self_contained_svg(text)
    assert sorted(int(el.get("data-square")) for el in with_class(root, "track")) == list(range(layout.T))
    safety = with_class(root, "safety")
    assert sorted(int(el.get("data-square")) for el in safety) == list(range(layout.T, layout.X))
    for el in safety:
        assert el.get("data-colour") == game.colours[layout.colour_of_square(int(el.get("data-square")))]
    assert sorted(int(el.get("data-square")) for el in with_class(root, "home")) == list(layout.home)
    assert sorted(int(el.get("data-square")) for el in with_class(root, "start")) == list(layout.start)
    assert len(with_class(root, "start-exit")) == layout.C
    slides = [info for info in layout.slide_at if info is not None]
    drawn = with_class(root, "slide")
    assert sorted((int(g.get("data-from")), int(g.get("data-to"))) for g in drawn) == sorted((i.triangle, i.end) for i in slides)
    assert len(with_class(root, "slide-start")) == len(with_class(root, "slide-end")) == len(slides)
    assert _pawns_drawn(root) == _pawns_of(game, state.placement)
    for el in with_class(root, "count"):
        sq = int(el.get("data-square"))
        owner = layout.colour_of_square(sq)
        assert int(el.text) == int(el.get("data-value")) == state.placement[owner].count(sq)
    if game.counters:
        seated = set(state.seats)
        assert len(with_class(root, "counter")) == len(game.counters) * len(seated)
        for el in with_class(root, "counter"):
            c = game.colours.index(el.get("data-colour"))
            k = [name for name, _, _ in game.counters].index(el.get("data-name"))
            assert int(el.get("data-value")) == state.counters[c][k]


def _check_grid(game, state, text: str) -> None:
    grid = game.grid
    root = svg_root(text)
    assert_self_contained_svg(text)
    cells = with_class(root, "cell")
    assert len(cells) == grid.size
    assert sorted(el.get("data-cell") for el in with_class(root, "free")) == sorted(grid.cell_names[i] for i in grid.free)
    for el in cells:
        assert el.get("data-card") == grid.card_of[grid.parse(0, el.get("data-cell"))]
    chips = Counter((el.get("data-colour"), grid.parse(0, el.get("data-cell"))) for el in with_class(root, "chip"))
    assert chips == _pawns_of(game, state.placement)
    lines = Counter(el.get("data-colour") for el in with_class(root, "sequence"))
    assert lines == Counter({game.colours[c]: grid.sequences(chips_of) for c, chips_of in enumerate(state.placement)
                             if grid.sequences(chips_of)})


@functools.lru_cache(maxsize=None)
def _game(spec):
    """The game of a rule file, loaded once per test process for the tests that only draw it
    and play copies of its states (every rule file's board and replay page)."""
    return load_game(spec, ())


@pytest.mark.parametrize("spec", BUNDLED + TEST_RULES)
def test_the_board_of_every_rule_file_shows_every_square_and_piece(spec):
    game = _game(spec)
    for state in (game.new_game(1, players=game.players_max if not _is_grid(game) else game.players_min), _played(game, 3, 120)):
        if _is_grid(game):
            _check_grid(game, state, gridboard.board_svg(game, state))
        else:
            _check_track(game, state, trackboard.board_svg(game, state))


GAMES_FOR_PROPERTIES = {spec: load_game(spec, ()) for spec in ("standard", "tests/rules/six-colours.yaml",
                                                                 "tests/rules/short-sides.yaml")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), spec=st.sampled_from(sorted(GAMES_FOR_PROPERTIES)))
def test_any_placement_is_drawn_pawn_for_pawn(data, spec):
    game = GAMES_FOR_PROPERTIES[spec]
    layout = game.layout
    taken: set = set()
    placement = []
    for c in range(layout.C):
        own = [*range(layout.T), *range(layout.T + c * layout.L, layout.T + (c + 1) * layout.L)]
        squares = []
        for _ in range(game.pawns):
            sq = data.draw(st.sampled_from([*own, layout.home[c], layout.start[c]]))
            if sq < layout.X and sq in taken:
                sq = layout.start[c]
            taken.add(sq)
            squares.append(sq)
        placement.append(tuple(sorted(squares)))
    state = game.position(tuple(placement), tuple(range(layout.C)), 0, card=0)
    _check_track(game, state, trackboard.board_svg(game, state))


def test_marks_on_pawns_are_drawn_when_the_game_and_state_have_them(tmp_path):
    """H31 (freeze): a position file's frozen pawn is drawn marked, on its square, with the
    legend naming it; the same position without marks draws no mark."""
    position = {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5",
                "pawns": {"red": ["track:10", "start", "start", "start"], "blue": ["track:20", "start", "start", "start"]},
                "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": "red"}]}}
    path = tmp_path / "frozen.json"
    path.write_text(json.dumps(position))
    result = CliRunner().invoke(main, ["render", "--rule", "house/freeze.yaml", "--state", str(path)])
    assert result.exit_code == 0, result.output
    root = svg_root(result.stdout)
    assert [(el.get("data-kind"), el.get("data-colour"), el.get("data-square")) for el in with_class(root, "mark")] == [
        ("frozen", "blue", "20")]
    assert [el.get("data-count") for el in with_class(root, "marks")] == ["1"]
    del position["marks"]
    path.write_text(json.dumps(position))
    plain = CliRunner().invoke(main, ["render", "--rule", "house/freeze.yaml", "--state", str(path)])
    assert plain.exit_code == 0 and not with_class(svg_root(plain.stdout), "mark")


def test_a_grid_game_played_to_its_end_draws_a_line_through_each_sequence():
    game = load_game("sequence", ())
    state = _played(game, 5, 2000)
    assert state.over and any(game.grid.sequences(chips) for chips in state.placement)
    _check_grid(game, state, gridboard.board_svg(game, state))


@pytest.mark.parametrize("colours", [2, 3, 5, 12])
def test_invented_boards_of_other_colour_counts_draw_with_no_code_of_their_own(tmp_path, colours):
    names = [f"colour{i}" for i in range(colours)]
    path = tmp_path / f"c{colours}.yaml"
    path.write_text(f"extends: standard\nname: invented\ncolours: [{', '.join(names)}]\nplayers: {{min: 2, max: {colours}}}\n")
    game = load_game(str(path), ())
    state = _played(game, 2, 150)
    _check_track(game, state, trackboard.board_svg(game, state))
    _check_geometry(game, str(path))


def _check_geometry(game, spec: str) -> None:
    from sorry_rules.pictures import geometry

    geo = geometry.build(game.layout)
    assert set(geo.at) == set(range(game.layout.size))
    points = list(geo.at.values())
    assert all(0 < x < geo.width and 0 < y < geo.height for x, y in points)
    close = [(a, b) for i, a in enumerate(points) for b in points[i + 1:]
             if (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 < (geo.step * 0.99) ** 2]
    assert not close, f"{spec}: squares drawn on top of each other"


def test_board_geometry_keeps_every_square_inside_the_picture_and_apart():
    for spec in ("standard", "tests/rules/six-colours.yaml", "tests/rules/short-sides.yaml"):
        _check_geometry(load_game(spec, ()), spec)


def test_the_same_game_draws_the_same_bytes():
    for spec in ("standard", "tests/rules/six-colours.yaml", "variants/grid/mini-grid.yaml"):
        first = boards.board_svg(load_game(spec, ()))
        assert boards.board_svg(load_game(spec, ())) == first


# ---- sorry-play render ----------------------------------------------------------------------------
def test_render_draws_the_pawns_of_a_position_file(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"players": ["red", "blue"], "turn": "red", "card": "7",
                                    "pawns": {"red": ["start", "track:12", "safety:2", "home"], "blue": ["track:16"]}}))
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(main, ["render", "--variant", "standard", "--state", str(position), "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = svg_root(out.read_text())
    at = Counter((el.get("data-colour"), el.get("data-at")) for el in with_class(root, "pawn"))
    assert at == Counter({("red", "start"): 1, ("red", "track:12"): 1, ("red", "safety:2"): 1, ("red", "home"): 1,
                          ("blue", "track:16"): 1, ("blue", "start"): 3})
    assert [el.text for el in with_class(root, "card")] == ["card: 7"]
    stdout = CliRunner().invoke(main, ["render", "--variant", "standard", "--state", str(position)])
    assert stdout.exit_code == 0 and stdout.output == out.read_text()


def test_render_draws_the_chips_of_a_grid_position_file(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"players": ["amber", "teal"], "hand": ["c1"],
                                    "chips": {"amber": ["bx", "cx", "dx", "ex"], "teal": ["by"]}}))
    result = CliRunner().invoke(main, ["render", "--variant", "variants/grid/mini-grid.yaml", "--state", str(position)])
    assert result.exit_code == 0, result.output
    root = svg_root(result.output)
    assert sorted((el.get("data-colour"), el.get("data-cell")) for el in with_class(root, "chip")) == [
        ("amber", "bx"), ("amber", "cx"), ("amber", "dx"), ("amber", "ex"), ("teal", "by")]
    assert [el.get("data-colour") for el in with_class(root, "sequence")] == ["amber"]
    # drawn in its colour's own fill (on a dark casing), so two sides' lines are told apart
    amber = next(el.get("fill") for el in with_class(root, "chip") if el.get("data-colour") == "amber")
    assert [el.get("stroke") for el in with_class(root, "sequence")] == [amber]
    assert [el.text for el in with_class(root, "card")] == ["hand: c1"]


def test_render_reports_a_bad_position_file_and_an_unwritable_output(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text('{"players": ["red"], "pawns": {"red": ["track:99"]}}')
    result = CliRunner().invoke(main, ["render", "--state", str(position)])
    assert result.exit_code == 1 and "track:99" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["render", "-o", str(tmp_path / "no" / "such" / "folder" / "x.svg")])
    assert result.exit_code == 1 and "cannot write" in result.output


# ---- the replay page --------------------------------------------------------------------------------
def _recorded_game(tmp_path, spec="standard", seed=7, players=4, bot="greedy"):
    game = load_game(spec, ())
    start = game.new_game(seed, players=players)
    kept = GameRecord(seed, start.seats, start.turn)
    moves = []
    final = play_game(game, start, [make_player(bot, seed, s) for s in range(players)], record=kept,
                      on_turn=lambda turn, after: moves.append((turn, after)))
    path = tmp_path / "game.json"
    write_record(path, new_log(game, spec, (), seed, start, kept.choices, final))
    return game, start, moves, path


def _check_page(game, start, moves, text: str) -> list:
    page = Page(text)
    assert_self_contained_page(text, page)
    steps = page.json("steps-data")
    assert len(steps) == len(moves) + 1
    placements = placements_of(steps, len(game.colours))
    names = PawnNames.start(game, start.placement, trackboard.labels_of(game.colours), start.marks)
    assert placements[0] == names.where
    for step, placement, (turn, after) in zip(steps[1:], placements[1:], moves):
        # each colour's squares in its pawns' name order: the placement, pawn by pawn
        assert step["t"] == names.describe(turn.move)
        names = names.after(turn.move, after.placement, after.marks)
        assert placement == names.where and [sorted(p) for p in placement] == [sorted(p) for p in after.placement]
        assert [tuple(h) for h in step.get("h", [])] == [(c, list(squares)) for c, squares in move_paths(game, turn.move)]
    return steps


def test_replay_html_holds_every_move_of_a_saved_game(tmp_path):
    game, start, moves, path = _recorded_game(tmp_path)
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["replay", str(path), "--html", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    _check_page(game, start, moves, text)
    board = Page(text).json("board-data")
    assert set(map(int, board["squares"])) == set(range(game.layout.X))
    assert set(map(int, board["piles"])) == set(game.layout.start + game.layout.home)
    again = tmp_path / "again.html"
    CliRunner().invoke(main, ["replay", str(path), "--html", str(again)])
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("spec", BUNDLED)
def test_the_replay_page_of_every_rule_file_holds_every_move(spec):
    from sorry_rules.authoring.gridoracle import describe_grid_move

    game = _game(spec)
    if _is_grid(game):
        start = state = game.new_game(4, players=game.players_min)
        choosers = [Random(4, s) for s in range(len(state.seats))]
        moves = []
        while not state.over and state.plies < 80:
            legal = game.legal_moves(state)
            move = legal[choosers[state.turn].below(len(legal))]
            colour = state.seats[state.turn]
            state = game.apply(state, move)
            moves.append((colour, move, state))
        text = replaypage.page(game, replaypage.grid_frames(game, start, moves, describe_grid_move), spec)
        page = Page(text)
        assert_self_contained_page(text, page)
        steps = page.json("steps-data")
        assert placements_of(steps, game.grid.C) == [start.placement] + [after.placement for _, _, after in moves]
        # the page says who moved ("Blue"), then the move without its colour
        assert [f"{game.colours[c]} {step['t']}" for step, (c, _, _) in zip(steps[1:], moves)] == \
            [describe_grid_move(game, c, m) for c, m, _ in moves]
        return
    start = game.new_game(4, players=game.players_max)
    moves = []
    play_game(game, start, [make_player("random", 4, s) for s in range(len(start.seats))], max_plies=80,
              on_turn=lambda turn, after: moves.append((turn, after)))
    _check_page(game, start, moves, replaypage.page(game, replaypage.track_frames(game, start, moves), spec))


def test_replay_html_reports_a_damaged_record_and_clashing_options(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sorry-rules-game", "version": 2')
    result = CliRunner().invoke(main, ["replay", str(bad), "--html", str(tmp_path / "out.html")])
    assert result.exit_code == 1 and "damaged or truncated" in result.output and not (tmp_path / "out.html").exists()
    result = CliRunner().invoke(main, ["replay", str(bad), "--html", str(tmp_path / "out.html"), "--boards"])
    assert result.exit_code == 2 and "--boards" in result.output


def test_the_replay_page_of_a_long_game_stays_under_a_megabyte(tmp_path):
    game, start, moves, path = _recorded_game(tmp_path, seed=1, players=4, bot="random")
    assert len(moves) > 500
    text = replaypage.record_page(read_record(path))
    _check_page(game, start, moves, text)
    assert len(text.encode()) < 1_000_000


def test_the_replay_page_shows_counters_and_scores_where_the_variant_has_them(tmp_path):
    game = load_game("standard", ("house/bump-points.yaml",))
    state = _played(game, 4, 200)
    facts = [text for _, text in replaypage.track_frames(game, state, [])[0].facts]
    label = game.counters[0][2] or game.counters[0][0]
    assert any(text.startswith(f"{label}: ") for text in facts) and any(text.startswith("points: ") for text in facts)


def test_a_grid_game_fits_the_same_page():
    from sorry_rules.authoring.gridoracle import describe_grid_move

    game = load_game("variants/grid/mini-grid.yaml", ())
    start = state = game.new_game(2, players=3)
    choosers = [Random(2, s) for s in range(3)]
    moves = []
    while not state.over:
        legal = game.legal_moves(state)
        move = legal[choosers[state.turn].below(len(legal))]
        colour = state.seats[state.turn]
        state = game.apply(state, move)
        moves.append((colour, move, state))
    text = replaypage.page(game, replaypage.grid_frames(game, start, moves, describe_grid_move), "mini-grid")
    page = Page(text)
    assert_self_contained_page(text, page)
    steps = page.json("steps-data")
    assert len(steps) == len(moves) + 1
    lines: list = []
    for step, placement, (colour, move, after) in zip(steps[1:], placements_of(steps, game.grid.C)[1:], moves):
        assert placement == after.placement and f"{game.colours[colour]} {step['t']}" == describe_grid_move(game, colour, move)
        lines = step.get("l", lines)
        assert len(lines) == sum(game.grid.sequences(chips) for chips in after.placement)
    assert lines, "the game made no sequence: choose another seed"


def test_rule_file_text_cannot_break_out_of_the_page():
    game = load_game("standard", ())
    frames = [replaypage.Frame(game.new_game(1, players=2).placement, "</script><script>alert(1)</script>", "x&y", "<b>")]
    text = replaypage.page(game, frames, "<i>title</i>", "a & b")
    page = Page(text)
    assert [attrs for attrs, _ in page.scripts] == [{"type": "application/json", "id": "board-data"},
                                                    {"type": "application/json", "id": "steps-data"}, {}]
    assert page.json("steps-data")[0]["t"] == "</script><script>alert(1)</script>"
    assert "<i>" not in text


# ---- plots ----------------------------------------------------------------------------------------
def _plot(tmp_path, *args):
    out = tmp_path / "plot.svg"
    result = CliRunner().invoke(main, [*args, "--games", "30", "--jobs", "1", "--format", "json", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert_self_contained_svg(text)
    return json.loads(result.output), svg_root(text), text


def test_simulate_plot_shows_lengths_and_win_rates_with_intervals(tmp_path):
    report, root, text = _plot(tmp_path, "simulate", "--players", "3")
    bars = with_class(root, "bar")
    assert sum(int(b.get("data-games")) for b in bars) == report["finished"]
    counts = {int(k): v for k, v in report["length"]["turns_counts"].items()}
    for b in bars:
        lo, hi = int(b.get("data-from")), int(b.get("data-to"))
        assert int(b.get("data-games")) == sum(n for v, n in counts.items() if lo <= v <= hi)
    rates = with_class(root, "rate")
    assert [int(r.get("data-seat")) for r in rates] == [1, 2, 3]
    for r, ci, row in zip(rates, with_class(root, "ci"), report["wins"]["by_seat"]):
        assert float(ci.get("data-low")) <= float(r.get("data-rate")) <= float(ci.get("data-high"))
        assert float(r.get("data-rate")) == pytest.approx(100 * row["rate"], abs=0.01)
    again = _plot(tmp_path, "simulate", "--players", "3")[2]
    assert again == text


def test_compare_plot_puts_both_sides_side_by_side(tmp_path):
    report, root, _ = _plot(tmp_path, "compare", "standard", "standard+house/quick-game.yaml", "--players", "2")
    for side in ("a", "b"):
        assert [r.get("data-seat") for r in with_class(root, "rate") if r.get("data-side") == side] == ["1", "2"]
        bars = [b for b in with_class(root, "bar") if b.get("data-side") == side]
        assert sum(int(b.get("data-games")) for b in bars) == report[side]["finished"]


def test_plots_of_reports_without_finished_games_still_draw():
    report = {"variant": {"name": "x", "rules": []}, "games": 2, "players": 2, "bots": ["random"], "seed": 1,
              "length": {"turns_counts": {}},
              "wins": {"by_seat": [{"seat": 1, "colour": "red", "rate": 0.0, "ci95": [0.0, 0.84]},
                                   {"seat": 2, "colour": "blue", "rate": 0.0, "ci95": [0.0, 0.84]}]}}
    root = svg_root(plots.simulation_svg(report))
    assert not with_class(root, "bar") and len(with_class(root, "rate")) == 2


# ---- the pictures in docs/ ---------------------------------------------------------------------------
def test_the_pictures_in_docs_are_what_the_script_draws_now():
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "tools" / "make_pictures.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    drawn = tool.pictures()
    committed = {p.name for p in (ROOT / "docs" / "pictures").iterdir()}
    assert committed == set(drawn), "docs/pictures/ holds other files than the script draws"
    for name, text in drawn.items():
        assert (ROOT / "docs" / "pictures" / name).read_text(encoding="utf-8") == text, \
            f"docs/pictures/{name} is out of date: run python tools/make_pictures.py"


@pytest.mark.parametrize("spec", ["sequence", "variants/grid/mini-grid.yaml"])
def test_replay_html_of_a_saved_grid_game_holds_every_move(tmp_path, spec):
    """A grid game saved by `--auto --save` (S1-S14 played by bots) becomes a replay page with
    one step per move: the chips after each step are those of the replayed game."""
    from sorry_rules.authoring.gridoracle import describe_grid_move
    from sorry_rules.records.restore import restore

    save = tmp_path / "grid.json"
    result = CliRunner().invoke(main, ["--variant", spec, "--auto", "--seed", "5", "--players", "2", "--save", str(save)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "grid.html"
    result = CliRunner().invoke(main, ["replay", str(save), "--html", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    page = Page(text)
    assert_self_contained_page(text, page)
    steps = page.json("steps-data")
    record = read_record(save)
    played = []
    game, final = restore(record, on_turn=lambda turn, after: played.append((turn, after)))
    assert len(steps) == len(record.choices) + 1 == len(played) + 1
    assert placements_of(steps, game.grid.C)[1:] == [after.placement for _, after in played]
    assert [f"{game.colours[final.seats[turn.seat]]} {step['t']}" for step, (turn, _) in zip(steps[1:], played)] == \
        [describe_grid_move(game, final.seats[turn.seat], turn.move) for turn, _ in played]


def test_the_end_of_a_game_as_pictures_say_it(tmp_path):
    """T8: a team wins together, and the replay page says both colours (as `replay` and the
    picture do); P7: a won game's picture shows the final scores, the winner's bonus
    included; a dice game's page names its throw 'Throw'."""
    partnership = tmp_path / "partners.json"
    assert CliRunner().invoke(main, ["--variant", "partnership", "--auto", "--seed", "3", "--save",
                                     str(partnership)]).exit_code == 0
    page = replaypage.record_page(read_record(partnership), source=str(partnership))
    assert " and " in page.split("win after")[0].rsplit(">", 1)[-1] and " win after " in page
    points = load_game("points")
    state = points.new_game(3, players=3)
    final = play_game(points, state, [make_player("random", 3, seat) for seat in range(3)])
    totals = {seat: total for seat, (total, _) in points.outcome(final).scores.items()}
    assert points.standing(final) == totals and totals[final.winner] > 5 * points.pawns
    assert f"points: {totals[final.winner]}" in trackboard.board_svg(points, final)
    ludo = tmp_path / "ludo.json"
    assert CliRunner().invoke(main, ["--variant", "ludo", "--auto", "--seed", "1", "--players", "2", "--max-plies", "30",
                                     "--save", str(ludo)]).exit_code == 0
    assert '"noun":"Throw"' in replaypage.record_page(read_record(ludo), source=str(ludo))


def test_a_comparison_plot_names_the_house_rules_of_each_side():
    """A comparison of standard with and without a house rule is not titled 'standard and
    standard'."""
    side = {"variant": {"name": "standard", "rules": []}, "games": 0, "players": 2, "bots": ["random"], "seed": 1}
    ruled = {**side, "variant": {"name": "standard", "rules": ["house/quick-game.yaml"]}}
    assert plots._named(side) == "standard" and plots._named(ruled) == "standard + house/quick-game.yaml"
