"""One way to walk the DSL tree: `Visitor` dispatches on a node's class, `children` and
`walk` give the structure. The checks, the compiler, explain and why all walk ASTs this way.

Every pass says which nodes it gives a meaning case by case: `covers` (node classes), each
with its own `visit_<Class>` unless listed in `defaulted` (left to the catch-all on purpose).
`tests/test_recipes.py` holds every visitor of the package to it, so a new node fails the
tests until each pass has decided what the node means to it.

Contract: `Visitor.visit(node)` calls the method `visit_<ClassName>(node)` of the most
specific class of `node` that has one (so `visit_Node` catches every node), else
`generic(node)`, which raises `NotImplementedError` unless a subclass overrides it. What
a method returns is what `visit` returns; arguments after the node are passed through.
Visitors recurse through their own methods, so every walk is at most MAX_NESTING deep
(the parser refuses deeper trees).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Iterator

from sorry_rules.dsl.ast import Choice, Node

_CHILD_FIELDS = ("first", "second", "effect", "condition", "count", "argument", "body", "left", "right", "operand")


def children(node: Node) -> tuple:
    """The direct sub-nodes of `node`, in source order."""
    if isinstance(node, Choice):
        return node.options
    return tuple(value for value in (getattr(node, name, None) for name in _CHILD_FIELDS) if isinstance(value, Node))


def walk(root: Node) -> Iterator[Node]:
    """Every node of the tree below `root` (itself included), parents before children."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def replaced(root: Node, old: Node, new: Node) -> Node:
    """`root` with the node `old` (that very object) replaced by `new`; nodes are frozen, so
    the nodes above it are made again. `root` itself when `old` is not below it."""
    if root is old:
        return new
    for field in fields(root):
        value = getattr(root, field.name)
        if isinstance(value, Node):
            changed = replaced(value, old, new)
            if changed is not value:
                return replace(root, **{field.name: changed})
        elif isinstance(value, tuple) and any(isinstance(item, Node) for item in value):
            items = tuple(replaced(item, old, new) if isinstance(item, Node) else item for item in value)
            if any(a is not b for a, b in zip(items, value)):
                return replace(root, **{field.name: items})
    return root


class Visitor:
    """Base class of every pass over DSL trees (see the module contract)."""

    _dispatch: dict = {}
    #: the node classes whose meaning this pass states case by case (see the module docstring)
    covers: tuple = ()
    #: the node classes of `covers` left to the catch-all (`visit_Node`, `generic`) on purpose
    defaulted: tuple = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._dispatch = {}

    def visit(self, node: Node, *args: Any) -> Any:
        method = self._dispatch.get(type(node))
        if method is None:
            method = self._dispatch[type(node)] = self._method_for(type(node))
        return method(self, node, *args)

    @classmethod
    def _method_for(cls, node_type: type):
        for klass in node_type.__mro__:
            method = getattr(cls, "visit_" + klass.__name__, None)
            if method is not None:
                return method
        return cls.generic

    def generic(self, node: Node, *args: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no visit_{type(node).__name__}")


class EffectWalker(Visitor):
    """A visitor that yields items from the primitives of a card effect: it walks the
    alternatives of `|`, both parts of `then` and the effect of a guard (not its condition),
    and yields whatever the subclass's `visit_<Primitive>` methods yield, in source order.
    A subclass overrides `visit_Guard` to judge the condition."""

    def visit_Choice(self, node, *args: Any):
        for option in node.options:
            yield from self.visit(option, *args)

    def visit_Then(self, node, *args: Any):
        yield from self.visit(node.first, *args)
        yield from self.visit(node.second, *args)

    def visit_Guard(self, node, *args: Any):
        yield from self.visit(node.effect, *args)
