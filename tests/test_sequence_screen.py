"""The play screen of grid boards (`cli.gridscreen`): chips, completed lines, free cells and
card faces on the board, the side panel, the moves in pages of columns, and every screen of
every grid rule file and seat count within 80x24, readable without colour."""

from __future__ import annotations

import io
import re

import pytest
import yaml
from rich.console import Console

from sorry_rules.base.resources import variants_dir
from sorry_rules.cli import gridscreen
from sorry_rules.cli.gridplay import GridSession
from sorry_rules.cli.screen import Scene
from sorry_rules.compiler import load_game
from sorry_rules.engine.game import Move
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import Turn, play_game
from sorry_rules.records.gridposition import parse_grid_position
from sorry_rules.records.savefile import new_save

GRID_FILES = ["sequence"] + [f"grid/{p.name}" for p in sorted((variants_dir() / "grid").glob("*.yaml"))]
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def _print(lines, colour: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=80, color_system="standard" if colour else None, force_terminal=colour,
                      highlight=False)
    for line in lines:
        console.print(line)
    return out.getvalue()


def _position(game, data):
    return parse_grid_position(game, data).state


def _scene(game, state, names=None, hand=True, log=()) -> Scene:
    names = names or tuple("you" if s == state.turn else "random" for s in range(len(state.seats)))
    return Scene(game, state.placement, state.seats, state.turn, state.plies, f"{game.name}, seed 1", names,
                 hand=state.hands[state.turn] if hand else None, pile_size=len(state.pile),
                 discard_size=len(state.discard), log=list(log))


def _cell(text: str, game, name: str) -> str:
    """The characters drawn for cell `name` in the plain text of a board."""
    grid = game.grid
    cell = grid.cell_names.index(name)
    r, c = divmod(cell, grid.width)
    rw, w = max(len(row) for row in grid.rows), gridscreen.cell_width(game)
    line = text.split("\n")[1 + r]
    return line[rw + 1 + c * (w + 1): rw + 1 + c * (w + 1) + w].ljust(w)


@pytest.fixture(scope="module")
def sequence():
    return load_game("sequence")


def test_chips_in_a_completed_line_are_bracketed_others_not(sequence):
    """S10, S11: B2-F6 with the free corner A1 is a line of blue; its chips are drawn [B],
    the lone blue chip and the green chips plainly; empty cells show their card face, free
    cells a star."""
    state = _position(sequence, {"players": ["blue", "green"], "turn": "blue", "hand": ["2S"],
                                 "chips": {"blue": ["B2", "C3", "D4", "E5", "F6", "J5"], "green": ["A2", "C2"]}})
    text = _print(gridscreen.render_board(_scene(sequence, state)))
    for name in ("B2", "C3", "D4", "E5", "F6"):
        assert _cell(text, sequence, name) == "[B]", name
    assert _cell(text, sequence, "J5") == " B "
    assert _cell(text, sequence, "A2") == " G " and _cell(text, sequence, "C2") == " G "
    assert _cell(text, sequence, "A1") == " * " and _cell(text, sequence, "J10") == " * "
    assert _cell(text, sequence, "B1") == "2S " and _cell(text, sequence, "J2") == "TS "
    assert text.split("\n")[0].split() == list("ABCDEFGHIJ")
    assert "\x1b" not in text


def test_colour_only_helps(sequence):
    """With colour the same characters are drawn (and the lines reversed); without, none of
    the escape codes."""
    state = _position(sequence, {"players": ["blue", "green"], "turn": "green", "hand": ["2S"],
                                 "chips": {"blue": ["A2", "A3", "A4", "A5", "A6"], "green": ["J9"]}})
    scene = _scene(sequence, state)
    lines = gridscreen.render_scene(scene, 80)
    coloured, plain = _print(lines, colour=True), _print(lines)
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert ESCAPE.sub("", coloured) == plain
    assert plain.count("[B]") == 5 + 1  # the five chips and the key
    assert "Blue" in plain and "Blue    1 seq" in plain and "Green" in plain


def test_panel_shows_sides_their_seats_and_only_the_own_hand(sequence):
    """S1, S2: four players are two sides; each side's line names its seats and counts."""
    state = sequence.new_game(3, players=4)
    names = ("you", "random", "expert", "random")
    with_hand = _print(gridscreen.render_panel(_scene(sequence, state, names), 11))
    hand = " ".join(sequence.card_names[c] for c in sorted(state.hands[state.turn]))
    assert f"Your hand: {hand}" in with_hand
    colours = list(dict.fromkeys(state.seats))
    assert len([line for line in with_hand.split("\n") if " seq " in line]) == len(colours) == 2
    assert "you, expert" in with_hand and "2 random" in with_hand
    assert "Your hand" not in _print(gridscreen.render_panel(_scene(sequence, state, names, hand=False), 11))


def test_move_labels_name_the_card_and_the_cell(sequence):
    """S7: a card puts a chip on a cell showing it, a one-eyed Jack takes a chip; S12: a dead
    card may be exchanged."""
    state = _position(sequence, {"players": ["blue", "green"], "turn": "blue", "hand": ["QS", "JH", "2C"],
                                 "chips": {"green": ["F5", "E2", "G4"]}})
    blue = state.seats[state.turn]
    labels = [gridscreen.move_label(sequence, m, True, blue) for m in sequence.legal_moves(state)]
    assert "QS on B5" in labels and "JH takes green F5" in labels and "exchange dead 2C" in labels
    move = sequence.legal_moves(state)[labels.index("QS on B5")]
    assert gridscreen.turn_text(sequence, blue, move) == "Blue: QS on B5"
    assert gridscreen.move_label(sequence, move) == "QS blue on B5"


def test_every_page_of_a_two_eyed_jack_hand_fits_80x24_and_numbers_run_on(sequence):
    """S7: a two-eyed Jack gives a move per empty cell: the list comes in pages of columns,
    every move once, numbered over all the pages."""
    state = _position(sequence, {"players": ["blue", "green", "red"], "turn": "blue",
                                 "hand": ["JD", "JC", "JS", "2S", "5H", "QD"], "chips": {"red": ["C3", "D4"]}})
    moves = sequence.legal_moves(state)
    assert len(moves) > 150
    scene = _scene(sequence, state)
    seen, page, pages = [], 0, None
    while pages is None or page < pages:
        turn = gridscreen.render_turn(scene, moves, True, "Blue (you) to play, your hand. Your moves", page, 80, 24)
        pages = turn.pages
        text = _print(turn.lines)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) + 1 <= 24 and all(len(line) <= 80 for line in lines), text
        assert f"Your moves {turn.first + 1}-{turn.first + turn.count} of {len(moves)}:" in text
        seen += [int(n) for n in re.findall(r"(?:^|  )\s*(\d+)\. ", "\n".join(lines[len(lines) - 20:]), re.M)
                 if turn.first < int(n) <= turn.first + turn.count]
        page += 1
    assert pages > 1
    assert sorted(seen) == list(range(1, len(moves) + 1))


@pytest.mark.parametrize("spec", GRID_FILES)
def test_every_grid_rule_file_and_seat_count_fits_80x24(spec):
    """For each seating (S1), the turn screen after some random moves and the end screen."""
    game = load_game(spec)
    for players in sorted(game.seating):
        state = game.new_game(5, players=players)
        log = []
        state = play_game(game, state, [RandomPlayer(5, s) for s in range(players)], max_plies=25,
                          on_turn=lambda turn, s: log.append(gridscreen.turn_text(game, s.seats[turn.seat], turn.move)))
        moves = game.legal_moves(state)
        if not moves:
            continue
        names = tuple("you" if s == 0 else "greedy" for s in range(players))
        turn = gridscreen.render_turn(_scene(game, state, names, log=log), moves, True, "Your moves", 0, 80, 24)
        lines = _print(turn.lines).rstrip("\n").split("\n")
        assert len(lines) + 1 <= 24 and all(len(line) <= 80 for line in lines), (spec, players)
        end = gridscreen.render_scene(gridscreen.state_scene(game, state, "end", names, log), 80)
        end += gridscreen.render_outcome(game, state, 80)
        lines = _print(end).rstrip("\n").split("\n")
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), (spec, players)


def test_outcome_says_who_won_a_draw_or_a_stop(sequence):
    """S13 a win; S9 everyone passed: a draw; else stopped at the move limit."""
    state = sequence.new_game(1, players=4)
    assert gridscreen.render_outcome(sequence, state)[0].plain == "No winner after 0 moves (stopped)."
    drawn = state._replace(over=True, plies=9)
    assert "every player passed for a whole round (a draw)" in gridscreen.render_outcome(sequence, drawn)[0].plain
    won = state._replace(winner=1, over=True, plies=40)
    name = sequence.colours[state.seats[1]].capitalize()
    assert gridscreen.render_outcome(sequence, won)[0].plain == f"{name} wins after 40 moves (seats 2, 4)."
    assert gridscreen.render_outcome(sequence, won)[1].plain.startswith("Sequences: ")


def test_help_fits_the_screen():
    lines = gridscreen.HELP.split("\n")
    assert len(lines) <= 20 and all(len(line) <= 80 for line in lines)
    assert "n  next page" in gridscreen.HELP and "a letter in\nbrackets is a chip in a completed line" in gridscreen.HELP


def test_a_cell_name_chooses_the_one_move_that_uses_it(sequence):
    """A cell typed at the prompt: the one move using it, or the numbers of the several."""
    state = _position(sequence, {"players": ["blue", "green"], "turn": "blue", "hand": ["QS", "JD", "JH"],
                                 "chips": {"green": ["F5"]}})
    moves = sequence.legal_moves(state)
    session = GridSession.__new__(GridSession)
    session.game = sequence
    b5 = [i for i, m in enumerate(moves) if sequence.grid.name(m.events[0][2]) == "B5"]
    assert len(b5) == 2                                                # QS and the two-eyed Jack
    assert session.named_move("b5", moves) == f"Several moves use B5: {b5[0] + 1}, {b5[1] + 1}; type the number of one."
    f5 = session.named_move("f5", moves)                               # only the one-eyed Jack takes it
    assert isinstance(f5, int) and moves[f5].events[0][0] == "remove"
    assert session.named_move("a1", moves) == "No move puts a chip on A1 or takes one from it."
    assert session.named_move("x", moves) is None


def test_a_renamed_copy_draws_the_same_screen(tmp_path, sequence):
    """Nothing in the screen knows a card, colour, column or row: sequence.yaml with all of
    them renamed, played with the same seed and choices, draws every cell the same way."""
    data = yaml.safe_load((variants_dir() / "sequence.yaml").read_text(encoding="utf-8"))
    cards = {name: f"k{i}" for i, name in enumerate(data["deck"])}
    colours = {"blue": "navy", "green": "olive", "red": "ruby"}
    board = data["board"]
    board["cells"] = [[cards.get(c, c) for c in row] for row in board["cells"]]
    board["columns"] = [f"c{c.lower()}" for c in board["columns"]]
    board["rows"] = [f"_{r}" for r in board["rows"]]
    data["colours"] = [colours[c] for c in data["colours"]]
    data["seating"] = {k: [colours[c] for c in v] for k, v in data["seating"].items()}
    data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
    data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
    path = tmp_path / "renamed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    renamed = load_game(str(path))

    def kinds(game):
        state = game.new_game(13, players=3)
        state = play_game(game, state, [RandomPlayer(13, s) for s in range(3)], max_plies=150)
        text = _print(gridscreen.render_board(_scene(game, state)))
        labels = gridscreen.chip_labels(game.colours)
        assert len(labels[0]) == 1
        out = []
        for name in game.grid.cell_names:
            cell = _cell(text, game, name).strip()
            out.append("line" if cell.startswith("[") else "free" if cell == "*" else
                       "chip" if cell in labels else "face")
        return out

    drawn = kinds(sequence)
    assert drawn == kinds(renamed)
    assert {"line", "chip", "free", "face"} <= set(drawn)


def test_a_person_is_told_of_a_pass_and_of_a_forced_move(sequence):
    """S9: with no card that can be played the person passes without being asked; a single
    possible move is made without asking too; both are said."""
    state = sequence.new_game(2, players=2)
    saved = new_save(sequence, "sequence", (), 2, state, ["human", "bot:random"], 100)
    out = io.StringIO()
    session = GridSession(sequence, saved.kinds, saved, None, console=Console(file=out, width=80, color_system=None))
    colour = state.seats[0]
    passed = Move(None, state.placement, (), False, "pass")
    placed = next(m for m in sequence.legal_moves(state._replace(turn=0)) if m.kind == "place")
    said = [session.tell_move(Turn(1, 0, None, passed, 0, 1), state),
            session.tell_move(Turn(2, 0, placed.card, placed, 0, 1), state),
            session.tell_move(Turn(3, 0, placed.card, placed, 0, 7), state)]
    assert said == [["You have no card that can be played, so the turn passes."],
                    [f"Only one move was possible, so it was played: {gridscreen.move_label(sequence, placed, True, colour)}."],
                    []]
    assert out.getvalue() == ""  # saying is the session's on_turn: shown on a screen of its own (tests/test_interactive.py)


def test_last_moves_say_which_player_of_a_shared_colour_played(sequence):
    """S1: with six players two sit at each colour; the last moves say which of them played
    ('Blue (player 4): ...'), as the prompt names the player to move."""
    state = sequence.new_game(3, players=6)
    assert len(set(state.seats)) == 3
    saved = new_save(sequence, "sequence", (), 3, state, ["human"] + ["bot:random"] * 5, 100)
    session = GridSession(sequence, saved.kinds, saved, None,
                          console=Console(file=io.StringIO(), width=80, color_system=None))
    session.start(state)
    seat = state.turn
    move = sequence.legal_moves(state)[0]
    after = sequence.apply(state, move)
    session.note(Turn(1, seat, move.card, move, 0, 2), after)
    name = gridscreen.colour_name(sequence, state.seats[seat])
    assert session.log[-1].startswith(f"{name} (player {seat + 1}): "), session.log[-1]
