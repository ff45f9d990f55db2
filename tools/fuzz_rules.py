#!/usr/bin/env python3
"""Time-boxed fuzzing of the DSL parser, the compiler, the rule-file loader and the readers of
the files about games.

    python tools/fuzz_rules.py --seconds 60 [--seed 1] [--modes dsl,overlay,bytes,schema,...]
                               [--cases N] [--out fuzz-findings] [--json]

Runs the cases of tests/fuzzlib.py round-robin over the modes until the time is up:
  dsl      grammar sentences (and mutations) through dsl.parse_effect / parse_expr
  overlay  generated programs as a card effect / win condition / scoring formula of an
           overlay of standard, compiled; a program that compiles plays a short game
  bytes    byte-level mutations (bit flips, deletions, insertions, splices) of every
           bundled rule file through load_variant + compile_variant (+ a short game)
  schema   schema-driven mutations of the bundled files' data (+ a short game)
  grid, counters, geometry, positions, saves, results   hostile input (tests/fuzzhostile.py):
           generated grid effects, counters with arithmetic, geometry on boards of every
           size (+ a short game), position files, tampered saves and results files
A mode named twice in --modes gets twice the cases. --cases stops after N cases (before
--seconds runs out); --progress N prints the cases and findings so far every N cases on
stderr. Findings are saved as they are found.
Prints the number of cases per mode, how they ended (parsed / refused with a DslError or
RuleFileError / compiled and played a short game), and every finding (uncaught exception, unpositioned problem, hang, broken
invariant); findings are also saved as JSON under --out. Exit status 1 when anything was
found. Deterministic for a given --seed (up to where the time runs out).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sorry_rules.rules.yamlsafe import load_yaml  # noqa: E402
from tests import fuzzhostile as H  # noqa: E402
from tests import fuzzlib as F  # noqa: E402

MODES = ("dsl", "overlay", "bytes", "schema", *H.KINDS)


class Fuzzer:
    def __init__(self, seed: int, workdir: Path):
        self.chooser = F.RandomChooser(random.Random(seed))
        self.grammar = F.DslGenerator()
        self.typed = F.TypedGenerator()
        self.mutator = F.SchemaMutator()
        self.files = F.bundled_files()
        self.names = sorted(self.files)
        self.datas = {n: load_yaml(self.files[n], n)[0] for n in self.names}
        self.workdir = workdir
        (workdir / "hostile").mkdir(parents=True, exist_ok=True)
        self.count = 0

    def program(self):
        c = self.chooser
        start = c.choice(["effect", "expr"])
        typed = c.chance(50)
        if typed:
            text = self.typed.effect(c, c.integer(1, 4)) if start == "effect" else \
                self.typed.expr(c, c.choice([bool, int]), c.integer(1, 4))
        else:
            text = self.grammar.text(c, start, c.integer(1, 9))
        mutated = c.chance(35)
        if mutated:
            text = F.mutate_text(c, text)
        return start, text, not typed and not mutated

    def run(self, mode: str):
        """One case of `mode`: (finding or None, accepted?)."""
        c = self.chooser
        self.count += 1
        if mode in H.CASES:
            return H.CASES[mode](c, self.workdir / "hostile")
        if mode == "dsl":
            start, text, generated = self.program()
            return F.check_dsl(text, start, generated=generated)
        if mode == "overlay":
            start, text, _ = self.program()
            seed = c.integer(0, 10**6)
            if start == "effect":
                return F.check_overlay(text, None, seed=seed, card=c.choice(["1", "2", "7", "11", "sorry"]))
            return F.check_overlay(None, text, c.choice(["win", "points"]), seed=seed)
        name = c.choice(self.names)
        if mode == "bytes":
            data = F.mutate_bytes(c, self.files[name], [self.files[n] for n in self.names])
        else:
            data = F.dump_yaml(self.mutator.mutate(c, self.datas[name]))
        return F.check_rule_file(name, data, self.workdir / str(self.count % 50), seed=self.count)


def _save(folder: str, seed: int, n: int, finding) -> None:
    """Write a finding as JSON under `folder` as soon as it is found."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"finding-{seed}-{n}.json").write_text(json.dumps(
        {"kind": finding.kind, "message": finding.message, "case": finding.case}, indent=2))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--out", default="fuzz-findings", help="folder for findings (created when needed)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="every N cases, one JSON line on stderr: cases so far and findings so far")
    args = parser.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = sorted(set(modes) - set(MODES))
    if unknown or not modes:
        parser.error(f"unknown modes {unknown}; choose from {', '.join(MODES)}")
    cases, findings = Counter(), []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sorry-fuzz-") as work:
        fuzzer = Fuzzer(args.seed, Path(work))
        i = 0
        while time.perf_counter() - started < args.seconds and (args.cases is None or i < args.cases):
            mode = modes[i % len(modes)]
            i += 1
            finding = fuzzer.run(mode)
            cases[mode] += 1
            if finding is not None:
                finding.case["fuzz_mode"] = mode
                findings.append(finding)
                _save(args.out, args.seed, len(findings) - 1, finding)
            if args.progress and i % args.progress == 0:
                print(json.dumps({"seconds": round(time.perf_counter() - started, 1), "cases": i,
                                  "findings": len(findings)}), file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    summary = {"seconds": round(elapsed, 1), "seed": args.seed, "cases": sum(cases.values()), "per_mode": dict(cases),
               "outcomes": dict(sorted(F.STATS.items())), "findings": len(findings),
               "finding_kinds": dict(Counter(f.kind for f in findings))}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"fuzzed {summary['cases']:,} cases in {elapsed:.0f} s (seed {args.seed}): "
              + ", ".join(f"{m} {n:,}" for m, n in cases.items()))
        print("outcomes: " + ", ".join(f"{k} {v:,}" for k, v in summary["outcomes"].items()))
        print(f"findings: {len(findings)}" + (f" (saved in {args.out}/)" if findings else ""))
        for finding in findings[:20]:
            print("-" * 60)
            print(finding.format()[:3000])
    return 1 if findings else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into `head`
        sys.exit(0)
