"""The command line as a user runs it: the moves oracle, position-file errors, auto play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.base.errors import UsageError
from sorry_rules.cli.app import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def position(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


ISSUE_EXAMPLE = {
    "players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7",
    "pawns": {"red": ["start", "track:12", "safety:2", "home"], "blue": ["track:16"]},
}


def test_moves_json_lists_whole_placements(tmp_path):
    result = run("moves", "--variant", "standard", "--state", position(tmp_path, ISSUE_EXAMPLE), "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["turn"] == "red" and report["card"] == "7" and report["forfeit"] is False
    results = [m["result"] for m in report["moves"]]
    # R22: forward 7 on the track pawn (12 -> 19; jumps blue on 16, R14) ...
    assert {"red": ["track:19", "safety:2", "home", "start"], "blue": ["track:16", "start", "start", "start"],
            "yellow": ["start"] * 4, "green": ["start"] * 4} in results
    # ... and the split 4 + 3 whose first part lands on blue's triangle: bump, slide (R26)
    assert {"red": ["track:19", "safety:5", "home", "start"], "blue": ["start"] * 4,
            "yellow": ["start"] * 4, "green": ["start"] * 4} in results
    assert all(set(r) == {"red", "blue", "yellow", "green"} for r in results)
    assert len(results) == 5
    assert all(isinstance(m["text"], str) and m["text"] for m in report["moves"])


def test_moves_text_and_card_override(tmp_path):
    result = run("moves", "--state", position(tmp_path, ISSUE_EXAMPLE), "--card", "3")
    assert result.exit_code == 0
    assert "red to play, card 3:" in result.output
    assert "Red pawn track:12 -> track:15" in result.output
    assert "Red pawn safety:2 -> safety:5" in result.output


def test_the_words_of_a_switch_say_whose_slide_bumps_which_pawn(tmp_path):
    """R24, A4, R26: red 9 <-> blue 39 puts red on blue's long triangle (track:39 -> 43, sweeping
    yellow's 41) and blue on red's short one (track:9 -> 13, sweeping red's 11): each bump is
    said after the slide that made it, so red's 11 is blue's doing, not red's or the switch's.
    A pawn bumped by its own colour's landing (`rules.bump` own) is said after that step."""
    data = {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "11",
            "pawns": {"red": ["track:9", "track:11"], "blue": ["track:39"], "yellow": ["track:41"]}}
    texts = [m["text"] for m in json.loads(run("moves", "--state", position(tmp_path, data), "--format", "json").output)["moves"]]
    assert "Red pawn track:9 <-> Blue pawn track:39, bumps Yellow (track:41), slides to track:43, Blue pawn slides to " \
           "track:13, bumps Red (track:11)" in texts
    assert "Red pawn track:9 <-> Yellow pawn track:41, Yellow pawn slides to track:13, bumps Red (track:11)" in texts
    (tmp_path / "own.yaml").write_text("extends: standard\nrules: {bump: [own, partner, opponent]}\n")
    own = run("moves", "--variant", str(tmp_path / "own.yaml"), "--state", position(tmp_path, data), "--card", "2")
    assert "Red pawn track:9 -> track:11, bumps Red (track:11); draws again" in own.output, own.output


def test_forfeit_is_empty_moves(tmp_path):
    data = {"players": ["red", "blue"], "turn": "red", "card": "5"}
    report = json.loads(run("moves", "--state", position(tmp_path, data), "--format", "json").output)
    assert report["moves"] == [] and report["forfeit"] is True  # R11: all in Start, a 5


def test_eleven_pass_is_a_move(tmp_path):
    """R24, A14, A4: red 50 + 11 lands on its own pawn on 1 (R16); red 1 + 11 overshoots
    Home (R33). So no forward 11: the switches plus a pass. Switching red 1 with blue 30
    puts blue on red's short-slide triangle: blue slides to 4."""
    data = {"players": ["red", "blue"], "turn": "red", "card": "11",
            "pawns": {"red": ["track:50", "track:1"], "blue": ["track:30"]}}
    report = json.loads(run("moves", "--state", position(tmp_path, data), "--format", "json").output)
    got = sorted((tuple(m["result"]["red"]), tuple(m["result"]["blue"]), bool(m.get("pass"))) for m in report["moves"])
    start2, start3 = ("start",) * 2, ("start",) * 3
    assert got == sorted([
        (("track:1", "track:30") + start2, ("track:50",) + start3, False),
        (("track:30", "track:50") + start2, ("track:4",) + start3, False),
        (("track:1", "track:50") + start2, ("track:30",) + start3, True),
    ])
    assert report["forfeit"] is False


@pytest.mark.parametrize("data, message", [
    ({"players": ["red", "pink"], "card": "1"}, "unknown colour 'pink'"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["start"] * 5}}, "5 pawns, but each colour has 4"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["track:3", "track:3"]}}, "two pawns on track:3"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["track:3"], "blue": ["track:3"]}}, "a blue and a red pawn on track:3"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["safety:6"]}}, "safety zone has squares 1..5"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["track:60"]}}, "squares 0..59"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"red": ["moon"]}}, "unknown position 'moon'"),
    ({"players": ["red", "blue"], "card": "6"}, "unknown card '6'"),
    ({"players": ["red", "blue"]}, "card: missing"),
    ({"players": ["red", "blue"], "turn": "red", "pawns": {"red": ["track:1"]}}, "card: missing"),  # no rule file
    ({"players": ["red", "blue"], "card": "1", "name": "x"}, "unknown field 'name'"),  # one odd key: no rule file
    ({"players": ["red", "blue"], "turn": "green", "card": "1"}, "not one of the players"),
    ({"players": ["red", "blue"], "card": "1", "pawns": {"yellow": ["track:1"]}}, "'yellow' is not one of the players"),
    ([1, 2], "must be a mapping (a JSON object)"),
])
def test_bad_position_files_get_a_clear_error(tmp_path, data, message):
    result = run("moves", "--state", position(tmp_path, data))
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_position_file_may_begin_with_a_byte_order_mark(tmp_path):
    """As a rule file may: a UTF-8 byte order mark before a JSON or YAML position is read
    past, not an invalid JSON error."""
    for name, text in (("bom.json", '{"players": ["red", "blue"], "turn": "red", "card": "1"}'),
                       ("bom.yaml", "players: [red, blue]\nturn: red\ncard: '1'\n")):
        (tmp_path / name).write_bytes(b"\xef\xbb\xbf" + text.encode())
        result = run("moves", "--state", str(tmp_path / name))
        assert result.exit_code == 0 and "Red pawn start -> track:4" in result.output, result.output


def test_unreadable_position_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run("moves", "--state", str(bad))
    assert result.exit_code == 1 and "invalid JSON" in result.output
    result = run("moves", "--state", str(tmp_path / "missing.json"))
    assert result.exit_code == 1 and "cannot read position file" in result.output


@pytest.mark.parametrize("variant", ["standard", "sequence"])
def test_a_rule_file_given_as_a_position_is_named_as_such(variant):
    """One problem saying what the file is and how to give it, not one per rule-file field."""
    from sorry_rules.base.resources import variants_dir

    path = str(variants_dir() / f"{variant}.yaml")
    result = run("moves", "--variant", variant, "--state", path)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"{path}:1:1: error: this is a rule file, not a position file: give it as --variant {path} (or --rule); a "
        "position file lists players, turn, card or hand, and pawns or chips [SR203]"]


def test_unknown_variant_is_a_clear_error():
    result = run("--variant", "nosuch", "--auto", "--seed", "1")
    assert result.exit_code == 2  # a usage problem: the name names nothing
    assert "no variant 'nosuch'" in result.output


def test_usage_errors_exit_2():
    assert run("--players", "many").exit_code == 2
    assert run("moves").exit_code == 2  # --state is required


def test_options_of_play_before_a_command_are_refused_not_ignored(tmp_path):
    """`sorry-play --rule R moves ...` read the command's own --rule (none), so H17's filter
    was silently left out; such options before a command are a usage error that says where
    they go. `--rules-root` before a command still acts (it is read at once)."""
    state = position(tmp_path, {"players": ["red", "blue"], "turn": "red", "card": "10",
                                "pawns": {"red": ["track:4", "safety:3", "track:10", "start"], "blue": ["track:20"]}})
    refused = run("--rule", "house/must-bump.yaml", "moves", "--state", state)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "--rule given before the command `moves`" in refused.stderr and "sorry-play moves --rule ..." in refused.stderr
    after = run("moves", "--rule", "house/must-bump.yaml", "--state", state)
    assert after.exit_code == 0  # H17: only the bumping move
    assert after.stdout == "red to play, card 10:\n   1. Red pawn track:10 -> track:20, bumps Blue (track:20)\n"
    assert "--variant, --seed given before the command `explain`" in run("-v", "partnership", "-s", "3", "explain").stderr
    assert run("--rules-root", str(tmp_path), "validate", "standard.yaml").exit_code in (0, 1)
    gone = run("validate", "--rules-root", str(tmp_path / "gone"), "standard")  # a mistyped folder is said
    assert gone.exit_code == 2 and "does not exist" in gone.stderr


def _auto(seed, players=4):
    """The bytes `sorry-play --auto` writes (in-process; tests/test_golden_games.py runs the command itself)."""
    result = run("--variant", "standard", "--auto", "--seed", str(seed), "--players", str(players))
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def test_auto_game_is_byte_for_byte_reproducible():
    first = _auto(7)
    assert first == _auto(7)
    assert first != _auto(8)
    lines = first.decode().splitlines()
    assert lines[0].startswith("standard: 4 players (Red, Blue, Yellow, Green), seed 7;")
    assert lines[-1].endswith(" moves.") and " wins after " in lines[-1]


def test_too_many_players_is_an_error():
    result = run("--auto", "--players", "5", "--seed", "1")
    assert result.exit_code == 2 and "2-4 players" in result.output


def test_seats_that_contradict_humans_are_a_usage_error():
    """`--humans N` makes the first N seats people and the others computer players; a `--seat`
    that says otherwise was silently taken over it (a computer-only game, unsaved)."""
    from sorry_rules.cli.seats import seat_kinds

    colours, seats = ("red", "blue", "yellow", "green"), (0, 1, 2, 3)
    result = run("--humans", "1", "--seat", "red=bot", "--seed", "1")
    assert result.exit_code == 2 and "--seat 'red=bot' contradicts --humans 1" in result.stderr
    with pytest.raises(UsageError, match="contradicts --humans 2"):
        seat_kinds(colours, seats, ("blue=bot:hard",), humans=2)
    with pytest.raises(UsageError, match="contradicts --humans 1"):
        seat_kinds(colours, seats, ("yellow=human",), humans=1)
    assert seat_kinds(colours, seats, ("yellow=bot:hard", "red=human"), humans=1) == \
        ["human", "bot:greedy", "bot:hard", "bot:greedy"]
    assert "--humans -1: give 0 to 4" in run("--humans", "-1", "--seed", "1").stderr


def test_human_seat_without_terminal_suggests_auto():
    result = CliRunner().invoke(main, ["--seed", "1"], input="")
    assert result.exit_code == 2 and "--auto" in result.output


README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_shell_completion_as_the_readme_says():
    """README: `eval "$(_SORRY_PLAY_COMPLETE=bash_source sorry-play)"` (zsh and fish alike)."""
    for shell in ("bash", "zsh", "fish"):
        script = CliRunner().invoke(main, [], prog_name="sorry-play", env={"_SORRY_PLAY_COMPLETE": f"{shell}_source"})
        assert script.exit_code == 0 and "_SORRY_PLAY_COMPLETE" in script.output, shell
        assert f"_SORRY_PLAY_COMPLETE={shell}_source sorry-play" in README
    words = CliRunner().invoke(main, [], prog_name="sorry-play",
                               env={"_SORRY_PLAY_COMPLETE": "bash_complete", "COMP_WORDS": "sorry-play ga", "COMP_CWORD": "1"})
    assert "plain,games" in words.output.splitlines()


@pytest.mark.parametrize("command, reads_saves", [
    ((), True), (("replay",), True), (("validate",), False), (("moves",), False),
    (("explain",), False), (("simulate",), False), (("compare",), False), (("render",), False),
])
def test_rules_root_help_names_saves_only_where_the_command_reads_them(command, reads_saves):
    """`--rules-root` lets a save's variant be read only on commands that read saves."""
    result = CliRunner().invoke(main, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "--rules-root" in line)
    assert ("a save's variant" in line) is reads_saves


@pytest.mark.parametrize("command", [
    ["explain"], ["--auto", "--seed", "1"], ["simulate", "--games", "2"], ["render"],
    ["moves", "--state", "POSITION"], ["moves", "--why", "--state", "POSITION"],
])
def test_a_broken_game_reports_every_problem_of_every_file(tmp_path, command, monkeypatch):
    """A game that cannot be loaded is reported as `validate` reports its files: the schema's
    problem and the DSL's problem of one file, and each overlay's problem (the loader alone
    stops at the first stage that fails)."""
    monkeypatch.chdir(tmp_path)
    Path("c.yaml").write_text('extends: standard\nname: c\nturn:\n  bogus: 1\ncards:\n  "1": "forwardd 1"\n')
    Path("a.yaml").write_text("extends: standard\nname: a\nturn:\n  bogus: 1\n")
    Path("b.yaml").write_text('extends: standard\nname: b\ncards:\n  "1": "forwardd 1"\n')
    command = [position(tmp_path, ISSUE_EXAMPLE) if word == "POSITION" else word for word in command]
    for given, expected in ((["--variant", "c.yaml"], ["c.yaml:4:3", "c.yaml:6:9"]),
                            (["--variant", "standard", "--rule", "a.yaml", "--rule", "b.yaml"],
                             ["a.yaml:4:3", "b.yaml:4:9"])):
        result = run(*command, *given)
        assert result.exit_code != 0
        located = [line.split(": error")[0] for line in result.output.splitlines() if ": error: " in line]
        assert located == expected, result.output


def test_a_consequence_is_listed_under_after_not_then(tmp_path, monkeypatch):
    """A consequence (`after:`) a move triggers is listed as `after: <label>`; `then:` is the
    field of a follow-up move (REFERENCE), which this consequence does not have (R24: the 2
    draws again, and the bonus adds a second card)."""
    monkeypatch.chdir(tmp_path)
    Path("bonus.yaml").write_text("extends: standard\nafter:\n  home_bonus:\n    when: reaches_home(player) > 0\n"
                                  "    draw_again: true\n")
    state = position(tmp_path, {"players": ["red", "blue"], "turn": "red", "card": "2",
                                "pawns": {"red": ["safety:4", "track:10"]}})
    result = run("moves", "--rule", "bonus.yaml", "--state", state)
    assert result.exit_code == 0, result.output
    home = result.output.split("-> home")[1]
    assert "      after: after.home_bonus: when reaches_home(player) > 0" in home and "then:" not in result.output
    assert "extra cards: 2" in home


def test_a_redraw_lists_every_card_it_discards(tmp_path, monkeypatch):
    """H25 with H26: two cards drawn, neither can move, the turn redraws: both are discarded
    (REFERENCE `redraw`: with `take` every card drawn), and the text says both, as the JSON."""
    monkeypatch.chdir(tmp_path)
    Path("take.yaml").write_text("extends: standard\nturn:\n  take: 2\n  redraw: {when: 'true', at_most: 1}\n")
    state = position(tmp_path, {"players": ["red", "blue"], "turn": "red", "card": ["7", "5"]})
    result = run("moves", "--rule", "take.yaml", "--state", state)
    assert result.exit_code == 0, result.output
    assert "      discards: 7, 5" in result.output
    report = json.loads(run("moves", "--rule", "take.yaml", "--state", state, "--format", "json").stdout)
    assert [m["discard"] for m in report["moves"]] == ["7"] and report["moves"][0]["discards"] == ["5"]


def test_a_pawn_sent_back_by_its_own_follow_up_is_not_said_to_bump_itself(tmp_path, monkeypatch):
    """R16: no pawn lands on its own colour; a `then: send own moved to start` after a 3
    sends back the pawn that moved, said as the follow-up it is, not "bumps Red"."""
    monkeypatch.chdir(tmp_path)
    Path("oops.yaml").write_text("extends: standard\nafter:\n  oops: {cards: ['3'], then: send own moved to start}\n")
    state = position(tmp_path, {"players": ["red", "blue"], "turn": "red", "card": "3", "pawns": {"red": ["track:10"]}})
    result = run("moves", "--rule", "oops.yaml", "--state", state)
    assert result.exit_code == 0, result.output
    assert "Red pawn track:10 -> track:13; then sends Red pawn track:13 back to start" in result.output
    assert "bumps Red" not in result.output
