"""Game logs (game records without players, sorry_rules/records): a game round-trips through
JSON and replays to the identical final state; files are written atomically; logs of
version 1 still replay; damaged, foreign, edited or mismatched logs give a clear
SaveFileError, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sorry_rules.records import gamelog
from sorry_rules.compiler import load_game
from sorry_rules.base.errors import SaveFileError
from sorry_rules.records.record import checksum_of

from .randomplay import play_random

OLD = Path(__file__).parent / "records"  # written by the code of game log version 1


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


@pytest.fixture(scope="module")
def played(standard):
    return play_random(standard, 11, 3, spec="standard")


def test_round_trip_through_json_and_replay(standard, played):
    log = played.log
    text = gamelog.to_json(log)
    data = json.loads(text)
    assert data["format"] == gamelog.FORMAT and data["version"] == gamelog.VERSION
    assert data["variant"]["content_hash"] == standard.content_hash and data["plies"] == len(played.choices)
    assert data["seats"] == [standard.colours[c] for c in played.start.seats]
    assert data["kinds"] is None and data["max_plies"] is None and data["finished"] is True
    assert "\n" not in text.rstrip("\n")  # one line: the last line of a failure message is the log
    assert gamelog.from_json(text) == log
    game, final = gamelog.replay_log(gamelog.from_json(text))  # loads the variant itself
    assert final == played.final and game.content_hash == standard.content_hash


def test_state_digest_tells_states_apart(standard, played):
    assert gamelog.state_digest(played.final) == gamelog.state_digest(tuple(played.final))
    assert gamelog.state_digest(played.final) != gamelog.state_digest(played.final._replace(rng=played.final.rng + 1))


def test_explicit_first_seat_and_text_seeds(standard):
    start = standard.new_game("a seed", seats=(2, 0), first=1)
    log = gamelog.new_log(standard, "standard", (), "a seed", start, [], final=start, first=1)
    assert gamelog.replay_log(gamelog.from_json(gamelog.to_json(log)), standard)[1] == start


def test_unfinished_game_replays(standard, played):
    start = played.start
    half = played.choices[: len(played.choices) // 2]
    from sorry_rules.players.runner import replay

    middle = replay(standard, start, half)
    log = gamelog.new_log(standard, "standard", (), 11, start, half, final=middle)
    assert gamelog.replay_log(gamelog.from_json(gamelog.to_json(log)), standard)[1] == middle


def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path, played, monkeypatch):
    path = tmp_path / "game.json"
    gamelog.write_log(path, played.log)
    before = path.read_bytes()
    assert gamelog.read_log(path) == played.log

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    other = played.log.model_copy(update={"choices": played.log.choices[:3], "plies": 3, "state_digest": None})
    with pytest.raises(SaveFileError, match="cannot write the game record to .*: disk full"):
        gamelog.write_log(path, other)
    assert path.read_bytes() == before  # the old log is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file left


def _error(text) -> str:
    with pytest.raises(SaveFileError) as caught:
        gamelog.from_json(text)
    return str(caught.value)


def test_truncated_and_damaged_logs(played):
    text = gamelog.to_json(played.log)
    assert "damaged or truncated" in _error(text[: len(text) // 2])
    assert "damaged or truncated" in _error("")
    assert "not a sorry-rules game record (a game record is a JSON object" in _error("<!doctype html>\n<p>a replay page</p>\n")
    assert "not UTF-8" in _error(b"\xff\xfe{}")
    assert "damaged or truncated (nested too deep" in _error("[" * 100_000)
    assert "number is too long" in _error('{"seed": ' + "1" * 5000 + "}")  # more digits than int() takes
    data = json.loads(text)
    data["plies"] += 1
    assert "plies" in _error(json.dumps(data))


@pytest.mark.parametrize("text", ["{}", "[]", "42", '{"format": "something-else", "version": 1}',
                                  "name: standard\ncolours: [red, blue]\n"])
def test_foreign_files(text):
    message = _error(text)
    assert "not a sorry-rules game record" in message or "damaged" in message


def test_other_version(played):
    data = json.loads(gamelog.to_json(played.log))
    data["version"] = 3
    message = _error(json.dumps(data))
    assert "sorry-rules-game version 3 is written by a newer sorry-rules" in message
    assert f"reads sorry-rules-game version {gamelog.VERSION}" in message
    data["version"] = "2"
    assert "its version '2' is no whole number (write it without quotes)" in _error(json.dumps(data))


def test_edited_log_fails_its_checksum(played):
    data = json.loads(gamelog.to_json(played.log))
    data["seed"] += 1
    assert "edited or damaged (checksum mismatch)" in _error(json.dumps(data))


def _with_checksum(data: dict) -> str:
    data["checksum"] = checksum_of(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("seed", 1.5, "seed"),
        ("seed", True, "seed"),
        ("seats", [], "seats"),
        ("first", 7, "first"),
        ("choices", [0, -1], "choices"),
        ("choices", [0, "1"], "choices"),
        ("state_digest", "abc", "state_digest"),
        ("variant", {"spec": "standard"}, "variant"),
        ("kinds", ["human"], "one player kind per seat"),
        ("max_plies", 0, "max_plies"),
        ("extra", 1, "unknown field 'extra'"),
    ],
)
def test_malformed_fields(played, field, value, words):
    data = json.loads(gamelog.to_json(played.log))
    data[field] = value
    if field == "choices":
        data["plies"] = len(value)
    assert words in _error(_with_checksum(data))  # a correct checksum does not make it valid


def test_every_field_must_be_written(played):
    data = json.loads(gamelog.to_json(played.log))
    del data["kinds"]
    assert "field(s) 'kinds' missing" in _error(_with_checksum(data))


# ---- game logs of version 1 (format "sorry-rules-game-log") --------------------------------
def test_version_1_log_still_replays(standard, played):
    """tests/records/gamelog-v1.json was written by the code of version 1 for this very game
    (`play_random(standard, 11, 3, spec="standard")`); it reads as the same record."""
    path = OLD / "gamelog-v1.json"
    assert json.loads(path.read_text())["format"] == "sorry-rules-game-log"
    log = gamelog.read_log(path)
    assert log.choices == played.log.choices and log.seats == played.log.seats and log.first is None
    assert log.state_digest == played.log.state_digest and log.kinds is None and log.finished is None
    assert gamelog.replay_log(log, standard)[1] == played.final


@pytest.mark.parametrize("field, value, words", [("final", "abc", "final"), ("extra", 1, "unknown field 'extra'"),
                                                 ("plies", 3, "plies"), ("first", 9, "first")])
def test_malformed_version_1_logs(field, value, words):
    data = json.loads((OLD / "gamelog-v1.json").read_text())
    data[field] = value
    assert words in _error(json.dumps(data))


def _replay_error(log, game=None) -> str:
    with pytest.raises(SaveFileError) as caught:
        gamelog.replay_log(log, game)
    return str(caught.value)


def test_edited_logs_do_not_replay(standard, played):
    log = played.log
    changed = list(log.choices)
    index = next(i for i, c in enumerate(changed) if c > 0)
    changed[index] = 0
    edited = log.model_copy(update={"choices": changed})
    assert "final state" in _replay_error(edited, standard) or "do not fit" in _replay_error(edited, standard)
    too_many = log.model_copy(update={"choices": log.choices + [0], "plies": log.plies + 1})
    assert "ended after" in _replay_error(too_many, standard)
    illegal = log.model_copy(update={"choices": [999] + log.choices[1:]})
    assert "do not fit" in _replay_error(illegal, standard)
    reseeded = log.model_copy(update={"seed": 12})
    assert _replay_error(reseeded, standard)
    unfinished = log.model_copy(update={"finished": False})
    assert "final state" in _replay_error(unfinished, standard)


def test_logs_of_other_rules(standard, played, tmp_path, monkeypatch):
    log = played.log
    def variant(**change):
        return log.variant.model_copy(update=change)

    other_hash = log.model_copy(update={"variant": variant(content_hash="0" * 64)})
    assert "other rules" in _replay_error(other_hash, standard) and "other rules" in _replay_error(other_hash)
    bad_seat = log.model_copy(update={"seats": ["red", "purple"]})
    assert "not colours" in _replay_error(bad_seat, standard)
    twice = log.model_copy(update={"seats": ["red", "red"]})
    assert "seated twice" in _replay_error(twice, standard)
    alone = log.model_copy(update={"seats": ["red"]})
    assert "for 2-4 players" in _replay_error(alone, standard)
    missing = log.model_copy(update={"variant": variant(spec=str(tmp_path / "gone.yaml"))})
    assert "gone.yaml' is gone: it is neither there nor beside the record" in _replay_error(missing)
    monkeypatch.chdir(tmp_path)  # rule files are read from the working directory's tree
    (tmp_path / "broken.yaml").write_text("extends: standard\npawns: 0\n")
    broken = log.model_copy(update={"variant": variant(spec=str(tmp_path / "broken.yaml"))})
    assert "do not load" in _replay_error(broken)


def test_unreadable_log(tmp_path):
    with pytest.raises(SaveFileError, match="cannot read the game record: no such file"):
        gamelog.read_log(tmp_path / "nothing.json")
    with pytest.raises(SaveFileError, match="cannot read the game record: it is a folder"):
        gamelog.read_log(tmp_path)
