"""Fitting the lines of a turn screen: a move's words shortened to a line, the moves put on
pages, the heading above them.

Contract: pure functions of their arguments. `fit` shortens step by step and only as far as
needed (and cuts with an ellipsis only when asked); `pages_of` fills pages in order, each
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


@dataclass(frozen=True)
class TurnScreen:
    """One turn screen: its lines (the prompt not included), the page shown and the pages."""

    lines: list
    page: int
    pages: int
    first: int        # index of the first move on the page
    count: int        # moves on the page


def page_heading(total: int, per_page: int, page: int, header: str, message: str | None, width: int) -> tuple:
    """`(heading lines, page, pages, first, count)` for page `page` (clamped) of `total`
    moves shown `per_page` at a time (see `heading`)."""
    pages = max(1, -(-total // per_page))
    page = min(max(page, 0), pages - 1)
    first = page * per_page
    count = min(per_page, total - first)
    return heading(header, message, first, count, total, pages > 1, width), page, pages, first, count


def heading(header: str, message: str | None, first: int, count: int, total: int, paged: bool, width: int) -> list:
    """The lines above the moves: `message` if given (an answer or a notice to the person),
    then `header` with the range shown ("1-20 of 45:") when the moves take more than one
    page; wrapped to `width`, never cut."""
    header += f" {first + 1}-{first + count} of {total}:" if paged else ":"
    told = wrap(Text(message, style="bold"), width) if message else []
    return told + wrap(Text(header, style="bold"), width)


