"""Strength of the computer players: seeded 2-player games between two bots.

For each pairing (default: greedy vs random, then expert vs greedy) it plays N games of a
variant (default: standard, 2 players). Game i uses seed i (the deck, the first player and
both bots' tie-breaks derive from it) and the two bots swap seats every game, so each sits
first in half the games. Games run in parallel worker processes (default: every core).
It prints, per pairing, the first bot's wins, its win rate with a 95% Wilson confidence
interval, the mean game length and the games per second, and one JSON line per pairing.

    python bench/bots.py                              # 1,000 + 1,000 games
    python bench/bots.py --games 200 --pair expert:random
    python bench/bots.py --variant standard --players 2 --processes 2 --expert-nodes 3000
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

_GAME = None
_OPTIONS: dict = {}


def _init(variant: str, options: dict) -> None:
    global _GAME, _OPTIONS
    from sorry_rules.compiler import load_game

    _GAME = load_game(variant)
    _OPTIONS = options


def _make(kind: str, seed: int, seat: int):
    from sorry_rules.players.registry import make_player

    return make_player(kind, seed, seat, **_OPTIONS.get(kind, {}))


def play_one(task: tuple) -> tuple:
    """(first bot, second bot, seed, players) -> (seed, first bot's seat, winning seat, plies)."""
    from sorry_rules.players.runner import play_game

    a, b, seed, players = task
    game = _GAME
    state = game.new_game(seed, players=players)
    seat_a = seed % players
    bots = [_make(a if seat == seat_a else b, seed, seat) for seat in range(players)]
    final = play_game(game, state, bots)
    return seed, seat_a, final.winner, final.plies


def wilson(wins: int, n: int, z: float = 1.96) -> tuple:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run_pair(pool, a: str, b: str, games: int, players: int, first_seed: int) -> dict:
    tasks = [(a, b, first_seed + i, players) for i in range(games)]
    start = time.perf_counter()
    results = pool.map(play_one, tasks, chunksize=max(1, games // 64))
    seconds = time.perf_counter() - start
    wins = sum(1 for _, seat_a, winner, _ in results if winner == seat_a)
    unfinished = sum(1 for _, _, winner, _ in results if winner is None)
    low, high = wilson(wins, games)
    return {
        "first": a, "second": b, "games": games, "players": players, "wins": wins,
        "win_rate": round(wins / games, 4), "ci95": [round(low, 4), round(high, 4)],
        "unfinished": unfinished, "mean_plies": round(sum(r[3] for r in results) / games, 1),
        "seconds": round(seconds, 1), "games_per_second": round(games / seconds, 2),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--pair", action="append", metavar="A:B",
                    help="bot A against bot B (repeatable; default greedy:random and expert:greedy)")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--expert-nodes", type=int, default=None, help="node budget of the expert bot")
    ap.add_argument("--expert-depth", type=int, default=None, help="search depth (draws) of the expert bot")
    ap.add_argument("--expert-seconds", type=float, default=None,
                    help="time budget per move of the expert bot (results then depend on the machine)")
    args = ap.parse_args(argv)
    pairs = [tuple(p.split(":", 1)) for p in (args.pair or ["greedy:random", "expert:greedy"])]
    expert = {}
    if args.expert_nodes is not None:
        expert["nodes"] = args.expert_nodes
    if args.expert_depth is not None:
        expert["depth"] = args.expert_depth
    if args.expert_seconds is not None:
        expert["seconds"] = args.expert_seconds
    options = {"expert": expert}
    with multiprocessing.Pool(args.processes, initializer=_init, initargs=(args.variant, options)) as pool:
        for a, b in pairs:
            r = run_pair(pool, a, b, args.games, args.players, args.seed)
            print(f"{a} vs {b}: {a} won {r['wins']}/{r['games']} = {100 * r['win_rate']:.1f}% "
                  f"(95% CI {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%), "
                  f"{r['mean_plies']} moves/game, {r['games_per_second']} games/s on {args.processes} processes",
                  flush=True)
            print(json.dumps({"variant": args.variant, "processes": args.processes, **r}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
