"""A tally (`players.tally`: simulate's game counter) told the plays by the flat loops,
with no `Move` built, counts what it counts from the general loops' `runner.Turn`s, on the
same games: every bundled track variant and rule overlay, draw play, hand play, two cards
a turn, marks."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players import flatloop, handflat, markloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.players.tally import is_tally
from sorry_rules.rules.loader import bundled_names
from sorry_rules.simulation.simulate import GameCounter

OVERLAYS = [name for name in bundled_names() if name.startswith(("house/", "options/"))]
TRACK = [name.removesuffix(".yaml") for name in bundled_names()
         if not name.startswith(("house/", "options/", "grid/")) and name != "sequence.yaml"]
CASES = [(name, ()) for name in TRACK] + [("standard", (name,)) for name in OVERLAYS
                                          if name not in ("house/mulligan-8.yaml", "options/cumulative-bonus.yaml")]
CASES += [("points", ("house/mulligan-8.yaml",)), ("points", ("options/cumulative-bonus.yaml",)),
          ("points", ("house/no-start-no-cry.yaml",))]


class TurnReports(GameCounter):
    """The same counter, but not a tally: every loop gives it `runner.Turn`s (with `Move`s)."""

    needs_state = True


def _counts(game, seed: int, players: int, counter) -> tuple:
    final = play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)],
                      on_turn=counter)
    return final, {name: getattr(counter, name) for name in GameCounter.__slots__}


def test_the_simulation_counter_is_a_tally_and_a_plain_on_turn_is_not():
    assert is_tally(GameCounter())
    assert not is_tally(TurnReports())
    assert not is_tally(lambda turn, state: None)


@pytest.mark.parametrize(("variant", "rules"), CASES, ids=[" + ".join((v, *r)) for v, r in CASES])
def test_a_tally_counts_what_the_turns_count(variant, rules):
    game = load_game(variant, rules)
    players = game.players_max if game.players_max <= 4 else 4
    total = dict.fromkeys(GameCounter.__slots__, 0)
    for seed in range(3):
        fast, told = _counts(game, seed, players, GameCounter())
        reference, reported = _counts(game, seed, players, TurnReports())
        assert fast == reference, seed
        assert told == reported, seed
        for name, value in told.items():
            total[name] = total[name] + value if isinstance(value, int) else value
    assert total["turns"] > 0 and total["bumps"] > 0  # real games: the counts can differ


GRID = ["sequence"] + [name.removesuffix(".yaml") for name in bundled_names() if name.startswith("grid/")]


@pytest.mark.parametrize("variant", GRID)
def test_a_tally_counts_what_the_turns_count_on_a_grid(variant):
    """The grid loop tells a tally each play (S6, S7, S9: placements, removals, exchanges of dead
    cards, passes) with no placement and no state built: the same counts."""
    game = load_game(variant)
    told_all, reported_all = [], []
    for seed in range(4):
        fast, told = _counts(game, seed, 2, GameCounter())
        reference, reported = _counts(game, seed, 2, TurnReports())
        assert fast == reference, seed
        told_all.append(told)
        reported_all.append(reported)
    assert told_all == reported_all
    assert sum(t["turns"] for t in told_all) > 0 and sum(t["removals"] for t in told_all) > 0


def test_the_flat_loops_take_the_tally():
    """The games above go through the flat loops (else they would compare a loop with itself)."""
    counter = GameCounter()
    points, mercy, standard = load_game("points"), load_game("standard", ("house/mercy-start.yaml",)), load_game("standard")
    assert handflat.applies(points, counter)
    randoms = [RandomPlayer(1, s) for s in range(4)]
    marked = mercy.new_game(1, players=4)
    assert markloop.applies(mercy, marked, randoms, counter)
    assert flatloop.applies(standard, standard.new_game(1, players=4), randoms, counter)
    assert not handflat.applies(points, TurnReports())
    assert not markloop.applies(mercy, marked, randoms, TurnReports())
