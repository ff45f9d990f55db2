"""A comparison counted over the games both sides finished.

`compare` plays game i of each side with the same seed (common random numbers), so its two
columns compare like with like only when they hold the same games. A run stopped early (by
Ctrl-C, or a results file cut short) can have finished game i on one side and not on the
other; `Pairs` keeps such a result aside until its partner comes, and counts a game in both
sides' tallies only once both have it.

Contract: after any sequence of `add(side, result)` calls (each game index at most once per
side), `tallies[side]` holds exactly the games whose index both sides have added, for every
side, and `unpaired()` the number of results still waiting. Memory holds the waiting results
only: at most the games in flight on one side, never a result per finished game.
"""

from __future__ import annotations

from sorry_rules.simulation.simulate import Tally


class Pairs:
    """Tallies of two (or more) sides over the game indices every side has finished."""

    def __init__(self, players: dict):
        """`players`: {side name: players per game of that side}."""
        self.tallies = {name: Tally(n) for name, n in players.items()}
        self.waiting: dict = {}     # game index -> {side: result}

    def add(self, side: str, result) -> None:
        """One finished game of `side` (`GameResult`, its `game` the index)."""
        held = self.waiting.setdefault(result.game, {})
        held[side] = result
        if len(held) == len(self.tallies):
            del self.waiting[result.game]
            for name, game in held.items():
                self.tallies[name].add(game)

    def unpaired(self) -> int:
        """Results finished by some side but not yet by every side."""
        return sum(len(held) for held in self.waiting.values())
