"""DSL names: a mistyped name, function, group, primitive or relation is an error at its
character, with its stable code, listing what is known and suggesting the close name; and
every compiler pass is a `dsl.Visitor` that knows every node of the AST."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from sorry_rules import dsl
from sorry_rules.base.errors import RuleFileError
from sorry_rules.compiler import compile_variant
from sorry_rules.compiler.costs import CostEstimator
from sorry_rules.compiler.plays import PlayBuilder as EffectBuilder
from sorry_rules.compiler.expressions import ExpressionBuilder, GroupBuilder
from sorry_rules.dsl import ast
from sorry_rules.rules.loader import load_variant
from sorry_rules.rules.yamlsafe import load_yaml


def problem(field: str, text: str):
    """The one problem of standard with `field` (win or cards.1) set to `text`."""
    if field == "win":
        overlay = f"win: '{text}'\n"
    else:
        overlay = f"cards:\n  '1': '{text}'\n"
    with pytest.raises(RuleFileError) as caught:
        compile_variant(load_variant("standard", layers=[load_yaml(overlay, "o.yaml")]))
    (found,) = caught.value.problems
    assert found.file == "o.yaml"
    return found.line, found.col, found.code, found.message


@pytest.mark.parametrize("text, word, message", [
    ("turn_draws > 1", "turn_draws",
     "unknown name 'turn_draws'; known: home, pawns, start, safety, track, player, team, partners, opponents, players, "
     "true, false"),
    ("home(team) == pawns(team) + tema", "tema",
     "unknown name 'tema'; known: home, pawns, start, safety, track, player, team, partners, opponents, players, "
     "true, false; did you mean 'team'?"),
    ("home > 1", "home", "unknown name 'home'; 'home' counts pawns of a group: write home(G), e.g. home(team)"),
    ("homes(team) >= 4", "homes", "unknown function 'homes'; known: home, pawns, start, safety, track; did you mean 'home'?"),
    ("home(teams) >= 4", "teams",
     "unknown group 'teams'; known: player, team, partners, opponents, players; did you mean 'team'?"),
    ("max(o in opponent: home(o)) >= 4", "opponent",
     "unknown group 'opponent'; known: player, team, partners, opponents, players; did you mean 'opponents'?"),
    ("max(o in opponents: home(p)) >= 4", "p)",
     "unknown group 'p'; known: player, team, partners, opponents, players, o"),
    ("count(o in players: hme(o) > 0) >= 1", "hme",
     "unknown function 'hme'; known: home, pawns, start, safety, track; did you mean 'home'?"),
])
def test_unknown_names_functions_and_groups_list_the_known_and_suggest_the_close_one(text, word, message):
    """Same code (SR302) and position as before; the message lists the known names."""
    assert problem("win", text) == (1, 7 + text.index(word), "SR302", message)


@pytest.mark.parametrize("text, word, suggestion", [
    ("foward 1", "foward", "did you mean 'forward'?"),
    ("enter | drawagain", "drawagain", "did you mean 'draw_again'?"),
    ("sorry oponent", "oponent", "did you mean 'opponent'?"),
    ("forward 1 thn draw_again", "thn", "did you mean 'then'?"),
    ("pass if can(backwrd 1)", "backwrd", "did you mean 'backward'?"),
])
def test_unknown_primitives_and_relations_list_the_known_and_suggest_the_close_one(text, word, suggestion):
    """A mistyped keyword is a syntax error (SR301) at the word; the message lists every
    keyword that may stand there and suggests the close one."""
    line, col, code, message = problem("cards", text)
    assert (line, col, code) == (2, 9 + text.index(word), "SR301")
    assert message.startswith(f"unexpected '{word}'; expected one of ")
    assert message.endswith("; " + suggestion)


@pytest.mark.parametrize("text, word, suggestion", [
    ("forwards 3", "forwards", "did you mean 'forward'?"),
    ("split 7 amongst 2", "amongst", "did you mean 'among'?"),
    ("switchy opponent", "switchy", "did you mean 'switch'?"),
])
def test_a_keyword_with_letters_after_it_is_one_unknown_word(text, word, suggestion):
    """A keyword followed by more letters (`forwards`) is one unknown word, reported at its
    first letter with the close keyword, not as an unexpected 's' in the middle of it."""
    line, col, code, message = problem("cards", text)
    assert (line, col, code) == (2, 9 + text.index(word), "SR301")
    assert message == f"unknown word '{word}'; {suggestion}"


def test_nothing_close_gives_the_list_and_no_suggestion():
    assert "did you mean" not in problem("cards", "zzz 1")[3]
    assert "did you mean" not in problem("win", "home(xyz) > 0")[3]


def _node_classes():
    return [c for _, c in inspect.getmembers(ast, inspect.isclass)
            if issubclass(c, ast.Node) and c is not ast.Node and dataclasses.is_dataclass(c)]


def test_every_compiler_pass_is_a_visitor_that_knows_every_node():
    """A node added to the AST without a meaning in the compiler fails here, not at play."""
    assert len(_node_classes()) == 29
    for builder in (CostEstimator, EffectBuilder, ExpressionBuilder, GroupBuilder):
        assert issubclass(builder, dsl.Visitor)
    leaves = {"Number", "Bool", "Name", "DrawAgain", "Pass"}  # cost (1, 1): CostEstimator.generic
    for node in _node_classes():
        name = node.__name__
        assert hasattr(EffectBuilder, f"visit_{name}") or hasattr(ExpressionBuilder, f"visit_{name}"), name
        assert (name in leaves) != hasattr(CostEstimator, f"visit_{name}"), name
    effects = {c.__name__ for c in dsl.EFFECT_NODES}
    assert effects == {n[6:] for n in dir(EffectBuilder) if n.startswith("visit_")}
    assert not effects & {n[6:] for n in dir(ExpressionBuilder) if n.startswith("visit_")}


def test_compiled_programs_reach_no_tree_and_no_visitor():
    """The visitors run at compile time only: no closure of a compiled game holds an AST
    node or a compiler pass (play never dispatches on a node)."""
    import types

    from sorry_rules.compiler import load_game
    from sorry_rules.rules.loader import bundled_names

    def reachable(fn, seen):
        if id(fn) in seen:
            return
        seen.add(id(fn))
        yield fn
        for cell in getattr(fn, "__closure__", None) or ():
            value = cell.cell_contents
            values = value if isinstance(value, tuple) else (value,)
            for item in values:
                assert not isinstance(item, (ast.Node, dsl.Visitor)), f"{fn.__qualname__} holds {item!r}"
                if isinstance(item, types.FunctionType):
                    yield from reachable(item, seen)

    for name in bundled_names():
        game = load_game(name)
        seen: set[int] = set()
        cards = game.card_makers if game.board_kind == "track" else game.card_programs
        programs = list(cards) + [game.win] + [formula for _, _, formula in game.scoring]
        functions = [f for program in programs for f in reachable(program, seen)]
        assert len(functions) >= len(programs), name
