"""The names the DSL compiler knows, its error type and its "unknown name" messages.

Contract: `GROUPS`, `COUNTS` and `FACTS` are the group names and count functions of expressions, in
the order messages list them; `CompileError(offset, message, code)` is what every compiler
pass raises (the caller locates `offset` in the rule file; the default code SR302 is
"unknown name in DSL"); `unknown(what, word, known)` is the one wording of an unknown-name
message: it lists the known names and suggests the close ones (`base.suggest`).
"""

from __future__ import annotations

from typing import Iterable

from sorry_rules.base.suggest import did_you_mean

GROUPS = ("player", "team", "partners", "opponents", "players")
COUNTS = ("home", "pawns", "start", "safety", "track")
LITERALS = ("true", "false")
#: facts about the move being judged (filters and consequences only; `engine.facts`).
FACTS = ("bumps", "slides", "reaches_home", "enters_safety", "switches", "moves")
#: facts about the dice of the turn being judged (filters and consequences only; `engine.dice`): `total` and
#: `doubles` are names (a number, a condition), `thrown(N)` counts the dice showing N.
THROW_FACTS = ("total", "doubles", "thrown")
#: the marker put among an expression's variables where a move is being judged.
MOVE = "@move"


class CompileError(Exception):
    """A DSL tree that parses but has no meaning; `offset` is 0-based into its text."""

    def __init__(self, offset: int, message: str, code: str = "SR302"):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.code = code


def unknown(what: str, word: str, known: Iterable[str]) -> str:
    """"unknown <what> '<word>'; known: a, b, c; did you mean 'b'?" (no suggestion when
    nothing is close). `known` is listed in the order given."""
    known = tuple(known)
    return f"unknown {what} '{word}'; known: {', '.join(known)}{did_you_mean(word, known)}"
