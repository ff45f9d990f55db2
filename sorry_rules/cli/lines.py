"""Screen lines that wrap: rich `Text` broken at word boundaries, never cut.

Contract: `wrap(text, width, indent)` returns lines of at most `width` cells whose words,
joined again, are `text`'s (styles kept); continuation lines start with `indent` spaces. A
word longer than a line is broken inside (so a file path stays whole only where it fits).
`width` below `indent + 8` is taken as `indent + 8`.
"""

from __future__ import annotations

from rich.text import Text


def _breaks(plain: str, width: int, indent: int) -> list[tuple[int, int]]:
    """(start, end) of each line's characters in `plain` (spaces at a break dropped)."""
    spans = []
    start, room = 0, width
    n = len(plain)
    while start < n:
        if n - start <= room:
            spans.append((start, n))
            break
        cut = plain.rfind(" ", start, start + room + 1)
        if cut <= start:  # one word longer than the line: break inside it (no space follows the cut)
            cut = start + room
        spans.append((start, cut))
        start = cut
        while start < n and plain[start] == " ":
            start += 1
        room = width - indent
    return spans


def wrap(text: Text | str, width: int, indent: int = 2) -> list[Text]:
    """`text` as lines of at most `width` cells (module contract)."""
    if isinstance(text, str):
        text = Text(text)
    width = max(width, indent + 8)
    if text.cell_len <= width:
        return [text]
    lines = []
    for k, (start, end) in enumerate(_breaks(text.plain, width, indent)):
        part = text[start:end]
        part.rstrip()
        if k:
            part = Text(" " * indent) + part
        lines.append(part)
    return lines


def wrap_all(texts, width: int, indent: int = 2) -> list[Text]:
    """Every line of `texts` wrapped (see `wrap`)."""
    return [line for text in texts for line in wrap(text, width, indent)]
