"""Board pictures a new player can read: every track square carries the number the moves
use (track:N outside the track, safety:K inside its zone), pawns carry their names (R1),
`render --game FILE --move N` draws a saved game at any move with that move's path, a saved
game given to `--state` gets one message saying what to use, legend lines never run past
the picture's edge, and a safety entry or start exit on a corner of the square board is drawn
inside the board, clear of both sides' squares."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.compiler.build import load_game
from sorry_rules.pictures import geometry, trackboard
from sorry_rules.pictures.paths import move_paths
from sorry_rules.records.files import read_record
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.position import GAME_FORMATS
from sorry_rules.records.files import READERS
from sorry_rules.records.restore import restore, start_state
from tests.pictures_util import assert_self_contained_svg, svg_root, with_class


def json_text(data) -> str:
    return json.dumps(data, indent=1)


def _saved(tmp_path, *args):
    path = tmp_path / "game.json"
    result = CliRunner().invoke(main, [*args, "--auto", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _render(*args):
    result = CliRunner().invoke(main, ["render", *map(str, args)])
    return result


def test_render_game_draws_a_saved_game_at_any_move(tmp_path):
    path = _saved(tmp_path, "--seed", "7", "--players", "3")
    moves: list = []
    record = read_record(path)
    game, final = restore(record, on_turn=lambda turn, after: moves.append((turn, after)))
    names = PawnNames.start(game, start_state(game, record).placement, trackboard.labels_of(game.colours))
    checked = 0
    for n, (turn, after) in enumerate(moves, 1):
        before, names = names, names.after(turn.move, after.placement, after.marks)
        if n not in (1, 30, len(moves) // 2, len(moves)):
            continue
        result = _render("--game", path, "--move", n)
        assert result.exit_code == 0, result.output
        assert_self_contained_svg(result.output)
        root = svg_root(result.output)
        pawns = {(p.get("data-colour"), int(p.get("data-square")), p.get("data-name")) for p in with_class(root, "pawn")
                 if int(p.get("data-square")) < game.layout.X}
        assert pawns == {(game.colours[c], sq, names.name(c, i)) for c, squares in enumerate(names.where)
                         for i, sq in enumerate(squares) if sq < game.layout.X}
        notes = [t.text for t in with_class(root, "note")]
        assert notes[0] == f"move {n} of {len(moves)}"
        said = " ".join(t.text for t in with_class(root, "note") + with_class(root, "more"))
        assert before.describe(turn.move) in " ".join(said.split())
        stops = {int(c.get("data-square")) for c in with_class(root, "moved")}
        assert stops == {squares[-1] for _, squares in move_paths(game, turn.move)}
        checked += 1
    assert checked == 4
    last = _render("--game", path)
    assert last.output == _render("--game", path, "--move", len(moves)).output
    assert "wins after" in last.output
    start = _render("--game", path, "--move", 0)
    assert start.exit_code == 0 and "the start (" in start.output


def test_render_game_refuses_a_move_the_game_has_not_and_other_rules(tmp_path):
    path = _saved(tmp_path, "--seed", "7", "--players", "2", "--max-plies", "10")
    beyond = _render("--game", path, "--move", 11)
    assert beyond.exit_code == 2 and "the game has 10 moves; --move takes 0 to 10" in beyond.output  # usage, as --position
    clash = _render("--game", path, "--variant", "points")
    assert clash.exit_code == 2 and "leave out --variant" in clash.output
    alone = _render("--move", 3)
    assert alone.exit_code == 2 and "--move goes with --game" in alone.output


def test_a_saved_game_given_as_a_position_says_what_to_use(tmp_path):
    path = _saved(tmp_path, "--seed", "7", "--players", "2", "--max-plies", "10")
    for command in (["render"], ["moves"]):
        result = CliRunner().invoke(main, [*command, "--state", str(path)])
        assert result.exit_code == 1
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"render --game {path} --move N" in lines[0] and "[SR203]" in lines[0]
    assert set(GAME_FORMATS) == {fmt for fmt, _ in READERS}


@pytest.mark.parametrize("spec", ["standard", "six-colours", "three-colours"])
def test_every_square_carries_its_name(spec):
    game = load_game(spec)
    root = svg_root(trackboard.board_svg(game))
    layout = game.layout
    numbers = {int(t.get("data-square")): t.text for t in with_class(root, "square-number")}
    assert {sq: numbers[sq] for sq in range(layout.T)} == {sq: str(sq) for sq in range(layout.T)}
    assert {numbers[sq] for sq in range(layout.T, layout.X)} == {str(k) for k in range(1, layout.L + 1)}


def test_the_legend_of_marks_stays_inside_the_picture(tmp_path):
    position, rules = tmp_path / "marks.json", tmp_path / "many-frozen.yaml"
    rules.write_text("extends: house/freeze.yaml\nmarks:\n  frozen: {one_per_player: false}\n",
                     encoding="utf-8")  # red may freeze eight pawns
    pawns = {"blue": ["track:20", "track:33", "track:41", "track:52"], "yellow": ["track:5", "track:11"],
             "green": ["track:26", "track:38"]}
    marks = [{"colour": colour, "square": square, "by": "red"} for colour, squares in pawns.items() for square in squares]
    position.write_text(json_text({"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "1",
                                   "pawns": pawns, "marks": {"frozen": marks}}), encoding="utf-8")
    result = _render("--variant", rules, "--state", position)
    assert result.exit_code == 0, result.output
    root = svg_root(result.output)
    width = float(root.get("width"))
    said = []
    for element in with_class(root, "marks") + with_class(root, "more"):
        assert float(element.get("x")) + 6.6 * len(element.text) <= width + 1, element.text
        said.append(element.text)
    assert " ".join(said).count("track:") == len(marks)


def test_legend_lines_stay_inside_the_picture():
    game = load_game("standard", ("house/freeze.yaml",))
    long = "frozen: " + ", ".join(f"Blue track:{n}" for n in range(10))
    text = trackboard.board_svg(game, notes=[long])
    root = svg_root(text)
    width = float(root.get("width"))
    for element in with_class(root, "note") + with_class(root, "more"):
        # a line of at most LEGEND_CHARS characters at 12px: about 6.6px a character
        assert float(element.get("x")) + 6.6 * len(element.text) <= width + 1, element.text
    assert " ".join(t.text for t in with_class(root, "note") + with_class(root, "more")) == long


@pytest.mark.parametrize("entry, exit_", [(0, 4), (2, 0), (14, 4), (0, 0)])
def test_a_corner_safety_entry_or_start_exit_is_drawn_clear_of_the_track(tmp_path, entry, exit_):
    path = tmp_path / "corner.yaml"
    path.write_text(f"extends: standard\nname: corner\nboard:\n  side_length: 15\n  start_exit: {exit_}\n"
                    f"  safety_entry: {entry}\n  safety_length: 5\n  slides: []\n", encoding="utf-8")
    game = load_game(str(path))
    layout = game.layout
    geo = geometry.build(layout)
    track = [geo.at[sq] for sq in range(layout.T)]
    for sq in range(layout.T, layout.X):           # safety squares: a cell from every track square
        assert min(math.dist(geo.at[sq], t) for t in track) >= 0.95 * geo.cell, layout.name(sq)
    for sq in (*layout.home, *layout.start):       # Start and Home circles do not cover a track square's centre
        assert min(math.dist(geo.at[sq], t) for t in track) >= geometry.POOL * geo.cell, sq


def test_picture_outputs_never_overwrite_a_file_that_is_no_picture(tmp_path, monkeypatch):
    """`render -o`, `replay --html` and `simulate --plot` replace a picture or page of their
    own (or an empty file), but refuse a saved game, a results file, notes, or an SVG picture or
    HTML page the user made, before doing any work, leaving them as they were; a missing folder or a plot on the results file is refused
    up front too."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["--auto", "--seed", "1", "--players", "2", "--save", "g.json"]).exit_code == 0
    assert runner.invoke(main, ["simulate", "--games", "2", "--out", "r.jsonl"]).exit_code == 0
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><!-- my logo --></svg>\n')
    (tmp_path / "index.html").write_text("<!DOCTYPE html><html><body>my homepage</body></html>\n")
    kept = {name: (tmp_path / name).read_bytes() for name in ("g.json", "r.jsonl", "notes.txt", "logo.svg", "index.html")}
    refused = [["replay", "g.json", "--html", "g.json"], ["simulate", "--games", "2", "--plot", "r.jsonl"],
               ["render", "-o", "notes.txt"], ["compare", "standard", "standard", "--games", "2", "--plot", "g.json"],
               ["render", "-o", "logo.svg"], ["replay", "g.json", "--html", "index.html"]]
    for args in refused:
        result = runner.invoke(main, args)
        assert result.exit_code == 1 and "is not a picture or page sorry-rules wrote" in result.output, (args, result.output)
        assert "games" not in result.output.split("error:")[0].lower() or args[0] == "replay", result.output
    assert {name: (tmp_path / name).read_bytes() for name in kept} == kept
    same = runner.invoke(main, ["simulate", "--games", "2", "--out", "s.jsonl", "--plot", "s.jsonl"])
    assert same.exit_code == 2 and not (tmp_path / "s.jsonl").exists()
    png = runner.invoke(main, ["simulate", "--games", "2", "--plot", "p.png"])  # an SVG is never named otherwise
    assert png.exit_code == 2 and "name the file .svg" in png.output and not (tmp_path / "p.png").exists()
    missing = runner.invoke(main, ["simulate", "--games", "2", "--plot", "nowhere/p.svg"])
    assert missing.exit_code == 1 and "no such folder" in missing.output and "win" not in missing.output
    (tmp_path / "a-file").write_text("notes")
    under_a_file = runner.invoke(main, ["render", "-o", "a-file/p.svg"])
    assert under_a_file.exit_code == 1 and "'a-file' is a file, not a folder" in under_a_file.output
    (tmp_path / "empty.svg").write_text("")
    for _ in range(2):  # a picture of ours is replaced by the next one
        assert runner.invoke(main, ["render", "-o", "empty.svg"]).exit_code == 0
        assert runner.invoke(main, ["replay", "g.json", "--html", "page.html"]).exit_code == 0
        assert runner.invoke(main, ["simulate", "--games", "2", "--plot", "plot.svg"]).exit_code == 0
    assert (tmp_path / "empty.svg").read_text().startswith("<svg")
