"""Cost per card played of Sequence and every grid rule file, and its ratio to standard's,
read through machine noise: each game is played `--repeats` times and its fastest run kept.

`codegen_rate.py --variants` times every rule file for a slice of seconds in turn, so on a
shared, loaded machine a row's ratio moves with whatever else ran during its slice. Here
every game (the same seeds for every rule file, interleaved game by game) is timed
`--repeats` times in CPU time (`time.process_time`) and only its fastest run counts: other
processes only ever add time to a run. Each figure is the sum of those fastest runs over the
games divided by their plies, counted as `codegen_rate.py --variants` counts it (random
players through the public `players.runner.play_game`, `new_game` and the players' creation
included); the ratio is to standard's (4 players) in the same process.

    python bench/grid_cost.py                     # 25 games, 5 runs of each
    python bench/grid_cost.py --games 40 --repeats 7 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import bundled_names

FIRST_SEED = 60_000


def cases() -> list:
    """(rule file, players): standard first (the yardstick), Sequence with 4, 2 and 3 players, every grid file."""
    out = [("standard", 4), ("sequence", 4), ("sequence", 2), ("sequence", 3)]
    return out + [(name.removesuffix(".yaml"), 4) for name in bundled_names() if name.startswith("grid/")]


def costs(games: int, repeats: int) -> dict:
    """Per case: CPU microseconds per ply (the fastest run of each game, summed) and the ratio to standard's."""
    loaded = {case: load_game(case[0]) for case in cases()}
    spent = {case: [0.0, 0] for case in loaded}
    clock = time.process_time
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        for (spec, players), game in loaded.items():
            best = None
            for _ in range(repeats):
                start = clock()
                final = play_game(game, game.new_game(seed, players=players),
                                  [RandomPlayer(seed, s) for s in range(players)])
                took = clock() - start
                best = took if best is None else min(best, took)
            spent[spec, players][0] += best
            spent[spec, players][1] += final.plies
    base = spent["standard", 4][0] / spent["standard", 4][1]
    return {f"{spec}, {players} players": {"us_per_ply": round(cost / plies * 1e6, 2),
                                           "ratio_to_standard": round(cost / plies / base, 3),
                                           "plies_per_game": round(plies / games, 1)}
            for (spec, players), (cost, plies) in spent.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    result = costs(args.games, args.repeats)
    if args.json:
        print(json.dumps({"load_before": round(load, 2), "costs": result}))
        return 0
    print(f"{args.games} games, fastest of {args.repeats} runs each; load average {load:.2f} -> {os.getloadavg()[0]:.2f}")
    for label, entry in result.items():
        print(f"  {label:36s} {entry['us_per_ply']:7.2f} us/card  x{entry['ratio_to_standard']:.2f}"
              f"  ({entry['plies_per_game']} plies/game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
