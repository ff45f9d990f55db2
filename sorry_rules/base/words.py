"""English for counted things, shared by every text the program writes.

Contract: `plural(n, word)` is "1 move", "2 moves", "0 moves": the number, a space and
`word` with an "s" unless `n` is 1; `place_word(n)` is "1st", "2nd", "3rd", "4th", ..., "11th";
`and_list(words)` is "a", "a and b", "a, b and c". Pure.
"""

from __future__ import annotations


def plural(n: int, word: str, many: str = "") -> str:
    """'1 sequence', '2 sequences'; `many`: the plural where it is not `word` + 's' ('1 ply',
    '2 plies')."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def place_word(n: int) -> str:
    """A place in a game's order: '1st', '2nd', '3rd', '4th', '11th', '12th', '21st'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def and_list(words) -> str:
    """"a", "a and b", "a, b and c" (at least one word)."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
