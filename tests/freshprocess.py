"""Run a Python snippet in a fresh interpreter, as a command-line start would, for the tests
that check what a start imports and what the caches save."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sorry_rules.base.resources import CACHE_ENV


def run_python(script: str, cache: Path) -> str:
    """The standard output of `python -c script` in a new process whose cache folder is
    `cache` (an error if the snippet fails)."""
    env = dict(os.environ, **{CACHE_ENV: str(cache)})
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
