"""The loop's two kinds of observer see the same games: an observer with a method `played`
(simulate's game counter) is told each play's kind and events, with nothing built for it,
and counts what it counts from the `runner.Turn`s (and states) an `on_turn` without it gets,
on every bundled track variant and rule overlay (draw play, hand play, two cards a turn,
marks) and every grid rule file (placements, removals, exchanges of dead cards, passes)."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import bundled_names
from sorry_rules.simulation.simulate import GameCounter

OVERLAYS = [name for name in bundled_names() if name.startswith(("house/", "options/"))]
TRACK = [name.removesuffix(".yaml") for name in bundled_names()
         if not name.startswith(("house/", "options/", "grid/")) and name != "sequence.yaml"]
CASES = [(name, ()) for name in TRACK] + [("standard", (name,)) for name in OVERLAYS
                                          if name not in ("house/mulligan-8.yaml", "options/cumulative-bonus.yaml")]
CASES += [("points", ("house/mulligan-8.yaml",)), ("points", ("options/cumulative-bonus.yaml",)),
          ("points", ("house/no-start-no-cry.yaml",))]


class TurnReports:
    """The same counter behind an `on_turn(turn, state)`: the loop builds `Turn`s, `Move`s and
    states for it."""

    def __init__(self):
        self.counter = GameCounter()
        self.states = 0

    def __call__(self, turn, state) -> None:
        self.states += state is not None
        self.counter.played(turn.seat, turn.move.kind, turn.move.events)


def _counts(game, seed: int, players: int, watcher) -> tuple:
    final = play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)],
                      on_turn=watcher)
    counter = watcher.counter if isinstance(watcher, TurnReports) else watcher
    if isinstance(watcher, TurnReports):
        assert watcher.states == final.plies  # a state after every play
    return final, {name: getattr(counter, name) for name in GameCounter.__slots__}


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
