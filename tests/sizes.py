"""Sizes of the long tests: a short version in the default run, the full size under `slow`.

A test that plays 1,000-game loops or long soaks takes its size as a parameter:

    @pytest.mark.parametrize("games", short_and_full(40, 1000))
    def test_x(games): ...

gives `test_x[short]` (40, run by default) and `test_x[full]` (1,000, marked `slow`: run by
`python -m pytest -m slow`). Both run the same assertions; only the count differs.
"""

from __future__ import annotations

import pytest


def short_and_full(short, full) -> list:
    """Two pytest params, ids `short` and `full`; the full one is marked slow."""
    assert short < full, "the short version must be shorter"
    return [pytest.param(short, id="short"), pytest.param(full, id="full", marks=pytest.mark.slow)]
