#!/usr/bin/env python3
"""Games per second of `sorry-play simulate` at 1 and 2 jobs, and the scaling efficiency.

For each job count it times `sorry_rules.simulation.simexec.run` (exactly what `sorry-play simulate`
runs, without the report) on the same seeded games, `--repeats` times, and keeps the
median rate. The wall time includes starting the worker processes (spawn) and compiling
the variant in each, as a user would see it; use enough games that this is small.

    efficiency = rate(2 jobs) / (2 * rate(1 job))      (1.0 = perfect scaling)

To tell the pool's overhead from the machine's limits, it first times a plain Python loop
alone and then in two processes at once (`machine_speedup_2`: how much more work two busy
processes get done than one; 2.0 on two free, independent cores, less on shared or SMT
cores or a loaded machine), and reports `speedup_vs_machine` = speedup_2_jobs /
machine_speedup_2.

It also checks that both job counts produced identical tallies (determinism), and reports
the CPU seconds spent per game (this process plus its finished worker processes) and the
load average before and after: on a shared machine the wall-clock rates only mean something
when the load stays below the number of CPUs, while the CPU cost per game shows the
overhead of the pool (process start, compiling, pickling) whatever the load.

Usage::

    python bench/simulate_scaling.py                       # 2000 games, 4 players
    python bench/simulate_scaling.py --games 4000 --players 2 --repeats 3

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # finished (joined) workers
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _burn(n: int) -> float:
    started = time.perf_counter()
    x = 0
    for i in range(n):
        x += i * i
    return time.perf_counter() - started


def machine_speedup(n: int = 10_000_000) -> float:
    """Work rate of two processes running a Python loop at once, relative to one alone."""
    from multiprocessing import get_context

    with get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [1000, 1000])           # start both processes first
        alone = pool.apply(_burn, (n,))
        started = time.perf_counter()
        pool.map(_burn, [n, n], chunksize=1)
        together = time.perf_counter() - started
    return 2 * alone / together


def measure(games: int, players: int, seed: int, repeats: int, jobs_list=(1, 2), variant: str = "standard",
            bots: str = "random") -> dict:
    from sorry_rules.simulation.simexec import run
    from sorry_rules.simulation.simulate import Setup, default_batch_size, lineup_of, load_source

    source, _ = load_source(variant)
    setup = Setup(source, players, lineup_of(bots.split(","), players), seed, 20_000)
    machine = machine_speedup()
    rates, cpu, tallies = {}, {}, {}
    load_before = os.getloadavg()[0]
    for jobs in jobs_list:
        samples, cpu_samples = [], []
        for _ in range(repeats):
            cpu_before = _cpu_seconds()
            started = time.perf_counter()
            result = run({"x": (setup, games)}, jobs=jobs, batch_size=default_batch_size(games, jobs))
            samples.append(games / (time.perf_counter() - started))
            cpu_samples.append((_cpu_seconds() - cpu_before) / games)
            tallies[jobs] = result["x"]
        rates[jobs] = statistics.median(samples)
        cpu[jobs] = statistics.median(cpu_samples)
    first = tallies[jobs_list[0]]
    out = {
        "bench": "simulate_scaling", "variant": variant, "bots": bots, "players": players, "games": games,
        "seed": seed, "repeats": repeats,
        "games_per_second": {str(j): round(r, 1) for j, r in rates.items()},
        "cpu_ms_per_game": {str(j): round(1000 * c, 2) for j, c in cpu.items()},
        "identical_results": all(t == first for t in tallies.values()),
        "load_average_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "mean_plies": round(first.metrics["plies"].mean, 1),
        "cpus": os.cpu_count(), "python": platform.python_version(),
    }
    if 1 in rates and 2 in rates:
        out["speedup_2_jobs"] = round(rates[2] / rates[1], 3)
        out["efficiency_2_jobs"] = round(rates[2] / (2 * rates[1]), 3)
        out["machine_speedup_2"] = round(machine, 3)
        out["speedup_vs_machine"] = round(rates[2] / rates[1] / machine, 3)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--bots", default="random")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    print(json.dumps(measure(args.games, args.players, args.seed, args.repeats, variant=args.variant, bots=args.bots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
