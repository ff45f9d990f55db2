"""What a throw of the race games costs beside a card of standard Sorry!, and whether the
dice are fair, measured in one run.

Plays seeded games between random players (the engine's own loop, `players.runner`) of
standard Sorry! and of each race game, batches interleaved round by round so that machine
noise hits every game alike, and prints per game: CPU microseconds per ply (a card played
or forfeited; a throw spent or lost), the median over the rounds, and the ratio to standard;
then every die face thrown in those games (each throw's faces) with a chi-square statistic
against uniform faces and its p-value.

    python bench/race_rate.py                      # defaults: 5 rounds of 40 games, 4 players
    python bench/race_rate.py --players 2 --rounds 3 --games 100
    python bench/race_rate.py --bot greedy --games 10
    python bench/race_rate.py --json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter

from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game

GAMES = ("standard", "ludo", "trouble", "parcheesi")


def play_batch(game, players: int, games: int, first_seed: int, bot: str) -> tuple[float, int]:
    """Play `games` games; return (CPU seconds, plies)."""
    plies = 0
    started = time.process_time()
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(seed, players=players)
        final = play_game(game, state, [make_player(bot, seed, s) for s in range(players)])
        plies += final.plies
    return time.process_time() - started, plies


def faces_thrown(game, players: int, games: int, first_seed: int, bot: str) -> Counter:
    """Every die face thrown in the same games as `play_batch` (replayed apart, untimed)."""
    faces: Counter = Counter()

    def on_turn(turn, after):
        if turn.card is not None:
            faces.update(game.dice.throws[turn.card])
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(seed, players=players)
        play_game(game, state, [make_player(bot, seed, s) for s in range(players)], on_turn=on_turn)
    return faces


def chi_square(counts: Counter, faces) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of `counts` against equally likely `faces`."""
    n = sum(counts[f] for f in faces)
    expected = n / len(faces)
    stat = sum((counts[f] - expected) ** 2 / expected for f in faces)
    dof = len(faces) - 1
    return stat, dof, 1 - _lower_gamma(dof / 2, stat / 2)


def _lower_gamma(s: float, x: float) -> float:
    """The regularised lower incomplete gamma function P(s, x) (its power series)."""
    if x <= 0:
        return 0.0
    term = total = 1.0 / s
    k = 1
    while term > total * 1e-15:
        term *= x / (s + k)
        total += term
        k += 1
    return total * math.exp(-x + s * math.log(x) - math.lgamma(s))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per game and round")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    games = {name: load_game(name) for name in GAMES}
    faces: dict = {}
    for name, game in games.items():  # warm-up: tables, imports
        play_batch(game, args.players, 2, 999_000, args.bot)
    cost = {name: [] for name in GAMES}
    plies = Counter()
    for r in range(args.rounds):
        for name, game in games.items():
            seconds, played = play_batch(game, args.players, args.games, r * args.games, args.bot)
            cost[name].append(seconds / played * 1e6)
            plies[name] += played
    median = {name: statistics.median(values) for name, values in cost.items()}
    results = {"players": args.players, "bot": args.bot, "rounds": args.rounds, "games": args.games, "per_ply": {}}
    for name in GAMES:
        entry = {"us_per_ply_median": round(median[name], 2), "samples": [round(x, 2) for x in cost[name]],
                 "plies": plies[name], "ratio_to_standard": round(median[name] / median["standard"], 2)}
        if games[name].dice is not None:
            counted = faces[name] = faces_thrown(games[name], args.players, args.games * args.rounds, 0, args.bot)
            stat, dof, p = chi_square(counted, games[name].dice.faces)
            entry["faces"] = {str(f): counted[f] for f in games[name].dice.faces}
            entry["chi_square"] = {"statistic": round(stat, 2), "dof": dof, "p": round(p, 3)}
        results["per_ply"][name] = entry
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"{args.players} players, {args.bot} bots, {args.rounds} rounds of {args.games} games each, interleaved; "
          f"CPU microseconds per ply (a card, or a throw), median")
    for name, entry in results["per_ply"].items():
        line = f"  {name:<10} {entry['us_per_ply_median']:8.2f} us  x{entry['ratio_to_standard']:.2f}  ({entry['plies']:,} plies)"
        if "faces" in entry:
            chi = entry["chi_square"]
            line += (f"  faces {' '.join(f'{f}:{n}' for f, n in entry['faces'].items())}"
                     f"  chi-square {chi['statistic']} ({chi['dof']} dof), p = {chi['p']}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
