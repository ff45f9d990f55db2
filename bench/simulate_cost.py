"""What `sorry-play simulate` pays for its counts: its games against the same games bare.

`simulate` plays each game with a counter of turns, bumps, slides, forfeits, discards,
passes, redraws, hand actions, removals and exchanges (`simulation.simulate.GameCounter`).
This script plays the same random games both ways in one process, round by round, and
prints CPU microseconds per card played for `simulate`'s game (`play_one`, the counter
included) and for `play_game` with no counter, and their ratio (the counting's price).

    python bench/simulate_cost.py                      # 3 rounds of 60 games per case
    python bench/simulate_cost.py --rounds 5 --games 100 --json
    PYTHONPATH=/tmp/before python bench/simulate_cost.py   # another checkout's code
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.simulation import simulate

#: (variant, rule overlays, players)
CASES = (
    ("standard", (), 4), ("standard", (), 2), ("partnership", (), 4), ("points", (), 4),
    ("points", ("house/mulligan-8.yaml",), 4), ("standard", ("house/mercy-start.yaml",), 4),
    ("standard", ("house/draw-two-keep-one.yaml",), 4), ("standard", ("house/no-start-no-cry.yaml",), 4),
    ("sequence", (), 2), ("sequence", (), 4),
)


def _simulated(game, setup, games: int) -> tuple[float, int]:
    cpu, plies = time.process_time(), 0
    for index in range(games):
        plies += simulate.play_one(game, setup, index).plies
    return time.process_time() - cpu, plies


def _bare(game, setup, games: int) -> tuple[float, int]:
    cpu, plies = time.process_time(), 0
    for index in range(games):
        seed = simulate.game_seed(setup.seed, index)
        state = game.new_game(seed, players=setup.players)
        plies += play_game(game, state, [RandomPlayer(seed, s) for s in range(setup.players)]).plies
    return time.process_time() - cpu, plies


def measure(rounds: int, games: int) -> dict:
    """Per case: us per card of `simulate`'s games and of the bare games (medians of
    `rounds`), and the median of the per-round ratios."""
    loaded = []
    for variant, rules, players in CASES:
        source, game = simulate.load_source(variant, rules)
        setup = simulate.Setup(source, players, simulate.lineup_of(["random"], players), 1, 20_000)
        _simulated(game, setup, 2)  # warm-up: compile what the games call
        loaded.append((variant, rules, players, game, setup))
    samples: dict = {}
    for _ in range(rounds):
        for variant, rules, players, game, setup in loaded:
            (sim, sim_plies), (bare, bare_plies) = _simulated(game, setup, games), _bare(game, setup, games)
            assert sim_plies == bare_plies  # the same games
            samples.setdefault((variant, rules, players), []).append((sim / sim_plies * 1e6, bare / bare_plies * 1e6))
    out = {}
    for (variant, rules, players), rows in samples.items():
        label = variant + "".join(f" + {r}" for r in rules) + f", {players} players"
        out[label] = {"simulate_us_per_card": round(statistics.median(s for s, _ in rows), 2),
                      "bare_us_per_card": round(statistics.median(b for _, b in rows), 2),
                      "ratio": round(statistics.median(s / b for s, b in rows), 2)}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=60, help="games per case and round (the same each round)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    result = measure(args.rounds, args.games)
    if args.json:
        print(json.dumps({"rounds": args.rounds, "games": args.games, "load_before": round(load, 2), "cases": result}))
        return 0
    print(f"{args.rounds} rounds of {args.games} games per case; load {load:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"{'case':52s} {'simulate':>9s} {'bare':>7s} {'ratio':>6s}   (CPU us per card)")
    for label, row in result.items():
        print(f"{label:52s} {row['simulate_us_per_card']:9.2f} {row['bare_us_per_card']:7.2f} {row['ratio']:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
