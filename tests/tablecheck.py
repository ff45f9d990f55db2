"""Checks of the one table a game is played on against what is worked out afresh (used by
tests/test_table_consistency.py and by the fuzzer's short games, tests/fuzzlib.py).

- `check_one_table`: at every ply of a seeded random game played on one table changed in
  place, its options are `Game.legal_moves` of its state (the same `Move`s).
- `check_pushes`: at every decision of a seeded random game, every option pushed leaves the
  occupancy of its placement, popped gives back the placement, turn and occupancy before,
  and `Table.outcome` reads exactly what the push gave, or nothing.
- `check_deep_pushes`: pushes on pushes, as the expert looks ahead: at each ply of the walk
  the options of a card drawn are those of a table built afresh, and every pop gives back
  the whole table.

Each raises AssertionError saying where the table went off.
"""

from __future__ import annotations

import random

from sorry_rules.engine.position import Position
from sorry_rules.engine.rng import below_at
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play


def occupancy(pos) -> tuple:
    """Which colour stands on each square, and how many pawns where squares hold several (a
    copy: the table changes its lists in place)."""
    return tuple(pos.occ), None if pos.cnt is None else tuple(pos.cnt)


def check_pushes(game, players: int, seed: int, max_plies: int = 400) -> tuple[int, int]:
    """Play a random game, checking every option of every decision; (options read without
    playing, options in all)."""
    counts = [0, 0]

    def checking(seat):
        bot = RandomPlayer(seed, seat)

        def pick(table, options):
            seen = table.seen()  # what a player reasons on: no pile, so push and pop restore all
            before = occupancy(seen.pos)
            where = (seen.pos.placement(), seen.turn)
            assert before == occupancy(Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks))
            for option in options:
                read = seen.outcome(option)
                seen.push(option)
                played = (seen.pos.placement(), seen.turn), seen.winner, seen.over
                fresh = Position(game.layout, seen.pos.placement(), game.marks, seen.pos.marks)
                assert occupancy(seen.pos) == occupancy(fresh), f"{option.events}: occupancy after the push"
                seen.pop()
                assert occupancy(seen.pos) == before, f"{option.events}: occupancy after the pop"
                assert (seen.pos.placement(), seen.turn) == where, f"{option.events}: placement after the pop"
                counts[1] += 1
                if read is not None:
                    counts[0] += 1
                    assert played == (read, None, False), f"{option} read as {read}, played as {played}"
            return bot.pick(table, options)
        return pick

    final = play(game, game.new_game(seed, players=players), [checking(s) for s in range(players)],
                 max_plies=max_plies)
    assert final.plies > 0
    return counts[0], counts[1]


def check_one_table(game, seed: int, players: int, max_plies: int = 1500) -> None:
    """Play a random game on one table, comparing its options with the legal moves of a table
    built afresh from its state at every ply."""
    table = game.table(game.new_game(seed, players=players))
    while not table.over and table.plies < max_plies:
        options = table.options()
        kept = sorted(map(repr, (table.move(option) for option in options)))
        assert kept == sorted(map(repr, game.legal_moves(table.state()))), f"seed {seed}: ply {table.plies}"
        table.play(options[below_at(seed * 7919 + 1, table.plies, len(options))])


def snapshot(table) -> tuple:
    """All of a table that a push may change and its pop must give back (copied)."""
    pos = table.pos
    return (occupancy(pos), tuple(map(tuple, pos.pos)), pos.marks, pos.marked, pos.still, pos.guard, table.turn,
            table.card, table.drawn, table.winner, table.over, table.plies, table.counters, table.bonus,
            table.redraws, None if table.hands is None else tuple(map(tuple, table.hands)), len(table.discard))


def _listed(table, card) -> list:
    """The options of `card` drawn by the player to move; in hand play, of the whole hand."""
    return table.options() if table.game.hand_play else table.options_of(card)


def _walk(table, depth: int, rng: random.Random, trail: tuple) -> int:
    """Walk `depth` plies on `table` (what a player sees), two options pushed at each; the
    pushes made."""
    if depth == 0 or table.over:
        return 0
    game, pushes, turn = table.game, 0, table.turn
    card = rng.choice(game.deck)
    kept = table.hands[turn] if game.hand_play else None
    if kept is not None:  # a hand drawn from the deck (another player's is unknown), put back below
        table.hands[turn] = [card] + [rng.choice(game.deck) for _ in range(rng.randrange(2))]
    before = snapshot(table)
    options = _listed(table, card)
    fresh = game.table(table.state())
    listed = sorted(repr(table.move(option)) for option in options)
    assert listed == sorted(repr(fresh.move(option)) for option in _listed(fresh, card)), f"options after {trail}"
    assert snapshot(table) == before, f"listing changed the table after {trail}"
    for option in rng.sample(options, min(len(options), 2)):
        table.push(option)
        pushes += 1 + _walk(table, depth - 1, rng, trail + (option.events,))
        table.pop()
        assert snapshot(table) == before, f"{option.events} popped after {trail}: not the table before"
    if kept is not None:
        table.hands[turn] = kept
    return pushes


def check_deep_pushes(game, players: int, seed: int, max_plies: int = 160, depth: int = 3, every: int = 8) -> int:
    """Play a seeded random game on one table; every `every` plies, walk `depth` plies deep on
    what the player to move sees (`_walk`). Returns the pushes made."""
    rng = random.Random(seed)
    table = game.table(game.new_game(seed, players=players))
    pushes = 0
    while not table.over and table.plies < max_plies:
        options = table.options()
        if table.plies % every == 0:
            seen = table.seen()
            seen.card, seen.drawn = None, ()  # the walk draws its own cards
            pushes += _walk(seen, depth, rng, ())
        table.play(options[rng.randrange(len(options))])
    return pushes
