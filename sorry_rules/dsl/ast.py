"""The AST of the sorry-rules DSL: small frozen dataclasses, one per construct.

Every node carries `pos`, the 0-based offset of its first character in the DSL text it
was parsed from, so any later stage can locate a problem in the rule file.

Equality, hash and repr are what `@dataclass(frozen=True)` gives (by the fields, in order;
equal only to a node of the same class), written once in `ByFields` rather than generated
for each class: generating them was half the cost of importing this module, which every
command that compiles a rule file pays.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache


@cache
def _names(cls: type) -> tuple:
    return tuple(f.name for f in fields(cls))


class ByFields:
    """`__eq__`, `__hash__` and `__repr__` of a frozen dataclass, by its fields."""

    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            names = _names(self.__class__)
            return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
        return NotImplemented

    def __hash__(self):
        return hash(tuple(getattr(self, n) for n in _names(self.__class__)))

    def __repr__(self):
        values = ", ".join(f"{n}={getattr(self, n)!r}" for n in _names(self.__class__))
        return f"{self.__class__.__qualname__}({values})"


def shape(value):
    """`value` (a node, a selector, a tuple of them, a leaf) without its text offsets (the
    fields `pos` and `*_pos`): equal for the same construct wherever it is written."""
    if isinstance(value, ByFields):
        return (value.__class__,) + tuple(shape(getattr(value, n)) for n in _names(value.__class__)
                                          if n != "pos" and not n.endswith("_pos"))
    return tuple(shape(v) for v in value) if isinstance(value, tuple) else value


#: A node class: a frozen dataclass whose equality, hash and repr are `ByFields`'.
node = dataclass(frozen=True, eq=False, repr=False)


class DslError(Exception):
    """A DSL text that cannot be parsed; `offset` is 0-based into the text."""

    def __init__(self, offset: int, message: str, code: str = "SR301"):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.code = code


@node
class Node(ByFields):
    pos: int  # 0-based offset of the node's first character in its text


@node
class Selector(ByFields):
    """Which pawns a primitive or `count(pawns ...)` chooses (docs/REFERENCE.md 2.4); not a
    node of its own (it has no children), but each part keeps its offset for messages."""

    pos: int
    owner: str | None = None     # own, partner, opponent, other, controlled, any (None: controlled)
    zones: tuple = ()            # start, home, track, safety, start_exit (any of them; none: anywhere)
    marked: tuple = ()           # ((mark name, offset), ...) the pawn carries
    unmarked: tuple = ()         # ((mark name, offset), ...) the pawn does not carry
    alone: bool = False          # the only pawn on its square
    squares: tuple = ()          # ((relation or None, square name, offset), ...): on a named square (any of them, or
    #                              zones: `in` items say where the pawn is, any of them)
    moved: bool = False          # a pawn the move being followed moved (after: then:, filters and after: conditions)
    rank: str | None = None      # "farthest" (fewest steps from Home) or "nearest" (most): only those of the chosen
    every: bool = False          # send, mark, unmark: act on every chosen pawn at once (one move), not on one of them
    unmoved: bool = False        # a pawn the move being followed did not move (where `moved` may be read)
    bumped: bool = False         # a pawn the move being followed sent back to its Start (where `moved` may be read)


@node
class Enter(Node):
    selector: Selector | None = None  # which pawns in Start may enter (None: any the player controls)


@node
class Forward(Node):
    steps: int
    selector: Selector | None = None  # which pawns may take the step (None: any the player controls)


@node
class Backward(Node):
    steps: int
    selector: Selector | None = None


@node
class ForwardBy(Node):
    """`forward (N)`: as many steps as the number N is on the board before the move."""
    count: Node
    selector: Selector | None = None


@node
class BackwardBy(Node):
    count: Node
    selector: Selector | None = None


@node
class Split(Node):
    steps: int
    among: int | None  # None: any number of pawns
    parts: tuple = ()  # `split N into ...`: ((direction, pawn), ...) in order; pawn None, "any" or a relation
    selector: Selector | None = None  # which pawns may take a part
    sizes: tuple = ()  # `split N into forward 9, ...`: per part its steps, or None (any); () when no part has one


@node
class Switch(Node):
    relation: str


@node
class Sorry(Node):
    relation: str | None  # None: every pawn the placed pawn may bump


@node
class DrawAgain(Node):
    pass


@node
class Pass(Node):
    pass


@node
class Place(Node):
    target: str  # "card": a cell showing the played card; "empty": any empty cell


@node
class Remove(Node):
    relation: str
    unprotected: bool  # only chips that no line of their colour holds


@node
class Send(Node):
    selector: Selector
    destination: object  # "start", "home", "start_exit", ("track", n, pos) or ("safety", k, pos): pos where written


@node
class MovePawn(Node):
    selector: Selector
    destination: object


@node
class Mark(Node):
    name: str
    name_pos: int
    selector: Selector


@node
class Unmark(Node):
    name: str
    name_pos: int
    selector: Selector


@node
class CountPawns(Node):
    selector: Selector


@node
class Choice(Node):
    options: tuple


@node
class Then(Node):
    first: Node
    second: Node
    both: bool = False  # `both (A then B)`: an outcome of A followed by one of B, never either alone


@node
class Guard(Node):
    effect: Node
    condition: Node


@node
class Number(Node):
    value: int


@node
class Bool(Node):
    value: bool


@node
class Can(Node):
    effect: Node


@node
class Call(Node):
    function: str
    argument: Node


@node
class Name(Node):
    name: str


@node
class Aggregate(Node):
    kind: str  # sum, max, min, count
    variable: str
    group: str
    group_pos: int
    body: Node


@node
class BinOp(Node):
    op: str  # + - * == != < <= > >= and or
    left: Node
    right: Node


@node
class Not(Node):
    operand: Node


@node
class Neg(Node):
    operand: Node


#: the nodes that do something on their own (a card effect's primitives)
PRIMITIVES = (Enter, Forward, Backward, ForwardBy, BackwardBy, Split,
              Switch, Sorry, DrawAgain, Pass, Place, Remove, Send, MovePawn, Mark, Unmark)
EFFECT_NODES = PRIMITIVES + (Choice, Then, Guard)
#: the nodes of conditions and formulas
EXPRESSION_NODES = (Number, Bool, Can, Call, Name, Aggregate, BinOp, Not, Neg, CountPawns)
