"""Fuzzing of hostile input beyond the rule files of test_fuzz.py (tests/fuzzhostile.py):
grid rule files, counters with arithmetic, geometry on boards of every size, position files,
tampered saves and results files. Each case ends in the error of its input or in a game that
plays with every invariant, never a traceback or a hang (a generous CPU-time guard per case).

The default run is a fixed-seed round of a few cases per kind; `pytest -m slow` runs
SORRY_FUZZ_CASES (default 20000) cases per kind (geometry: a fifth). The standalone
`tools/fuzz_rules.py --modes grid,counters,geometry,positions,saves,results` runs them
for a given time or number of cases.
"""

from __future__ import annotations

import os
import random

import pytest

from . import fuzzhostile as H
from . import fuzzlib as F
from .sizes import short_and_full

SLOW_CASES = int(os.environ.get("SORRY_FUZZ_CASES", "20000"))
SHORT = {"grid": 40, "counters": 40, "geometry": 8, "positions": 40, "saves": 60, "results": 30}


def _round(kind: str, cases: int, seed: int, tmp_path, enough=None) -> None:
    """`cases` cases of `kind`, each without a finding; fewer once `enough()` is true after one."""
    chooser = F.RandomChooser(random.Random(seed))
    work = tmp_path / "cases"
    work.mkdir(exist_ok=True)
    for _ in range(cases):
        finding = H.CASES[kind](chooser, work)
        assert finding is None, finding.format()
        if enough is not None and enough():
            return


@pytest.mark.parametrize("kind", H.KINDS)
@pytest.mark.parametrize("size", short_and_full(0, 1))
def test_hostile_input_gives_only_its_own_errors(kind, size, tmp_path):
    cases = SHORT[kind] if size == 0 else (SLOW_CASES // 5 if kind == "geometry" else SLOW_CASES)
    _round(kind, cases, seed=26 + size, tmp_path=tmp_path)


def test_the_cases_reach_past_the_first_check(tmp_path):
    """The generators are not refused wholesale: some cases of every kind are accepted (compiled
    and played, or read), so the checks deep inside are reached."""
    F.STATS.clear()
    for kind in H.KINDS:
        _round(kind, SHORT[kind], seed=3, tmp_path=tmp_path, enough=lambda: _reached(kind))
    outcomes = dict(F.STATS)
    for kind in H.KINDS:
        assert _reached(kind), outcomes


#: the two outcomes every kind of case must reach: its input taken deep (played, accepted,
#: a report) and refused
REACHED = {"grid": ("played", "refused"), "counters": ("played", "refused"), "geometry": ("played", "refused"),
           "positions": ("accepted", "refused"), "saves": ("accepted", "refused"), "results": ("exit 0", "exit 1")}


def _reached(kind: str) -> bool:
    """Whether the cases of `kind` so far (`fuzzlib.STATS`) ended in both its outcomes."""
    return all(F.STATS.get(f"{kind}:{outcome}", 0) > 0 for outcome in REACHED[kind])


@pytest.mark.slow
def test_soak_under_a_memory_limit(tmp_path):
    """The hostile kinds run in a process whose address space is limited (as `ulimit -v`):
    no case needs more, and none ends in a MemoryError. SORRY_SOAK_SECONDS (default 300)."""
    import json
    import resource
    import subprocess
    import sys
    from pathlib import Path

    limit = 1024**3  # bytes of address space (1 GiB): the grid effect of the issue needed over 2 GB

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    tool = Path(__file__).resolve().parent.parent / "tools" / "fuzz_rules.py"
    seconds = os.environ.get("SORRY_SOAK_SECONDS", "300")
    done = subprocess.run([sys.executable, str(tool), "--seconds", seconds, "--seed", "262", "--json", "--out",
                           str(tmp_path / "findings"), "--modes", ",".join(H.KINDS)],
                          capture_output=True, text=True, preexec_fn=limited, timeout=float(seconds) * 3 + 120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["findings"] == 0 and summary["cases"] > 0
