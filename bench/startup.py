#!/usr/bin/env python3
"""Start-up time of `sorry-play`: three commands run start to finish in fresh processes.

    --version                                  interpreter, click, the command tree
    moves --variant standard --state P         + one rule file read, checked, compiled; one position
    validate variants/                         + every bundled rule file validated and analysed

Each command runs `--runs` times (`python -m sorry_rules ...`, after one unmeasured warm-up
run that fills the OS file cache and the DSL parse cache); the median wall-clock time and
the median CPU time (user + system of the child) are reported. The CPU time is the figure
to trust on a shared, loaded machine: waiting for a core counts in the wall time only.
Targets (issue 14): --version under 0.15 s, moves and validate under 0.3 s.

    python bench/startup.py [--runs 11] [--python PATH]

Prints one JSON line. The tree measured is the one `sorry_rules` imports from (set
PYTHONPATH to measure another checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: A position in RULES.md notation (the example of the moves oracle's issue).
POSITION = {
    "players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "7",
    "pawns": {"red": ["start", "track:12", "safety:2", "home"], "blue": ["track:16"]},
}

TARGETS = {"version": 0.15, "moves": 0.3, "validate": 0.3}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(command: list[str], runs: int) -> dict:
    subprocess.run(command, capture_output=True, check=True)   # warm-up
    wall, cpu = [], []
    for _ in range(runs):
        cpu_before = _child_cpu()
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        wall.append(time.perf_counter() - started)
        cpu.append(_child_cpu() - cpu_before)
    return {"wall_s": round(statistics.median(wall), 3), "cpu_s": round(statistics.median(cpu), 3),
            "min_wall_s": round(min(wall), 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    import sorry_rules
    from sorry_rules.base.resources import variants_dir

    base = [args.python, "-m", "sorry_rules"]
    with tempfile.TemporaryDirectory() as folder:
        position = Path(folder) / "position.json"
        position.write_text(json.dumps(POSITION), encoding="utf-8")
        commands = {
            "version": [*base, "--version"],
            "moves": [*base, "moves", "--variant", "standard", "--state", str(position)],
            "validate": [*base, "validate", str(variants_dir())],
        }
        results = {name: time_command(command, args.runs) for name, command in commands.items()}
    for name, result in results.items():
        result["target_s"] = TARGETS[name]
    print(json.dumps({"bench": "startup", "runs": args.runs, "tree": str(Path(sorry_rules.__file__).parent.parent),
                      "commands": results, "load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
                      "python": platform.python_version()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
