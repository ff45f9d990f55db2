"""Parser of the sorry-rules DSL (grammar in grammar/sorry.lark) into a small typed AST.

Contract: `parse_effect(text)` and `parse_expr(text)` return AST nodes or raise `DslError`
with a 0-based character `offset` into `text`, a message and a stable code; no other
exception escapes for any text. Nothing here evaluates anything; `sorry_rules.compiler`
gives the AST its meaning. The LALR parser (`dsl.larkparse`, lark) is built once per process,
and only when a text must be parsed: ASTs given by `remember` are used as they are.

Limits (docs/LIMITS.md): at most MAX_TEXT characters, numbers up to MAX_NUMBER, and an AST
at most MAX_NESTING levels deep, counting every operator, not only parentheses (`- - - 1`
is three levels; the alternatives of one `a | b | c` are one level). Parsing and the tree
transformation are iterative, so a text nested deeper than that is an SR303 error, never
a RecursionError, and every later stage (compiler, closures) recurses at most that deep.
"""

from __future__ import annotations

from functools import lru_cache

from sorry_rules.base import limits
from sorry_rules.dsl.visitor import children
from sorry_rules.dsl.ast import DslError, Node

MAX_TEXT = limits.MAX_DSL_TEXT
MAX_NESTING = limits.MAX_DSL_NESTING
MAX_NUMBER = limits.MAX_DSL_NUMBER


# ---- parsing ---------------------------------------------------------------------------
#: ASTs given by `remember` (e.g. a cached compilation's), used instead of parsing.
_known: dict[tuple[str, str], Node] = {}


def remember(text: str, start: str, ast: Node) -> None:
    """Take `ast` as what `text` parses to from `start` ("effect" or "expr") in this process,
    without parsing it: for ASTs of earlier parses of the same text (`compiler.astcache`);
    the shape and depth limits are still checked when it is asked for."""
    _known[(text, start)] = ast


def _check_shape(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise DslError(MAX_TEXT, f"text is {len(text)} characters long (at most {MAX_TEXT})", "SR303")
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
            if depth > MAX_NESTING:
                raise DslError(index, f"parentheses nested more than {MAX_NESTING} deep", "SR303")
        elif char == ")":
            depth -= 1


def _parse(text: str, start: str):
    if not isinstance(text, str):
        raise DslError(0, f"expected DSL text, got {type(text).__name__}", "SR203")
    return _parse_text(text, start)


@lru_cache(maxsize=1024)
def _parse_text(text: str, start: str):
    """The AST of `text` (ASTs are frozen, so one parse serves every rule file using the same
    text, e.g. every overlay of a base; a DslError is raised again each time, not kept)."""
    _check_shape(text)
    if not text.strip():
        raise DslError(0, "empty text; expected an effect" if start == "effect" else "empty text; expected an expression")
    ast = _known.get((text, start))
    if ast is None:
        from sorry_rules.dsl.larkparse import parse_tree  # lazy: lark only for a text not known already

        ast = parse_tree(text, start)
    _check_depth(ast)
    return ast


def _check_depth(root: Node) -> None:
    """Raise DslError (SR303) at the first node nested deeper than MAX_NESTING (iterative)."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise DslError(node.pos, f"expression nested more than {MAX_NESTING} levels deep (operators and parentheses); "
                           "split it up", "SR303")
        stack.extend((child, depth + 1) for child in children(node))


def parse_effect(text: str) -> Node:
    """Parse a card effect. Raises DslError."""
    return _parse(text, "effect")


def parse_expr(text: str) -> Node:
    """Parse a condition or formula. Raises DslError."""
    return _parse(text, "expr")
