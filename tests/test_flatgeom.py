"""The flat flavour along `geometry:` routes (`compiler.loopgeom`): turns, bounces and pawns
that cannot be passed are generated for the flat loop; the moves they list are the
interpreter's (bounces back onto the square left, splits along routes replayed from their
events or unrolled, ways a pawn cannot pass), games play the same three ways, plain outcomes are listed
without a seen-set only where they cannot repeat, and no rule-file text reaches the source.
(The bundled geometry rule files are also in test_flatloop's and test_codegen's CASES.)"""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.compiler.loopgen import distinct_by_construction
from sorry_rules.dsl.parser import parse_effect
from sorry_rules.engine.rng import Random
from sorry_rules.players import flatloop
from sorry_rules.players.protocol import RandomPlayer

from .test_codegen import HOSTILE, _pair, _standard_data, _write, random_placement
from .test_flatloop import _check_position, _checked_positions_with_code, _play_three_ways

GEOMETRY = ["house/backward-into-safety.yaml", "house/bounce-back.yaml", "house/no-passing-opponents.yaml"]

#: every kind of `geometry:` at once, and cards whose plain outcomes may repeat along routes
#: (two ways of staying put after a bounce; one pawn reaching a square by two steps)
MIXED = {
    "geometry": {"past_home": "bounce",
                 "turns": {"t": {"at": "safety_entry", "moving": "backward", "onto": "safety"}},
                 "blockers": {"b": {"pawns": "opponent", "on": "track", "pass": False}}},
    "cards": {"2": "(enter | forward 2 | forward 4) then draw_again", "5": "forward 5 | backward 5",
              "8": "split 8 among 3", "12": "split 12"},
}


def _mixed(tmp_path, names=None) -> str:
    data = _standard_data()
    if names is not None:
        colours = dict(zip(data["colours"], names))
        cards = {name: f"{names[i % len(names)]}{i}" for i, name in enumerate(data["deck"])}
        data["colours"] = [colours[c] for c in data["colours"]]
        data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
        data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
        data["name"] = names[0]
        data["cards"].update({cards[k]: v for k, v in MIXED["cards"].items()})
    else:
        data["cards"].update(MIXED["cards"])
    data["geometry"] = MIXED["geometry"]
    return _write(tmp_path, data, "mixed" if names is None else "mixed-hostile")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> str:
    """The path of a rule file with `MIXED` (one per test module: `_pair` loads it once)."""
    return _mixed(tmp_path_factory.mktemp("flatgeom"))


@pytest.mark.parametrize("spec", ["standard", "partnership"])
@pytest.mark.parametrize("overlay", GEOMETRY)
def test_geometry_rule_files_are_played_by_the_flat_loop(spec, overlay):
    game, _ = _pair(spec, (overlay,))
    state = game.new_game(1, players=4)
    assert "geometry" in game.features()
    assert flatloop.applies(game, state, [RandomPlayer(1, s) for s in range(4)], None)
    assert "PRIM" not in game.fast_moves.flat.source  # every step and split along route tables


@pytest.mark.parametrize("code", [4, 8, 9, 10, 1])
@pytest.mark.parametrize("overlay", GEOMETRY)
def test_splits_along_routes_give_the_interpreters_moves(overlay, code):
    """A 7's split along routes, unrolled: plain (code 4), a second part that bumps (8) or
    slides (9), a first part that bumps or slides (10), one that sends back an own pawn
    (`RouteSplits.second`, code 1) stands for the interpreter's move, with its key and
    in-place application; positions drawn until 5 functions listing the code were seen."""
    assert _checked_positions_with_code("standard", (overlay,), "7", code, Random("flat geometry split", overlay, code), 5) == 5


def test_splits_among_three_along_routes_are_replayed_from_their_events(mixed):
    """`split 8 among 3` along routes: `Helpers.split_many`'s outcomes as their events (code
    12), replayed in place, are the interpreter's moves."""
    assert _checked_positions_with_code("standard", (mixed,), "8", 12, Random("flat geometry split", 12), 3) == 3


def test_a_bounce_onto_the_square_it_left_is_a_plain_move():
    """H32: safety:4 + 2 goes to Home and back to safety:4, a move that leaves the placement
    as it was (code 0, frm == to), as the interpreter lists it."""
    fast, reference = _pair("standard", ("house/bounce-back.yaml",))
    flat = fast.fast_moves.flat
    rnd = Random("flat bounce", "stay")
    seats = fast.seats_for(4)
    card = fast.card_names.index("2")
    found = 0
    for _ in range(3000):
        placement, turn = random_placement(fast, rnd), rnd.below(4)
        P, occ, KP = flat.position(placement)
        candidates, _ = flat.table[card][seats[turn]](P, occ, KP)
        if any(c[2] == 0 and c[4] == c[5] for c in candidates):
            _check_position(fast, reference, placement, seats, turn)
            found += 1
            if found == 10:
                break
    assert found == 10


def test_ways_a_pawn_cannot_pass_are_not_listed():
    """No jumping opponents: with an opponent's pawn two squares ahead, a 3 has no forward
    way for that pawn (the plain table would list it), and the flat list is the interpreter's."""
    fast, reference = _pair("standard", ("house/no-passing-opponents.yaml",))
    flat = fast.fast_moves.flat
    layout = fast.layout
    red, blue = 0, 1
    sq = layout.start_exit[red] + 5
    placement = [tuple([layout.start[c]] * fast.pawns) for c in range(layout.C)]
    placement[red] = tuple(sorted((sq,) + (layout.start[red],) * (fast.pawns - 1)))
    placement[blue] = tuple(sorted((sq + 2,) + (layout.start[blue],) * (fast.pawns - 1)))
    placement = tuple(placement)
    card = fast.card_names.index("3")
    P, occ, KP = flat.position(placement)
    assert flat.table[card][red](P, occ, KP)[0] == []
    _check_position(fast, reference, placement, fast.seats_for(4), 0)


def test_plain_outcomes_are_distinct_by_construction_only_where_they_cannot_repeat(mixed):
    bounce, _ = _pair("standard", ("house/bounce-back.yaml",))
    mixed, _ = _pair("standard", (mixed,))

    def decided(game, text):
        return distinct_by_construction(parse_effect(text), game.mechanics, (0,))

    assert decided(bounce, "forward 10 | backward 1") and decided(bounce, "(enter | forward 2) then draw_again")
    assert not decided(bounce, "forward 2 | forward 4")  # safety:4 + 2 and safety:3 + 4 both stay put
    assert not decided(mixed, "forward 5 | backward 5")  # the 5 and the turned 5 back meet in the zone
    assert decided(mixed, "forward 3")


@pytest.mark.parametrize("spec", ["standard", "partnership"])
def test_every_kind_of_geometry_at_once_gives_the_interpreters_moves_and_games(mixed, spec):
    """Turns, bounces and blockers together, with cards whose plain outcomes may repeat and a
    split among any number of pawns: random positions and seeded games, three ways."""
    fast, reference = _pair(spec, (mixed,))
    assert fast.fast_moves.flat is not None
    rnd = Random("flat geometry mixed", spec)
    seats = fast.seats_for(4)
    for _ in range(15):
        _check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(4))
    for seed in range(1):
        finals, choices = _play_three_ways(fast, reference, seed, 4)
        assert finals[0] == finals[1] == finals[2] and choices[0] == choices[1] == choices[2]


def test_hostile_names_never_reach_the_flat_geometry_templates(tmp_path):
    """Route tables, blockers and splits along routes in the flat source: hostile colour and
    card names give the same source as plain ones, and none of them is in it."""
    plain = load_game(_mixed(tmp_path, ["red", "blue", "yellow", "green"]))
    hostile = load_game(_mixed(tmp_path, HOSTILE))
    source = hostile.fast_moves.flat.source
    assert source == plain.fast_moves.flat.source
    assert "WSPLIT" in source and "RPARTS" in source and "BLOCK" in source and "split_many" in source
    for name in (*hostile.colours, *hostile.card_names, hostile.name, "import", "'", "red"):
        assert name not in source


@pytest.mark.parametrize("spec", ["standard", "partnership"])
def test_geometry_with_filters_and_split_parts_gives_the_interpreters_moves_and_games(tmp_path, spec):
    """`MIXED` with must_bump, a filter and a split into parts (its primitive along routes):
    the filters judge every flat candidate on its events (a split along routes, code 12,
    too: `flatfilters.candidate_events`) and keep the interpreter's moves; games three ways."""
    from .test_flatfilters import _check_position as _check_filtered, _random_counters

    data = _standard_data()
    data["cards"].update(MIXED["cards"])
    data["cards"]["10"] = "forward 10 | split 7 into forward, backward"
    data["geometry"] = MIXED["geometry"]
    data["rules"]["must_bump"] = True
    data["filters"] = {"f": {"prefer": "slides(player) > 0"}}
    fast, reference = _pair(spec, (_write(tmp_path, data, "mixed-filtered"),))
    start = fast.new_game(0, players=4)
    assert flatloop.applies(fast, start, [RandomPlayer(0, s) for s in range(4)], None)
    rnd = Random("flat geometry filtered", spec)
    seats = fast.seats_for(4)
    for _ in range(10):
        _check_filtered(fast, reference, random_placement(fast, rnd), seats, rnd.below(4), _random_counters(fast, rnd))
    finals, choices = _play_three_ways(fast, reference, 0, 4)
    assert finals[0] == finals[1] == finals[2] and choices[0] == choices[1] == choices[2]
