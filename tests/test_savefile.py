"""Saved games (game records with players, sorry_rules/records): exact round trips, atomic
writes, old (version 1) save files still resuming, and a clear SaveFileError (never a
traceback) for every damaged, edited, foreign or mismatched file."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sorry_rules.records import files, savefile
from sorry_rules.records.record import checksum_of
from sorry_rules.players.registry import make_player
from sorry_rules.compiler import load_game
from sorry_rules.base.errors import SaveFileError
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.savefile import new_save, read_save, restore, resume_command, state_digest, to_json, write_save

RULES = Path(__file__).parent / "rules"
OLD = Path(__file__).parent / "records"  # written by the code of save format version 1


def _saved_game(game, variant="standard", seed=8, plies=40, kinds=("bot:random", "bot:greedy")):
    state = game.new_game(seed, players=len(kinds))
    record = GameRecord(seed, state.seats, state.turn)
    players = [make_player(k[4:], seed, seat) for seat, k in enumerate(kinds)]
    final = play_game(game, state, players, max_plies=plies, record=record)
    saved = new_save(game, variant, (), seed, state, kinds, 20_000)
    saved.choices = list(record.choices)
    saved.reached(final)
    return saved, final


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


@pytest.fixture()
def saved(standard):
    return _saved_game(standard)


def test_round_trip_restores_the_exact_state(tmp_path, standard, saved):
    record, final = saved
    path = tmp_path / "game.json"
    write_save(path, record)
    again = read_save(path)
    assert again == record
    game, state = restore(again)
    assert state == final
    assert state_digest(state) == record.state_digest


def test_restored_game_goes_on_like_the_uninterrupted_one(tmp_path, standard):
    """Save at move 40, restore, play on with the same bots: the same final state as playing
    straight through from the same seed."""
    record, _ = _saved_game(standard, plies=40)
    straight, _ = _saved_game(standard, plies=20_000)
    write_save(tmp_path / "g.json", record)
    game, state = restore(read_save(tmp_path / "g.json"))
    players = [make_player(k[4:], record.seed, seat) for seat, k in enumerate(record.kinds)]
    final = play_game(game, state, players)
    assert final.winner is not None
    assert state_digest(final) == straight.state_digest


def test_hand_play_and_teams_round_trip(tmp_path):
    variant = str(RULES / "hand-teams.yaml")
    game = load_game(variant)
    record, final = _saved_game(game, variant, plies=60, kinds=("bot:greedy", "bot:random", "bot:greedy", "bot:random"))
    assert Path(record.variant.spec).is_absolute()
    write_save(tmp_path / "g.json", record)
    assert restore(read_save(tmp_path / "g.json"))[1] == final


def test_write_is_atomic(tmp_path, saved, monkeypatch):
    """A failure while replacing leaves the old save whole and no temporary file behind."""
    record, _ = saved
    path = tmp_path / "game.json"
    write_save(path, record)
    before = path.read_text()
    longer = record.model_copy(update={"choices": record.choices + [0]})

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveFileError, match="cannot write the game record to .*: No space left on device"):
        write_save(path, longer)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_save_creates_its_folder(tmp_path, saved):
    path = tmp_path / "a" / "b" / "game.json"
    write_save(path, saved[0])
    assert read_save(path) == saved[0]


def _rewrite(path: Path, change, checksum=True):
    """Edit a save's JSON; with checksum=True recompute the checksum (a careful forger)."""
    record = json.loads(path.read_text())
    change(record)
    if checksum:
        record["checksum"] = checksum_of(record)
    path.write_text(json.dumps(record))


DAMAGE = {
    "truncated": lambda p: p.write_text(p.read_text()[: len(p.read_text()) // 2]),
    "empty": lambda p: p.write_text(""),
    "binary": lambda p: p.write_bytes(b"\x00\xff\xfe garbage"),
    "a list": lambda p: p.write_text("[1, 2, 3]"),
    "deeply nested": lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    "another format": lambda p: _rewrite(p, lambda r: r.update(format="chess-save")),
    "newer version": lambda p: _rewrite(p, lambda r: r.update(version=99)),
    "hand-edited choice": lambda p: _rewrite(p, lambda r: r["choices"].__setitem__(5, r["choices"][5] + 1), checksum=False),
    "impossible choice": lambda p: _rewrite(p, lambda r: r["choices"].__setitem__(3, 77)),
    "choice changed, checksum fixed": lambda p: _rewrite(p, lambda r: r.update(choices=[1 - c if c < 2 else c
                                                                                for c in r["choices"]])),
    "wrong types": lambda p: _rewrite(p, lambda r: r.update(plies="eight")),
    "seed of another type": lambda p: _rewrite(p, lambda r: r.update(seed=r["seed"] + 0.5)),
    "negative choice": lambda p: _rewrite(p, lambda r: r["choices"].__setitem__(0, -1)),
    "missing field": lambda p: _rewrite(p, lambda r: r.pop("kinds")),
    "unknown colour": lambda p: _rewrite(p, lambda r: r.update(seats=["red", "mauve"])),
    "unknown field": lambda p: _rewrite(p, lambda r: r.update(colour="red")),
    "players changed": lambda p: _rewrite(p, lambda r: r.update(kinds=["bot:random"]), checksum=False),
    "no such player": lambda p: _rewrite(p, lambda r: r.update(kinds=["bot:nosuch", "bot:greedy"])),
    "a bot without its name": lambda p: _rewrite(p, lambda r: r.update(kinds=["bot", "human"])),
    "finished flag": lambda p: _rewrite(p, lambda r: r.update(finished=True)),
    "other seed": lambda p: _rewrite(p, lambda r: r.update(seed=r["seed"] + 1)),
    "moves cut short": lambda p: _rewrite(p, lambda r: r.update(choices=r["choices"][:-3], plies=r["plies"] - 3)),
    "variant changed": lambda p: _rewrite(p, lambda r: r["variant"].update(content_hash="0" * 64)),
    "variant gone": lambda p: _rewrite(p, lambda r: r["variant"].update(spec="/nowhere/rules.yaml")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_saves_raise_save_file_error(tmp_path, saved, damage):
    path = tmp_path / "game.json"
    write_save(path, saved[0])
    DAMAGE[damage](path)
    with pytest.raises(SaveFileError) as error:
        restore(read_save(path), source=str(path))
    assert str(path) in str(error.value)


def test_a_rule_file_gone_from_both_places_is_named_with_where_it_was_looked_for(tmp_path, saved):
    """A save names its house rule by the path it had; gone from there and not beside the
    save, the error says both places (README: a rule file no longer where the save says is
    looked for beside the save), not a list of the bundled overlays."""
    path = tmp_path / "game.json"
    write_save(path, saved[0])
    _rewrite(path, lambda r: r["variant"].update(rules=[str(tmp_path / "gone" / "mine.yaml")]))
    with pytest.raises(SaveFileError) as error:
        restore(read_save(path), source=str(path))
    assert "mine.yaml' is gone: it is neither there nor beside the record (mine.yaml)" in str(error.value)
    assert "bundled" not in str(error.value)


def test_the_resume_command_works_from_anywhere(tmp_path, monkeypatch):
    """The command `games` and a quit game print resumes the save from any folder: a house
    rule kept outside the save's folder comes with `--rules-root` (README: rule files are read
    only from the working directory's tree, the save's folder or such a root)."""
    import shlex

    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    rules, saves, elsewhere = tmp_path / "my rules", tmp_path / "saves", tmp_path / "elsewhere"
    for folder in (rules, saves, elsewhere):
        folder.mkdir()
    (rules / "mine.yaml").write_text("extends: standard\nname: mine\ncards:\n  '1': enter | forward 2\n")
    monkeypatch.chdir(rules)
    done = CliRunner().invoke(main, ["--auto", "--seed", "4", "--players", "2", "--rule", "mine.yaml",
                                     "--rule", "house/quick-game.yaml", "--max-plies", "20", "--save", str(saves / "g.json")])
    assert done.exit_code == 0, done.output
    command = savefile.resume_command(read_save(saves / "g.json"), saves / "g.json")
    assert command == f"sorry-play --resume {saves / 'g.json'} --rules-root {shlex.quote(str(rules))}"
    monkeypatch.chdir(elsewhere)
    words = shlex.split(command)[1:]
    resumed = CliRunner().invoke(main, [*words, "--max-plies", "30"])
    assert resumed.exit_code == 0 and "resuming at move 21" in resumed.output, resumed.output
    replay = savefile.resume_command(read_save(saves / "g.json"), saves / "g.json", ("replay",))
    assert replay == command.replace("--resume", "replay")
    assert CliRunner().invoke(main, shlex.split(replay)[1:]).exit_code == 0


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SaveFileError, match="no such file"):
        read_save(tmp_path / "nothing.json")
    with pytest.raises(SaveFileError, match="is a folder"):
        read_save(tmp_path)


def test_rule_file_changed_after_saving(tmp_path, standard):
    """A save names its variant by content hash: editing the rule file afterwards refuses
    the resume with a message saying so."""
    rules = tmp_path / "mine.yaml"
    rules.write_text("extends: standard\nname: mine\n")
    game = load_game(str(rules))
    record, _ = _saved_game(game, str(rules))
    write_save(tmp_path / "g.json", record)
    rules.write_text("extends: standard\nname: mine\npawns: 3\n")
    with pytest.raises(SaveFileError, match="has changed since the game was saved") as refused:
        restore(read_save(tmp_path / "g.json"), source=str(tmp_path / "g.json"))
    assert str(refused.value).endswith(f"put the rule files as they were beside the record ({tmp_path}) to resume it")


def test_json_has_format_version_hash_seed_and_choices(saved):
    record = json.loads(to_json(saved[0]))
    assert record["format"] == savefile.FORMAT == "sorry-rules-game" and record["version"] == savefile.VERSION == 2
    for key in ("seed", "choices", "kinds", "seats", "variant", "max_plies", "state_digest", "checksum"):
        assert key in record
    assert set(record["variant"]) == {"spec", "rules", "name", "content_hash"}
    assert record["checksum"] == checksum_of(record)


# ---- save files of version 1 (format "sorry-rules-save"), written before the record format ----
@pytest.mark.parametrize("name, plies, winner", [("save-v1-finished.json", 185, True), ("save-v1-unfinished.json", 30, False)])
def test_version_1_save_files_still_resume(name, plies, winner):
    """tests/records/save-v1-*.json were written by `sorry-play --auto --save` before the
    record format (see tests/records/README.md); they load, replay and check as then."""
    path = OLD / name
    assert json.loads(path.read_text())["format"] == "sorry-rules-save"
    saved = read_save(path)
    assert saved.plies == plies and saved.finished is winner and saved.first is None
    game, state = restore(saved, source=str(path))
    assert state.plies == plies and (state.winner is not None) is winner
    assert state_digest(state) == saved.state_digest
    again = files.from_json(to_json(saved))  # upgraded: written as the current version, the same game
    assert again == saved and json.loads(to_json(saved))["version"] == savefile.VERSION


def test_version_1_save_file_replays_on_the_command_line(tmp_path):
    path = tmp_path / "old.json"
    path.write_bytes((OLD / "save-v1-finished.json").read_bytes())
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    done = CliRunner().invoke(main, ["replay", str(path)], input="")
    assert done.exception is None and done.exit_code == 0, done.stderr
    assert done.stdout.startswith("standard: 2 players: ") and "Yellow wins after 185 moves." in done.stdout


def _old_save(tmp_path, change, checksum=True) -> Path:
    path = tmp_path / "old.json"
    path.write_bytes((OLD / "save-v1-unfinished.json").read_bytes())
    record = json.loads(path.read_text())
    change(record)
    if checksum:
        body = {k: v for k, v in record.items() if k != "checksum"}
        record["checksum"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    path.write_text(json.dumps(record))
    return path


@pytest.mark.parametrize("change, checksum, words", [
    (lambda r: r.update(version=2), True, "sorry-rules-save version 2 is written by a newer sorry-rules"),
    (lambda r: r.update(version=0), True, "sorry-rules-save version 0 is an unknown version"),
    (lambda r: r["choices"].append(0), False, "edited or damaged (checksum mismatch)"),
    (lambda r: r.pop("kinds"), True, "field 'kinds' missing"),
    (lambda r: r.update(plies=r["plies"] + 1), True, "move count and choices disagree"),
    (lambda r: r.update(seed="5"), True, "seed"),
])
def test_damaged_version_1_save_files(tmp_path, change, checksum, words):
    path = _old_save(tmp_path, change, checksum)
    with pytest.raises(SaveFileError) as error:
        read_save(path)
    assert str(error.value).startswith(f"{path}: ") and words in str(error.value)


def _cli(args):
    """`sorry-play ARGS` in this process: (exit code, stderr); an exception that escaped the
    command (which users would see as a traceback) fails the test."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, args, input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stderr


@pytest.mark.parametrize("damage", ["truncated", "hand-edited choice", "variant changed"])
def test_cli_resume_of_a_damaged_save_is_a_message_not_a_traceback(tmp_path, saved, damage):
    """In this process for each damage; through the real entry point (`python -m
    sorry_rules.cli`, a new process) for one of them."""
    path = tmp_path / "game.json"
    write_save(path, saved[0])
    DAMAGE[damage](path)
    for args in (["--resume", str(path), "--auto"], ["replay", str(path)]):
        runs = [_cli(args)]
        if damage == "truncated":
            done = subprocess.run([sys.executable, "-m", "sorry_rules.cli", *args], capture_output=True, text=True, timeout=60)
            runs.append((done.returncode, done.stderr))
        for code, stderr in runs:
            assert code == 1
            assert stderr.startswith("error: ") and "Traceback" not in stderr
            assert str(path) in stderr


def test_an_overlay_changed_after_saving_is_among_the_files_named(tmp_path, monkeypatch):
    """A game saved with `--rule ov.yaml`: editing the overlay names the overlay among the
    files that may have changed, not only the unchanged base."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ov.yaml").write_text("extends: standard\ncards:\n  '3': forward 3\n")
    runner = CliRunner()
    assert runner.invoke(main, ["--auto", "--seed", "1", "--players", "2", "--rule", "ov.yaml", "--save",
                                "g.json"]).exit_code == 0
    (tmp_path / "ov.yaml").write_text("extends: standard\ncards:\n  '3': forward 3 | backward 3\n")
    result = runner.invoke(main, ["replay", "g.json"])
    assert result.exit_code == 1
    assert "one of the rule files 'standard', '" in result.output and "ov.yaml' (the variant and its overlays) " \
        "has changed since the game was saved" in result.output


def test_a_save_moved_with_its_overlay_replays_from_the_new_folder(tmp_path, monkeypatch):
    """README: rule files are read from the save's folder: a save and the house rule it was
    played with, moved together to another folder, replay there (the recorded path is gone;
    the file of that name beside the save is taken, and must hold the recorded rules)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    overlay = first / "fast.yaml"
    overlay.write_text("extends: standard\nwin: home(player) >= 2\n")
    monkeypatch.chdir(first)
    game = load_game("standard", (str(overlay),))
    state = game.new_game(3, players=2)
    players = [make_player("random", 3, seat) for seat in range(2)]
    final = play_game(game, state, players, record=(record := GameRecord(3, state.seats, state.turn)))
    saved = new_save(game, "standard", (str(overlay),), 3, state, ["bot:random", "bot:random"], 1000)
    saved.choices = record.choices
    saved.reached(final)
    write_save(second / "game.json", saved)
    (second / "fast.yaml").write_text(overlay.read_text())
    overlay.unlink()
    monkeypatch.chdir(tmp_path)
    _, again = restore(read_save(second / "game.json"), source=str(second / "game.json"))
    assert state_digest(again) == state_digest(final)
    (second / "fast.yaml").write_text("extends: standard\nwin: home(player) >= 3\n")  # other rules: refused
    with pytest.raises(SaveFileError, match="has changed since the game was saved"):
        restore(read_save(second / "game.json"), source=str(second / "game.json"))
    # the recorded file there again, changed or out of reach: the copy beside the save, the recorded rules, is played
    (second / "fast.yaml").write_text(overlay_text := "extends: standard\nwin: home(player) >= 2\n")
    overlay.write_text(overlay_text + "description: changed since\n")
    resumed = read_save(second / "game.json")
    _, again = restore(resumed, source=str(second / "game.json"))
    assert state_digest(again) == state_digest(final)
    # played from the copy beside it, the record names that copy from then on (its next save, its resume command)
    assert resumed.variant.rules == [str(second / "fast.yaml")] and resumed.variant.spec == "standard"
    assert str(first) not in resume_command(resumed, second / "game.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the recorded file outside the trees read from (first/ is not one)
    overlay.write_text(overlay_text)
    _, again = restore(read_save(second / "game.json"), source=str(second / "game.json"))
    assert state_digest(again) == state_digest(final)


def test_an_overlay_that_names_the_game_after_itself_is_not_named_twice(tmp_path, monkeypatch):
    """An author's overlay with `name: quick2` (REFERENCE: the bundled ones leave `name`
    alone): the game is said as its base and the overlay, `standard + quick2`, in the --auto
    header and in `games`, not `quick2 + quick2`."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    monkeypatch.chdir(tmp_path)
    Path("quick2.yaml").write_text("extends: standard\nname: quick2\nwin: home(team) >= 2\n")
    played = CliRunner().invoke(main, ["--auto", "--seed", "3", "--players", "2", "--rule", "quick2.yaml",
                                       "--max-plies", "10", "--save", "q.json"])
    assert played.exit_code == 0 and played.output.startswith("standard + quick2: "), played.output
    listed = CliRunner().invoke(main, ["games", "--folder", "."])
    assert "standard + quick2" in listed.output and "quick2 + quick2" not in listed.output


def test_games_says_when_it_lists_only_the_newest(tmp_path, monkeypatch, saved):
    """`games` lists at most MAX_LISTED saves (LIMITS.md): past that it says how many there are."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main
    from sorry_rules.records import savelist

    for n in range(3):
        write_save(tmp_path / f"g{n}.json", saved[0])
    monkeypatch.setattr(savelist, "MAX_LISTED", 2)
    result = CliRunner().invoke(main, ["games", "--folder", str(tmp_path)])
    assert result.exit_code == 0 and f"Saved games in {tmp_path} (the newest 2 of 3):" in result.output, result.output


def test_a_results_file_given_as_a_saved_game_is_said_to_be_one(tmp_path):
    """A `simulate --out` file (one JSON object a line) handed to replay, resume or render is
    named for what it is, with the command that reads it, not "damaged or truncated"."""
    out = tmp_path / "run.jsonl"
    code, stderr = _cli(["simulate", "--games", "2", "--seed", "3", "--out", str(out)])
    assert code == 0, stderr
    for args in (["replay", str(out)], ["--resume", str(out), "--auto"], ["render", "--game", str(out)]):
        code, stderr = _cli(args)
        assert code == 1
        assert stderr == (f"error: {out}: a results file of `sorry-play simulate` or `compare`, not a game record: "
                          f"report it with `sorry-play simulate --from {out}` (or `compare --from`)\n"), args


def test_a_record_longer_than_its_move_limit_is_refused_in_counted_words(saved):
    """A record with more choices than its move limit lets the game play names both counts
    in plain English: '1 move', not '1 moves' (the same words as every 'after N moves')."""
    record, _ = saved
    record.max_plies = 1
    with pytest.raises(SaveFileError, match=r"stopped at its move limit after 1 move but the record has 40 choices"):
        restore(record)


def test_a_save_played_on_in_two_windows_keeps_both_games(tmp_path, saved):
    """Nothing is lost: when the same save is resumed twice and each window plays its own move,
    the first to save keeps the file; the other finds moves there it did not make, leaves the
    file as it is and goes on in a new file beside it, and says so."""
    record, _ = saved
    path = tmp_path / "game.json"
    write_save(path, record)
    here, there = savefile.KeptSave(path), savefile.KeptSave(path)
    mine, theirs = record.model_copy(deep=True), record.model_copy(deep=True)
    mine.choices.append(0)
    mine.plies += 1
    theirs.choices.append(1)
    theirs.plies += 1
    assert here.write(mine) is None and read_save(path).choices == mine.choices
    said = there.write(theirs)
    assert there.path == tmp_path / "game-2.json" and f"this game goes on in {there.path}" in said
    assert read_save(path).choices == mine.choices and read_save(there.path).choices == theirs.choices
    theirs.choices.append(0)
    theirs.plies += 1
    assert there.write(theirs) is None and read_save(there.path).choices == theirs.choices  # its own file from now on
    mine.choices.append(2)
    mine.plies += 1
    assert here.write(mine) is None and read_save(path).choices == mine.choices


def test_a_save_file_removed_while_playing_is_written_again(tmp_path, saved):
    record, _ = saved
    path = tmp_path / "game.json"
    kept = savefile.KeptSave(path)
    assert kept.write(record) is None and kept.path == path and read_save(path) == record


def test_a_game_whose_rule_files_moved_keeps_its_save(tmp_path, saved):
    """A resume that found the rules beside the save names them anew (same content hash): its
    saves go on replacing the same file, not a new one."""
    record, _ = saved
    path = tmp_path / "game.json"
    write_save(path, record)
    moved = record.model_copy(deep=True)
    moved.variant = moved.variant.model_copy(update={"rules": [str(tmp_path / "moved.yaml")]})
    kept = savefile.KeptSave(path)
    assert kept.write(moved) is None and kept.path == path and read_save(path).variant.rules == moved.variant.rules
