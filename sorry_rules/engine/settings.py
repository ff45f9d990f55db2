"""The engine's own settings of a compiled variant: plain frozen data, no pydantic.

The compiler (`sorry_rules.compiler.build`) translates the validated rule-file models into
these; the engine reads nothing else at play time.

Contract: every field is an immutable value (str, bool, int or a tuple of those); the
values have the meaning the rule-file fields of the same name have (docs/REFERENCE.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MovementRules:
    """How pawns move, bump and slide (the rule file's `rules:` section)."""

    control: str = "own"                       # "own" | "team": whose pawns a player moves
    bump: tuple = ("partner", "opponent")      # relations a landing pawn sends back to Start
    slide_on: tuple = ("partner", "opponent")  # relations whose slides a pawn takes
    slide_sweep: str = "all"                   # "all" | "bumpable": what a slide sweeps away
    slide_after_switch: str = "both"           # "both" | "mover" | "none"
    slide_after_sorry: bool = True
    slide_optional: bool = False               # a slide may be declined (the pawn stays on its triangle)
    split: str = "sequential"                  # "sequential" | "simultaneous" (A2)
    overshoot_home: str = "illegal"            # "illegal" | "stop"
    must_bump: bool = False                    # a move that bumps an opponent is compulsory
    capture: str = "lone"                      # "lone" | "all": which pawns of a square a landing bumps


@dataclass(frozen=True)
class TurnRules:
    """How a turn gets its card (the rule file's `turn:` section)."""

    source: str = "draw"       # "draw": one card drawn per turn; "hand": play from a hand
    hand_size: int = 0         # cards in a hand (hand play only)
    first: str = "random"      # "random" | "first_seat": who plays first (R3)
    take: int = 1              # cards drawn at once (draw play): the player plays one, the rest are discarded

    @property
    def hand_play(self) -> bool:
        return self.source == "hand"
