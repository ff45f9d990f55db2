"""Fitting the lines of a turn screen: a move's words shortened to a line, the moves put on
pages, the heading above them.

Contract: pure functions of their arguments. `fit` shortens step by step and only as far as
needed (and cuts with an ellipsis only when asked); `pages_of` fills pages in order (`paged`:
from a given move on), each
with at least one item; `heading` wraps, never cuts. Shared by every board kind's screen
(`cli.screen`, `cli.gridscreen`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

from sorry_rules.cli.lines import wrap

ELLIPSIS = "…"
_BUMP_SQUARE = re.compile(r"(bumps \w+) \([^)]*\)")
_BUMPS_AGAIN = re.compile(r"(bumps \w+(?:, \w+)*), bumps ")


def _bumps_once(text: str) -> str:
    """'bumps A, bumps B, bumps C' -> 'bumps A, B, C'."""
    while True:
        text, n = _BUMPS_AGAIN.subn(r"\1, ", text)
        if not n:
            return text


def fit(text: str, room: int, cut: bool = True) -> str:
    """`text` in at most `room` characters, shortened step by step only as far as needed:
    bumped pawns' squares left out, 'then' dropped between the parts of a split, 'bumps A,
    bumps B' said as 'bumps A, B', arrows without spaces; as a last resort (with `cut`) cut
    with an ellipsis, else left longer (for the caller to wrap)."""
    steps = (lambda t: _BUMP_SQUARE.sub(r"\1", t), lambda t: t.replace("; then ", "; "),
             _bumps_once, lambda t: t.replace(" -> ", "->").replace(" <-> ", "<->"))
    for step in steps:
        if len(text) <= room:
            return text
        text = step(text)
    return text if len(text) <= room or not cut else text[: max(0, room - 1)] + ELLIPSIS


def pages_of(sizes, room: int) -> list[tuple[int, int]]:
    """`(first, count)` of each page when items of `sizes` lines each are put on pages of
    `room` lines (at least one item a page), in order."""
    pages, first, used = [], 0, 0
    for i, size in enumerate(sizes):
        if i > first and used + size > room:
            pages.append((first, i - first))
            first, used = i, 0
        used += size
    pages.append((first, len(sizes) - first))
    return pages


def paged(sizes, room: int, page: int = 0, first: int | None = None) -> tuple[list, int]:
    """`(pages, shown)`: the `(first, count)` pages of `pages_of`, and the index of the page
    shown: page `page` (clamped), or, given `first`, a page that begins at that item, the
    pages before it filled from the start. So a screen whose room changed (a message came or
    went) goes on from the move it showed first, never skipping one."""
    if first is None:
        pages = pages_of(sizes, room)
        return pages, min(max(page, 0), len(pages) - 1)
    first = min(max(first, 0), max(len(sizes) - 1, 0))
    before = pages_of(sizes[:first], room) if first else []
    return before + [(start + first, count) for start, count in pages_of(sizes[first:], room)], len(before)


@dataclass(frozen=True)
class TurnScreen:
    """One turn screen: its lines (the prompt not included), the page shown and the pages."""

    lines: list
    page: int
    pages: int
    first: int        # index of the first move on the page
    count: int        # moves on the page
    starts: tuple = ()  # the index of the first move of every page (to page on from)


def heading(header: str, message: str | None, first: int, count: int, total: int, paged: bool, width: int) -> list:
    """The lines above the moves: `message` if given (an answer or a notice to the person),
    then `header` with the range shown ("1-20 of 45:") when the moves take more than one
    page; wrapped to `width`, never cut."""
    header += f" {first + 1}-{first + count} of {total}:" if paged else ":"
    told = wrap(Text(message, style="bold"), width) if message else []
    return told + wrap(Text(header, style="bold"), width)


