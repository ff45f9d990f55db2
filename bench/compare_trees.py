"""Two checkouts side by side, in one run: what a user of each pays for the same work.

Runs this checkout's measuring scripts with each tree first on the import path (the scripts
use the public API only, so an older tree is measured the same way), in fresh processes,
alternating the trees round by round so machine noise hits both alike, and prints the
median of every figure and the ratio B/A (above 1: B is faster):

* random-bot `simulate`, every bundled rule file (`simulate_rate.py`): games per CPU second;
* `--bots greedy` `simulate` on the main rule files, as many games as the random ones: games
  per CPU second;
* a bot's decision (`decisions.py`): expert and greedy, standard, CPU ms (ratio A/B);
* `engine_rate.py`: random 4- and 2-player games of standard per second, through
  `play_game`, and `../shared/bench/limit_sorry.py` measured in the same rounds when it is
  found: each tree's 4-player rate as a share of it.

    git worktree add /tmp/before c5fb64c
    python bench/compare_trees.py /tmp/before .                  # A = before, B = this checkout
    python bench/compare_trees.py /tmp/before . --rounds 5 --games 40 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT = HERE.parent.parent / "shared" / "bench" / "limit_sorry.py"
GREEDY = ("standard", "partnership", "points", "sequence")


def _run(tree: Path, script: str, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(HERE / script), *args, "--json"]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _limit() -> float | None:
    if not LIMIT.exists():
        return None
    done = subprocess.run([sys.executable, str(LIMIT), "--games", "300", "--players", "4"], capture_output=True,
                          text=True, check=True)
    line = next(line for line in done.stdout.splitlines() if "games/s" in line)
    return float(line.split(":")[1].split("games/s")[0])


def one_round(tree: Path, games: int) -> dict:
    """Every figure of one tree, measured once."""
    out = {}
    random = _run(tree, "simulate_rate.py", "--rounds", "1", "--games", str(games))["cases"]
    out.update({f"random {name}": row["games_per_cpu_second"] for name, row in random.items()})
    # as many greedy games as random ones: a greedy player's first decisions fill its tables (the evaluator's
    # probes, tens of milliseconds a rule file), which a handful of games would mostly measure
    greedy = _run(tree, "simulate_rate.py", "--rounds", "1", "--games", str(games), "--bots", "greedy",
                  *(arg for name in GREEDY for arg in ("--only", name)))["cases"]
    out.update({f"greedy {name}": row["games_per_cpu_second"] for name, row in greedy.items()})
    decisions = _run(tree, "decisions.py", "--rounds", "1", "--positions", "30")["bots"]
    out.update({f"decision ms {bot}": row["ms_per_decision"] for bot, row in decisions.items()})
    engine = _run(tree, "engine_rate.py", "--batches", "1", "--no-apologies")
    out["engine 4p games/s"] = engine["4p"]["games_per_second_median"]
    out["engine 2p games/s"] = engine["2p"]["games_per_second_median"]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="first checkout (e.g. before)")
    parser.add_argument("b", type=Path, help="second checkout (e.g. after)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="random games per rule file and round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    trees = {"a": args.a.resolve(), "b": args.b.resolve()}
    samples: dict = {"a": [], "b": [], "limit": []}
    for r in range(args.rounds):
        for side in (("a", "b") if r % 2 == 0 else ("b", "a")):
            samples[side].append(one_round(trees[side], args.games))
        limit = _limit()
        if limit is not None:
            samples["limit"].append(limit)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    report = {"a": str(args.a), "b": str(args.b), "rounds": args.rounds, "load": round(os.getloadavg()[0], 2),
              "figures": {}}
    for name in samples["a"][0]:
        a = statistics.median(s[name] for s in samples["a"])
        b = statistics.median(s[name] for s in samples["b"])
        ratio = a / b if name.startswith("decision") else b / a  # above 1: B is faster
        report["figures"][name] = {"a": a, "b": b, "b_faster": round(ratio, 3)}
    if samples["limit"]:
        limit = statistics.median(samples["limit"])
        report["limit_sorry 4p games/s"] = limit
        report["share of limit_sorry (4p)"] = {side: round(report["figures"]["engine 4p games/s"][side] / limit, 3)
                                               for side in ("a", "b")}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"medians of {args.rounds} alternating rounds; load at the end {report['load']}")
    print(f"  A = {args.a}\n  B = {args.b}")
    for name, row in report["figures"].items():
        print(f"  {name:44s} A {row['a']:>10,.2f}   B {row['b']:>10,.2f}   B faster x{row['b_faster']:.2f}")
    if samples["limit"]:
        share = report["share of limit_sorry (4p)"]
        print(f"  limit_sorry 4p {report['limit_sorry 4p games/s']:,.0f} games/s; share A {share['a']}, B {share['b']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
