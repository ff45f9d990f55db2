"""The flat functions' shortcuts for the 7's split, one-pawn slides and `can(...)` answered by
an option already listed (`compiler.loopgen`): what they are decided for, and that they list
the interpreter's moves where they matter most (pawns close together: leapfrogs and
swapped twins; landings on slides)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.compiler.loopgen import slides_apart, split_by_construction
from sorry_rules.dsl.parser import parse_effect
from sorry_rules.engine.flatstate import split_meets
from sorry_rules.engine.rng import Random

from .test_codegen import _pair, random_placement
from .test_flatloop import _check_position


def _decided(spec: str, decide, colours=(0,)) -> dict:
    game = load_game(spec)
    return {name: decide(parse_effect(game.card_sources[i]), game.mechanics, colours)
            for i, name in enumerate(game.card_names)}


def test_split_by_construction_is_decided_per_card():
    decided = _decided("standard", split_by_construction)
    assert decided["7"]
    assert not any(decided[name] for name in decided if name != "7")  # no split (the others are distinct already)
    assert not _decided("standard", split_by_construction, (0, 2))["7"]  # two colours moved (partnership's team)
    game = load_game("standard")
    with_sorry = parse_effect("forward 7 | split 7 among 2 | sorry opponent")
    assert not split_by_construction(with_sorry, game.mechanics, (0,))
    assert split_by_construction(parse_effect("split 7 among 2"), game.mechanics, (0,))
    assert split_by_construction(parse_effect("(forward 7 | split 7 among 2) then draw_again"), game.mechanics, (0,))


def test_slides_apart_needs_every_two_step_primitives_to_end_apart():
    decided = _decided("standard", slides_apart)
    assert all(decided[name] for name in ("1", "2", "3", "4", "5", "8", "10", "12"))
    assert not decided["7"] and not decided["11"] and not decided["sorry"]  # other sources than one-pawn ones
    game = load_game("standard")
    # forward 1 onto a short slide's triangle (1 -> 4 on another colour's side) ends where forward 4 lands
    assert not slides_apart(parse_effect("forward 1 | forward 4"), game.mechanics, (0,))
    assert slides_apart(parse_effect("forward 2 | backward 3"), game.mechanics, (0,))


def test_split_meets():
    """A 3-step split on squares 0..4 in a row: part m lands m squares on, the rest 3 - m."""
    partof = tuple(tuple(to - sq if 1 <= to - sq <= 2 else 0 for to in range(5)) for sq in range(5))
    last = (None,) + tuple(tuple(sq + 3 - m if sq + 3 - m < 5 else -1 for sq in range(5)) for m in (1, 2))
    assert split_meets(partof, last, 0, 2, 0, 4) and split_meets(partof, last, 0, 2, 3, 2)  # an end on a square left
    assert split_meets(partof, last, 0, 2, 1, 4)  # 0 -> 1 by part 1, 2 -> 4 by the rest
    assert split_meets(partof, last, 0, 2, 4, 1)  # the same two ends the other way round
    assert not split_meets(partof, last, 0, 2, 3, 4)


def test_standard_asks_no_can_probe_of_the_11():
    """`pass if can(switch opponent) and not can(forward 11)`: both answered by the options."""
    source = load_game("standard").fast_moves.flat.source
    assert "def can" not in source and "had1 = len(out) != had1" in source


def _close_placement(game, rnd: Random, colour: int) -> tuple:
    """A placement with `colour`'s pawns within a few squares of each other on the track (and
    the others' pawns near them), where leapfrogs, swapped twins and slides are common."""
    layout = game.layout
    base = rnd.below(layout.T)
    free = [(base + k) % layout.T for k in range(14)]
    placement = []
    for c in range(layout.C):
        squares = []
        for _ in range(game.pawns):
            pick = rnd.below(6 if c == colour else 9)
            if pick < 4 and free:
                squares.append(free.pop(rnd.below(len(free))))
            else:
                squares.append(layout.start[c] if pick % 2 else layout.home[c])
        placement.append(tuple(sorted(squares)))
    return tuple(placement)


@pytest.mark.parametrize("spec,rules", [("standard", ()), ("partnership", ()), ("standard", ("house/sorry-safety",)),
                                        ("standard", ("house/slide-own-colour",))])
def test_close_pawns_give_the_interpreters_moves(spec, rules):
    fast, reference = _pair(spec, rules)
    rnd = Random("close pawns", spec, *rules)
    seats = fast.seats_for(fast.players_max)
    for _ in range(40):
        turn = rnd.below(len(seats))
        _check_position(fast, reference, _close_placement(fast, rnd, seats[turn]), seats, turn)


def test_the_hostile_names_test_covers_these_shortcuts():
    """test_flatloop's hostile-names test compares a hostile copy's flat source with
    standard's: standard's source holds every construct written here, so they are covered."""
    source = load_game("standard").fast_moves.flat.source
    for construct in ("PARTOF7_0", "split_meets(", "if rs[1] == sq:", "had1 = len(out)", "m < part"):
        assert construct in source


def test_a_probe_beside_the_7s_split_is_asked_not_answered():
    """`backward 1 if not can(forward 7)` beside `split 7 among 2`: the split lists its
    outcomes without a seen-set, so the probe is not answered by a count the options share;
    every card gives the interpreter's moves on random and close positions."""
    overlay = str(Path(__file__).parent / "rules" / "split-and-probe.yaml")
    fast, reference = _pair("standard", (overlay,))
    rnd = Random("split and probe")
    seats = fast.seats_for(4)
    for _ in range(60):
        turn = rnd.below(len(seats))
        placement = _close_placement(fast, rnd, seats[turn]) if rnd.below(2) else random_placement(fast, rnd)
        _check_position(fast, reference, placement, seats, turn)
