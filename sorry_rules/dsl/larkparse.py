"""The lark side of the DSL parser: the LALR parser, the tree-to-AST transformer, syntax errors.

Imported only when a DSL text has to be parsed (`dsl.parser`), so a command whose texts are
all known already (a cached compilation) never imports lark.

Contract: `parse_tree(text, start)` returns the AST of `text` (a string within the shape
limits, checked by the caller) or raises `DslError` with an offset, a message and a code.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from lark import Lark, Token, v_args
from lark.visitors import Transformer_NonRecursive
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from sorry_rules.base.resources import grammar_text
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.dsl.parsercache import cached_parser
from sorry_rules.dsl.ast import (
    DslError, Enter, Forward, Backward, ForwardBy, BackwardBy, Split, Switch, Sorry, DrawAgain, Pass, Place, Remove,
    Choice, Then, Guard,
    Number, Bool, Can, Call, Name, Aggregate, BinOp, Not, Neg, Selector, Send, MovePawn, Mark, Unmark, CountPawns,
)
from sorry_rules.base.limits import MAX_DSL_NUMBER as MAX_NUMBER

#: The lark options of the DSL's parser (also those of the bundled tables: tools/parser_tables.py).
PARSER_OPTIONS = {"parser": "lalr", "start": ["effect", "expr"], "propagate_positions": True}


@lru_cache(maxsize=1)
def lalr_parser() -> Lark:
    """The LALR parser, its tables loaded from the bundled file or the user's cache when valid (`parsercache`)."""
    return cached_parser(grammar_text(), **PARSER_OPTIONS)


def _int(token: Token) -> int:
    if len(token) > 9 or int(token) > MAX_NUMBER:
        shown = token[:12] + ("..." if len(token) > 12 else "")
        raise DslError(token.start_pos or 0, f"number {shown} is too large (at most {MAX_NUMBER})", "SR303")
    return int(token)


def _word(self, meta, children):
    return str(children[0])


def _build(cls, *given):
    """The callback of a rule whose node is `cls(position, *given, *children)`."""
    return lambda self, meta, children: cls(meta.start_pos, *given, *children)


def _item(kind: str, value):
    """The callback of a selector item written as one word (`alone`, `farthest`)."""
    return lambda self, meta, children: (kind, value, meta.start_pos)


def _counted(cls):
    """The callback of `forward N [selector]`, `backward N [selector]`."""
    return lambda self, meta, children: cls(meta.start_pos, _int(children[0]), *children[1:])


def _marking(cls):
    """The callback of `mark NAME selector`, `unmark NAME selector`."""
    return lambda self, meta, children: cls(meta.start_pos, str(children[0]), children[0].start_pos or 0, children[1])


def _optional(cls):
    """The callback of `enter [selector]`, `sorry [relation]`: the node with its one optional part."""
    return lambda self, meta, children: cls(meta.start_pos, children[0] if children else None)


def _named_item(kind: str):
    """The callback of a selector item that names a mark (`marked NAME`, `unmarked NAME`)."""
    return lambda self, meta, children: (kind, str(children[0]), children[0].start_pos or 0)


def _destination(kind: str):
    """The callback of a destination `track:N`, `safety:K`: (kind, N, where it is written)."""
    return lambda self, meta, children: (kind, _int(children[0]), meta.start_pos)


def _aggregate(kind: str):
    """The callback of `KIND(variable in group: body)`."""

    def build(self, meta, children):
        variable, group, body = children
        return Aggregate(meta.start_pos, kind, str(variable), str(group), group.start_pos or 0, body)

    return build


def _both(node):
    """`node`, a `then` sequence, with each `then` of it (not of its parts' own groups) needing
    both its parts."""
    first = _both(node.first) if isinstance(node.first, Then) else node.first
    return replace(node, first=first, both=True)


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    # rules whose value is the text of their one token
    zone = square_owner = square_name = dest_word = part_direction = part_pawn = relation = place_on = protection = _word
    then = _build(Then)
    guard = _build(Guard)
    switch = _build(Switch)
    draw_again = _build(DrawAgain)
    pass_ = _build(Pass)
    place = _build(Place)
    send = _build(Send)
    move_pawn = _build(MovePawn)
    count_pawns = _build(CountPawns)
    forward = _counted(Forward)
    backward = _counted(Backward)
    forward_by = _build(ForwardBy)
    backward_by = _build(BackwardBy)
    enter = _optional(Enter)
    sorry = _optional(Sorry)
    mark = _marking(Mark)
    unmark = _marking(Unmark)
    true = _build(Bool, True)
    false = _build(Bool, False)
    can = _build(Can)
    agg_sum = _aggregate("sum")
    agg_max = _aggregate("max")
    agg_min = _aggregate("min")
    agg_count = _aggregate("count")
    mul = _build(BinOp, "*")
    and_ = _build(BinOp, "and")
    or_ = _build(BinOp, "or")
    not_ = _build(Not)
    neg = _build(Neg)

    def effect(self, meta, children):
        return children[0]

    def both(self, meta, children):
        """`both (A then B ...)`: every `then` of the sequence needs both its parts."""
        inner = children[0]
        if not isinstance(inner, Then):
            raise DslError(meta.start_pos, "both (...) holds a sequence whose parts must all be played: write "
                           "both (A then B)", "SR304")
        return replace(_both(inner), pos=meta.start_pos)  # the sequence starts at `both`

    def choice(self, meta, children):
        left, right = children
        options = (left.options if isinstance(left, Choice) else (left,)) + (right,)
        return Choice(meta.start_pos, options)

    # ---- pawn selectors and destinations ------------------------------------------------
    def selector(self, meta, children):
        owner, zones, marked, unmarked, squares, flags, rank = None, [], [], [], [], set(), None
        for kind, value, pos in children:
            if kind == "owner":
                if owner is not None:
                    raise DslError(pos, f"a selector names its owner once (here '{owner}' and '{value}')", "SR304")
                owner = value
            elif kind == "zone":
                if value in zones:
                    raise DslError(pos, f"zone '{value}' is named twice", "SR304")
                zones.append(value)
            elif kind == "square":
                if value in [(r, n) for r, n, _ in squares]:
                    raise DslError(pos, f"square '{' '.join(w for w in value if w)}' is named twice", "SR304")
                squares.append(value + (pos,))
            elif kind in ("alone", "moved", "unmoved", "bumped", "every"):
                if kind in flags:
                    raise DslError(pos, f"'{kind}' is named twice", "SR304")
                flags.add(kind)
            elif kind == "rank":
                if rank is not None:
                    raise DslError(pos, f"a selector takes the {rank} pawns or the {value} ones, not both", "SR304")
                rank = value
            else:
                (marked if kind == "marked" else unmarked).append((value, pos))
        clash = {n for n, _ in marked} & {n for n, _ in unmarked}
        if clash:
            raise DslError(meta.start_pos, f"a selector cannot ask for a pawn marked and unmarked '{sorted(clash)[0]}'", "SR304")
        if {"moved", "unmoved"} <= flags:
            raise DslError(meta.start_pos, "a selector takes the moved pawns or the unmoved ones, not both", "SR304")
        if "bumped" in flags and flags & {"moved", "unmoved"}:
            other = "moved" if "moved" in flags else "unmoved"
            raise DslError(meta.start_pos, f"a selector takes the bumped pawns (in their Start) or the {other} ones, "
                                           "not both", "SR304")
        return Selector(meta.start_pos, owner, tuple(zones), tuple(marked), tuple(unmarked), "alone" in flags,
                        tuple(squares), "moved" in flags, rank, "every" in flags, "unmoved" in flags, "bumped" in flags)

    def owner(self, meta, children):
        return ("owner", str(children[0]), meta.start_pos)

    def sel_zone(self, meta, children):
        return ("zone", children[0], meta.start_pos)

    def sel_square(self, meta, children):
        return ("square", (None, str(children[0])), children[0].start_pos or 0)

    def sel_square_of(self, meta, children):
        return ("square", (children[0], children[1]), meta.start_pos)

    sel_marked = _named_item("marked")
    sel_unmarked = _named_item("unmarked")
    sel_alone = _item("alone", True)
    sel_moved = _item("moved", True)
    sel_unmoved = _item("unmoved", True)
    sel_bumped = _item("bumped", True)
    sel_farthest = _item("rank", "farthest")
    sel_nearest = _item("rank", "nearest")
    sel_every = _item("every", True)

    dest_track = _destination("track")
    dest_safety = _destination("safety")

    def split(self, meta, children):
        steps = _int(children[0])
        rest = list(children[1:])
        selector = rest.pop() if rest and isinstance(rest[-1], Selector) else None
        among = rest[0] if rest else 2
        return Split(meta.start_pos, steps, among, selector=selector)

    def split_into(self, meta, children):
        written = children[1:]
        parts = tuple((direction, pawn) for direction, pawn, _ in written)
        sizes = tuple(size for _, _, size in written)
        return Split(meta.start_pos, _int(children[0]), len(parts), parts,
                     sizes=sizes if any(size is not None for size in sizes) else ())

    def part(self, meta, children):
        """(direction, pawn or None, steps or None) of one part of `split N into`."""
        sizes = [_int(child) for child in children[1:] if isinstance(child, Token) and child.type == "INT"]
        pawns = [child for child in children[1:] if not (isinstance(child, Token) and child.type == "INT")]
        return (children[0], pawns[0] if pawns else None, sizes[0] if sizes else None)

    def among(self, meta, children):
        return _int(children[0]) if children else None

    def remove(self, meta, children):
        return Remove(meta.start_pos, children[0], len(children) > 1)

    def number(self, meta, children):
        return Number(meta.start_pos, _int(children[0]))

    def call(self, meta, children):
        return Call(meta.start_pos, str(children[0]), children[1])

    def name(self, meta, children):
        return Name(meta.start_pos, str(children[0]))

    def comparison(self, meta, children):
        return BinOp(meta.start_pos, str(children[1]), children[0], children[2])

    arith = comparison


_TOKEN_WORDS = {
    "LPAR": "'('", "RPAR": "')'", "VBAR": "'|'", "STAR": "'*'", "COLON": "':'", "MINUS": "'-'",
    "INT": "a number", "NAME": "a name", "COMPARE": "a comparison", "ADD_OP": "'+' or '-'",
    "$END": "end of text",
}


def _keyword(parser: Lark, name: str) -> str | None:
    """The text of terminal `name` when it is a fixed string (a keyword, '('), else None."""
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return None
    return pattern.value if pattern.type == "str" else None


def _describe_expected(parser: Lark, names) -> str:
    words = set()
    for name in names:
        keyword = _keyword(parser, name)
        words.add(_TOKEN_WORDS.get(name) or (f"'{keyword}'" if keyword is not None else name.lower()))
    ordered = sorted(words)
    return ordered[0] if len(ordered) == 1 else "one of " + ", ".join(ordered)


def _expected_words(parser: Lark, names) -> list[str]:
    """The keywords (enter, forward, opponent, ...) among the expected terminals `names`."""
    return [word for word in (_keyword(parser, name) for name in names) if word is not None and word.isidentifier()]


def _acceptable(error: UnexpectedToken):
    """The terminals the parser would shift where `error` stopped it: the state's own table
    (`error.expected`) can list more after LALR merged states (a condition was offered
    effect words such as `then` and `|`), so each is tried on a copy of the parser's stack."""
    interactive = getattr(error, "interactive_parser", None)
    if interactive is None:
        return error.expected
    try:
        return interactive.accepts() or error.expected
    except Exception:  # pragma: no cover - lark's simulation failing leaves the table's own list
        return error.expected


def _word_around(text: str, offset: int) -> tuple[int, str] | None:
    """(start, word) when `offset` falls inside a word (letters, digits, _) that began before
    it (a keyword read as the start of a longer word: `forwards`), else None."""
    before = re.search(r"\w+\Z", text[:offset]) if 0 < offset <= len(text) else None
    after = re.match(r"\w*", text[offset:]).group()
    if before is None or offset < len(text) and not after:
        return None
    return before.start(), before.group() + after


#: words the grammar's expressions share with card effects but that only card effects may use
#: (`can(...)` asks about a card's moves; the compiler refuses it elsewhere, SR304): a text
#: parsed from another start is never told to write them
EFFECT_ONLY_WORDS = frozenset({"can"})


def _offered(parser: Lark, names, start: str):
    """The terminals `names` that a text parsed from `start` may go on with."""
    if start == "effect":
        return names
    return [name for name in names if _keyword(parser, name) not in EFFECT_ONLY_WORDS]


def _all_keywords(parser: Lark, start: str) -> list[str]:
    """The keywords of the grammar a text parsed from `start` may use."""
    return [t.pattern.value for t in parser.terminals if t.pattern.type == "str" and t.pattern.value.isidentifier()
            and (start == "effect" or t.pattern.value not in EFFECT_ONLY_WORDS)]


def parse_tree(text: str, start: str):
    """The AST of `text` parsed from `start`; DslError for a syntax error or a number too large."""
    parser = lalr_parser()
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedToken as error:
        token = error.token
        shown = "end of text" if token.type == "$END" else f"'{token}'"
        offset = len(text.rstrip()) if token.type == "$END" else (token.start_pos or 0)
        inside = _word_around(text, offset) if token.type != "$END" else None
        if inside is not None:  # a keyword with more letters after it: the whole word is unknown
            word_start, word = inside
            raise DslError(word_start, f"unknown word '{word}'{did_you_mean(word, _all_keywords(parser, start))}") from None
        acceptable = _offered(parser, _acceptable(error), start)
        hint = did_you_mean(str(token), _expected_words(parser, acceptable)) if str(token).isidentifier() else ""
        expected = _describe_expected(parser, acceptable)
        raise DslError(offset, f"unexpected {shown}; expected {expected}{hint}") from None
    except UnexpectedCharacters as error:
        inside = _word_around(text, error.pos_in_stream)
        if inside is not None:
            word_start, word = inside
            raise DslError(word_start, f"unknown word '{word}'{did_you_mean(word, _all_keywords(parser, start))}") from None
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        hint = "; compare with '=='" if char == "=" else ""
        raise DslError(error.pos_in_stream, f"unexpected character {char!r}{hint}") from None
    except UnexpectedEOF as error:
        expected = _describe_expected(parser, _offered(parser, error.expected, start))
        raise DslError(len(text.rstrip()), f"unexpected end of text; expected {expected}") from None
    except UnexpectedInput as error:  # pragma: no cover - other lark input errors
        raise DslError(getattr(error, "pos_in_stream", 0) or 0, str(error).splitlines()[0]) from None
    try:
        return _ToAst().transform(tree)
    except Exception as error:  # lark wraps DslError raised in callbacks
        inner = getattr(error, "orig_exc", error)
        if isinstance(inner, DslError):
            raise inner from None
        raise
