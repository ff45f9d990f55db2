"""Loading a variant with no cache at all, for tests that compare cached loads with it."""

from __future__ import annotations

import pytest

from sorry_rules.base.resources import CACHE_ENV
from sorry_rules.rules.loader import load_variant


def load_uncached(spec, rules=()):
    """The variant `spec` with house rules `rules`, read, merged and validated afresh."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, "off")
        return load_variant(spec, rules)
