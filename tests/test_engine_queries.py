"""The engine's compiled game is plain data, and its public queries (engine.queries and the
query methods of Game and Layout) keep their contracts."""

from __future__ import annotations

import dataclasses
import types
from fractions import Fraction

import pytest
from pydantic import BaseModel

from sorry_rules import dsl
from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.compiler import load_game
from sorry_rules.engine.events import KINDS, moved_pawns
from sorry_rules.engine.placement import PlacementView
from sorry_rules.engine.queries import OBSTACLE_CODES, Obstacle, Origin
from sorry_rules.engine.settings import MovementRules, TurnRules
from sorry_rules.rules.plain import PlainModel

VARIANTS = ("standard", "partnership", "points")


def reachable(root):
    """Every object reachable from `root` through attributes, slots, containers, function
    closures and defaults, and bound methods (modules and classes are not entered)."""
    seen = {id(root)}
    stack = [root]
    while stack:
        obj = stack.pop()
        yield obj
        if isinstance(obj, (str, bytes, int, float, bool, type(None), types.ModuleType, type)):
            continue
        children = []
        if isinstance(obj, dict):
            children += list(obj.keys()) + list(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            children += list(obj)
        if isinstance(obj, types.FunctionType):
            children += [cell.cell_contents for cell in obj.__closure__ or ()]
            children += list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
        elif isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
            children.append(getattr(obj, "__self__", None))
            children.append(getattr(obj, "__func__", None))
        if hasattr(obj, "__dict__") and not isinstance(obj, types.FunctionType):
            children += list(vars(obj).values())
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                children.append(getattr(obj, name))
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)


@pytest.mark.parametrize("variant", VARIANTS)
def test_nothing_reachable_from_a_compiled_game_is_a_pydantic_model(variant):
    """Issue 11 item 2: the engine plays from its own compiled game, plain frozen data. The
    second load compiles the cached variant's plain values (`rules.plain`): none of them
    is kept either."""
    load_game(variant)
    game = load_game(variant)
    objects = list(reachable(game))
    ids = {id(o) for o in objects}
    # the walk does enter the tables, the mechanics, the programs and their closures
    assert {id(game.layout), id(game.mechanics), id(game.mechanics.slide_here), id(game.win)} <= ids
    assert id(game.layout.forward(1)) in ids and all(id(f) in ids for f in game.card_makers)
    assert not [o for o in objects if isinstance(o, (BaseModel, PlainModel))]
    assert not [o for o in objects if isinstance(o, dsl.Node)]  # no DSL tree is read at play time
    assert not [o for o in objects if type(o).__module__.startswith(("pydantic", "lark", "yaml"))]
    assert any(isinstance(o, types.FunctionType) for o in objects)
    assert isinstance(game.rules, MovementRules) and isinstance(game.turn, TurnRules)
    for settings in (game.rules, game.turn):
        assert dataclasses.is_dataclass(settings)
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.source = "x"


def test_the_walk_finds_a_model_hidden_in_a_closure():
    from sorry_rules.rules.model import Rules

    game = load_game("standard")
    hidden = Rules()
    game.extra = (lambda: (lambda: hidden))()
    assert any(o is hidden for o in reachable(game))


def test_settings_copy_the_rule_file(tmp_path):
    (tmp_path / "h.yaml").write_text("extends: standard\nturn: {source: hand, hand_size: 5, first: first_seat}\n"
                                     "rules: {bump: [opponent], must_bump: true, split: simultaneous}\n")
    game = load_game("standard", rules=(str(tmp_path / "h.yaml"),))
    assert game.turn == TurnRules(source="hand", hand_size=5, first="first_seat")
    assert game.hand_play and game.hand_size == 5
    assert game.rules.bump == ("opponent",) and game.rules.must_bump and game.rules.split == "simultaneous"
    assert load_game("standard").turn == TurnRules(source="draw", hand_size=0, first="random")


def test_seats_for_says_how_many_players():
    game = load_game("standard")
    with pytest.raises(IllegalMoveError, match=r"standard is for 2-4 players, not 5"):
        game.seats_for(5)
    assert game.player_counts() == "2-4"
    game.players_min = game.players_max = 4
    assert game.player_counts() == "4"
    with pytest.raises(IllegalMoveError, match=r"standard is for 4 players, not 2$"):
        game.seats_for(2)


# ---- traced moves ----------------------------------------------------------------------
def position(game, card, red, blue=(), players=4):
    seats = game.seats_for(players)
    placement = [list(game.initial_placement(seats)[c]) for c in range(len(game.colours))]
    for c, squares in ((0, red), (1, blue)):
        for i, text in enumerate(squares):
            placement[c][i] = game.layout.parse(c, text)
    return game.position(tuple(tuple(sorted(p)) for p in placement), seats, 0, card=game.card_index[card])


def test_traced_moves_name_the_alternative_behind_each_move():
    """R24, A14: the 11 forwards (option 0), switches (option 1), or passes (option 2) only
    when it can switch and cannot move forward."""
    game = load_game("standard")
    eleven = game.card_index["11"]
    state = position(game, "11", ["safety:1", "track:0"], ["track:20"])
    traced = game.traced_moves(state)
    assert [t.move for t in traced] == game.legal_moves(state)
    by_kind = {t.move.kind: t.origins for t in traced}
    assert by_kind["pass"] == (Origin(eleven, 2, len("forward 11 | switch opponent | ")),)
    assert by_kind["move"] == (Origin(eleven, 1, len("forward 11 | ")),)
    state = position(game, "11", ["track:10"], ["track:20"])
    origins = sorted(o.option for t in game.traced_moves(state) for o in t.origins)
    assert origins == [0, 1]
    state = position(game, "10", ["track:30"])
    assert [[o.option for o in t.origins] for t in game.traced_moves(state)] == [[0], [1]]


def test_a_move_two_alternatives_give_names_both(tmp_path):
    (tmp_path / "h.yaml").write_text("extends: standard\ncards:\n  '5': forward 5 | forward 2 then forward 3\n")
    game = load_game("standard", rules=(str(tmp_path / "h.yaml"),))
    state = position(game, "5", ["track:30"])
    [traced] = game.traced_moves(state)
    assert [o.option for o in traced.origins] == [0, 1] and moved_pawns(traced.move.events) == {(0, 30)}


def test_traced_moves_of_a_forfeit_have_no_origin():
    game = load_game("standard")
    state = position(game, "10", [])  # every pawn in Start: a 10 cannot move
    [traced] = game.traced_moves(state)
    assert traced.move.kind == "forfeit" and traced.origins == ()


# ---- obstacles -------------------------------------------------------------------------
def obstacles_for(game, red, blue=()):
    return game.obstacles(position(game, "1", red, blue).placement)


def test_obstacles_of_each_primitive():
    game = load_game("standard")
    layout = game.layout
    sq = layout.parse
    ob = obstacles_for(game, ["start", "track:4", "safety:3", "track:10"], ["track:20"])
    assert ob.concerns("enter", 0, layout.start[0]) and not ob.concerns("enter", 0, 4)
    assert not ob.concerns("forward", 0, layout.home[0]) and not ob.concerns("pass", 0, 4)
    assert ob.enter(0) == Obstacle("own_pawn", square=4)                        # R9
    assert ob.step("forward", 6, 0, 4) == Obstacle("own_pawn", square=10)      # R16
    assert ob.step("forward", 5, 0, sq(0, "safety:3")) == Obstacle("overshoot", steps=3)  # R33
    assert ob.step("forward", 3, 0, sq(0, "safety:3")) is None
    assert ob.step("backward", 4, 0, 10) is None
    assert ob.switch("opponent", 0, sq(0, "safety:3")) == Obstacle("not_on_track")        # R24
    assert ob.switch("opponent", 0, 10) == Obstacle("slides_block_all")  # a target exists: only slides could stop it
    assert ob.switch("partner", 0, 10) == Obstacle("no_target", relation="partner")
    assert ob.sorry("opponent", 0) == Obstacle("slides_block_all")
    assert obstacles_for(game, ["start"]).sorry("opponent", 0) == Obstacle("no_target", relation="opponent")  # R25
    split = ob.split(7, 0, sq(0, "safety:3"))
    assert split == Obstacle("no_partner_pawn", steps=7)
    # safety:5 can take a 1-step part (to Home): the split fails only for want of a second pawn
    assert obstacles_for(game, ["safety:5", "safety:4"]).split(7, 0, sq(0, "safety:5")) == Obstacle("no_partner_pawn", steps=7)
    assert ob.step("backward", 4, 0, layout.start[0]) == Obstacle("no_route")


def test_unbumpable_and_blocked_slide_obstacles(tmp_path):
    (tmp_path / "h.yaml").write_text("extends: standard\nteams: [[red, yellow], [blue, green]]\n"
                                     "rules: {bump: [opponent], slide_sweep: bumpable}\n")
    game = load_game("standard", rules=(str(tmp_path / "h.yaml"),))
    seats = game.seats_for(4)
    placement = [list(p) for p in game.initial_placement(seats)]
    placement[0][0], placement[0][1], placement[2][0] = 20, 19, 23
    ob = game.obstacles(tuple(tuple(sorted(p)) for p in placement))
    assert ob.step("forward", 3, 0, 20) == Obstacle("unbumpable", square=23, colour=2, relation="partner")  # H13
    # blue's short slide: triangle 16, end 19, held by red's own pawn (H12)
    assert ob.step("backward", 4, 0, 20) == Obstacle("slide_blocked", square=16, end=19)
    assert ob.step("forward", 1, 0, 20) is None
    # R22: every part of a 7 from track:10 ends on an own (11, 12) or a partner's (13..16) pawn
    placement = [list(p) for p in game.initial_placement(seats)]
    placement[0][:3] = [10, 11, 12]
    placement[2][:4] = [13, 14, 15, 16]
    stuck = game.obstacles(tuple(tuple(sorted(p)) for p in placement)).split(7, 0, 10)
    assert stuck.code == "no_part_fits" and [part for part, _ in stuck.parts] == list(range(1, 7))
    assert [o.code for _, o in stuck.parts] == ["own_pawn"] * 2 + ["unbumpable"] * 4
    assert all(o.code in OBSTACLE_CODES for _, o in stuck.parts)


# ---- chance ----------------------------------------------------------------------------
def test_chance_is_the_pile_then_the_reshuffled_discards():
    game = load_game("standard")
    state = game.new_game(1, players=2)
    dist = game.chance(state)
    assert sum(p for _, p in dist) == 1 and all(isinstance(p, Fraction) for _, p in dist)
    assert dict(dist) == {card: Fraction(game.deck.count(card), len(game.deck)) for card in set(game.deck)}
    one, two = game.card_index["1"], game.card_index["2"]
    assert game.chance(state._replace(pile=(one, two, two))) == ((one, Fraction(1, 3)), (two, Fraction(2, 3)))
    # R34: an empty pile draws from the reshuffled discards
    assert game.chance(state._replace(pile=(), discard=(two, two))) == ((two, Fraction(1)),)
    assert game.chance(state._replace(pile=(), discard=())) == ()
    # the drawn card is always one the distribution allows
    for seed in range(20):
        state = game.new_game(seed, players=4)
        allowed = dict(game.chance(state))
        assert game.draw(state).card in allowed


# ---- views, layout, events ---------------------------------------------------------------
def test_placement_view_and_layout_steps():
    game = load_game("standard")
    placement = game.initial_placement(game.seats_for(2))
    view = game.view(placement)
    assert isinstance(view, PlacementView) and view.pos is placement
    assert not game.win(0, view, None)
    layout = game.layout
    home = tuple(layout.home[0] for _ in range(game.pawns))
    assert game.win(0, game.view((home,) + placement[1:]), None)
    c = 0
    entry = layout.safety_entry[c]
    assert layout.step_forward(c, entry) == layout.parse(c, "safety:1")
    assert layout.step_backward(c, layout.parse(c, "safety:1")) == entry  # A12
    assert layout.step_forward(c, layout.parse(c, f"safety:{layout.L}")) == layout.home[c]
    assert layout.step_forward(c, layout.home[c]) == -1 and layout.step_backward(c, layout.start[c]) == -1


def test_every_event_of_random_games_is_a_documented_kind():
    game = load_game("standard")
    state = game.new_game(3, players=4)
    seen = set()
    while state.winner is None and state.plies < 400:
        if game.needs_draw(state):
            state = game.draw(state)
        moves = game.legal_moves(state)
        for move in moves:
            seen.update(e[0] for e in move.events)
        state = game.apply(state, moves[state.plies % len(moves)])
    assert seen <= set(KINDS) and {"forward", "bump", "enter"} <= seen


