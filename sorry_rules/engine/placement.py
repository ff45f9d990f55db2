"""A read-only view of a placement, for compiled expressions that only count pawns.

Win conditions and score formulas are compiled to `expr(colour, view, env)`; they read
`view.pos[c]`, the squares of colour c. A `Board` (mechanics) satisfies the same contract
with working lists; `PlacementView` is the cheap one made from a finished placement.

Contract: `PlacementView(placement).pos` is the placement itself (per colour a sorted tuple
of squares); nothing changes it.
"""

from __future__ import annotations


class PlacementView:
    """Read-only board for expressions that only count pawns (win and scoring)."""

    __slots__ = ("pos",)

    def __init__(self, placement: tuple):
        self.pos = placement
