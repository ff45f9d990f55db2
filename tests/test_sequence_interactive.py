"""A grid game played at a real pseudo-terminal of 80x24 (pexpect), as tests/test_interactive.py
plays Sorry!: the grid screen, invalid entries, help, hints, paging, a cell name, quitting
with a save, and resuming to the same end as the game played straight through with the same
seed and choices. Every screen fits 80x24; NO_COLOR output carries no colour."""

from __future__ import annotations

import re
import sys

import pexpect

from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.savefile import read_save, state_digest
from tests.test_interactive import (COLOUR_SGR, PROMPT, Terminal, assert_screens_fit, plain,
                                    play_to_the_end, prompt, spawn, terminal_env)


class _FirstMove:
    name = "scripted"

    def choose(self, view, moves):
        return 0


def test_grid_play_quit_and_resume_reaches_the_uninterrupted_end(tmp_path):
    seed, limit = 5, 16
    save = tmp_path / "seq.json"
    child = spawn("--variant", "sequence", "--seed", str(seed), "--max-plies", str(limit), "--bot", "random",
                  "--save", str(save))
    child.expect_exact("Blue (you), Green (random)")
    n = prompt(child)
    assert n > 100                                      # seed 5: a two-eyed Jack, so several pages (S7)
    first = plain(child.before)
    assert "Your hand: " in first and " A   B   C " in first and "[B] in a line, * free" in first
    child.sendline("zz")
    child.expect_exact("'zz' is not a move: type a number from 1 to")
    child.expect_exact("or a cell such as j10")     # a cell chooses too
    prompt(child)
    child.sendline("a1")                                # a free corner takes no chip
    child.expect_exact("No move puts a chip on A1 or takes one from it.")
    prompt(child)
    child.sendline("?")
    child.expect_exact("brackets is a chip in a completed line")
    child.expect_exact("Press Enter to go back to the game.")
    child.sendline("")
    prompt(child)
    child.sendline("h")
    child.expect(r"Hint: (\d+)\. ")
    assert 1 <= int(child.match.group(1)) <= n
    prompt(child)
    child.sendline("n")
    child.expect(PROMPT)
    assert child.match.group(2) == "2"
    child.sendline("p")
    child.expect(PROMPT)
    assert child.match.group(2) == "1"
    for _ in range(3):
        child.sendline("1")
        prompt(child)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    halfway = read_save(save)
    assert not halfway.finished and 6 <= halfway.plies < limit and halfway.kinds == ["human", "bot:random"]
    transcript = "".join(child.transcript)
    assert "Last moves:" in transcript and "Blue: " in transcript
    assert not COLOUR_SGR.search(transcript), "NO_COLOR output carries colour codes"
    assert_screens_fit(transcript, at_least=8, path=save)

    child = spawn("--resume", str(save))
    answers = play_to_the_end(child)
    child.close()
    assert child.exitstatus == 0 and answers > 0
    transcript = "".join(child.transcript)
    assert f"No winner after {limit} moves (stopped)." in plain(transcript)
    assert_screens_fit(transcript, at_least=answers, path=save)
    game = load_game("sequence")
    state = game.new_game(seed, players=2)
    record = GameRecord(seed, state.seats, state.turn)
    final = play_game(game, state, [_FirstMove(), make_player("random", seed, 1)], max_plies=limit, record=record)
    done = read_save(save)
    assert done.choices == record.choices
    assert done.state_digest == state_digest(final)


def test_hot_seat_teams_show_only_the_own_hand(tmp_path):
    """S1, S4: four players in two sides, two people at one keyboard (blue and green): the
    keyboard is handed over before a hand is shown, and the screen shows the hand of the
    person to move, never the other's."""
    game = load_game("sequence")
    state = game.new_game(2, players=4)
    hands = {game.colours[state.seats[seat]].capitalize(): sorted(game.card_names[c] for c in state.hands[seat])
             for seat in (0, 1)}
    save = tmp_path / "g.json"
    child = spawn("--variant", "sequence", "--players", "4", "--humans", "2", "--seed", "2", "--bot", "random",
                  "--save", str(save))
    child.expect_exact("hand the keyboard over and press Enter")
    child.sendline("")
    child.expect(PROMPT)
    screen = plain(child.before)
    who = re.search(r"> +\w+ (\w+) +\d+ seq (player \d)", screen)   # the side to move, and its person
    assert who is not None, screen
    assert sorted(screen.split("Your hand: ")[1].split("\n")[0].split()) == hands[who.group(1)]
    assert who.group(2) == f"player {1 + list(hands).index(who.group(1))}"
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert read_save(save).kinds == ["human", "human", "bot:random", "bot:random"]
    transcript = "".join(child.transcript)
    handovers = [chunk for chunk in transcript.split("\x1b[2J") if "hand the keyboard over" in chunk]
    assert handovers and all("Your hand" not in chunk for chunk in handovers), "a hand is cleared before the handover"
    assert_screens_fit(transcript, at_least=1, path=save)


def test_hot_seat_names_which_person_of_a_side_is_to_play(tmp_path):
    """S1: four people on two sides, each side's colour played by two of them: the hand-over
    names the person (player N), not only the colour both share."""
    child = spawn("--variant", "sequence", "--players", "4", "--humans", "4", "--seed", "2", "--save", str(tmp_path / "g.json"))
    child.expect(r"(\w+) \(player (\d)\)'s turn: hand the keyboard over and press Enter")
    first = int(child.match.group(2))
    child.sendline("")
    child.expect(PROMPT)
    assert f"(player {first}) to play" in plain(child.before)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_piped_output_is_plain_and_still_shows_the_lines(tmp_path):
    """With the output piped (the keyboard still a terminal) the screens follow one another
    with no escape code, and the chips of completed lines are still bracketed (S10, S11)."""
    command = (f"{sys.executable} -m sorry_rules.cli --variant grid/mini-grid.yaml --seed 3 --bot random "
               f"--save {tmp_path / 'g.json'} | cat")
    child = Terminal("/bin/sh", ["-c", command], env=terminal_env())
    answers = play_to_the_end(child)
    child.close()
    transcript = "".join(child.transcript).replace("\r", "")
    assert answers > 5 and "\x1b" not in transcript
    assert "Amber wins after" in transcript
    assert re.search(r"^[a-z] .*\[A\]", transcript, re.M), "a completed line is bracketed on the board"
    long = [line for line in transcript.split("\n") if len(line) > 80 and "g.json" not in line]
    assert not long, long
