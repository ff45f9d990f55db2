"""Speed of the sorry-rules engine, side by side with the `apologies` package.

Prints, as medians over timed batches measured in one run on this machine:
- complete random games per second (uniformly random legal moves, until someone wins),
  for 2 and 4 players, one core;
- legal-move generations per second over mid-game positions (a fixed sample of positions
  with a drawn card, taken from seeded random games at plies 60..240);
- if `apologies` is importable, its rate with the same protocol (bench/apologies_rate.py),
  batches interleaved with ours so machine noise hits both alike, and the ratio.

    python bench/engine_rate.py                 # defaults: 5 batches
    python bench/engine_rate.py --json          # one JSON object
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sorry_rules.compiler import load_game  # noqa: E402
from sorry_rules.players.protocol import RandomPlayer, view_of  # noqa: E402
from sorry_rules.players.runner import play_game  # noqa: E402


def play_batch(game, players: int, games: int, first_seed: int) -> tuple[float, float, int]:
    """Play `games` random games; return (wall seconds, CPU seconds, total plies)."""
    plies = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(seed, players=players)
        final = play_game(game, state, [RandomPlayer(seed, s) for s in range(players)])
        plies += final.plies
    return time.perf_counter() - started, time.process_time() - cpu_started, plies


def mid_game_positions(game, count: int = 400, players: int = 4) -> list:
    """States with a drawn card, sampled from seeded random games at plies 60..240."""
    positions = []
    seed = 10_000
    while len(positions) < count:
        state = game.new_game(seed, players=players)
        bots = [RandomPlayer(seed, s) for s in range(players)]
        while state.winner is None and state.plies < 240:
            if game.needs_draw(state):
                state = game.draw(state)
            moves = game.legal_moves(state)
            if state.plies >= 60 and state.plies % 20 == 0:
                positions.append(state)
            choice = 0 if len(moves) == 1 else bots[state.turn].choose(view_of(game, state), moves)
            state = game.apply(state, moves[choice])
        seed += 1
    return positions[:count]


def movegen_batch(game, positions, rounds: int) -> tuple[float, int]:
    legal_moves = game.legal_moves
    started = time.perf_counter()
    for _ in range(rounds):
        for state in positions:
            legal_moves(state)
    return time.perf_counter() - started, rounds * len(positions)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--games4", type=int, default=60, help="4-player games per batch")
    parser.add_argument("--games2", type=int, default=150, help="2-player games per batch")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--no-apologies", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    game = load_game(args.variant)
    apologies = None
    if not args.no_apologies:
        try:
            import apologies_rate

            if apologies_rate.apologies_version() is not None:
                apologies = apologies_rate
        except ImportError:
            apologies = None

    results: dict = {"variant": args.variant, "python": sys.version.split()[0], "batches": args.batches}
    play_batch(game, 4, 5, 999_000)  # warm-up: table building, imports
    # Wall-clock is what a user sees; CPU time is shown too because shared machines are noisy.
    for players, games in ((2, args.games2), (4, args.games4)):
        ours, ours_cpu, theirs, plies = [], [], [], 0
        for batch in range(args.batches):
            seconds, cpu_seconds, batch_plies = play_batch(game, players, games, batch * games)
            ours.append(games / seconds)
            ours_cpu.append(games / cpu_seconds)
            plies += batch_plies
            if apologies is not None:
                measured = apologies.measure(players=players, games=max(10, games // 6), batches=1, seed=12345 + batch)
                theirs.append(measured["games_per_second_median"])
        entry = {
            "games_per_second_median": round(statistics.median(ours), 1),
            "samples": [round(x, 1) for x in ours],
            "cpu_games_per_second_median": round(statistics.median(ours_cpu), 1),
            "mean_plies": round(plies / (games * args.batches), 1),
        }
        if theirs:
            entry["apologies_games_per_second_median"] = round(statistics.median(theirs), 1)
            entry["ratio_vs_apologies"] = round(statistics.median(ours) / statistics.median(theirs), 1)
        results[f"{players}p"] = entry
    positions = mid_game_positions(game)
    rates = []
    for _ in range(args.batches):
        seconds, calls = movegen_batch(game, positions, 10)
        rates.append(calls / seconds)
    results["movegen_per_second_median"] = round(statistics.median(rates))

    if args.json:
        print(json.dumps(results))
        return 0
    print(f"sorry-rules engine, variant {args.variant}, Python {results['python']}, median of {args.batches} batches")
    for key in ("2p", "4p"):
        entry = results[key]
        line = (f"  {key}: {entry['games_per_second_median']:7.1f} games/s wall, "
                f"{entry['cpu_games_per_second_median']:7.1f} per CPU-second"
                f"  (mean {entry['mean_plies']} plies/game)")
        if "apologies_games_per_second_median" in entry:
            line += f"   apologies {entry['apologies_games_per_second_median']:.1f} games/s  ratio {entry['ratio_vs_apologies']}x"
        print(line)
    print(f"  legal-move generations: {results['movegen_per_second_median']:,} per second (mid-game positions)")
    if apologies is None and not args.no_apologies:
        print("  (apologies not installed: pip install apologies, to measure it side by side)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
