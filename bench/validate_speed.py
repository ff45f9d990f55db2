"""How long `sorry-play validate` takes on every bundled variant (never asserted by tests).

Measures, in fresh processes, the whole command as a user runs it (`python -m sorry_rules.cli
validate <every bundled file>`: interpreter start-up, imports, and each file's result from
the cache of `authoring.validatecache` when its files are unchanged, else every file read,
merged, checked and analysed), and in this process the validation alone, warm (imports
done, parser built, no result cache: `authoring.validate.validate_paths`). Prints one JSON
line. bench/startup.py measures the command with and without the caches.

    python bench/validate_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    from sorry_rules.rules.loader import bundled_names
    from sorry_rules.base.resources import variants_dir

    files = [str(variants_dir() / name) for name in bundled_names()]
    command = [sys.executable, "-m", "sorry_rules.cli", "validate", "--format", "text", *files]
    cold = []
    for _ in range(args.runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        cold.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"validate failed:\n{done.stdout}{done.stderr}")
    baseline = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        baseline.append(time.perf_counter() - start)

    from sorry_rules.authoring.validate import validate_paths

    validate_paths(files)  # warm up: imports, parser
    warm = []
    for _ in range(args.runs):
        start = time.perf_counter()
        report = validate_paths(files)
        warm.append(time.perf_counter() - start)
    print(json.dumps({
        "files": len(files),
        "problems": len(report.problems),
        "command_seconds_median": round(statistics.median(cold), 3),
        "python_startup_seconds_median": round(statistics.median(baseline), 3),
        "warm_validation_seconds_median": round(statistics.median(warm), 4),
        "runs": args.runs,
    }))


if __name__ == "__main__":
    main()
