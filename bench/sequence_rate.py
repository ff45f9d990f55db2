"""Speed of Sequence on the grid engine (issue 13's closing note).

Prints, as medians over timed batches in one run on this machine:
- complete random 2-player games per second (uniformly random legal moves until a side
  reaches the target or a round of passes draws the game), one core;
- moves-oracle answers per second: `legal_moves` over a fixed sample of mid-game positions
  (plies 20..80 of seeded random games).

    PYTHONPATH=. python bench/sequence_rate.py              # 5 batches
    PYTHONPATH=. python bench/sequence_rate.py --batches 3 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sorry_rules.compiler import load_game


def random_game(game, seed: int, players: int = 2) -> int:
    rng = random.Random(seed)
    state = game.new_game(seed, players=players)
    while not state.over:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.randrange(len(moves))])
    return state.plies


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
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = load_game("sequence")
    sample = positions(game, 200)
    game_rates, query_rates = [], []
    for batch in range(args.batches):
        start = time.perf_counter()
        for i in range(args.games):
            random_game(game, batch * args.games + i)
        game_rates.append(args.games / (time.perf_counter() - start))
        start = time.perf_counter()
        for state in sample:
            game.legal_moves(state)
        query_rates.append(len(sample) / (time.perf_counter() - start))
    result = {"games_per_second_median": statistics.median(game_rates),
              "moves_queries_per_second_median": statistics.median(query_rates)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"random 2-player Sequence games/s  {result['games_per_second_median']:10.1f}")
        print(f"moves queries/s (mid-game)        {result['moves_queries_per_second_median']:10.1f}")


if __name__ == "__main__":
    main()
