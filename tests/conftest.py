"""Settings shared by every test module.

Order of the run: the modules in FIRST (the longest tests of the default run: process pools,
Dask, pseudo-terminals, the YAML node limit, expert bots, property tests) run before the
others, in their usual order otherwise. Started first, they cannot leave one pytest-xdist
worker running alone at the end while the other CPUs wait; `--dist worksteal`
(pyproject.toml) balances the rest. The order changes nothing else: every test is
independent of the others.

The DSL parser cache (`sorry_rules.dsl.parsercache`) goes to a folder of this run, removed
at the end, never to the user's cache folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from sorry_rules.base.resources import CACHE_ENV

_CACHE = None

FIRST = (
    "tests/test_simulate.py",
    "tests/test_simrun.py",
    "tests/test_yamlsafe.py",
    "tests/test_validate.py",
    "tests/test_bots.py",
    "tests/test_interactive.py",
    "tests/test_properties.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))


def pytest_configure(config):
    global _CACHE
    if CACHE_ENV not in os.environ:
        _CACHE = tempfile.mkdtemp(prefix="sorry-rules-test-cache-")
        os.environ[CACHE_ENV] = _CACHE


def pytest_unconfigure(config):
    if _CACHE is not None:
        os.environ.pop(CACHE_ENV, None)
        shutil.rmtree(_CACHE, ignore_errors=True)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test alone (`tmp_path/cache`, not made yet), the working folder
    `tmp_path`."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    monkeypatch.chdir(tmp_path)
    return folder
