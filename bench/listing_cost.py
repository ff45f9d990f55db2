"""Cost per card played against work per card played: how many cards' moves a rule file lists.

Issue 14 asks every bundled rule file to play within 2x of standard's cost per card played.
A rule file whose player chooses among several cards (hand play, two cards drawn) must list
the legal moves of every card it may play before choosing (the policy is uniform among the
distinct legal results of all of them), so it calls the generated move functions several
times per card played where standard calls them once. This script measures, for each case,
in the same run:

- CPU microseconds per card played (random 4-player games, `play_game` with random players,
  the same seeds for every round), and its ratio to standard's;
- move-function calls per card played and candidates listed per card played (a second, untimed
  pass over the same games with every generated function wrapped in a counter);
- from both: microseconds per call and per candidate, and their ratios to standard's.

A ratio per call near standard's means the rule file's own machinery costs what standard's
does per card listed; the ratio per card played is then about the calls per card played.

    python bench/listing_cost.py                         # 3 rounds, 120 games per case
    python bench/listing_cost.py --rounds 5 --games 200 --json
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import time

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

#: (variant, house rules): standard first (the reference), then the rule files that list more
#: than one card per card played, or richer positions, and two that list one (controls).
CASES = (
    ("standard", ()),
    ("partnership", ()),
    ("standard", ("house/freeze.yaml",)),
    ("standard", ("house/mercy-start.yaml",)),
    ("standard", ("house/draw-two-keep-one.yaml",)),
    ("points", ()),
    ("points", ("options/cumulative-bonus.yaml",)),
    ("points", ("house/no-start-no-cry.yaml",)),
    ("points", ("house/mulligan-8.yaml",)),
)


class _Counted:
    """A generated move function that counts its calls and the candidates it lists."""

    __slots__ = ("function", "tally")

    def __init__(self, function, tally: list):
        self.function, self.tally = function, tally

    def __call__(self, *args):
        result = self.function(*args)
        self.tally[0] += 1
        self.tally[1] += len(result[0])
        return result


def _counted(flat, tally: list):
    """A copy of the flat flavour `flat` whose functions count into `tally` (a new object,
    so that the loops, which remember a game's tables per flavour object, take its table)."""
    twin = copy.copy(flat)
    twin.table = tuple(tuple(_Counted(f, tally) for f in row) for row in flat.table)
    return twin


def _play(game, seeds: range) -> int:
    """Play the random 4-player games of `seeds`; the cards played (plies) in all."""
    plies = 0
    for seed in seeds:
        final = play_game(game, game.new_game(seed, players=4), [RandomPlayer(seed, s) for s in range(4)])
        plies += final.plies
    return plies


def counts(game, seeds: range) -> tuple[int, int, int]:
    """(plies, calls, candidates) over the games of `seeds`, every flat function counted."""
    tally = [0, 0]
    fast = game.fast_moves
    flat, marked = fast.flat, fast.flat_marked
    try:
        if flat is not None:
            fast.flat = _counted(flat, tally)
        if marked is not None:
            fast.flat_marked = _counted(marked, tally)
        plies = _play(game, seeds)
    finally:
        fast.flat, fast.flat_marked = flat, marked
    return plies, tally[0], tally[1]


def label(variant: str, rules: tuple) -> str:
    return variant + "".join(f" + {r}" for r in rules)


def measure(rounds: int, games: int, first_seed: int = 70_000) -> dict:
    """Per case: us per card played (median of `rounds`, each timing every case in turn),
    calls and candidates per card played, and the ratios to standard's (the median of
    the per-round ratios for the time; the counts are the same every round)."""
    seeds = range(first_seed, first_seed + games)
    loaded = {case: load_game(case[0], case[1]) for case in CASES}
    for game in loaded.values():
        _play(game, range(first_seed - 5, first_seed))  # warm-up: compile what the games call
    tallies = {case: counts(game, seeds) for case, game in loaded.items()}
    times: dict = {case: [] for case in CASES}
    for _ in range(rounds):
        for case, game in loaded.items():
            cpu = time.process_time()
            plies = _play(game, seeds)
            times[case].append((time.process_time() - cpu) / plies * 1e6)
    base = CASES[0]
    b_plies, b_calls, b_cands = tallies[base]
    out = {}
    for case in CASES:
        plies, calls, cands = tallies[case]
        per_card = statistics.median(times[case])
        ratio = statistics.median(t / b for t, b in zip(times[case], times[base]))
        calls_ratio = (calls / plies) / (b_calls / b_plies)
        cands_ratio = (cands / plies) / (b_cands / b_plies)
        out[label(*case)] = {
            "us_per_card": round(per_card, 2), "ratio_to_standard": round(ratio, 2),
            "calls_per_card": round(calls / plies, 2), "candidates_per_card": round(cands / plies, 2),
            "ratio_per_call": round(ratio / calls_ratio, 2), "ratio_per_candidate": round(ratio / cands_ratio, 2),
        }
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=120, help="games per case and round (the same seeds each round)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    result = measure(args.rounds, args.games)
    if args.json:
        print(json.dumps({"rounds": args.rounds, "games": args.games, "load_before": round(load, 2),
                          "load_after": round(os.getloadavg()[0], 2), "cases": result}))
        return 0
    print(f"{args.rounds} rounds of {args.games} 4-player games per case; load {load:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"{'rule file':46s} {'us/card':>8s} {'x std':>6s} {'calls/card':>10s} {'cands/card':>10s} "
          f"{'x std/call':>10s} {'x std/cand':>10s}")
    for name, row in result.items():
        print(f"{name:46s} {row['us_per_card']:8.2f} {row['ratio_to_standard']:6.2f} {row['calls_per_card']:10.2f} "
              f"{row['candidates_per_card']:10.2f} {row['ratio_per_call']:10.2f} {row['ratio_per_candidate']:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
