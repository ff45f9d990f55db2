"""The moves oracle of standard and partnership Sorry! against an independent Sorry!
(`sorry_reference`, written from RULES.md alone) on random positions crowded round the
slides, start exits and safety entries: every card's results (R6-R33), the split 7 in
either order (R22, A1-A3), the 11's switches and when it may be declined (R24, A4, A14),
Sorry! (R25, A6), distinct results only (A24), and with partners moving each other's pawns,
bumping and Sorry!-ing partners, switching only with the other team (T2, T4-T6, T9, T10)."""

from __future__ import annotations

import random

import pytest

from sorry_rules.authoring.oracle import moves_report
from sorry_rules.compiler import load_game
from sorry_rules.records.position import parse_position
from tests import sorry_reference as ref

CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
#: squares where moves interact: triangles, slides, start exits, safety entries and their neighbours
CROWDED = tuple(15 * side + offset for side in range(4) for offset in (0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14))


def random_position(rng: random.Random, teams: bool) -> dict:
    """Pawns in Start, on the track (mostly where moves interact; one pawn a square), in
    their safety zone (one a square) and Home; any card, the interacting ones more often."""
    seated = ref.COLOURS if teams else rng.sample(ref.COLOURS, rng.choice((2, 3, 4)))
    players = [colour for colour in ref.COLOURS if colour in seated]
    taken, pawns = set(), {}
    for colour in players:
        mine = []
        for _ in range(4):
            kind = rng.choices(("start", "crowded", "track", "safety", "home"), (3, 6, 3, 2, 1))[0]
            if kind in ("crowded", "track"):
                pawn = f"track:{rng.choice(CROWDED) if kind == 'crowded' else rng.randrange(ref.TRACK)}"
                if pawn in taken:
                    pawn = "start"
                taken.add(pawn)
            elif kind == "safety":
                pawn = f"safety:{rng.randint(1, 5)}"
                if pawn in mine:
                    pawn = "home"
            else:
                pawn = kind
            mine.append(pawn)
        pawns[colour] = mine
    card = rng.choice(("4", "7", "10", "11", "sorry") if rng.random() < 0.5 else CARDS)
    return {"players": players, "turn": rng.choice(players), "card": card, "pawns": pawns}


def won(pawns: dict, teams: bool) -> bool:
    sides = ref.TEAMS if teams else [(colour,) for colour in pawns]
    return any(all(p == "home" for colour in side for p in pawns.get(colour, ())) for side in sides)


def compare(game, teams: bool, seed: int, positions: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = random_position(rng, teams)
        if won(position["pawns"], teams):
            continue
        want = ref.Sorry(position["pawns"], position["turn"], teams).results(position["card"])
        report = moves_report(game, parse_position(game, position))
        got = {ref.placement(move["result"]) for move in report["moves"]}
        assert got == want, (position, sorted(want - got)[:2], sorted(got - want)[:2])
        assert len(report["moves"]) == len(got), "a result listed twice (A24)"
        compared += len(want)
    return compared


@pytest.mark.parametrize("variant,teams", [("standard", False), ("partnership", True)])
def test_every_card_moves_as_the_rule_book_says(variant, teams):
    assert compare(load_game(variant), teams, seed=1, positions=200) > 1000


@pytest.mark.slow
@pytest.mark.parametrize("variant,teams", [("standard", False), ("partnership", True)])
def test_thousands_of_positions(variant, teams):
    assert compare(load_game(variant), teams, seed=100, positions=10_000) > 50_000
