"""The moves oracle of Sequence against an independent Sequence (`sequence_reference`,
written from docs/SEQUENCE.md alone) on random positions: every legal play, removal and
exchange (S6, S7, S12), which chips are protected (S10), the sequence counts behind each
winner (S11, S13), and positions already won refused by the position check. The bundled
rule file and overlays with other line lengths, overlaps, directions and targets (the S10,
S11 and S13 options) are compared alike."""

from __future__ import annotations

import random

import pytest

from sorry_rules.authoring.gridoracle import grid_moves_report
from sorry_rules.base.errors import PositionError
from sorry_rules.compiler import load_game
from sorry_rules.records.gridposition import parse_grid_position
from tests.sequence_reference import CELLS, CORNERS, DECK, Rules

COLOURS = ("blue", "green", "red")
JACKS = ("JS", "JH", "JD", "JC")


def overlay(tmp_path, length: int, shared: int, directions: tuple, targets: tuple):
    """A Sequence overlay with these S10, S11 and S13 options, compiled."""
    path = tmp_path / f"lines-{length}-{shared}-{'-'.join(directions)}-{targets[0]}-{targets[1]}.yaml"
    path.write_text(
        "extends: sequence\n"
        f"board:\n  lines:\n    length: {length}\n    shared: {shared}\n    directions: [{', '.join(directions)}]\n"
        f'win: "(sides == 2 and sequences(team) >= {targets[0]}) or (sides >= 3 and sequences(team) >= {targets[1]})"\n',
        encoding="utf-8")
    return load_game(str(path))


def random_position(rng: random.Random) -> dict:
    """Chips scattered at a random density, often with a run painted along a row, column or
    diagonal (so that lines, overlaps and protected chips come up), and a hand dealt from
    the deck (jack-rich a third of the time)."""
    players = rng.sample(COLOURS, rng.choice((2, 3)))
    density = rng.choice((0.1, 0.3, 0.5, 0.7))
    chips = {cell: rng.choice(players) for cell in CELLS if cell not in CORNERS and rng.random() < density}
    if rng.random() < 0.6:
        x, y, dx, dy = rng.randrange(10), rng.randrange(10), rng.choice((0, 1)), rng.choice((-1, 0, 1))
        colour = rng.choice(players)
        for _ in range(rng.randint(3, 10)):
            cell = f"{'ABCDEFGHIJ'[x]}{y + 1}" if 0 <= x < 10 and 0 <= y < 10 else None
            if cell is not None and cell not in CORNERS:
                chips[cell] = colour
            x, y = x + (dx or (dy == 0)), y + dy
    deck = list(DECK) + list(JACKS) * 4 if rng.random() < 0.3 else list(DECK)
    hand = rng.sample(deck, rng.choice((1, 3, 6, 7 if len(players) == 2 else 6)))  # S4: three sides hold 6 at most
    while any(hand.count(card) > 2 for card in hand):
        hand = rng.sample(deck, len(hand))
    return {"players": players, "turn": rng.choice(players), "hand": hand,
            "chips": {p: sorted(c for c, colour in chips.items() if colour == p) for p in players},
            "exchanged": rng.random() < 0.2}


def engine_moves(game, position: dict) -> dict:
    found = {}
    for move in grid_moves_report(game, parse_grid_position(game, position))["moves"]:
        key = (move["card"], move["kind"], frozenset((cell, colour) for colour, cells in move["result"].items()
                                                      for cell in cells))
        assert key not in found, f"listed twice: {key[:2]}"
        found[key] = move["winner"]
    return found


def compare(game, rules: Rules, seed: int, positions: int) -> int:
    """Compare `positions` random positions; returns the moves compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = random_position(rng)
        chips = {cell: colour for colour, cells in position["chips"].items() for cell in cells}
        if any(rules.count(chips, p) >= rules.target(position["players"]) for p in position["players"]):
            with pytest.raises(PositionError):  # a game already won is no position to move in
                parse_grid_position(game, position)
            continue
        want = rules.moves(position["players"], position["turn"], position["hand"], chips, position["exchanged"])
        got = engine_moves(game, position)
        assert got == want, (position, sorted(k[:2] for k in set(want) ^ set(got))[:6],
                             [(k[:2], want[k], got[k]) for k in set(want) & set(got) if want[k] != got[k]][:6])
        compared += len(want)
    return compared


OPTIONS = [  # (length, shared, directions, targets with two sides, three)
    (4, 1, ("row", "column", "diagonal"), (2, 1)),
    (5, 2, ("row", "diagonal"), (3, 1)),
    (6, 1, ("column",), (1, 2)),
]


def test_the_bundled_rule_file_moves_as_the_rule_book_says():
    assert compare(load_game("sequence"), Rules(), seed=1, positions=30) > 350


@pytest.mark.parametrize("length,shared,directions,targets", OPTIONS)
def test_line_options_move_as_the_rule_book_says(tmp_path, length, shared, directions, targets):
    game = overlay(tmp_path, length, shared, directions, targets)
    assert compare(game, Rules(length, shared, directions, targets), seed=length, positions=15) > 100


@pytest.mark.slow
def test_thousands_of_positions_under_random_options(tmp_path):
    rng = random.Random(2026)
    total = compare(load_game("sequence"), Rules(), seed=0, positions=1500)
    for k in range(12):
        length = rng.randint(3, 7)
        options = (length, rng.randint(1, length - 1),
                   tuple(d for d in ("row", "column", "diagonal") if rng.random() < 0.7) or ("row",),
                   (rng.randint(1, 3), rng.randint(1, 2)))
        total += compare(overlay(tmp_path, *options), Rules(*options), seed=100 + k, positions=200)
    assert total > 50_000
