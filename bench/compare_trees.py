"""Engine speed of two checkouts side by side, in one run (e.g. before and after a refactor).

Runs each tree's own `bench/engine_rate.py --json --batches 1 --no-apologies` in a fresh
process with that tree first on the import path, alternating the trees round by round so
machine noise hits both alike, and prints the median of every figure and the ratio B/A.

    git worktree add /tmp/before <commit>
    python bench/compare_trees.py /tmp/before .            # A = before, B = this checkout
    python bench/compare_trees.py /tmp/before . --rounds 9 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

FIGURES = (("2p", "games_per_second_median", "2-player games/s"),
           ("4p", "games_per_second_median", "4-player games/s"),
           (None, "movegen_per_second_median", "legal-move sets/s"))


def one_round(tree: Path, variant: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(tree / "bench" / "engine_rate.py"), "--json", "--batches", "1", "--no-apologies",
               "--variant", variant]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def figure(result: dict, key, field) -> float:
    return result[key][field] if key else result[field]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="first checkout (e.g. before)")
    parser.add_argument("b", type=Path, help="second checkout (e.g. after)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    samples: dict = {"a": [], "b": []}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for side in order:
            samples[side].append(one_round(getattr(args, side).resolve(), args.variant))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    report = {"variant": args.variant, "rounds": args.rounds, "a": str(args.a), "b": str(args.b), "figures": {}}
    for key, field, label in FIGURES:
        a = statistics.median(figure(s, key, field) for s in samples["a"])
        b = statistics.median(figure(s, key, field) for s in samples["b"])
        report["figures"][label] = {"a": a, "b": b, "ratio_b_over_a": round(b / a, 3)}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"variant {args.variant}, medians of {args.rounds} alternating rounds")
    print(f"  A = {args.a}\n  B = {args.b}")
    for label, row in report["figures"].items():
        print(f"  {label:20} A {row['a']:>12,.1f}   B {row['b']:>12,.1f}   B/A {row['ratio_b_over_a']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
