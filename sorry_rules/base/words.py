"""English for counted things, shared by every text the program writes.

Contract: `plural(n, word)` is "1 move", "2 moves", "0 moves": the number, a space and
`word` with an "s" unless `n` is 1. Pure.
"""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """'1 sequence', '2 sequences'."""
    return f"{n} {word}{'' if n == 1 else 's'}"
