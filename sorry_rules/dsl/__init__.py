"""The DSL layer: the grammar (grammar/sorry.lark), the parser and the AST.

`parse_effect` and `parse_expr` turn a DSL text into AST nodes (`sorry_rules.dsl.ast`);
nothing here gives them meaning: the compiler does.
"""

from sorry_rules.dsl.ast import (  # noqa: F401  (re-exported: the layer's public names)
    DslError, Node, Enter, Forward, Backward, ForwardBy, BackwardBy, Split, Switch, Sorry, DrawAgain, Pass, Place, Remove,
    Choice, Then, Guard,
    Number, Bool, Can, Call, Name, Aggregate, BinOp, Not, Neg, EFFECT_NODES, Selector, Send, MovePawn, Mark, Unmark,
    CountPawns, PRIMITIVES, EXPRESSION_NODES, shape,
)
from sorry_rules.dsl.parser import MAX_NESTING, MAX_NUMBER, MAX_TEXT, parse_effect, parse_expr  # noqa: F401
from sorry_rules.dsl.visitor import EffectWalker, Visitor, children, replaced, walk  # noqa: F401
