"""Speed of Sequence on the grid engine (issues 13 and 14).

Prints, as medians over timed batches in one run on this machine:
- complete random 2-player games per second through the plain engine (`legal_moves` and
  `apply`, a `random.Random` choice, until a side reaches the target or a round of passes
  draws the game), one core;
- moves-oracle answers per second: `legal_moves` over a fixed sample of mid-game positions
  (plies 20..80 of seeded random games);
- the cost per card played: CPU microseconds per ply of random games through the public
  `players.runner.play_game` with `RandomPlayer`s (as bench/codegen_rate.py --variants
  measures it), Sequence with 2, 3 and 4 players and standard Sorry! with 4, and each
  Sequence figure's ratio to standard's of the same batch.

Only public API is used, so this script also measures an older checkout:

    PYTHONPATH=. python bench/sequence_rate.py              # 5 batches
    PYTHONPATH=. python bench/sequence_rate.py --batches 3 --json
    PYTHONPATH=/path/to/other/checkout python bench/sequence_rate.py --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

#: (label, rule file, players) of the cost-per-card figures
COSTS = (("sequence 2p", "sequence", 2), ("sequence 3p", "sequence", 3), ("sequence 4p", "sequence", 4),
         ("standard 4p", "standard", 4))


def random_game(game, seed: int, players: int = 2) -> int:
    rng = random.Random(seed)
    state = game.new_game(seed, players=players)
    while not state.over:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.randrange(len(moves))])
    return state.plies


def cost_per_card(game, players: int, seconds: float, first_seed: int) -> float:
    """CPU microseconds per ply of random games through `play_game` (about `seconds` of CPU)."""
    plies = 0
    cpu = time.process_time()
    seed = first_seed
    while time.process_time() - cpu < seconds:
        final = play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)])
        plies += final.plies
        seed += 1
    return (time.process_time() - cpu) / plies * 1e6


def positions(game, count: int) -> list:
    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_game(seed, players=2)
        stop = rng.randrange(20, 80)
        while not state.over and state.plies < stop:
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.randrange(len(moves))])
        if not state.over:
            found.append(state)
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per batch")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per cost-per-card figure and batch")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = load_game("sequence")
    games = {spec: load_game(spec) for _, spec, _ in COSTS}
    sample = positions(game, 200)
    game_rates, query_rates = [], []
    costs: dict = {label: [] for label, _, _ in COSTS}
    ratios: dict = {label: [] for label, _, _ in COSTS[:-1]}
    for batch in range(args.batches):
        start = time.perf_counter()
        for i in range(args.games):
            random_game(game, batch * args.games + i)
        game_rates.append(args.games / (time.perf_counter() - start))
        start = time.perf_counter()
        for state in sample:
            game.legal_moves(state)
        query_rates.append(len(sample) / (time.perf_counter() - start))
        for label, spec, players in COSTS:
            costs[label].append(cost_per_card(games[spec], players, args.seconds, 1000 * batch))
        for label in ratios:
            ratios[label].append(costs[label][-1] / costs["standard 4p"][-1])
    result = {"games_per_second_median": statistics.median(game_rates),
              "moves_queries_per_second_median": statistics.median(query_rates),
              "us_per_card_median": {label: round(statistics.median(v), 2) for label, v in costs.items()},
              "ratio_to_standard_4p_median": {label: round(statistics.median(v), 2) for label, v in ratios.items()}}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"random 2-player Sequence games/s  {result['games_per_second_median']:10.1f}")
        print(f"moves queries/s (mid-game)        {result['moves_queries_per_second_median']:10.1f}")
        for label, value in result["us_per_card_median"].items():
            ratio = result["ratio_to_standard_4p_median"].get(label)
            print(f"us per card, {label:20s} {value:10.2f}" + (f"  x{ratio:.2f} standard 4p" if ratio else ""))


if __name__ == "__main__":
    main()
