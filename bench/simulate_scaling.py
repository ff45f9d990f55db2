#!/usr/bin/env python3
"""Games per second of `sorry-play simulate` at 1 and 2 jobs, and the scaling efficiency.

For each job count it times `sorry_rules.simulation.simexec.run` (exactly what `sorry-play simulate`
runs, without the report) on the same seeded games. Rounds are interleaved (each round runs
1 job, then 2 jobs), `--repeats` rounds, and each figure is the median over the rounds. The
wall time includes starting the worker processes (forked on Linux, with the variant compiled;
else spawned, each compiling it), as a user would see it; use enough games that this is small. With `--dask ADDRESS` (or
`--dask local`: a LocalCluster started for each run) the 2-job rounds run on Dask.

    efficiency = rate(2 jobs) / (2 * rate(1 job))      (1.0 = perfect scaling)

On a shared machine the wall clock says more about the other load than about the pool, so
the script also reports, per job count:
- `cpu_ms_per_game`: CPU time of this process and its finished workers per game (the pool's
  own work: worker start, compiling, pickling, whatever the load);
- `busy_share`: that CPU time over (jobs x wall time): how much of its cores the run had;
- `uncontended_games_per_second`: the rate with the wall time scaled by the share of the
  run's demand for a core that was served, CPU / (CPU + time runnable but waiting for a
  core), both summed over this process and every descendant from Linux's
  /proc/PID/schedstat (sampled every 20 ms). Time the run's processes slept (a worker
  waiting for a batch, the parent waiting for results) stays in, as it is the pool's doing;
  time they waited for a core taken by someone else is taken out. Its efficiency
  (`efficiency_2_jobs_uncontended`, and per round) estimates the scaling on a quiet
  machine; it does not remove the slowdown of a loaded host's shared caches and clocks.

It also times a plain Python loop alone and then in two processes at once
(`machine_speedup_2`: how much more work two busy processes get done than one; 2.0 on two
free, independent cores; `--no-calibration` skips it), checks that every job count gave
identical tallies (determinism), and reports the load average before and after.

Usage::

    python bench/simulate_scaling.py                       # 2000 games, 4 players
    python bench/simulate_scaling.py --games 4000 --players 2 --repeats 3
    python bench/simulate_scaling.py --games 2000 --repeats 3 --dask local

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


class SchedSampler:
    """Time on a CPU and time waiting for one (runnable, but another process had the core) of
    this process and all its descendants, from Linux's /proc/PID/schedstat, sampled every
    `interval` seconds by a thread (a worker's last `interval` before it exits is lost).
    Elsewhere (no schedstat) `totals()` is None."""

    def __init__(self, interval: float = 0.02):
        import threading

        self.interval, self.seen, self.stop = interval, {}, threading.Event()
        self.available = os.path.exists(f"/proc/{os.getpid()}/schedstat")
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self):
        if self.available:
            self.base = self._sample_all(record=False)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        if self.available:
            self.stop.set()
            self.thread.join()
            self._sample_all()

    def _loop(self):
        while not self.stop.wait(self.interval):
            self._sample_all()

    def _pids(self):
        pids, todo = [], [os.getpid()]
        while todo:
            pid = todo.pop()
            pids.append(pid)
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children") as f:
                        todo.extend(int(c) for c in f.read().split())
            except OSError:
                continue
        return pids

    def _sample_all(self, record: bool = True):
        base = {}
        for pid in self._pids():
            try:
                with open(f"/proc/{pid}/schedstat") as f:
                    run_ns, wait_ns, _ = (int(x) for x in f.read().split())
            except (OSError, ValueError):
                continue
            if record:
                self.seen[pid] = (run_ns, wait_ns)
            else:
                base[pid] = (run_ns, wait_ns)
        return base

    def totals(self):
        """(CPU seconds, seconds runnable but waiting for a core) since `__enter__`."""
        if not self.available:
            return None
        run = sum(r - self.base.get(pid, (0, 0))[0] for pid, (r, _) in self.seen.items())
        wait = sum(w - self.base.get(pid, (0, 0))[1] for pid, (_, w) in self.seen.items())
        return run / 1e9, wait / 1e9


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


def _time_run(run, setup, games: int, jobs: int, engine: str, scheduler):
    """(games/s wall, CPU ms per game, busy share of the jobs' cores, uncontended wall
    seconds, tally) of one run. The uncontended wall time scales the wall time by the share
    of the run's demand for a core that was served: CPU / (CPU + time runnable but waiting
    for a core, the other load's doing); time our processes slept (idle workers, waiting
    for results) stays in it, as it is the pool's doing."""
    from sorry_rules.simulation.simulate import default_batch_size

    cpu_before = _cpu_seconds()
    kwargs = {} if scheduler is None else {"engine": engine, "scheduler": scheduler}
    with SchedSampler() as sched:
        started = time.perf_counter()
        result = run({"x": (setup, games)}, jobs=jobs, batch_size=default_batch_size(games, jobs), **kwargs)
        wall = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu_before
    totals = sched.totals()
    uncontended = wall if totals is None else wall * totals[0] / max(1e-9, totals[0] + totals[1])
    return games / wall, cpu / games, cpu / (jobs * wall), uncontended, result["x"]


def measure(games: int, players: int, seed: int, repeats: int, jobs_list=(1, 2), variant: str = "standard",
            bots: str = "random", dask: str | None = None, calibrate: bool = True) -> dict:
    """Rounds interleaved: each round runs every job count once, one after another, so that
    machine noise hits them alike; medians over the rounds. With `dask` (an address, or
    `local`), the job counts above 1 run on Dask instead of the local pool."""
    from sorry_rules.simulation.simexec import run
    from sorry_rules.simulation.simulate import Setup, lineup_of, load_source

    source, _ = load_source(variant)
    setup = Setup(source, players, lineup_of(bots.split(","), players), seed, 20_000)
    machine = machine_speedup() if calibrate else None
    samples = {jobs: {"rate": [], "cpu": [], "busy": [], "uncontended": []} for jobs in jobs_list}
    tallies = {}
    load_before = os.getloadavg()[0]
    for _ in range(repeats):
        for jobs in jobs_list:
            scheduler = dask if jobs > 1 else None
            rate, cpu, busy, uncontended, tallies[jobs] = _time_run(run, setup, games, jobs, "dask", scheduler)
            for key, value in (("rate", rate), ("cpu", cpu), ("busy", busy), ("uncontended", games / uncontended)):
                samples[jobs][key].append(value)
    rates = {jobs: statistics.median(s["rate"]) for jobs, s in samples.items()}
    first = tallies[jobs_list[0]]
    out = {
        "bench": "simulate_scaling", "variant": variant, "bots": bots, "players": players, "games": games,
        "seed": seed, "repeats": repeats, "engine_above_1_job": f"dask {dask}" if dask else "local",
        "games_per_second": {str(j): round(r, 1) for j, r in rates.items()},
        "games_per_second_samples": {str(j): [round(r, 1) for r in s["rate"]] for j, s in samples.items()},
        "cpu_ms_per_game": {str(j): round(1000 * statistics.median(s["cpu"]), 2) for j, s in samples.items()},
        "busy_share": {str(j): round(statistics.median(s["busy"]), 3) for j, s in samples.items()},
        "uncontended_games_per_second": {str(j): round(statistics.median(s["uncontended"]), 1)
                                         for j, s in samples.items()},
        "identical_results": all(t == first for t in tallies.values()),
        "load_average_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "mean_plies": round(first.metrics["plies"].mean, 1),
        "cpus": os.cpu_count(), "python": platform.python_version(),
    }
    if 1 in rates and 2 in rates:
        out["speedup_2_jobs"] = round(rates[2] / rates[1], 3)
        out["efficiency_2_jobs"] = round(rates[2] / (2 * rates[1]), 3)
        free = {j: statistics.median(samples[j]["uncontended"]) for j in (1, 2)}
        out["efficiency_2_jobs_uncontended"] = round(free[2] / (2 * free[1]), 3)
        pairs = [u2 / (2 * u1) for u1, u2 in zip(samples[1]["uncontended"], samples[2]["uncontended"])]
        out["efficiency_2_jobs_uncontended_per_round"] = [round(p, 3) for p in pairs]
        if machine is not None:
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
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run the 2-job rounds on Dask (a scheduler address, or `local` for a LocalCluster)")
    parser.add_argument("--no-calibration", action="store_true", help="skip the plain-loop machine check")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    print(json.dumps(measure(args.games, args.players, args.seed, args.repeats, variant=args.variant, bots=args.bots,
                             dask=args.dask, calibrate=not args.no_calibration)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
