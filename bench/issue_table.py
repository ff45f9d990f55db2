"""Issue 14's table: apologies, sorry-rules and limit_sorry.py side by side, measured in one run,
and how sorry-rules' figures grow with players, pawns and board size.

Each round times, one after another so that machine noise hits all alike:
- random games per second (uniformly random legal moves until someone wins), 4 and 2 players,
  of standard Sorry!, by
  * apologies (PyPI, a hand-written Python engine): its copy-free low-level loop
    (bench/apologies_rate.py, `api="lowlevel"`); skipped when apologies is not installed;
  * sorry-rules in this process: the public `play_game` with `RandomPlayer`s, the path
    `sorry-play simulate` takes (generated move functions and the lean loop when the rule
    file allows them);
  * limit_sorry.py (a hand-specialised standard-only engine, `--limit`, skipped when absent),
    imported and run here with its own `games_per_second`;
- legal-move sets per second over mid-game positions: sorry-rules' `Game.legal_moves` over
  bench/engine_rate.py's 400 positions, apologies' `Rules.construct_legal_moves` over 200
  decisions taken the same way (cards 60..240 of seeded random 4-player games), limit_sorry's
  own `movegen_per_second`;
- with `--growth` (the default), sorry-rules alone on other rule files: players (2-4 on
  standard, 2-6 on tests/rules/six-colours.yaml), pawns per player (`pawns: N` overlays
  written to a temporary folder) and board size (`board:` overlays with other side lengths,
  standard's slides, start exit and safety zone kept): cards per game, CPU microseconds
  per card, games and legal-move sets (over 200 mid-game positions of that rule file and
  player count) per CPU-second, and their ratios to standard with 4 players.
Figures are medians of the rounds (wall clock; the JSON has the CPU rates too). The policies
differ slightly: sorry-rules and limit_sorry pick uniformly among the distinct legal results,
apologies among its move list (where a split 7 is usually listed twice); apologies' rules
differ too (bench/README.md lists how), so its games are longer.

    python bench/issue_table.py                         # 5 rounds, 1 s per figure
    python bench/issue_table.py --rounds 7 --seconds 2 --json
    python bench/issue_table.py --no-growth             # the engines' table only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import apologies_rate  # noqa: E402
from codegen_rate import LIMIT, games_rate, load_limit, movegen_rate  # noqa: E402
from engine_rate import mid_game_positions  # noqa: E402

from sorry_rules.compiler import load_game  # noqa: E402

SIX = str(HERE.parent / "tests" / "rules" / "six-colours.yaml")
BOARD = ("board:\n  side_length: {side}\n  start_exit: 4\n  safety_entry: 2\n  safety_length: 5\n"
         "  slides:\n    - {{from: 1, to: 4}}\n    - {{from: 9, to: 13}}\n")


def growth_cases(folder: str) -> list[tuple[str, str, tuple, int]]:
    """(label, variant, overlays, players) of every growth case; overlays written to `folder`."""
    cases = [(f"players {p} (standard)", "standard", (), p) for p in (2, 3, 4)]
    cases += [(f"players {p} (six-colours, 90 squares)", SIX, (), p) for p in (2, 3, 4, 5, 6)]
    for pawns in (3, 5, 6):
        path = os.path.join(folder, f"pawns-{pawns}.yaml")
        Path(path).write_text(f"extends: standard\nname: bench-pawns-{pawns}\npawns: {pawns}\n", encoding="utf-8")
        cases.append((f"pawns {pawns} (4 players)", "standard", (path,), 4))
    for side in (20, 25, 30):
        path = os.path.join(folder, f"side-{side}.yaml")
        Path(path).write_text(f"extends: standard\nname: bench-side-{side}\n" + BOARD.format(side=side), encoding="utf-8")
        cases.append((f"track {4 * side} squares (4 players)", "standard", (path,), 4))
    return cases


class Samples:
    """Figures by key, one value per round."""

    def __init__(self):
        self.values: dict[str, list] = {}

    def add(self, key: str, value: float) -> None:
        self.values.setdefault(key, []).append(value)

    def median(self, key: str):
        values = self.values.get(key)
        return statistics.median(values) if values else None


def engines_round(samples: Samples, seconds: float, game, positions, limit, limit_positions, apologies) -> None:
    """One round of the engines' table: every engine's figure, one after another."""
    for players in (4, 2):
        if apologies is not None:
            wall, cpu, _ = apologies_rate.games_per_second(players, seconds, 12345)
            samples.add(f"apologies {players}p", wall)
            samples.add(f"apologies {players}p cpu", cpu)
        wall, cpu, _, _ = games_rate(game, players, seconds, 0)
        samples.add(f"sorry-rules {players}p", wall)
        samples.add(f"sorry-rules {players}p cpu", cpu)
        if limit is not None:
            wall, cpu = limit.games_per_second(players, seconds)
            samples.add(f"limit_sorry {players}p", wall)
            samples.add(f"limit_sorry {players}p cpu", cpu)
    if apologies is not None:
        samples.add("apologies movegen", apologies_rate.movegen_per_second(apologies, seconds))
    samples.add("sorry-rules movegen", movegen_rate(game, positions, seconds))
    if limit is not None:
        samples.add("limit_sorry movegen", limit.movegen_per_second(limit_positions, seconds))


def movegen_rates(game, positions, seconds: float) -> tuple[float, float]:
    """Legal-move sets per wall-clock second and per CPU-second over `positions`."""
    legal_moves = game.legal_moves
    calls = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        for state in positions:
            legal_moves(state)
        calls += len(positions)
    return calls / (time.perf_counter() - wall), calls / (time.process_time() - cpu)


def growth_round(samples: Samples, seconds: float, cases: list) -> None:
    for label, game, players, positions in cases:
        cpu = time.process_time()
        wall, _, games, plies = games_rate(game, players, seconds, 0)
        cpu = time.process_time() - cpu
        samples.add(f"{label} games", wall)
        samples.add(f"{label} games cpu", games / cpu)
        samples.add(f"{label} plies", plies / games)
        samples.add(f"{label} us/ply", cpu / plies * 1e6)
        wall, cpu = movegen_rates(game, positions, seconds)
        samples.add(f"{label} movegen", wall)
        samples.add(f"{label} movegen cpu", cpu)


def measure(rounds: int, seconds: float, limit_path: str, use_apologies: bool, growth: bool) -> dict:
    game = load_game("standard")
    positions = mid_game_positions(game)
    limit = load_limit(limit_path)
    limit_positions = limit.midgame_samples(1000) if limit is not None else None
    apologies = (apologies_rate.midgame_samples(200)
                 if use_apologies and apologies_rate.HAVE_APOLOGIES else None)
    with tempfile.TemporaryDirectory() as folder:
        cases = []
        if growth:
            for label, variant, overlays, players in growth_cases(folder):
                case_game = load_game(variant, overlays)
                cases.append((label, case_game, players, mid_game_positions(case_game, 200, players)))
        samples = Samples()
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        for _ in range(rounds):
            engines_round(samples, seconds, game, positions, limit, limit_positions, apologies)
            growth_round(samples, seconds, cases)
    result = {
        "bench": "issue_table", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "python": platform.python_version(), "cpus": os.cpu_count(), "rounds": rounds, "seconds": seconds,
        "load_average_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "run_seconds": round(time.perf_counter() - started, 1),
        "apologies": apologies_rate.apologies_version() if apologies is not None else None,
        "limit_sorry": limit_path if limit is not None else None,
        "medians": {key: round(samples.median(key), 2) for key in samples.values},
    }
    result["growth"] = [label for label, *_ in cases]
    result["growth_moves"] = ["generated" if case_game.fast_moves is not None else "interpreter"
                              for _, case_game, *_ in cases]
    return result


def _figure(value, digits: int = 1) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def _ratio(a, b) -> str:
    return "" if a is None or b is None else f"{a / b:.3f}"


def engines_table(result: dict) -> str:
    m = result["medians"].get
    rows = [("apologies " + (result["apologies"] or "(not measured)") + ", copy-free loop", "apologies"),
            ("sorry-rules, in-process (`play_game`, random players)", "sorry-rules"),
            ("limit_sorry.py" + ("" if result["limit_sorry"] else " (not found)"), "limit_sorry")]
    lines = ["| engine | 4-player random games/s | 2-player random games/s | legal-move sets/s |"
             " 4p games per CPU-s | 2p games per CPU-s |", "|---|--:|--:|--:|--:|--:|"]
    for label, key in rows:
        lines.append(f"| {label} | {_figure(m(f'{key} 4p'))} | {_figure(m(f'{key} 2p'))} | "
                     f"{_figure(m(f'{key} movegen'), 0)} | {_figure(m(f'{key} 4p cpu'))} | {_figure(m(f'{key} 2p cpu'))} |")
    for other in ("apologies", "limit_sorry"):
        cells = [_ratio(m(f"sorry-rules {figure}"), m(f"{other} {figure}"))
                 for figure in ("4p", "2p", "movegen", "4p cpu", "2p cpu")]
        lines.append(f"| sorry-rules / {other} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def growth_table(result: dict) -> str:
    """Per CPU-second (the wall-clock rates are in the JSON): on a shared machine the CPU
    figures move far less from round to round."""
    m = result["medians"].get
    base = "players 4 (standard)"
    lines = ["| sorry-rules on | moves | cards/game | CPU us/card | games per CPU-s | legal-move sets per CPU-s |"
             " cards/game vs std 4p | us/card vs std 4p | games/CPU-s vs std 4p | sets/CPU-s vs std 4p |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for label, moves in zip(result["growth"], result["growth_moves"]):
        ratios = [_ratio(m(f"{label} {key}"), m(f"{base} {key}")) for key in ("plies", "us/ply", "games cpu", "movegen cpu")]
        lines.append(f"| {label} | {moves} | {_figure(m(f'{label} plies'))} | {_figure(m(f'{label} us/ply'), 2)} | "
                     f"{_figure(m(f'{label} games cpu'))} | {_figure(m(f'{label} movegen cpu'), 0)} | "
                     + " | ".join(ratios) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per figure and round")
    parser.add_argument("--limit", default=LIMIT, help="path of limit_sorry.py (skipped when absent)")
    parser.add_argument("--no-apologies", action="store_true", help="leave apologies out even when installed")
    parser.add_argument("--no-growth", action="store_true", help="the engines' table only")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the tables")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds above 0")
    if not args.no_apologies and not apologies_rate.HAVE_APOLOGIES:
        print("apologies is not installed (pip install apologies): its row stays empty", file=sys.stderr)
    result = measure(args.rounds, args.seconds, args.limit, not args.no_apologies, not args.no_growth)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['date']}, Python {result['python']}, {result['cpus']} CPUs, {args.rounds} rounds of "
          f"{args.seconds} s per figure, load average {result['load_average_before_after'][0]} -> "
          f"{result['load_average_before_after'][1]}; medians (wall clock, and games per CPU-second)\n")
    print(engines_table(result))
    if result["growth"]:
        print("\nGrowth: medians per CPU-second; the last four columns are ratios to standard with 4 players\n")
        print(growth_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
