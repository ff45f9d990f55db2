"""The first deal of a hand-play variant: how many cards the largest one takes.

Contract: `largest_deal(v)` reads only model values (a pydantic `Variant` or its plain values,
`rules.plain`) and imports nothing, so the compiler may call it on a cached variant.
"""

from __future__ import annotations


def largest_deal(v) -> tuple[int, int]:
    """`(players, hand size)` of the largest first deal of a hand-play variant: over the
    player counts it is played with (a grid board's seating table, else every count from
    `players.min` to `players.max`), each with its `hand_size_by_players` entry or
    `hand_size`; `(players.max, 0)` for a variant that draws its cards. `v` is a `Variant` or
    its plain values (`rules.plain`)."""
    hand_size = getattr(v.turn, "hand_size", 0) or 0
    by_players = getattr(v.turn, "hand_size_by_players", None) or {}
    counts = range(v.players.min, v.players.max + 1)
    if by_players and v.seating:
        counts = [n for n in counts if str(n) in v.seating] or list(counts)
    return max(((n, by_players.get(str(n), hand_size)) for n in counts), key=lambda deal: deal[0] * deal[1],
               default=(v.players.max, hand_size))
