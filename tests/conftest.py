"""Settings shared by every test module.

Order of the run: the modules in FIRST (the longest tests of the default run: process pools,
Dask, pseudo-terminals, the YAML node limit, expert bots, property tests) run before the
others, in their usual order otherwise. Started first, they cannot leave one pytest-xdist
worker running alone at the end while the other CPUs wait; `--dist worksteal`
(pyproject.toml) balances the rest. The order changes nothing else: every test is
independent of the others.
"""

from __future__ import annotations

FIRST = (
    "tests/test_simulate.py",
    "tests/test_yamlsafe.py",
    "tests/test_validate.py",
    "tests/test_bots.py",
    "tests/test_interactive.py",
    "tests/test_properties.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))
