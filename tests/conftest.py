"""Settings shared by every test module.

Order of the run: the modules in FIRST (the longest tests of the default run: process pools,
Dask, pseudo-terminals, the YAML node limit, expert bots, property tests) run before the
others, in their usual order otherwise. Started first, they cannot leave one pytest-xdist
worker running alone at the end while the other CPUs wait; `--dist worksteal`
(pyproject.toml) balances the rest. The order changes nothing else: every test is
independent of the others.

The package's cache folder (`base.resources.CACHE_ENV`: the DSL parser's tables, validated
and compiled rule files, fitted win chances) is a folder of this run, removed at the end,
never the user's cache folder. Where the machine has a memory file system with room to
spare (/dev/shm), that folder and pytest's temporary folders (`tmp_path`, unless
`--basetemp` is given) are made there: the games these tests play save after every move
with fsync (`base.safeio.replace_file`), which on a disk busy with the rest of the run costs
milliseconds a move; in memory the same code runs and the same files are written.

Bytecode: where Python is told not to write it (PYTHONDONTWRITEBYTECODE, as on the
development machine), every process of the run (the pytest-xdist workers, each `sorry-play`
and `python -c` a test starts) would compile every module of sorry-rules, and pytest every
test module, from source again. The run lets Python write bytecode where it always does, in
the `__pycache__` folders beside the sources (which git ignores), for itself and the
processes it starts. (A PYTHONPYCACHEPREFIX folder would keep it out of the checkout, but
then the bytecode pip and Python wrote beside the libraries and the standard library is not
read either: every worker of a first run compiled those again, about two CPU-seconds each.)
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from sorry_rules.base.resources import CACHE_ENV

_CACHE = None
_BASETEMP = None
#: the environment's bytecode setting before the run changed it (restored at the end)
_BYTECODE_ENV: dict = {}
#: the memory file system, used when it has at least this many bytes free
MEMORY, MEMORY_FREE = "/dev/shm", 2 << 30

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


def _memory() -> str | None:
    """The memory file system's folder when it is writable with room to spare, else None."""
    try:
        stat = os.statvfs(MEMORY)
    except OSError:
        return None
    if not os.access(MEMORY, os.W_OK | os.X_OK) or stat.f_bavail * stat.f_frsize < MEMORY_FREE:
        return None
    _remove_stale(MEMORY)
    return MEMORY


def _remove_stale(folder: str, age: float = 86_400.0) -> None:
    """Remove this suite's folders in `folder` left a day ago or more by a run that was killed
    (one that ends removes its own): memory is not a disk to fill up."""
    now = time.time()
    for entry in os.scandir(folder):
        try:
            stale = entry.name.startswith("sorry-rules-test-") and now - entry.stat(follow_symlinks=False).st_mtime > age
        except OSError:
            continue
        if stale and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """In the controlling process only (pytest-xdist's workers inherit the environment and
    are given their own folders under the controller's `--basetemp`)."""
    global _CACHE, _BASETEMP
    if hasattr(config, "workerinput"):
        return
    memory = _memory()
    if CACHE_ENV not in os.environ:
        _CACHE = tempfile.mkdtemp(prefix="sorry-rules-test-cache-", dir=memory)
        os.environ[CACHE_ENV] = _CACHE
    if memory is not None and config.option.basetemp is None:
        _BASETEMP = config.option.basetemp = tempfile.mkdtemp(prefix="sorry-rules-test-", dir=memory)


def pytest_sessionstart(session):
    """Before pytest-xdist starts its workers (its own hook runs last), in the controlling
    process or a run without workers: bytecode is written (module docstring)."""
    if hasattr(session.config, "workerinput") or not sys.dont_write_bytecode:
        return
    _BYTECODE_ENV["PYTHONDONTWRITEBYTECODE"] = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_unconfigure(config):
    for name, value in _BYTECODE_ENV.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if _BYTECODE_ENV:
        sys.dont_write_bytecode = True
    if _CACHE is not None:
        os.environ.pop(CACHE_ENV, None)
        shutil.rmtree(_CACHE, ignore_errors=True)
    if _BASETEMP is not None:
        shutil.rmtree(_BASETEMP, ignore_errors=True)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test alone (`tmp_path/cache`, not made yet), the working folder
    `tmp_path`."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    monkeypatch.chdir(tmp_path)
    return folder
