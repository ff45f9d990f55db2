"""`sorry-play replay FILE --position N`: the position before a move of a saved game, written
as a position file that `moves --state` reads back as the same position, with the same legal
moves (the move played there among them), for every way of taking cards, dice, counters,
marks, finished sides, redraws and grids."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sorry_rules.authoring.gridoracle import grid_moves_report
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.cli.app import main
from sorry_rules.records.files import read_record
from sorry_rules.records.gridposition import GridPosition, parse_grid_position
from sorry_rules.records.position import Position, parse_position, read_position_file
from sorry_rules.records.positionwrite import position_data, position_text
from sorry_rules.records.restore import restore, start_state

# (variant, overlays, players, seed): draw play, teams, hand play, marks (H27), redraws (H26),
# two cards drawn (H25), a die with counters, places (LU24), two dice on squares that hold
# several pawns, jumps, a grid with one side a colour, a grid of teams, extra cards still due (H21)
GAMES = [
    ("standard", (), 4, 1), ("partnership", (), 4, 2), ("points", (), 3, 3),
    ("standard", ("house/mercy-start.yaml",), 3, 4), ("standard", ("house/no-start-no-cry.yaml",), 2, 5),
    ("standard", ("house/draw-two-keep-one.yaml",), 2, 6), ("ludo", (), 4, 7), ("ludo", ("ludo/play-on.yaml",), 3, 8),
    ("parcheesi", (), 2, 9), ("trouble", ("trouble/warp.yaml",), 4, 10), ("sequence", (), 2, 11),
    ("sequence", (), 4, 12), ("standard", ("house/bump-bonus.yaml",), 2, 3),
]


def _saved_game(tmp_path, variant: str, rules: tuple, players: int, seed: int):
    path = tmp_path / "game.json"
    args = ["--auto", "-v", variant, *(w for rule in rules for w in ("-r", rule)), "-p", str(players), "-s", str(seed),
            "--save", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("variant, rules, players, seed", GAMES)
def test_the_position_before_a_move_reads_back_with_the_same_moves(tmp_path, variant, rules, players, seed):
    path = _saved_game(tmp_path, variant, rules, players, seed)
    record = read_record(str(path))
    before: list = []
    game, final = restore(record, on_turn=lambda turn, after: before.append((turn, after)))
    states = [start_state(game, record), *(after for _, after in before)]
    played = [turn.move for turn, _ in before]
    numbers = {1, len(played), *range(1, len(played) + 1, max(1, len(played) // 8))}
    for field in ("redraws", "finished", "marks", "drawn", "counters", "exchanged", "bonus"):  # the first where each is set
        numbers.update(next(([n] for n, st in enumerate(states[:len(played)], 1) if _set(st, field)), []))
    numbers = sorted(numbers)
    for number in numbers:
        state = states[number - 1]
        if game.needs_draw(state):
            state = game.draw(state)
        text = position_text(position_data(game, state))
        if number in numbers[:2]:  # the command prints the same, headed by how to list the moves
            result = CliRunner().invoke(main, ["replay", str(path), "--position", str(number)])
            assert result.exit_code == 0, result.output
            heading = result.output[:len(result.output) - len(text)]
            assert result.output.endswith(text) and "\n# list its moves: " in heading and "--state POSITION.yaml" in heading
        written = tmp_path / f"move{number}.yaml"
        written.write_text(text, encoding="utf-8")
        source = read_position_file(str(written))
        if game.board_kind == "grid":
            position = parse_grid_position(game, source.data, source.origins)
            report = grid_moves_report(game, GridPosition(state, state.hands[state.turn]))
            assert grid_moves_report(game, position) == report, (variant, number)
        else:
            position = parse_position(game, source.data, None, source.origins)
            # what a move leads to (counters, marks, redraws, who plays next) as the game itself has it
            hand = None if state.hands is None else state.hands[state.turn]
            report = moves_report(game, Position(state, state.card, hand, state.drawn))
            assert moves_report(game, position) == report, (variant, rules, number)
        expected = game.legal_moves(state)
        assert game.legal_moves(position.state) == expected, (variant, rules, number)
        # (a winning move is recorded without its extra card: the game ends at once, R35)
        assert played[number - 1]._replace(draw_again=False) in [m._replace(draw_again=False) for m in expected]


def _set(state, field: str) -> bool:
    """Whether `state` has `field` (a position file's optional part) other than at the start."""
    value = getattr(state, field, None)
    if field == "marks":
        return any(value or ())
    if field == "counters":
        return any(any(row) for row in value or ())
    return bool(value)


def test_the_moves_command_lists_them_from_the_printed_file(tmp_path):
    """The heading says how to list the moves; done, they are the moves of that turn."""
    path = _saved_game(tmp_path, "standard", ("house/mercy-start.yaml",), 2, 4)
    text = CliRunner().invoke(main, ["replay", str(path), "--position", "40"]).output
    heading = [line for line in text.splitlines() if line.startswith("# list its moves: ")]
    assert heading == ["# list its moves: sorry-play moves -v standard -r house/mercy-start.yaml --state POSITION.yaml"]
    (tmp_path / "p.yaml").write_text(text, encoding="utf-8")
    listed = CliRunner().invoke(main, ["moves", "-v", "standard", "-r", "house/mercy-start.yaml", "--state",
                                       str(tmp_path / "p.yaml")])
    assert listed.exit_code == 0 and listed.output.splitlines()[0].endswith(":")


def test_a_move_the_game_does_not_have_is_a_clear_error(tmp_path):
    path = _saved_game(tmp_path, "standard", (), 2, 3)
    moves = len(read_record(str(path)).choices)
    for number, words in ((moves + 1, f"has {moves} moves and is over; give 1 to {moves}"),):
        result = CliRunner().invoke(main, ["replay", str(path), "--position", str(number)])
        assert result.exit_code != 0 and words in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["replay", str(path), "--position", "0"])
    assert result.exit_code == 2 and "--position" in result.output
    result = CliRunner().invoke(main, ["replay", str(path), "--position", "3", "--boards"])
    assert result.exit_code != 0 and "leave out --boards" in result.output


def test_an_unfinished_game_gives_the_position_it_stopped_in(tmp_path):
    """One past the last move made: the position the game stopped in (at its move limit)."""
    path = tmp_path / "stopped.json"
    assert CliRunner().invoke(main, ["--auto", "-p", "2", "-s", "5", "--max-plies", "30", "--save", str(path)]).exit_code == 0
    result = CliRunner().invoke(main, ["replay", str(path), "--position", "31"])
    assert result.exit_code == 0 and "the position before move 31" in result.output
    assert "give 1 to 31" in CliRunner().invoke(main, ["replay", str(path), "--position", "32"]).output
