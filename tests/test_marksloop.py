"""players.fastloop on variants with marks (the Moves flavour, the marks kept in a local)
against `play_game`'s own loop over the same generated moves and against the interpreter
alone (`Game.use_fast_moves(None)`): the same choices, the same turns reported (states with
their marks), the same final `State`, marks included, on many seeds and 2-4 players."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine import marks as engine_marks
from sorry_rules.players import fastloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, play_game

from .sizes import short_and_full
from .test_marks import COUNTING

MERCY, FREEZE = "house/mercy-start.yaml", "house/freeze.yaml"
CASES = [("standard", (MERCY,)), ("partnership", (MERCY,)), ("standard", (FREEZE,)), ("partnership", (FREEZE,)),
         ("standard", (FREEZE, "house/bounce-back.yaml", "house/backward-into-safety.yaml")),  # tests/scenarios/house/freeze-geometry
         ("partnership", (MERCY, FREEZE)),
         ("standard", (MERCY, FREEZE)), ("standard", (MERCY, "house/bump-bonus.yaml")),  # with bonus turns
         ("counting", ())]
WIN_BY_MARKS = "win: home(team) == pawns(team) or count(pawns own marked hunted) >= 3\n"


def _load(spec, rules, tmp_path):
    """The game of a case; "counting" is test_marks' counting file with a win that reads marks."""
    if spec != "counting":
        return load_game(spec, rules)
    path = tmp_path / "counting.yaml"
    path.write_text(COUNTING + WIN_BY_MARKS)
    return load_game(str(path))


class _OwnLoop:
    """`play_game` made to play its own loop (no lean loop applies) while in a `with`."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def __enter__(self):
        self.monkeypatch.setattr(fastloop, "applies", lambda *args: False)

    def __exit__(self, *exc):
        self.monkeypatch.undo()


def _play(game, seed: int, players: int) -> tuple:
    start = game.new_game(seed, players=players)
    bots = [RandomPlayer(seed, s) for s in range(players)]
    turns, record = [], GameRecord(seed, start.seats, start.turn)
    final = play_game(game, start, bots, on_turn=lambda turn, state: turns.append((turn, state)), record=record)
    return final, turns, record.choices, record.finished


@pytest.mark.parametrize("spec,rules", CASES)
@pytest.mark.parametrize("games", short_and_full(3, 200))
def test_the_lean_loop_plays_marks_games_as_the_reference(spec, rules, games, tmp_path, monkeypatch):
    lean, own, reference = (_load(spec, rules, tmp_path) for _ in range(3))
    reference.use_fast_moves(None)
    assert lean.marks and lean.fast_moves.takes_marks and lean.fast_moves.select == ()
    marked_games = 0
    for seed in range(games):
        players = lean.players_min + seed % (lean.players_max - lean.players_min + 1)
        start = lean.new_game(seed, players=players)
        assert fastloop.applies(lean, start, [RandomPlayer(seed, s) for s in range(players)])
        played = _play(lean, seed, players)
        with _OwnLoop(monkeypatch):
            assert _play(own, seed, players) == played
        assert _play(reference, seed, players) == played
        marked_games += any(any(state.marks) for _, state in played[1])
    assert marked_games, "some game placed a mark"


def test_the_lean_loop_stops_at_max_plies_with_the_marks_of_then(monkeypatch):
    lean, own = load_game("standard", (FREEZE,)), load_game("standard", (FREEZE,))
    for max_plies in (0, 1, 9, 57):
        start = lean.new_game(3, players=3)
        bots = [RandomPlayer(3, s) for s in range(3)]
        final = play_game(lean, start, bots, max_plies=max_plies)
        with _OwnLoop(monkeypatch):
            assert play_game(own, start, bots, max_plies=max_plies) == final
        assert final.plies == max_plies


def test_turn_begins_keeps_the_marks_when_none_ends():
    """The same object back when no mark ends (the generated helpers cache on identity)."""
    game = load_game("standard", (FREEZE,))
    marks = (((1, 10, 2),),)
    assert engine_marks.turn_begins(game.marks, marks, 0) is marks
    assert engine_marks.turn_begins(game.marks, marks, 2) == ((),)
