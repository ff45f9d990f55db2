"""How long a computer player takes to decide, on mid-game positions of seeded games.

Plays seeded random games of a rule file, keeps every position where the player to move has
two or more legal moves (from ply 40 on), and times the bot's public `choose(view, moves)`
on each (the moves listed beforehand, as the loop hands them over), round after round; prints
the median milliseconds per decision and the longest single decision (the first decision,
which builds what a bot keeps per game, is made once before the timing). `compare_trees.py` runs it in two
checkouts side by side.

    python bench/decisions.py                       # expert and greedy, standard, 3 rounds
    python bench/decisions.py --bot expert --variant points --positions 30 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer, view_of
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game


def positions(game, count: int, players: int) -> list:
    """(view, moves) of `count` mid-game positions with a choice to make."""
    found = []
    seed = 500
    while len(found) < count:
        state = game.new_game(seed, players=players)
        state = play_game(game, state, [RandomPlayer(seed, s) for s in range(players)], max_plies=40 + seed % 60)
        if state.winner is None:
            if game.needs_draw(state):
                state = game.draw(state)
            moves = game.legal_moves(state)
            if len(moves) > 1:
                found.append((view_of(game, state), moves))
        seed += 1
    return found


def measure(variant: str, bots: list, count: int, rounds: int, players: int) -> dict:
    game = load_game(variant)
    sample = positions(game, count, players)
    out = {}
    for bot in bots:
        player = make_player(bot, 1, 0)
        player.choose(*sample[0])  # what a bot builds once per game (tables, fits) is not timed
        times, longest = [], 0.0
        for _ in range(rounds):
            cpu = time.process_time()
            for view, moves in sample:
                one = time.process_time()
                player.choose(view, moves)
                longest = max(longest, time.process_time() - one)
            times.append((time.process_time() - cpu) / len(sample) * 1000)
        out[bot] = {"ms_per_decision": round(statistics.median(times), 3), "max_ms": round(longest * 1000, 1),
                    "positions": len(sample)}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", action="append", help="bot to time (repeatable; default expert and greedy)")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    result = measure(args.variant, args.bot or ["expert", "greedy"], args.positions, args.rounds, args.players)
    if args.json:
        print(json.dumps({"variant": args.variant, "players": args.players, "load_before": round(load, 2), "bots": result}))
        return 0
    print(f"{args.variant}, {args.players} players, {args.rounds} rounds; load {load:.2f} -> {os.getloadavg()[0]:.2f}")
    for bot, row in result.items():
        print(f"  {bot:8s} {row['ms_per_decision']:8.3f} ms a decision (CPU, median of rounds; {row['positions']} "
              f"positions; the longest {row['max_ms']} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
