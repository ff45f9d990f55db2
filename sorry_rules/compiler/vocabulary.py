"""The names the DSL compiler knows, its error type and its "unknown name" messages.

Contract: `GROUPS`, `COUNTS` and `FACTS` are the group names and count functions of expressions, in
the order messages list them; `CompileError(offset, message, code)` is what every compiler
pass raises (the caller locates `offset` in the rule file; the default code SR302 is
"unknown name in DSL"); `unknown(what, word, known)` is the one wording of an unknown-name
message: it lists the known names and suggests the close ones (`base.suggest`);
`more_unknown_names(tree, first, compile_tree)` finds the unknown names of a text after its
first, so that every one is said at once; `text_problem(out, path, text, error)` adds a DSL
error of the text at `path` to a problem collector, located at its character (a syntax error
where a comma of `{...}` or `[...]` cut the text says so).
"""

from __future__ import annotations

from typing import Callable, Iterable

from sorry_rules import dsl
from sorry_rules.base.suggest import did_you_mean

GROUPS = ("player", "team", "partners", "opponents", "players")
COUNTS = ("home", "pawns", "start", "safety", "track")
LITERALS = ("true", "false")
#: facts about the move being judged (filters and consequences only; `engine.facts`).
FACTS = ("bumps", "slides", "reaches_home", "enters_safety", "switches", "moves", "leaves_start")
#: facts about the dice of the turn being judged (filters and consequences only; `engine.dice`): `total` and
#: `doubles` are names (a number, a condition), `thrown(N)` counts the dice showing N.
THROW_FACTS = ("total", "doubles", "thrown")
#: the marker put among an expression's variables where a move is being judged.
MOVE = "@move"


def reads_the_move(node) -> bool:
    """Whether the tree `node` reads a fact of a move (`FACTS`, `THROW_FACTS`): it has a value
    only where a move is judged or followed, not on a board alone."""
    return any((isinstance(n, dsl.Call) and n.function in FACTS + THROW_FACTS) or
               (isinstance(n, dsl.Name) and n.name in THROW_FACTS) for n in dsl.walk(node))


#: the unknown names said of one DSL text at most
MOST_UNKNOWN = 8


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


def more_unknown_names(tree, first: CompileError, compile_tree: Callable) -> list[CompileError]:
    """The unknown names (SR302) of a DSL text after `first`, the one its compilation stopped
    at: `tree` is compiled again (`compile_tree(tree)`, raising CompileError) with each unknown
    function, name or group stood in for by a number, else a condition, whichever fits there;
    found in the order the compiler meets them, at most MOST_UNKNOWN - 1 more. Stops at the
    first problem of another kind (it may come from a stand-in)."""
    found: list[CompileError] = []
    error = first
    while len(found) < MOST_UNKNOWN - 1:
        named = next((node for node in dsl.walk(tree) if isinstance(node, (dsl.Call, dsl.Name, dsl.Aggregate))
                      and error.offset in (node.pos, getattr(node, "group_pos", None))), None)
        if named is None:
            break
        following = None
        for stand_in in (dsl.Number(named.pos, 0), dsl.Bool(named.pos, True)):
            tried = dsl.replaced(tree, named, stand_in)
            try:
                compile_tree(tried)
                return found
            except CompileError as next_error:
                if next_error.offset != error.offset:  # the stand-in fits: this problem is elsewhere
                    tree, following = tried, next_error
                    break
        if following is None or following.code != "SR302" or any(e.offset == following.offset for e in found):
            break
        found.append(following)
        error = following
    return found


#: said after a syntax error at the end of a DSL text that a comma of `{...}` or `[...]` cut
CUT_AT_COMMA = ("; the text ends at a comma: inside {...} or [...] a comma ends a value, so put the whole text in quotes "
                "(\"...\")")


def text_problem(out, path: tuple, text: str, error) -> None:
    """The problem of DSL `error` (a DslError or CompileError) in the text at `path`, located
    at its character; a syntax error at the end of a text a comma cut (a plain text inside
    `{...}` or `[...]`) says so."""
    message = error.message
    if error.code == "SR301" and error.offset >= len(text.rstrip()) and out.locator.cut_at_comma(path):
        message += CUT_AT_COMMA
    out.in_text(path, error.offset, error.code, message)
