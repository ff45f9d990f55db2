"""The AST of the sorry-rules DSL: small frozen dataclasses, one per construct.

Every node carries `pos`, the 0-based offset of its first character in the DSL text it
was parsed from, so any later stage can locate a problem in the rule file.
"""

from __future__ import annotations

from dataclasses import dataclass


class DslError(Exception):
    """A DSL text that cannot be parsed; `offset` is 0-based into the text."""

    def __init__(self, offset: int, message: str, code: str = "SR301"):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Node:
    pos: int  # 0-based offset of the node's first character in its text


@dataclass(frozen=True)
class Selector:
    """Which pawns a primitive or `count(pawns ...)` chooses (docs/REFERENCE.md 2.4); not a
    node of its own (it has no children), but each part keeps its offset for messages."""

    pos: int
    owner: str | None = None     # own, partner, opponent, other, controlled, any (None: controlled)
    zones: tuple = ()            # start, home, track, safety, start_exit (any of them; none: anywhere)
    marked: tuple = ()           # ((mark name, offset), ...) the pawn carries
    unmarked: tuple = ()         # ((mark name, offset), ...) the pawn does not carry
    alone: bool = False          # the only pawn on its square


@dataclass(frozen=True)
class Enter(Node):
    selector: Selector | None = None  # which pawns in Start may enter (None: any the player controls)


@dataclass(frozen=True)
class Forward(Node):
    steps: int
    selector: Selector | None = None  # which pawns may take the step (None: any the player controls)


@dataclass(frozen=True)
class Backward(Node):
    steps: int
    selector: Selector | None = None


@dataclass(frozen=True)
class Split(Node):
    steps: int
    among: int | None  # None: any number of pawns
    parts: tuple = ()  # `split N into ...`: ((direction, pawn), ...) in order; pawn None, "any" or a relation
    selector: Selector | None = None  # which pawns may take a part


@dataclass(frozen=True)
class Switch(Node):
    relation: str


@dataclass(frozen=True)
class Sorry(Node):
    relation: str | None  # None: every pawn the placed pawn may bump


@dataclass(frozen=True)
class DrawAgain(Node):
    pass


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class Place(Node):
    target: str  # "card": a cell showing the played card; "empty": any empty cell


@dataclass(frozen=True)
class Remove(Node):
    relation: str
    unprotected: bool  # only chips that no line of their colour holds


@dataclass(frozen=True)
class Send(Node):
    selector: Selector
    destination: object  # "start", "home", "start_exit", ("track", n) or ("safety", k)


@dataclass(frozen=True)
class MovePawn(Node):
    selector: Selector
    destination: object


@dataclass(frozen=True)
class Mark(Node):
    name: str
    name_pos: int
    selector: Selector


@dataclass(frozen=True)
class Unmark(Node):
    name: str
    name_pos: int
    selector: Selector


@dataclass(frozen=True)
class CountPawns(Node):
    selector: Selector


@dataclass(frozen=True)
class Choice(Node):
    options: tuple


@dataclass(frozen=True)
class Then(Node):
    first: Node
    second: Node


@dataclass(frozen=True)
class Guard(Node):
    effect: Node
    condition: Node


@dataclass(frozen=True)
class Number(Node):
    value: int


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Can(Node):
    effect: Node


@dataclass(frozen=True)
class Call(Node):
    function: str
    argument: Node


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Aggregate(Node):
    kind: str  # sum, max, min, count
    variable: str
    group: str
    group_pos: int
    body: Node


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # + - * == != < <= > >= and or
    left: Node
    right: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


EFFECT_NODES = (Enter, Forward, Backward, Split, Switch, Sorry, DrawAgain, Pass, Place, Remove, Send, MovePawn, Mark, Unmark,
                Choice, Then, Guard)
