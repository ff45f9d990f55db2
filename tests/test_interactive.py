"""The interactive game through a real pseudo-terminal of 80x24 (pexpect): the screen, invalid
entries, help, hints, paging through long move lists, quitting with a save, and resuming to
the same end as an uninterrupted game with the same seed and choices. Every screen drawn in
the terminal (from one clear to the next) fits 80x24; piped output has no escape codes."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from sorry_rules.players.registry import make_player
from sorry_rules.compiler import load_game
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.savefile import read_save, restore, state_digest

RULES = Path(__file__).parent / "rules"
PROMPT = re.compile(r"Move 1-(\d+)(?:, page (\d+)/(\d+))? \((?:n/p page, )?\? help, h hint, q quit\): ")
PAUSE = re.compile(r"Press Enter to go on \(\? help, q save and quit\): ")
COLOUR_SGR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|4[0-9]|9[0-7])[0-9;]*m")
ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z]|[=>])")
CLEAR = "\x1b[2J"
ALT_SCREEN_OFF = "\x1b[?1049l"
TIMEOUT = 60


def screens(transcript: str) -> list:
    """The screens a terminal showed: the text from each clear to the next (escape codes
    removed), up to where the game leaves the alternate screen."""
    shown = transcript.split(CLEAR)[1:]
    out = []
    for chunk in shown:
        chunk = chunk.split(ALT_SCREEN_OFF)[0]
        out.append(ESCAPE.sub("", chunk).replace("\r", ""))
    return out


def plain(text: str) -> str:
    return ESCAPE.sub("", text).replace("\r", "")


def assert_screens_fit(transcript: str, at_least: int = 1, path=None) -> None:
    """Every screen, with the answer typed at its prompt, fits 80 columns and 24 lines (a
    line naming the save file `path` may be longer: paths stay whole)."""
    shown = screens(transcript)
    assert len(shown) >= at_least, f"{len(shown)} screens drawn in place"
    for text in shown:
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        assert len(lines) <= 24, f"{len(lines)} lines:\n{text}"
        assert all(len(line) <= 80 for line in lines if path is None or str(path) not in line), text


def terminal_env(**extra_env) -> dict:
    """The environment of a program in an 80x24 xterm: no colour or size settings of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")}
    env.update(extra_env)
    env["TERM"] = "xterm-256color"
    return env


def spawn(*args, colour=False, **extra_env):
    env = terminal_env(**extra_env)
    if not colour:
        env["NO_COLOR"] = "1"
    return Terminal(sys.executable, ["-m", "sorry_rules.cli", *args], env=env)


class Terminal(pexpect.spawn):
    """A program at an 80x24 pseudo-terminal; what it printed is collected in `transcript`.

    Without pexpect's fixed pauses, which these programs do not need: an answer is sent as
    soon as its prompt is seen (the program reads whole lines with `input()`, so what is
    typed ahead waits in the terminal's line buffer), output is read without a pause after
    each read, and `close()` after the end of the output waits for the program's exit
    instead of sleeping 0.1 s first (the exit status is the same)."""

    def __init__(self, command, args, env):
        super().__init__(command, args, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 80),
                         maxread=65536)
        self.delaybeforesend = None
        self.delayafterread = None
        self.transcript = []
        self.logfile_read = _Collect(self.transcript)

    def close(self, force=True):
        if self.flag_eof and not self.closed:
            self.wait()                         # the output has ended: the program is exiting
            self.ptyproc.delayafterclose = 0
        super().close(force)


class _Collect:
    def __init__(self, into):
        self.into = into

    def write(self, text):
        self.into.append(text)

    def flush(self):
        pass


def prompt(child) -> int:
    """Wait for the move prompt (going on past the screens of forced moves and forfeits with
    Enter); return how many moves are offered."""
    while child.expect([PROMPT, PAUSE]) == 1:
        child.sendline("")
    return int(child.match.group(1))


def play_to_the_end(child) -> int:
    """Answer 1 to every prompt (Enter to every forced move's screen) until the program ends;
    return how many answers were given."""
    answers = 0
    while (seen := child.expect([PROMPT, PAUSE, pexpect.EOF])) < 2:
        child.sendline("1" if seen == 0 else "")
        answers += seen == 0
    return answers


class _FirstMove:
    """The person's answers in the tests: always the first listed move."""

    name = "scripted"

    def choose(self, view, moves):
        return 0


def _uninterrupted(seed: int):
    """The same game played straight through: the person takes move 1 every time, the
    computer plays greedy with the same seed."""
    game = load_game("standard")
    state = game.new_game(seed, players=2)
    record = GameRecord(seed, state.seats, state.turn)
    final = play_game(game, state, [_FirstMove(), make_player("greedy", seed, 1)], record=record)
    return final, record


def test_play_quit_and_resume_reaches_the_uninterrupted_end(tmp_path):
    seed = 3
    save = tmp_path / "game.json"
    child = spawn("--seed", str(seed), "--players", "2", "--save", str(save))
    child.expect("Red \\(you\\), Yellow \\(greedy\\)")
    prompt(child)
    child.sendline("Xy")
    child.expect_exact("'Xy' is not a move: type a number from 1 to")  # said as typed
    prompt(child)
    child.sendline("[/bold] [red]")
    child.expect_exact("'[/bold] …' is not a move")
    n = prompt(child)
    child.sendline(str(n + 1))
    child.expect_exact(f"is not a move: type a number from 1 to {n}")
    prompt(child)
    child.sendline("?")
    child.expect_exact("a hint: what the strongest computer player would do")
    child.expect_exact("Press Enter to go back to the game.")
    child.sendline("")
    prompt(child)
    child.sendline("h")
    child.expect(r"Hint: (\d+)\. ")
    assert 1 <= int(child.match.group(1)) <= n
    prompt(child)
    child.sendline("b")
    child.expect_exact("Your moves")
    prompt(child)
    for _ in range(4):
        child.sendline("1")
        prompt(child)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect_exact("--resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    halfway = read_save(save)
    assert not halfway.finished and halfway.plies > 5 and halfway.kinds == ["human", "bot:greedy"]
    transcript = "".join(child.transcript)
    assert "Last moves:" in transcript and "Card:" in transcript
    assert not COLOUR_SGR.search(transcript), "NO_COLOR output carries colour codes"
    assert_screens_fit(transcript, at_least=10, path=save)
    assert transcript.rstrip().endswith(f"Continue it with: sorry-play --resume {save}"), "quit leaves the game screen"

    child = spawn("--resume", str(save))
    answers = play_to_the_end(child)
    child.close()
    assert child.exitstatus == 0
    transcript = "".join(child.transcript)
    assert "wins after" in transcript and "sorry-play replay" in transcript
    assert answers > 0
    assert_screens_fit(transcript, at_least=answers, path=save)
    end = ESCAPE.sub("", transcript.split(ALT_SCREEN_OFF)[-1]).replace("\r", "").strip("\n").split("\n")
    assert len(end) <= 24, "\n".join(end)
    assert all(len(line) <= 80 for line in end if str(save) not in line), "\n".join(end)  # paths stay whole
    assert "wins after" in "\n".join(end)
    final, record = _uninterrupted(seed)
    assert ("You win!" if final.winner == 0 else "You lose.") in "\n".join(end), "the end tells the person"
    done = read_save(save)
    assert done.finished
    assert done.choices == record.choices
    assert done.state_digest == state_digest(final)


def test_ctrl_d_saves_and_quits_in_the_default_place(tmp_path):
    save = tmp_path / "sorry-rules" / "standard-5.json"
    child = spawn("--seed", "5", "--players", "2", "--bot", "random", XDG_DATA_HOME=str(tmp_path))
    prompt(child)
    child.sendeof()
    child.expect_exact(f"Game saved to {save}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert read_save(save).kinds == ["human", "bot:random"]


def test_answers_are_edited_with_the_arrow_keys(tmp_path):
    """On a terminal the answer is a line edited with readline: the left arrow moves back
    into what was typed, and the prompt stays drawn while the line is redrawn."""
    child = spawn("--seed", "5", "--players", "2", "--bot", "random", XDG_DATA_HOME=str(tmp_path))
    prompt(child)
    child.send("1\x1b[Dx\r")              # 1, left arrow, x: the line reads "x1"
    child.expect_exact("'x1' is not a move")
    prompt(child)
    child.send("zz\x1b[D\x1b[D\x1b[C\x7f\r")   # zz, left twice, right once, backspace: "z"
    child.expect_exact("'z' is not a move")
    prompt(child)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_hot_seat_hand_play_shows_only_the_own_hand(tmp_path):
    """Hot-seat hand play (P3, P4): before a hand is shown the keyboard is handed over, and the
    screen shows the hand of the player to move only. In a terminal without NO_COLOR the
    board is in colour."""
    save = tmp_path / "game.json"
    child = spawn("--variant", str(RULES / "hand5.yaml"), "--humans", "2", "--players", "2",
                  "--seed", "2", "--save", str(save), colour=True)
    game = load_game(str(RULES / "hand5.yaml"))
    state = game.new_game(2, players=2)
    last = None
    for _ in range(3):
        while len(game.legal_moves(state)) == 1:
            state = game.apply(state, game.legal_moves(state)[0])
            child.expect(PAUSE)       # a person's forced move is shown and waits
            child.sendline("")
        if state.turn != last:
            child.expect_exact("hand the keyboard over and press Enter")
            child.sendline("")
        child.expect(r"Your hand: ([^\r\n]*)")
        shown = re.sub(r"\x1b\[[0-9;]*m", "", child.match.group(1)).split()
        assert sorted(shown) == sorted(game.card_names[c] for c in state.hands[state.turn])
        prompt(child)
        child.sendline("1")
        state, last = game.apply(state, game.legal_moves(state)[0]), state.turn
    if child.expect(["hand the keyboard over", PROMPT]) == 0:
        child.sendline("")
        prompt(child)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    transcript = "".join(child.transcript)
    assert COLOUR_SGR.search(transcript)
    assert read_save(save).kinds == ["human", "human"]
    handovers = [chunk for chunk in transcript.split(CLEAR) if "hand the keyboard over" in chunk]
    assert handovers and all("Your hand" not in chunk for chunk in handovers), "a hand is cleared before the handover"
    assert_screens_fit(transcript, at_least=3, path=save)


def test_team_game_from_the_command_line(tmp_path):
    """Partnership control (T2): the person's moves may move the partner's pawns; the screen
    names the teams."""
    child = spawn("--variant", str(RULES / "teams.yaml"), "--seed", "9", "--save", str(tmp_path / "g.json"))
    prompt(child)
    transcript = "".join(child.transcript)
    assert "Teams: Red+Yellow vs Blue+Green" in transcript
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_long_move_lists_are_paged_with_global_numbers(tmp_path):
    """Seed 11: the person's first card allows 8 moves, more than fit under the board at
    80x24. n and p turn the pages (the numbers run on over the pages, and page 2 goes on from
    the last move of page 1 although the help line of the first screen is gone, leaving more
    room), a number from page 2 is played, and the game quits and resumes with that choice kept."""
    save = tmp_path / "game.json"
    child = spawn("--seed", "11", "--players", "2", "--save", str(save))
    prompt(child)
    n, page, pages = (int(g) for g in child.match.groups())
    assert (page, pages) == (1, 2) and n > 6
    shown = int(re.search(r"Your moves 1-(\d+) of", plain(child.before)).group(1))
    child.sendline("n")
    prompt(child)
    assert child.match.group(2, 3) == ("2", "2")
    page2 = plain(child.before)
    assert f"Your moves {shown + 1}-{n} of {n}:" in page2 and f"\n {shown + 1}. " in page2 and "\n 1. " not in page2
    child.sendline("n")                      # round to the first page again, and said so
    prompt(child)
    assert child.match.group(2) == "1" and "\n 1. " in plain(child.before) and "\n 7. " not in plain(child.before)
    assert plain(child.before).endswith("First page again. ")
    child.sendline("p")                      # and back to the last
    prompt(child)
    assert child.match.group(2) == "2" and plain(child.before).endswith("Last page. ")
    child.sendline("7")
    prompt(child)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    transcript = "".join(child.transcript)
    assert_screens_fit(transcript, at_least=5, path=save)
    saved = read_save(save)
    turns = []
    restore(saved, on_turn=lambda turn, after: turns.append(turn))
    asked = [turn for turn in turns if turn.seat == 0 and turn.options > 1]
    assert (asked[0].options, asked[0].choice) == (n, 6), "move 7, typed on page 2, was played"
    choices = saved.choices

    child = spawn("--resume", str(save))
    prompt(child)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert read_save(save).choices[: len(choices)] == choices


def test_pages_keep_their_moves_while_the_hint_is_shown(tmp_path):
    """Seed 5: the card 10 gives 6 moves, one page. n says in the prompt that all the moves are
    on this page (no line above the moves, which would push one onto a second page); the hint
    takes room, so the moves go on two pages, and they stay two, the hint shown, while n and p
    turn them."""
    child = spawn("--seed", "5", "--save", str(tmp_path / "game.json"))
    assert prompt(child) == 2
    child.sendline("1")
    assert prompt(child) == 6 and child.match.group(3) is None
    child.sendline("n")
    assert prompt(child) == 6 and child.match.group(3) is None
    assert "All the moves are on this page. " in plain(child.before)[-60:]
    child.sendline("h")
    prompt(child)
    assert child.match.group(2, 3) == ("1", "2") and "Hint: " in plain(child.before)
    for key, page in (("n", "2"), ("p", "1"), ("p", "2"), ("n", "1")):
        child.sendline(key)
        prompt(child)
        assert child.match.group(2, 3) == (page, "2") and "Hint: " in plain(child.before), key
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert_screens_fit("".join(child.transcript), at_least=6)


def test_piped_output_is_plain(tmp_path):
    """With the output piped (the keyboard still a terminal) nothing is redrawn in place:
    the screens follow one another with no escape code at all, even without NO_COLOR."""
    command = f"{sys.executable} -m sorry_rules.cli --seed 11 --players 2 --save {tmp_path / 'g.json'} | cat"
    child = Terminal("/bin/sh", ["-c", command], env=terminal_env())
    for answer in ("n", "h", "x", "?", "q"):
        prompt(child)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    transcript = "".join(child.transcript)
    assert "\x1b" not in transcript
    assert "Your moves 7-" in transcript and "Hint: " in transcript and "n  next page" in transcript
    assert "Game saved to" in transcript
    long = [line for line in transcript.replace("\r", "").split("\n") if len(line) > 80 and "g.json" not in line]
    assert not long, long  # only lines naming the save file (paths stay whole)


def test_turn_policies_on_the_play_screen(tmp_path):
    """H25 + H26 from the command line: the screen shows both cards drawn and the extra cards
    the turn took; every move names its card; the person plays to the end and every screen
    fits 80 x 24."""
    save = tmp_path / "game.json"
    child = spawn("--rule", "house/draw-two-keep-one.yaml", "--rule", "house/no-start-no-cry.yaml", "--players", "2",
                  "--seed", "4", "--save", str(save))
    answers = play_to_the_end(child)
    child.close()
    raw = "".join(child.transcript)
    transcript = plain(raw)
    assert answers > 5 and child.exitstatus == 0
    assert re.search(r"Cards: \S+ \S+ \(play one, discard the rest\)", transcript)
    assert "Extra cards this turn: " in transcript
    assert re.search(r" 1\. \[\S+\] ", transcript), "each move names the card it plays"
    assert_screens_fit(raw, at_least=5, path=save)
    game, final = restore(read_save(save))
    assert final.winner is not None


@pytest.mark.parametrize("variant", ["parcheesi", pytest.param("ludo", marks=pytest.mark.slow)])
def test_a_race_game_on_the_play_screen(tmp_path, variant):
    """A dice game from the command line: the screen shows the throw (and says "throw", not
    "card"), the dice instead of a pile, several pawns on a square by count ('2Y') with a 'Together:' line; the person plays
    to the end and every screen fits 80 x 24."""
    save = tmp_path / "game.json"
    child = spawn("--variant", variant, "--players", "2", "--seed", "6", "--save", str(save))
    answers = play_to_the_end(child)
    child.close()
    raw = "".join(child.transcript)
    transcript = plain(raw)
    assert answers > 5 and child.exitstatus == 0
    assert re.search(r"Throw: \d(\+\d)?", transcript) and "Dice: " in transcript and "Pile " not in transcript
    # a throw is said as a throw: "to play, throw 3+5", "You threw 2: ... the throw is lost", "You throw again"
    assert re.search(r"to play, throw \d(\+\d)?\.", transcript)
    assert "to play, card" not in transcript and "You drew" not in transcript and "forfeited" not in transcript
    assert re.search(r"Together: (track|safety):\d+ \w+ \w+", transcript)
    assert re.search(r"\b2[A-Z]\b", transcript), "a square with two pawns shows their count"
    assert "To win: The number of your pawns in Home equals the number of your pawns." in \
        " ".join(transcript.split(ALT_SCREEN_OFF)[-1].split()), "the end says how the game is won"
    assert_screens_fit(raw, at_least=5, path=save)
    game, final = restore(read_save(save))
    assert final.winner is not None


def test_a_forfeit_says_why_no_pawn_can_move(tmp_path):
    """R6, R3: with every pawn in Start a card other than 1 or 2 moves none, and is forfeited;
    the screen that says so gives the reason the rule book gives (a 1 or 2 starts a pawn)."""
    child = spawn("--seed", "3", "--players", "2", "--save", str(tmp_path / "g.json"))
    while (seen := child.expect([PROMPT, PAUSE])) == 1 and "forfeited" not in plain(child.before):
        child.sendline("")
    assert seen == 1, "the person moved before any forfeit: pick a seed whose first card forfeits"
    told = " ".join(plain(child.before).split())
    assert re.search(r"You drew (\d+): no move is allowed with it, so the card is forfeited\. "
                     r"Why: red pawns in start: card \1 cannot start a pawn\.", told), told
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert_screens_fit("".join(child.transcript), path=tmp_path)
