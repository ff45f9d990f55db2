"""Suggestions for mistyped names: "did you mean ...?" for variants, cards, fields, DSL names.

Contract: `did_you_mean(word, choices)` returns "" when nothing is close, else a text
that starts with "; did you mean" and names at most three of `choices`, closest first;
`known(choices)` lists names for messages. Both are pure and deterministic.
"""

from __future__ import annotations

import difflib
from typing import Iterable


def close_names(word: str, choices: Iterable[str], limit: int = 3) -> list[str]:
    """The names of `choices` closest to `word` (case-insensitive), at most `limit`."""
    by_lower = {name.lower(): name for name in sorted(set(choices), reverse=True)}  # the first name of each spelling
    found = difflib.get_close_matches(word.lower(), list(by_lower), n=limit, cutoff=0.6)
    return [by_lower[f] for f in found]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """"; did you mean 'x'?" (or "'x' or 'y'"), or "" when no choice is close to `word`."""
    found = close_names(word, choices)
    if not found:
        return ""
    return "; did you mean " + " or ".join(f"'{name}'" for name in found) + "?"
