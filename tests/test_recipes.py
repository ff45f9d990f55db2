"""The "where to add" recipes of docs/ARCHITECTURE.md hold: a new DSL node fails these tests
until every pass over the trees (the compiler's, explain's, why's, the analyses') has said
what it means to it, and every module of the package is named in docs/ARCHITECTURE.md.

Every `dsl.Visitor` subclass of the package declares `covers` (the nodes it gives a meaning
case by case; empty for a structural walk that treats every node alike) and `defaulted` (the
nodes of `covers` its catch-all handles on purpose); each node of `covers` has its own
`visit_<Class>` or is in `defaulted`."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import sorry_rules
from sorry_rules import dsl
from sorry_rules.dsl import ast

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(sorry_rules.__path__, "sorry_rules.")
                  if not info.name.endswith("__main__"))


def _visitors() -> list[type]:
    for name in _modules():
        importlib.import_module(name)
    found, stack = [], [dsl.Visitor]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("sorry_rules.") and sub.__module__ != "sorry_rules.dsl.visitor":
                found.append(sub)
    return sorted(set(found), key=lambda cls: (cls.__module__, cls.__qualname__))


VISITORS = _visitors()


def _case(cls: type, node: type):
    """The method `cls` has for `node` itself (not a catch-all), or None."""
    for klass in cls.__mro__:
        if klass in (dsl.Visitor, object):
            continue
        method = klass.__dict__.get("visit_" + node.__name__)
        if method is not None:
            return method
    return None


def test_every_pass_of_the_package_is_found():
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in VISITORS}
    assert {"sorry_rules.compiler.plays.PlayBuilder", "sorry_rules.compiler.costs.CostEstimator",
            "sorry_rules.authoring.why._Diagnosis", "sorry_rules.authoring.analysis._Reach"} <= names
    assert len(VISITORS) >= 12


@pytest.mark.parametrize("cls", VISITORS, ids=[f"{c.__module__}.{c.__qualname__}" for c in VISITORS])
def test_a_pass_states_what_each_node_it_covers_means(cls):
    assert "covers" in cls.__dict__, f"{cls.__qualname__} must declare `covers` (dsl.Visitor)"
    missing = [node.__name__ for node in cls.covers if _case(cls, node) is None and node not in cls.defaulted]
    assert not missing, f"{cls.__qualname__} has no visit_<Node> for {missing} (add one, or list it in `defaulted`)"
    needless = [node.__name__ for node in cls.defaulted if _case(cls, node) is not None or node not in cls.covers]
    assert not needless, f"{cls.__qualname__} lists {needless} in `defaulted` but handles or does not cover them"


def test_the_node_groups_hold_every_node():
    nodes = {cls for cls in vars(ast).values() if isinstance(cls, type) and issubclass(cls, ast.Node) and cls is not ast.Node}
    assert set(ast.EFFECT_NODES) | set(ast.EXPRESSION_NODES) == nodes
    assert set(ast.PRIMITIVES) <= set(ast.EFFECT_NODES)


def test_a_new_node_fails_until_the_passes_handle_it(monkeypatch):
    """The check above catches a node added to a group that no pass handles yet."""
    class Teleport(ast.Node):
        pass
    monkeypatch.setattr(ast, "PRIMITIVES", ast.PRIMITIVES + (Teleport,))
    lacking = [cls for cls in VISITORS if cls.covers and set(ast.PRIMITIVES[:-1]) <= set(cls.covers)
               and _case(cls, Teleport) is None]
    assert lacking  # the passes that cover every primitive would each need a case for it


def test_architecture_names_every_module():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = []
    for name in _modules():
        parts = name.split(".")
        if len(parts) < 3 or parts[-1] == "__init__":
            continue
        short = parts[-1]
        if not re.search(rf"`(?:{re.escape(parts[1])}[./])?{re.escape(short)}`|{re.escape(parts[1])}/{re.escape(short)}\.py",
                         text):
            missing.append(name)
    assert not missing, f"docs/ARCHITECTURE.md does not name {missing}"
