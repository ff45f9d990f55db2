"""Golden games: the same seeds give the same games, byte for byte, over several variants.

Two kinds of golden data, both generated from the code as it was before the issue-11
refactoring (the behaviour every later change must keep):

  * `tests/golden/games/NAME.txt`: the exact output of `sorry-play --auto --seed S ...`
    for standard (2, 3 and 4 players, random and greedy bots, an expert against a greedy bot),
    partnership, points (3 players) and house-rule overlays on standard and partnership;
  * `tests/golden/games/seeded-random.json`: for each of those rule sets, seeded random games
    played through the engine's public interface (`load_game`, `new_game`, `legal_moves`,
    `apply`, tests/randomplay.py): per seed the number of plies, the winner's seat, and
    SHA-256 fingerprints of the list of choices and of the final placement (square names
    per seated colour).

A difference is a change of behaviour. If it is deliberate, regenerate with
SORRY_UPDATE_GOLDEN=1 and review the diff; never regenerate to make a refactoring pass.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game

from .randomplay import play_random

GOLDEN = Path(__file__).resolve().parent / "golden" / "games"
UPDATE = os.environ.get("SORRY_UPDATE_GOLDEN") == "1"
ENV = {"NO_COLOR": "1", "COLUMNS": "80", "LINES": "24", "TERM": "dumb"}

#: name -> the arguments of `sorry-play` (all with --auto and a seed).
AUTO_GAMES = {
    "standard-2p-seed7": ["--auto", "--seed", "7", "--players", "2"],
    "standard-4p-seed7": ["--variant", "standard", "--auto", "--seed", "7", "--players", "4"],
    "standard-3p-greedy-seed11": ["--auto", "--seed", "11", "--players", "3", "--bot", "greedy"],
    "standard-quick-game-2p-expert-greedy-seed5": ["--rule", "house/quick-game.yaml", "--auto", "--seed", "5",
                                                   "--players", "2", "--bot", "expert", "--seat", "yellow=bot:greedy"],
    "partnership-seed3": ["--variant", "partnership", "--auto", "--seed", "3"],
    "points-3p-seed3": ["--variant", "points", "--auto", "--seed", "3", "--players", "3"],
    "standard-sorry-forward-4-quick-game-seed1": ["--variant", "standard", "--rule", "house/sorry-forward-4.yaml",
                                                  "--rule", "house/quick-game.yaml", "--auto", "--seed", "1"],
    "standard-split-7-any-must-bump-3p-seed5": ["--variant", "standard", "--rule", "house/split-7-any.yaml",
                                                "--rule", "house/must-bump.yaml", "--auto", "--seed", "5",
                                                "--players", "3"],
    "partnership-partners-safe-switch-partner-seed4": ["--variant", "partnership", "--rule", "house/partners-safe.yaml",
                                                       "--rule", "house/switch-partner.yaml", "--auto", "--seed", "4"],
}

#: name -> (variant, overlays, players) for the seeded random games.
RANDOM_GAMES = {
    "standard-2p": ("standard", (), 2),
    "standard-3p": ("standard", (), 3),
    "standard-4p": ("standard", (), 4),
    "partnership-4p": ("partnership", (), 4),
    "points-3p": ("points", (), 3),
    "points-cumulative-bonus-2p": ("points", ("options/cumulative-bonus.yaml",), 2),
    "standard-sorry-forward-4-quick-game-4p": ("standard", ("house/sorry-forward-4.yaml", "house/quick-game.yaml"), 4),
    "standard-split-7-any-must-bump-2p": ("standard", ("house/split-7-any.yaml", "house/must-bump.yaml"), 2),
    "standard-deck-44-three-pawns-3p": ("standard", ("house/deck-44.yaml", "house/three-pawns.yaml"), 3),
    "partnership-partners-safe-switch-partner-4p": ("partnership", ("house/partners-safe.yaml",
                                                                    "house/switch-partner.yaml"), 4),
}
RANDOM_SEEDS = range(12)
RANDOM_SEEDS_DEFAULT = 4  # seeds per case in the default run; `pytest -m slow` checks all of them
RANDOM_FILE = GOLDEN / "seeded-random.json"


def _check_golden(path: Path, data: bytes) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    assert path.exists(), f"golden file {path} missing: generate it with SORRY_UPDATE_GOLDEN=1 and review it"
    assert data == path.read_bytes(), (f"{path.name}: the game differs from the golden game: behaviour changed "
                                       "(SORRY_UPDATE_GOLDEN=1 only for a deliberate change)")


@pytest.mark.parametrize("name", sorted(AUTO_GAMES))
def test_auto_game_is_the_golden_game(name):
    result = CliRunner().invoke(main, AUTO_GAMES[name], env=ENV)
    assert result.exit_code == 0, result.output
    _check_golden(GOLDEN / f"{name}.txt", result.stdout_bytes)


def test_the_command_itself_prints_the_golden_game():
    """The installed command (a fresh process, stdout a pipe) prints the same bytes as the
    in-process runs above."""
    name = "standard-2p-seed7"
    env = {**os.environ, **ENV}
    out = subprocess.run([sys.executable, "-m", "sorry_rules", *AUTO_GAMES[name]], env=env,
                         capture_output=True, check=True, timeout=120).stdout
    assert out == (GOLDEN / f"{name}.txt").read_bytes()


def _sha(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


def _random_record(game, seed: int, players: int) -> list:
    played = play_random(game, seed, players, check=None)
    final = played.final
    placement = {game.colours[c]: [game.layout.name(sq) for sq in final.placement[c]] for c in final.seats}
    return [seed, final.plies, final.winner, _sha(played.choices), _sha(placement)]


def _write_random_file(stored: dict) -> None:
    """One game per line, cases sorted by name."""
    cases = [f' "{name}": [\n' + ",\n".join("  " + json.dumps(record) for record in stored[name]) + "\n ]"
             for name in sorted(stored)]
    RANDOM_FILE.parent.mkdir(parents=True, exist_ok=True)
    RANDOM_FILE.write_text("{\n" + ",\n".join(cases) + "\n}\n", encoding="utf-8")


@pytest.mark.parametrize("size", [pytest.param(RANDOM_SEEDS_DEFAULT, id="short"),
                                  pytest.param(len(RANDOM_SEEDS), id="full", marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", sorted(RANDOM_GAMES))
def test_seeded_random_games_are_the_golden_games(name, size):
    """The default run checks the first RANDOM_SEEDS_DEFAULT seeds of each case, `-m slow` all."""
    variant, overlays, players = RANDOM_GAMES[name]
    game = load_game(variant, overlays)
    seeds = RANDOM_SEEDS if UPDATE else RANDOM_SEEDS[:size]
    records = [_random_record(game, seed, players) for seed in seeds]
    stored = json.loads(RANDOM_FILE.read_text(encoding="utf-8")) if RANDOM_FILE.exists() else {}
    if UPDATE:
        stored[name] = records
        _write_random_file(stored)
        records = records[:size]
    assert name in stored, f"{RANDOM_FILE.name} lacks {name}: generate it with SORRY_UPDATE_GOLDEN=1 and review it"
    expected = stored[name][:size]
    for got, want in zip(records, expected):
        assert got == want, (f"{name}, seed {want[0]}: [seed, plies, winner, choices, placement] {got} != golden "
                             f"{want}: behaviour changed")
    assert len(records) == len(expected) == size


def test_golden_data_covers_every_game():
    """Nothing stale: every golden file belongs to a case above, and every case has one."""
    files = {path.name for path in GOLDEN.iterdir()}
    assert files == {f"{name}.txt" for name in AUTO_GAMES} | {RANDOM_FILE.name}
    assert set(json.loads(RANDOM_FILE.read_text(encoding="utf-8"))) == set(RANDOM_GAMES)
