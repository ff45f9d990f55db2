"""A person sees every turn of theirs, and no saved game is lost: through a real 80x24
pseudo-terminal (pexpect), as tests/test_interactive.py.

* Every forced move and every forfeit of the person's seat gets a screen of its own (the
  board after it, what happened, the card) that waits for Enter; `--no-wait` plays them at
  once and says them in the heading of the next screen, wrapped, never cut.
* The title says which house rules are on.
* A new game never overwrites a saved one: games of the same variant and seed, with and
  without a house rule, are saved to files of their own, and `sorry-play games` lists them.
* `q` at the hot-seat hand-over saves and quits.
"""

from __future__ import annotations

import re

import pexpect
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.records.savefile import read_save, restore
from tests.test_interactive import (ALT_SCREEN_OFF, PAUSE, PROMPT, RULES, assert_screens_fit, plain, screens,
                                    spawn)


def _person_turns(save) -> list:
    """Every turn of seat 0 (the person) in a saved game, as the game replays."""
    turns = []
    restore(read_save(save), on_turn=lambda turn, after: turns.append(turn))
    return [turn for turn in turns if turn.seat == 0]


def test_every_forced_move_and_forfeit_of_the_person_is_shown_and_waits(tmp_path):
    save = tmp_path / "game.json"
    child = spawn("--seed", "3", "--players", "2", "--rule", "house/quick-game.yaml", "--save", str(save))
    pauses = asked = 0
    while (seen := child.expect([PROMPT, PAUSE, pexpect.EOF])) < 2:
        if seen == 0:
            asked += 1
            child.sendline("1")
        else:
            pauses += 1
            child.sendline("")
    child.close()
    assert child.exitstatus == 0
    raw = "".join(child.transcript)
    turns = _person_turns(save)
    forced = [turn for turn in turns if turn.options == 1]
    forfeits = [turn for turn in forced if turn.move.kind == "forfeit"]
    assert len(forfeits) >= 3 and len(forced) > len(forfeits), "the seed gives forfeits and forced moves"
    assert pauses == len(forced) and asked == len(turns) - len(forced)
    shown = [text for text in screens(raw) if "Press Enter to go on" in text]
    assert len(shown) == len(forced)
    for text in shown:  # the turn marker stays on the person whose move is told until Enter
        marked = [line for line in text.splitlines() if re.search(r"> [A-Z] \w+ +(you|random)", line)]
        assert len(marked) == 1 and " you " in marked[0] + " ", text
    game_cards = {"1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"}
    for turn, text in zip(forced, shown):
        flat = " ".join(text.split())
        if turn.move.kind == "forfeit":
            drew = re.search(r"You drew (\S+): no move is allowed with it, so the card is forfeited\.", flat)
            assert drew and drew.group(1) in game_cards, flat
        else:
            assert "only one move was possible, so it was played: R" in flat, flat
        assert "standard + quick-game, seed 3" in text          # the title names the house rule
    assert_screens_fit(raw, at_least=len(forced) + 1, path=save)
    assert "wins after" in plain(raw.split(ALT_SCREEN_OFF)[-1])


def test_no_wait_plays_them_at_once_and_says_them_whole(tmp_path):
    save = tmp_path / "game.json"
    child = spawn("--seed", "3", "--players", "2", "--rule", "house/quick-game.yaml", "--save", str(save), "--no-wait")
    for _ in range(12):
        assert child.expect([PROMPT, PAUSE]) == 0, "no forced move waits with --no-wait"
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    raw = "".join(child.transcript)
    said = [" ".join(text.split()) for text in screens(raw)]
    summaries = [text for text in said if "turns were played for you" in text]
    assert summaries and all("since your last choice" in text or "since the game began" in text for text in summaries)
    # each summary ends with the last such turn whole: its card and what became of it, not a bare "Why:"
    assert all(re.search(r"; the last: You (drew|threw) ", text) for text in summaries), summaries
    headings = [text.split("Your moves")[0].split("\n")[-6:] for text in screens(raw)]
    assert not any("…" in line for lines in headings for line in lines), "no message is cut"
    assert_screens_fit(raw, at_least=10, path=save)


def _quit_at_once(child) -> None:
    child.expect([PROMPT, PAUSE])
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_saves_never_overwrite_another_game_and_games_lists_them(tmp_path):
    folder = tmp_path / "sorry-rules"
    for extra in ((), ("--rule", "house/quick-game.yaml"), ()):
        _quit_at_once(spawn("--seed", "5", "--players", "2", *extra, XDG_DATA_HOME=str(tmp_path)))
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["standard+quick-game-5.json", "standard-5-2.json", "standard-5.json"]
    assert read_save(folder / "standard+quick-game-5.json").variant.rules == ["house/quick-game.yaml"]
    assert read_save(folder / "standard-5.json").variant.rules == []
    # --save never replaces a file either
    before = (folder / "standard-5.json").read_bytes()
    refused = CliRunner().invoke(main, ["--auto", "--seed", "5", "--save", str(folder / "standard-5.json")])
    assert refused.exit_code == 1
    assert "holds another game already, and a save never replaces one" in refused.stderr
    assert (folder / "standard-5.json").read_bytes() == before
    listed = CliRunner().invoke(main, ["games"], env={"XDG_DATA_HOME": str(tmp_path)})
    assert listed.exit_code == 0, listed.output
    out = listed.output
    for name in names:
        assert name in out
    assert "standard + quick-game, seed 5; red (person), yellow (greedy); " in " ".join(out.split())
    assert out.count("standard, seed 5; red (person), yellow (greedy)") == 2
    assert f"Continue one with: sorry-play --resume {folder}" in out


def test_q_at_the_hot_seat_hand_over_saves_and_quits(tmp_path):
    save = tmp_path / "game.json"
    child = spawn("--variant", str(RULES / "hand5.yaml"), "--humans", "2", "--players", "2", "--seed", "2",
                  "--save", str(save))
    while child.expect_exact(["hand the keyboard over and press Enter (q: save and quit)",
                              "Press Enter to go on (? help, q save and quit): "]) == 1:
        child.sendline("")     # a forced move of one of them, shown first
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and not read_save(save).finished


def test_replay_step_prompts_and_q_stops(tmp_path):
    save = tmp_path / "game.json"
    played = CliRunner().invoke(main, ["--auto", "--seed", "4", "--players", "2", "--save", str(save)])
    assert played.exit_code == 0
    child = spawn("replay", "--step", str(save))
    child.expect_exact("Enter: next move, q: stop, ?: help")
    child.sendline("")
    child.expect_exact("Enter: next move, q: stop, ?: help")
    child.sendline("?")
    child.expect_exact("replay --step shows one move at a time")
    child.expect_exact("Enter: next move, q: stop, ?: help")
    child.sendline("w")  # a typo is not taken for Enter: nothing is shown and the prompt comes again
    child.expect_exact("'w': press Enter for the next move, q to stop or ? for help")
    child.expect_exact("Enter: next move, q: stop, ?: help")
    child.sendline("q")
    child.expect_exact("Stopped after move 2;")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = [line for line in plain("".join(child.transcript)).splitlines() if re.match(r"^\s+\d+  ", line)]
    assert [line.split()[0] for line in lines] == ["1", "2"]


def test_text_typed_at_a_forced_move_chooses_nothing_and_is_said_so(tmp_path):
    """A move number or an `h` typed at the screen of a forced move or a forfeit is not taken
    for Enter (so it is not lost unseen): the screen says there is nothing to choose and
    waits for Enter again."""
    child = spawn("--seed", "3", "--players", "2", "--rule", "house/quick-game.yaml", "--save", str(tmp_path / "g.json"))
    while child.expect([PROMPT, PAUSE]) == 0:
        child.sendline("1")
    child.sendline("7")
    child.expect_exact("'7': nothing to choose here. Press Enter to go on")
    child.sendline("h")
    child.expect_exact("'h': nothing to choose here. Press Enter to go on")
    child.sendline("b")  # the help's "draw the board": the same screen again, nothing said against it
    child.expect(PAUSE)
    assert "nothing to choose here" not in plain(child.before).split("'h'")[-1]
    child.sendline("")
    assert child.expect([PROMPT, PAUSE]) in (0, 1)
    child.sendline("q")
    child.expect_exact("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_or_sigterm_at_a_persons_prompt_saves_and_exits_130_and_q_exits_0(tmp_path):
    """README: q saves and quits (exit 0); Ctrl-C and SIGTERM save as q does, and the
    program says it was stopped with status 130, as in a computer-only game."""
    import signal
    import time

    for stop, status in (("q", 0), ("ctrl-c", 130), ("sigterm", 130)):
        save = tmp_path / f"{stop}.json"
        child = spawn("--seed", "5", "--players", "2", "--save", str(save))
        while child.expect([PROMPT, PAUSE]) == 1:
            child.sendline("")
        # a signal that lands while readline is still setting up its read (the prompt is out already) is
        # only seen at the next key (CPython checks signals before it waits): give it the time to wait
        time.sleep(0.3)
        if stop == "q":
            child.sendline("q")
        elif stop == "ctrl-c":
            child.sendintr()
        else:
            child.kill(signal.SIGTERM)
        child.expect_exact("Game saved to")
        child.expect(pexpect.EOF)
        child.close()
        assert (stop, child.exitstatus) == (stop, status), plain("".join(child.transcript))[-600:]
        assert "Traceback" not in "".join(child.transcript) and not read_save(save).finished


def test_a_persons_game_stopped_at_its_limit_gives_the_points_so_far_and_how_to_play_on(tmp_path):
    """P-rules scoring: a game the move limit stops shows, like `--auto` and `--resume`, the
    points so far, and says how to play on (a higher --max-plies), not how to watch it."""
    save = tmp_path / "points.json"
    child = spawn("--variant", "points", "--seed", "3", "--players", "2", "--max-plies", "12", "--save", str(save))
    while (seen := child.expect([PROMPT, PAUSE, pexpect.EOF])) < 2:
        child.sendline("1" if seen == 0 else "")
    child.close()
    end = " ".join(plain("".join(child.transcript)).split(ALT_SCREEN_OFF)[-1].split())
    assert child.exitstatus == 0 and "No winner after 12 moves (stopped)." in end, end
    assert "12 moves played" in end and "game move 13" not in end, end  # the panel has no next move to name
    assert "Points so far (those only a winner scores are not given): Red " in end, end
    assert f"Play on with: sorry-play --resume {save} --max-plies N (N above 12)" in end, end
    assert "Watch it again" not in end and not read_save(save).finished


def test_the_help_says_how_the_game_is_won_in_the_rule_files_words(tmp_path):
    """TR12: Trouble is won with every peg in the finish line (the safety zone and Home), and
    the quick game (house rule) with two pawns Home: `?` says so, as `explain` words it."""
    for args, won in ((("--variant", "trouble"), "To win: (the number of your pawns in Home plus the number of your "
                                                 "pawns in safety zones) equals the number of your pawns."),
                      (("--rule", "house/quick-game.yaml"), "To win: The number of your team's pawns in Home is at "
                                                           "least 2.")):
        child = spawn(*args, "--seed", "6", "--players", "2", "--save", str(tmp_path / f"{len(won)}.json"))
        while child.expect([PROMPT, PAUSE]) == 1:
            child.sendline("")
        child.sendline("?")
        child.expect_exact("Press Enter")
        help_screen = " ".join(plain(child.before).split())
        assert won in help_screen, help_screen
        child.sendline("")
        child.expect([PROMPT, PAUSE])
        child.sendline("q")
        child.expect(pexpect.EOF)
        child.close()


def test_a_help_longer_than_the_screen_comes_in_screens_that_fit(tmp_path):
    """README: every screen fits 80x24. Partnership's help (the partners' pawns, how to win)
    is longer than 23 lines: it comes in two screens, Enter between them, then back."""
    save = tmp_path / "partners.json"
    child = spawn("--variant", "partnership", "--seed", "4", "--save", str(save))
    while child.expect([PROMPT, PAUSE]) == 1:
        child.sendline("")
    child.sendline("?")
    child.expect_exact("Press Enter for more of the help.")
    first = plain(child.before)
    assert "To win:" in first and "This game is saved" not in first
    child.sendline("")
    child.expect_exact("Press Enter to go back to the game.")
    assert str(save) in " ".join(plain(child.before).split())
    child.sendline("")
    child.expect([PROMPT, PAUSE])
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert_screens_fit("".join(child.transcript), at_least=3, path=save)


def test_a_terminal_too_small_for_the_screen_is_told_so(tmp_path):
    """README: the screen fits 80x24; in a smaller terminal the board's top scrolls away, so
    the prompt says what size the screen needs (and 80x24 again says nothing)."""
    child = spawn("--seed", "5", "--players", "2", "--save", str(tmp_path / "small.json"))
    while child.expect([PROMPT, PAUSE]) == 1:
        child.sendline("")
    assert "The screen needs" not in plain(child.before)
    child.setwinsize(12, 40)
    child.sendline("b")
    child.expect_exact("The screen needs 80x24 (40x12 now).")
    child.setwinsize(24, 80)
    child.sendline("b")
    child.expect(PROMPT)
    assert "The screen needs" not in plain(child.before).split("40x12 now).")[-1]
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
