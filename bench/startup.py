#!/usr/bin/env python3
"""Start-up time of `sorry-play`: three commands run start to finish in fresh processes.

    --version                                  interpreter, click, the command tree
    moves --variant standard --state P         + one rule file read, checked, compiled; one position
    validate variants/                         + every bundled rule file validated and analysed

Each command runs `--runs` times (`python -m sorry_rules ...`, after one unmeasured warm-up
run that fills the OS file cache, the bytecode cache and sorry-rules' own caches); the
median wall-clock time and the median CPU time (user + system of the child) are reported.
The CPU time is the figure to trust on a shared, loaded machine: waiting for a core counts
in the wall time only. Targets (issue 14): --version under 0.15 s, moves and validate under
0.3 s.

    python bench/startup.py [--runs 11] [--python PATH]
    python bench/startup.py --tree /tmp/before --tree . --runs 11    # both trees, interleaved

With `--tree` (repeatable) each tree is measured with PYTHONPATH set to it, the trees
taking turns run by run (and command by command), so machine noise hits them alike; the
JSON then holds each tree's figures and the ratio of each tree's CPU median to the first's.
Without it, the tree is the one `sorry_rules` imports from (set PYTHONPATH to choose).

Bytecode: an installed package has its `.pyc` files (pip compiles them); a checkout run
with PYTHONDONTWRITEBYTECODE=1 (as on the development machine) compiles every module of
sorry-rules from source in every run, about 0.14 s of CPU. The children therefore run with
PYTHONDONTWRITEBYTECODE unset and PYTHONPYCACHEPREFIX set to a temporary folder, so the
warm-up writes the bytecode there (never into a tree); `--source` measures the other way.

Caches: `--cache warm` (default) uses a temporary SORRY_RULES_CACHE_DIR filled by the
warm-up (the DSL parser tables, the compiled rule files); `--cache changed` likewise, but
`moves` and `validate` read a copy of the bundled rule files whose standard.yaml (which every
other bundled file extends) gets a new comment line before each run, so every run reads a
rule file it has not seen (an author editing a file) though the data it merges to stays the
same; `--cache edited` likewise, but the edit changes the rules: before each run the count of
card "12" in the copied standard.yaml's deck becomes a number no earlier command read (5, 6, ...),
so its merged data differs from anything cached (the other copied files name their base
`standard`, which resolves to the bundled file: `validate` finds them cached); `--cache off` runs with
SORRY_RULES_CACHE_DIR=off (every run builds everything: a first run on a fresh machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
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


def run_once(command: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of `command`."""
    cpu_before = _child_cpu()
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, env=env, cwd=cwd)
    return time.perf_counter() - started, _child_cpu() - cpu_before


def summary(samples: list[tuple[float, float]]) -> dict:
    wall = [w for w, _ in samples]
    cpu = [c for _, c in samples]
    return {"wall_s": round(statistics.median(wall), 3), "cpu_s": round(statistics.median(cpu), 3),
            "min_wall_s": round(min(wall), 3), "min_cpu_s": round(min(cpu), 3)}


def child_env(tree: Path | None, index: int, folder: Path, source: bool, cache: str) -> dict:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if source:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pyc")
    env["SORRY_RULES_CACHE_DIR"] = "off" if cache == "off" else str(folder / f"cache-{index}")
    return env


def commands_of(python: str, tree: Path | None, position: Path, copy: Path | None) -> dict:
    """The measured commands; a given tree validates its own `variants/`, or `copy` of it
    (`--cache changed` or `edited`), whose standard.yaml `moves` then reads."""
    from sorry_rules.base.resources import variants_dir

    base = [python, "-m", "sorry_rules"]
    variants = tree / "variants" if tree is not None else variants_dir()
    if copy is not None:
        shutil.copytree(variants, copy)
        variants = copy
    return {
        "version": [*base, "--version"],
        "moves": [*base, "moves", "--variant", str(variants / "standard.yaml") if copy else "standard",
                  "--state", str(position)],
        "validate": [*base, "validate", str(variants)],
    }


#: The line of standard.yaml's deck that `--cache edited` changes, and its form.
DECK_LINE = re.compile(r'^(  "12": )\d+', re.MULTILINE)


def edit(copy: Path | None, run: int, cache: str, step: int) -> None:
    """Give the copied standard.yaml content no run has read yet: a comment line
    (`changed`), or a deck count no command has read (`edited`, `step` numbering the
    commands: the rules change, and `validate` does not find the data `moves` read)."""
    if copy is None:
        return
    path = copy / "standard.yaml"
    if cache == "edited":
        text, count = DECK_LINE.subn(rf"\g<1>{step + 5}", path.read_text(encoding="utf-8"), count=1)
        if count != 1:
            raise SystemExit(f"{path}: no deck line for card 12 to edit")
        path.write_text(text, encoding="utf-8")
        return
    with open(path, "a", encoding="utf-8") as file:
        file.write(f"# edit {run}\n")


def measure(trees: list[Path | None], python: str, runs: int, folder: Path, source: bool, cache: str) -> dict:
    """Per tree, per command: the summary of `runs` interleaved runs after one warm-up. A
    given tree runs from a neutral folder (`python -m` puts the working folder first on
    the import path), with PYTHONPATH set to the tree."""
    position = folder / "position.json"
    position.write_text(json.dumps(POSITION), encoding="utf-8")
    envs = [child_env(tree, i, folder, source, cache) for i, tree in enumerate(trees)]
    cwds = [folder if tree is not None else Path.cwd() for tree in trees]
    copies = [folder / f"variants-{i}" if cache in ("changed", "edited") else None for i in range(len(trees))]
    commands = [commands_of(python, tree, position, copies[i]) for i, tree in enumerate(trees)]
    samples = {i: {name: [] for name in commands[i]} for i in range(len(trees))}
    for i, env in enumerate(envs):
        for command in commands[i].values():
            subprocess.run(command, capture_output=True, check=True, env=env, cwd=cwds[i])   # warm-up
    for r in range(runs):
        order = range(len(trees)) if r % 2 == 0 else reversed(range(len(trees)))
        for i in order:
            for k, (name, command) in enumerate(commands[i].items()):
                edit(copies[i], r, cache, r * len(commands[i]) + k)
                samples[i][name].append(run_once(command, envs[i], cwds[i]))
    return {i: {name: summary(s) for name, s in per.items()} for i, per in samples.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="a checkout to measure (repeatable; the trees take turns)")
    parser.add_argument("--source", action="store_true", help="no bytecode cache: compile every module in every run")
    parser.add_argument("--cache", choices=["warm", "changed", "edited", "off"], default="warm")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    trees: list[Path | None] = [t.resolve() for t in args.tree] or [None]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as name:
        results = measure(trees, args.python, args.runs, Path(name), args.source, args.cache)
    report = {"bench": "startup", "runs": args.runs, "bytecode": not args.source, "cache": args.cache,
              "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)], "cpus": os.cpu_count(),
              "python": platform.python_version()}
    if trees == [None]:
        import sorry_rules

        commands_report = results[0]
        for name, result in commands_report.items():
            result["target_s"] = TARGETS[name]
        report.update(tree=str(Path(sorry_rules.__file__).parent.parent), commands=commands_report)
    else:
        report["trees"] = {str(tree): results[i] for i, tree in enumerate(trees)}
        first = results[0]
        report["cpu_ratio_to_first"] = {
            str(tree): {name: round(results[i][name]["cpu_s"] / first[name]["cpu_s"], 3) for name in first}
            for i, tree in enumerate(trees)}
        report["targets_s"] = TARGETS
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
