"""Jumps: slides that pass over the squares between and land on their end as the move would
(`board.slides.*.sweep: end`, Trouble's warp spaces, TR15-TR20), in every front end: the move
says the pawn jumps, `--why` names the jump whose landing is stopped, `explain` says what a
jump does, the play screen draws its start as '~' and explains it, pictures draw it dashed
across the board, and `validate` refuses a jump of a lap or more while it lets a jump end on
another's start (the rule moves themselves are the scenarios of
tests/scenarios/trouble/warp.yaml)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.cli import boardmap
from sorry_rules.cli.screen import help_text
from sorry_rules.compiler import load_game
from sorry_rules.rules.yamlsafe import load_yaml

WARP = ["--variant", "trouble", "--rule", "trouble/warp.yaml"]


def _moves(tmp_path, pawns: str) -> str:
    position = tmp_path / "position.yaml"
    position.write_text(f"players: [red, green]\nturn: red\ncard: \"3\"\npawns:\n{pawns}", encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", *WARP, "--state", str(position), "--why"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_move_says_its_pawn_jumps_and_why_names_a_held_jump(tmp_path):
    """TR18: the landing sends the green peg on 4 home, then the jump; TR19: a red peg on the
    far warp space holds the jump."""
    out = _moves(tmp_path, "  red: [track:1, start, start, start]\n  green: [track:4]\n")
    assert "Red pawn track:1 -> track:4, bumps Green (track:4), jumps to track:18" in out
    out = _moves(tmp_path, "  red: [track:1, track:18, start, start]\n")
    assert "red pawn track:1: forward 3: the jump from track:4 leads to track:18: own pawn on track:18" in out


def test_explain_says_what_a_jump_does():
    result = CliRunner().invoke(main, ["explain", *WARP])
    text = " ".join(result.stdout.split())
    assert "Jumps from offset 4 to 18 of every side (counted on from the first square's side): a pawn that ends its " \
           "move on a jump's first square" in text
    assert "jumps over the squares between to its last, ending there as the move that took it to the first square " \
           "would have" in text
    assert "The jump from 4 to 18 is taken by the side's own colour's, its partners' and its opponents' pawns" in text
    assert "Slides from offset" not in text


def test_the_screen_draws_a_jump_start_as_a_tilde_on_both_ends_and_explains_it():
    game = load_game("trouble", ("trouble/warp.yaml",))
    glyphs = {cell.square: cell.glyph for cell in boardmap.build(game.layout).cells.values() if cell.kind == "track"}
    assert [sq for sq, glyph in sorted(glyphs.items()) if glyph == boardmap.JUMP] == [4, 11, 18, 25]
    assert not set(glyphs.values()) & {">", "v", "<", "^", "="}
    words = " ".join(help_text(game).split())
    assert "'~' is a jump's start: land exactly on any colour's jump start and the pawn jumps over the squares " \
           "between" in words
    assert "a slide's start" not in words
    words = " ".join(help_text(load_game("standard")).split())
    assert "'~'" not in words and "a slide's start" in words


def test_a_picture_draws_each_jump_dashed_from_start_to_end():
    result = CliRunner().invoke(main, ["render", *WARP])
    assert result.exit_code == 0, result.output
    jumps = re.findall(r'<g class="slide jump" data-colour="(\w+)" data-from="(\d+)" data-to="(\d+)">\s*'
                       r'<polyline points="[^"]*"[^>]*stroke-dasharray', result.stdout)
    assert sorted((int(a), int(b)) for _, a, b in jumps) == [(4, 18), (11, 25), (18, 4), (25, 11)]
    plain = CliRunner().invoke(main, ["render"]).stdout
    assert 'class="slide jump"' not in plain and plain.count('class="slide"') == 8


def test_validate_refuses_a_jump_of_a_lap_and_lets_one_end_on_a_start(tmp_path):
    rule = tmp_path / "jumps.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4}\n    - {from: 9, to: 13}\n"
                    "    - {from: 3, to: 61, sweep: end}\n    - {from: 6, to: 66, sweep: end}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(rule)])
    assert "jumps.yaml:7:" in result.stdout and "jump from 6 to 66 is a lap or longer (the track has 60 squares) " \
                                                "[SR505]" in result.stdout
    assert result.stdout.count("[SR5") == 1  # the jump from 3 ends on the next side's 1, a slide start; no SR511


def test_a_jump_lands_as_the_move_would_where_squares_hold_two_pawns(tmp_path):
    """H33 (two own pawns may share a square): a jump back by 3 (`to: from + lap - 3`) from 21
    leads to 18. The pawn that left 18 may jump back beside the own pawn that stays there (a
    move that changes nothing); a pawn from 19 may not, 18 then holding two already (`hold`),
    and `--why` says it at the jump's end."""
    rule = tmp_path / "back.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4}\n    - {from: 9, to: 13}\n"
                    "    - {from: 6, to: 63, sweep: end}\n", encoding="utf-8")

    def moves(card: str, red: str) -> str:
        position = tmp_path / "position.yaml"
        position.write_text(f"players: [red, blue]\nturn: red\ncard: \"{card}\"\npawns:\n  red: [{red}]\n", encoding="utf-8")
        result = CliRunner().invoke(main, ["moves", "-v", str(rule), "-r", "house/blockade.yaml", "--state", str(position),
                                           "--why"])
        assert result.exit_code == 0, result.output
        return result.stdout

    assert "Red pawn track:18 -> track:21, jumps to track:18" in moves("3", "track:18, track:18, start, start")
    out = moves("2", "track:19, track:18, track:18, start")
    assert "track:19 -> track:21" not in out
    assert "red pawn track:19: forward 2: the jump from track:21 leads to track:18: " in out


def test_a_declined_jump_is_said_so(tmp_path):
    """`rules.slide_optional`: a pawn that ends on a jump's start may stay there."""
    position = tmp_path / "position.yaml"
    position.write_text("players: [red, green]\nturn: red\ncard: \"3\"\npawns:\n  red: [track:1, start, start, start]\n",
                        encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", *WARP, "--state", str(position)])
    assert "Red pawn track:1 -> track:4, jumps to track:18" in result.stdout and "does not jump" not in result.stdout
    optional = tmp_path / "optional.yaml"
    optional.write_text("extends: trouble\nrules: {slide_optional: true}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", *WARP, "-r", str(optional), "--state", str(position)])
    assert "Red pawn track:1 -> track:4, does not jump" in result.stdout
    assert "Red pawn track:1 -> track:4, jumps to track:18" in result.stdout


def test_a_jump_start_on_a_named_square_shows_the_jump():
    """TR15 with TR16 and a jump from the Double Trouble spaces (offset 6) to offset 10: the
    screen shows '~' on them, not the named square's 'X', and 'o' on the jump's end."""
    layers = [load_yaml("board:\n  slides:\n    - {from: 4, to: 18, sweep: end, slide_on: [own, partner, opponent]}\n"
                        "    - {from: 6, to: 10, sweep: end}\n", "jump.yaml")]
    game = load_game("trouble", ("trouble/double-trouble.yaml",), layers=layers)
    glyphs = {cell.square: cell.glyph for cell in boardmap.build(game.layout).cells.values() if cell.kind == "track"}
    assert [glyphs[sq] for sq in (4, 6, 10, 13, 18)] == [boardmap.JUMP, boardmap.JUMP, "o", boardmap.JUMP, boardmap.JUMP]


def test_a_jump_ends_as_a_move_on_safe_and_plain_squares(tmp_path):
    """Ludo with a jump from offset 1 of every side: its end lands as a move (LU8, LU10): on a
    star (16, safe) the green token there stays beside the red one; on a plain square (31) it
    goes back to the yard."""
    position = tmp_path / "position.yaml"
    rule = tmp_path / "jump.yaml"
    for end, captured in ((16, False), (31, True)):
        rule.write_text(f"extends: ludo\nboard:\n  slides:\n    - {{from: 1, to: {end}, sweep: end, slide_on: [own, partner, "
                        "opponent]}\n", encoding="utf-8")
        position.write_text(f"players: [red, green]\nturn: red\ncard: \"1\"\npawns:\n  red: [track:0, start, start, start]\n"
                            f"  green: [track:{end}, track:30, start, start]\n", encoding="utf-8")
        report = json.loads(CliRunner().invoke(main, ["moves", "-v", str(rule), "--state", str(position), "--format",
                                                      "json"]).stdout)
        [move] = report["moves"]
        assert move["result"]["red"] == [f"track:{end}", "start", "start", "start"]
        assert move["result"]["green"] == (["track:30", "start", "start", "start"] if captured else
                                           [f"track:{end}", "track:30", "start", "start"])


def test_an_enter_stopped_at_a_jump_end_names_the_jump_not_the_start_exit(tmp_path):
    """A jump from red's start exit (offset 4) to offset 20: a pawn coming out of Start would
    jump onto red's own pawn there; `--why` says so and does not call track:20 the start exit."""
    rule = tmp_path / "exit.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 9, to: 13}\n"
                    "    - {from: 4, to: 20, sweep: end, slide_on: [own, partner, opponent]}\n", encoding="utf-8")
    position = tmp_path / "position.yaml"
    position.write_text("players: [red, blue]\nturn: red\ncard: \"1\"\npawns:\n  red: [start, track:20, home, home]\n",
                        encoding="utf-8")
    out = CliRunner().invoke(main, ["moves", "-v", str(rule), "--state", str(position), "--why"]).stdout
    assert "red pawn start: enter: the jump from track:4 leads to track:20: own pawn on track:20\n" in out


def test_why_names_the_held_jump_a_switch_ends_in(tmp_path):
    """R24 with a jump: red's pawn on 44 may switch only with blue's on 21, a jump's start
    whose end, 25, red's own pawn holds (R16), so the switch is out; --why names that jump as
    it does for a move (it said 'every switch ends in a blocked slide or jump')."""
    rule = tmp_path / "jumps.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4}\n    - {from: 9, to: 13}\n"
                    "    - {from: 6, to: 10, sweep: end}\n", encoding="utf-8")
    position = tmp_path / "position.yaml"
    position.write_text("players: [red, blue]\nturn: red\ncard: \"11\"\npawns:\n"
                        "  red: [track:44, track:55, track:25, home]\n  blue: [track:21]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", "--variant", str(rule), "--state", str(position), "--why"])
    assert result.exit_code == 0, result.output
    assert "    switch opponent: the jump from track:21 leads to track:25: own pawn on track:25\n" in result.stdout
