"""The flat split among many (`engine.flatsplit`, candidate code 12 of the flat flavour)
against the interpreter: on random positions its candidates stand for the interpreter's
moves (same order, same events, exact keys, applied in place to the same placement),
including parts that bump, slide, or send back a pawn of the player's own; with filters the
flat candidates kept are the moves the interpreter keeps; seeded random games played by the
flat loop, the candidates loop and the interpreter end alike with the same choices (and by
the hand loop in hand play); the generated source holds no name of the rule file."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.rng import Random
from sorry_rules.players import flatloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game

from . import test_flatfilters, test_flatmarks, test_handloop
from .test_codegen import hostile_standard_data, _pair, _standard_data, _write, random_placement
from .test_flatloop import _check_position, _play_three_ways

#: invented overlays on standard: a split among 3 (its last part takes what is left), among
#: any beside other effects, and one after `then` (the interpreter's primitive there)
OVERLAYS = {
    "among-three": 'cards:\n  "12": forward 12 | split 6 among 3\n  "7": split 7 among 4 | forward 7\n',
    "among-any-then": 'cards:\n  "10": forward 10 | backward 1 | split 5 among any then draw_again\n',
}


def _overlay(tmp_path_factory, name: str):
    path = tmp_path_factory.mktemp("flatsplit") / f"{name}.yaml"
    path.write_text(f"extends: standard\n{OVERLAYS[name]}")
    return _pair(str(path), ())


def _split_kinds(candidates) -> set:
    """The event kinds of the code-12 candidates, plus "own" when one sends back an own pawn."""
    kinds = set()
    for candidate in candidates:
        if candidate[2] == 12:
            movers = {e[1] for e in candidate[3] if e[0] == "split"}
            kinds |= {e[0] for e in candidate[3]}
            kinds |= {"own" for e in candidate[3] if e[0] == "bump" and e[1] in movers}
    return kinds


def _checked(fast, reference, card_name: str, rnd, wanted: int) -> dict:
    """Draw random positions; check (`test_flatloop._check_position`) those whose card lists
    code-12 candidates, until `wanted` were checked that bump, that slide, that send back an
    own pawn (or 4,000 drawn); how many of each were checked."""
    flat = fast.fast_moves.flat
    card = fast.card_names.index(card_name)
    seats = fast.seats_for(fast.players_max)
    found = {"split": 0, "bump": 0, "slide": 0, "own": 0}
    for _ in range(4000):
        placement, turn = random_placement(fast, rnd), rnd.below(len(seats))
        P, occ, KP = flat.position(placement)
        kinds = _split_kinds(flat.table[card][seats[turn]](P, occ, KP)[0])
        if any(found[k] < wanted for k in kinds & found.keys()):
            _check_position(fast, reference, placement, seats, turn)
            for k in kinds & found.keys():
                found[k] += 1
        if min(found.values()) >= wanted:
            break
    return found


@pytest.mark.parametrize("spec", ["standard", "partnership"])
def test_splits_among_any_give_the_interpreters_moves(spec):
    fast, reference = _pair(spec, ("house/split-7-any.yaml",))
    assert "split_any(" in fast.fast_moves.flat.source and "PRIM" not in fast.fast_moves.flat.source
    found = _checked(fast, reference, "7", Random("flat split any", spec), 6)
    assert min(found.values()) >= 6, found


def test_splits_among_three_give_the_interpreters_moves(tmp_path_factory):
    fast, reference = _overlay(tmp_path_factory, "among-three")
    assert fast.fast_moves.flat.source.count("split_any(") == 2 * fast.layout.C
    for card_name in ("12", "7"):
        found = _checked(fast, reference, card_name, Random("flat split three", card_name), 4)
        assert min(found.values()) >= 4, (card_name, found)


def test_a_split_among_many_after_then_keeps_the_interpreters_primitive(tmp_path_factory):
    fast, reference = _overlay(tmp_path_factory, "among-any-then")
    assert "split_any(" not in fast.fast_moves.flat.source
    rnd = Random("flat split then")
    seats = fast.seats_for(4)
    for _ in range(40):
        _check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(4))


@pytest.mark.parametrize("name", sorted(OVERLAYS))
def test_the_flat_loop_plays_the_same_games_with_splits_among_many(tmp_path_factory, name):
    fast, reference = _overlay(tmp_path_factory, name)
    for seed in range(2):
        for players in (2, 4):
            bots = [RandomPlayer(seed, s) for s in range(players)]
            assert flatloop.applies(fast, fast.new_game(seed, players=players), bots, None)
            finals, choices = _play_three_ways(fast, reference, seed, players)
            assert finals[0] == finals[1] == finals[2], (seed, players)
            assert choices[0] == choices[1] == choices[2]


def test_filters_keep_the_interpreters_splits_among_many(tmp_path):
    """A filter reading bumps and slides over a split among any (the candidates' events)."""
    path = _write(tmp_path, {"extends": "standard", "cards": {"7": "forward 7 | split 7 among any"},
                             "filters": {"f": {"cards": ["7"], "prefer": "bumps(opponents) > 0 or slides(player) > 0"}}},
                  "filtered")
    fast, reference = load_game(path), load_game(path)
    reference.use_fast_moves(None)
    assert fast.fast_moves.flat is not None
    rnd = Random("flat split filtered")
    seats = fast.seats_for(4)
    for _ in range(25):
        test_flatfilters._check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(4), ())
    for seed in range(2):
        start = fast.new_game(seed, players=4)
        bots = [RandomPlayer(seed, s) for s in range(4)]
        assert flatloop.play_flat(fast, start, bots, 5000, None) == play_game(
            reference, reference.new_game(seed, players=4), bots, max_plies=5000)


def test_the_hand_loop_plays_the_reference_games_with_splits_among_any():
    """Hand play (its loop takes the flat flavour's candidates too) with a 7 split among any."""
    fast, reference = test_handloop._games("points", ("house/split-7-any.yaml",))
    assert "split_any(" in fast.fast_moves.flat.source
    assert test_handloop._check_same_games(fast, reference, 3) > 0


def test_marks_keep_the_primitive_of_a_split_among_any():
    """With marks (their flat flavour reads the marks too) a split among any runs its
    primitive on the marked board: the same moves and games as the interpreter."""
    game, reference = test_flatmarks._games("standard", ("house/freeze.yaml", "house/split-7-any.yaml"))
    flat = game.fast_moves.flat_marked
    assert flat is not None and "split_any(" not in flat.source
    rnd = Random("flat split marks")
    seats = game.seats_for(4)
    for _ in range(10):
        placement = random_placement(game, rnd)
        marks = test_flatmarks._fitting_marks(game, placement, seats, rnd)
        test_flatmarks._check_position(game, placement, marks, seats[rnd.below(4)])
    for seed in range(2):
        played = test_flatmarks._play(game, "marked", seed, 4)
        assert test_flatmarks._play(reference, "interpreter", seed, 4) == played


def test_hostile_names_never_reach_the_flat_source_of_splits_among_many(tmp_path):
    def with_splits(data, seven, twelve):
        data["cards"][seven] = "forward 7 | split 7 among any"
        data["cards"][twelve] = "forward 12 | split 6 among 3"
        return data

    data, cards = hostile_standard_data()
    hostile = load_game(_write(tmp_path, with_splits(data, cards["7"], cards["12"]), "hostile-splits"))
    plain = load_game(_write(tmp_path, with_splits(_standard_data(), "7", "12"), "plain-splits"))
    source = hostile.fast_moves.flat.source
    assert "split_any(" in source and source == plain.fast_moves.flat.source
    for name in (*hostile.colours, *hostile.card_names, hostile.name, "import", "'", "red", "among"):
        assert name not in source
