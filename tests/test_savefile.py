"""Saved games: exact round trips, atomic writes, and a clear SaveFileError (never a
traceback) for every damaged, edited, foreign or mismatched file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sorry_rules.records import savefile
from sorry_rules.players.registry import make_player
from sorry_rules.compiler import load_game
from sorry_rules.base.errors import SaveFileError
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.savefile import SavedGame, read_save, restore, state_digest, to_json, write_save

RULES = Path(__file__).parent / "rules"


def _saved_game(game, variant="standard", seed=8, plies=40, kinds=("bot:random", "bot:greedy")):
    state = game.new_game(seed, players=len(kinds))
    record = GameRecord(seed, state.seats, state.turn)
    players = [make_player(k[4:], seed, seat) for seat, k in enumerate(kinds)]
    final = play_game(game, state, players, max_plies=plies, record=record)
    saved = SavedGame(variant=savefile.spec_for_save(variant), rules=[], content_hash=game.content_hash, seed=seed,
                      seats=[game.colours[c] for c in state.seats], first=state.turn, kinds=list(kinds),
                      max_plies=20_000, choices=list(record.choices))
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
    assert Path(record.variant).is_absolute()
    write_save(tmp_path / "g.json", record)
    assert restore(read_save(tmp_path / "g.json"))[1] == final


def test_write_is_atomic(tmp_path, saved, monkeypatch):
    """A failure while replacing leaves the old save whole and no temporary file behind."""
    record, _ = saved
    path = tmp_path / "game.json"
    write_save(path, record)
    before = path.read_text()
    longer = SavedGame(**{**record.__dict__, "choices": record.choices + [0]})

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveFileError, match="cannot save the game"):
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
        record["checksum"] = savefile._checksum(record)
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
    "choice changed, checksum fixed": lambda p: _rewrite(p, lambda r: r.update(choices=[1 - c if c < 2 else c for c in r["choices"]])),
    "wrong types": lambda p: _rewrite(p, lambda r: r.update(seed="eight")),
    "negative choice": lambda p: _rewrite(p, lambda r: r["choices"].__setitem__(0, -1)),
    "missing field": lambda p: _rewrite(p, lambda r: r.pop("kinds")),
    "unknown colour": lambda p: _rewrite(p, lambda r: r.update(seats=["red", "mauve"])),
    "other seed": lambda p: _rewrite(p, lambda r: r.update(seed=r["seed"] + 1)),
    "moves cut short": lambda p: _rewrite(p, lambda r: r.update(choices=r["choices"][:-3], plies=r["plies"] - 3)),
    "variant changed": lambda p: _rewrite(p, lambda r: r.update(content_hash="0" * 64)),
    "variant gone": lambda p: _rewrite(p, lambda r: r.update(variant="/nowhere/rules.yaml")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_saves_raise_save_file_error(tmp_path, saved, damage):
    path = tmp_path / "game.json"
    write_save(path, saved[0])
    DAMAGE[damage](path)
    with pytest.raises(SaveFileError) as error:
        restore(read_save(path), source=str(path))
    assert str(path) in str(error.value)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SaveFileError, match="no such save file"):
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
    with pytest.raises(SaveFileError, match="has changed since the game was saved"):
        restore(read_save(tmp_path / "g.json"))


def test_json_has_format_version_hash_seed_and_choices(saved):
    record = json.loads(to_json(saved[0]))
    assert record["format"] == savefile.FORMAT and record["version"] == savefile.VERSION
    for key in ("content_hash", "seed", "choices", "kinds", "seats", "variant", "rules", "checksum"):
        assert key in record


@pytest.mark.parametrize("damage", ["truncated", "hand-edited choice", "variant changed"])
def test_cli_resume_of_a_damaged_save_is_a_message_not_a_traceback(tmp_path, saved, damage):
    path = tmp_path / "game.json"
    write_save(path, saved[0])
    DAMAGE[damage](path)
    for args in (["--resume", str(path), "--auto"], ["replay", str(path)]):
        done = subprocess.run([sys.executable, "-m", "sorry_rules.cli", *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
        assert str(path) in done.stderr
