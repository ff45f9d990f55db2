"""A non-editable install ships the rule files and the grammar: `sorry-play` works from any
directory (issue: layout; `pip install .`)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_variants_and_grammar_and_plays_from_elsewhere(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"),
         str(ROOT)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stderr
    wheel = next((tmp_path / "dist").glob("sorry_rules-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "sorry_rules/_data/variants/standard.yaml" in names
    assert "sorry_rules/_data/grammar/sorry.lark" in names
    assert "sorry_rules/_data/grammar/sorry-tables.json" in names  # the parser's tables (dsl.parsercache)
    assert "sorry_rules/_data/variants/win-chances.json" in names  # the search's fits (players.winchance)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "sorry-play = sorry_rules.cli.launch:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)  # a pure-Python wheel: installing it is unpacking it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run(
        [sys.executable, "-c", "import sorry_rules, sys; print(sorry_rules.__file__); "
         "from sorry_rules.cli.launch import main; "
         "sys.argv=['sorry-play','--variant','standard.yaml','--auto','--seed','3','--players','2']; main()"],
        cwd=elsewhere, env=env, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr
    first, *rest = out.stdout.splitlines()
    assert first.startswith(str(target))  # the installed copy, not the checkout
    assert rest[0].startswith("standard: 2 players") and " wins after " in rest[-1]
