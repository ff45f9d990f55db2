"""What `sorry-play simulate` costs per card played, for every bundled rule file.

Plays each case's games as `simulate` does (`simulation.simulate.play_one`: the seats' bots,
the per-game counter), round after round, and prints the median CPU microseconds per card
played (per ply) and games per CPU second. A case is a bundled rule file (every file under
variants/, house rules and options on the base they name), a number of players and a bot
kind for every seat. `compare_trees.py` runs it in two checkouts side by side.

    python bench/simulate_rate.py                         # every rule file, random bots, 3 rounds
    python bench/simulate_rate.py --bots greedy --games 10
    python bench/simulate_rate.py --only standard --only house/mercy-start.yaml --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from sorry_rules.base.resources import variants_dir
from sorry_rules.simulation import simulate


def bundled() -> list[str]:
    """Every bundled rule file, as `--variant` takes it (standard.yaml -> "standard")."""
    names, root = [], variants_dir()
    for path in sorted(root.rglob("*.yaml")):
        rel = path.relative_to(root).as_posix()
        names.append(rel[:-5] if "/" not in rel else rel)
    return names


def measure(cases: list, bots: str, rounds: int, games: int, max_plies: int) -> dict:
    loaded = []
    for name in cases:
        source, game = simulate.load_source(name, ())
        players = min(4, game.players_max) if game.board_kind == "track" else min(game.seating)
        setup = simulate.Setup(source, players, simulate.lineup_of([bots], players), 1, max_plies)
        simulate.play_one(game, setup, 0)  # warm-up: what the games call is made on first use
        loaded.append((name, players, game, setup))
    samples: dict = {name: [] for name in cases}
    for _ in range(rounds):
        for name, players, game, setup in loaded:
            cpu, plies = time.process_time(), 0
            for index in range(games):
                plies += simulate.play_one(game, setup, index).plies
            cpu = time.process_time() - cpu
            samples[name].append((cpu / plies * 1e6, games / cpu, plies / games))
    out = {}
    for name, players, _, _ in loaded:
        rows = samples[name]
        out[name] = {"players": players, "us_per_card": round(statistics.median(r[0] for r in rows), 3),
                     "games_per_cpu_second": round(statistics.median(r[1] for r in rows), 2),
                     "cards_per_game": round(statistics.median(r[2] for r in rows), 1)}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="random", help="the bot on every seat (random, greedy, expert)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=40, help="games per case and round (the same games each round)")
    parser.add_argument("--max-plies", type=int, default=20_000)
    parser.add_argument("--only", action="append", help="a case to measure (repeatable; default: every rule file)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cases = args.only or bundled()
    load = os.getloadavg()[0]
    result = measure(cases, args.bots, args.rounds, args.games, args.max_plies)
    if args.json:
        print(json.dumps({"bots": args.bots, "rounds": args.rounds, "games": args.games, "load_before": round(load, 2),
                          "cases": result}))
        return 0
    print(f"{args.bots} bots, {args.rounds} rounds of {args.games} games per case; load {load:.2f} -> "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'case':40s} {'players':>7s} {'us/card':>8s} {'games/s':>8s} {'cards/game':>10s}  (CPU)")
    for name, row in result.items():
        print(f"{name:40s} {row['players']:7d} {row['us_per_card']:8.2f} {row['games_per_cpu_second']:8.1f} "
              f"{row['cards_per_game']:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
