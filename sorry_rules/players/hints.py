"""One line of why a searching player chose a move, from the search's own numbers.

`reason(analysis, move)` (an `search.Analysis` and the chosen public `Move`) says what the
move gains (the side's win chance after it, and after the next best move, both the mean of
their playouts), what it captures (the pawns it sends back or the chips it takes away, read from
the move's events) and what it risks (the win chance in the worst quarter of the sampled
draws, when that is well below the mean). No game's words: chances, pawns, chips.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP
from sorry_rules.engine.gridmechanics import REMOVE

#: a risk is named when the worst quarter of the draws is this much below the mean
RISK_GAP = 0.1


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


def captures(move) -> str:
    """What `move` captures, in words ("" for nothing)."""
    bumps = sum(1 for e in move.events if e[0] == BUMP)
    removed = sum(1 for e in move.events if e[0] == REMOVE)
    parts = []
    if bumps:
        parts.append(f"sends {bumps} pawn{'s' if bumps > 1 else ''} back to Start")
    if removed:
        parts.append(f"takes away {removed} chip{'s' if removed > 1 else ''}")
    return " and ".join(parts)


def reason(analysis, move) -> str:
    """The line of why (module docstring)."""
    choice, chances, counts = analysis.choice, analysis.chances, analysis.counts
    mine = chances[choice]
    if mine == 1.0 and not counts[choice]:
        return "it wins the game now"
    parts = []
    if mine is not None:
        parts.append(f"your win chance after it {_percent(mine)}")
    others = [i for i in range(len(chances)) if i != choice and chances[i] is not None and counts[i]]
    if others:  # the move searched longest beside it: its estimate is the surest
        second = max(others, key=lambda i: (counts[i], chances[i]))
        parts.append(f"after the next best move {_percent(chances[second])}")
    caught = captures(move)
    if caught:
        parts.append("it " + caught)
    low = analysis.low[choice] if analysis.low else None
    if mine is not None and low is not None and mine - low >= RISK_GAP:
        parts.append(f"risk: {_percent(low)} in the worst quarter of the draws")
    return "; ".join(parts) or "the search rates it best"
