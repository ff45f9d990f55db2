"""The moves oracle of Ludo (with and without blocks, LU17) and Trouble against independent
references (`race_reference`, written from docs/LUDO.md and docs/TROUBLE.md alone) on
random positions: which pieces a throw moves where, entering on a six, the exact count
into Home, captures (every opponent token on an unsafe Ludo square, LU8, LU9; a single
peg, the START space included, TR8), safe squares (LU10, LU18), blocks (LU17, LU21), a
third six lost (LU13) and the finish line that holds one peg a space (TR11, TR13)."""

from __future__ import annotations

import random

import pytest

from sorry_rules.authoring.oracle import moves_report
from sorry_rules.compiler import load_game
from sorry_rules.records.position import parse_position
from tests import race_reference as ref

LUDO_SEATS = {2: ("red", "yellow"), 3: ("red", "green", "yellow"), 4: ref.COLOURS}
TROUBLE_SEATS = {2: ("red", "green"), 3: ("red", "blue", "green"), 4: ref.TROUBLE_COLOURS}


def ludo_position(rng: random.Random) -> dict:
    """Tokens in the yard, on the squares their colour passes (a few squares crowded), in
    the home column and Home; two colours share only a safe square; the mover has thrown
    a six already this turn now and then."""
    players = LUDO_SEATS[rng.choice((2, 3, 4))]
    crowded = [rng.randrange(ref.TRACK) for _ in range(5)]
    pawns, held = {}, {}
    for colour in players:
        c = ref.COLOURS.index(colour)
        tokens = []
        for _ in range(4):
            kind = rng.choices(("start", "track", "crowded", "safety", "home"), (3, 4, 4, 1, 1))[0]
            if kind == "track":
                token = ref.where_of(c, rng.randint(0, 50))
            elif kind == "crowded":
                square = rng.choice(crowded)
                token = f"track:{square}" if ref.steps_of(c, f"track:{square}") <= 50 else "start"
            else:
                token = f"safety:{rng.randint(1, 5)}" if kind == "safety" else kind
            if token.startswith("track:") and not ref.safe(int(token[6:])) and held.setdefault(token, colour) != colour:
                token = "start"  # LU8: an unsafe square holds one colour
            tokens.append(token)
        pawns[colour] = tokens
    turn = rng.choice(players)
    position = {"players": list(players), "turn": turn, "card": str(rng.randint(1, 6)), "pawns": pawns}
    sixes = rng.choice((0, 0, 1, 2))
    if sixes:
        position["counters"] = {turn: {"sixes": sixes}}
    return position


def trouble_position(rng: random.Random) -> dict:
    """Pegs in HOME, on the track (one a space), in the finish line (one a space)."""
    players = TROUBLE_SEATS[rng.choice((2, 3, 4))]
    pegs, taken = {}, set()
    for colour in players:
        c = ref.TROUBLE_COLOURS.index(colour)
        mine = []
        for _ in range(4):
            steps = rng.choice((None, None, rng.randint(0, ref.TROUBLE_HOME), rng.randint(0, 27)))
            peg = "start" if steps is None else ref.trouble_where(c, steps)
            if peg in taken or peg in mine:
                peg = "start"
            if peg.startswith("track:"):
                taken.add(peg)
            mine.append(peg)
        pegs[colour] = mine
    return {"players": list(players), "turn": rng.choice(players), "card": str(rng.randint(1, 6)), "pawns": pegs}


def engine_results(game, position: dict) -> set:
    """The placements of the moves the oracle lists (a lost throw's consequences and an LU6
    throw again move nothing and are left out)."""
    report = moves_report(game, parse_position(game, position))
    return {ref.placement({c: tuple(v) for c, v in move["result"].items()}) for move in report["moves"]
            if not move.get("forfeit") and "redraw" not in move}


def compare_ludo(game, blocks: bool, seed: int, positions: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = ludo_position(rng)
        if any(all(t == "home" for t in tokens) for tokens in position["pawns"].values()):
            continue  # a game already over
        sixes = position.get("counters", {}).get(position["turn"], {}).get("sixes", 0)
        want = ref.results(position["pawns"], position["turn"], int(position["card"]), blocks, sixes)
        assert engine_results(game, position) == want, position
        compared += len(want)
    return compared


def compare_trouble(game, seed: int, positions: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        position = trouble_position(rng)
        pegs = position["pawns"]
        if any(all((ref.trouble_steps(ref.TROUBLE_COLOURS.index(c), p) or 0) > 27 for p in pegs[c]) for c in pegs):
            continue  # TR12: a game already won
        want = ref.trouble_results(pegs, position["turn"], int(position["card"]))
        assert engine_results(game, position) == want, position
        compared += len(want)
    return compared


@pytest.mark.parametrize("rules,blocks", [((), False), (("ludo/blocks.yaml",), True)])
def test_ludo_moves_as_its_rule_book_says(rules, blocks):
    assert compare_ludo(load_game("ludo", rules), blocks, seed=1, positions=150) > 200


def test_trouble_moves_as_its_rule_book_says():
    assert compare_trouble(load_game("trouble"), seed=1, positions=150) > 200


@pytest.mark.slow
def test_thousands_of_race_positions():
    assert compare_ludo(load_game("ludo"), False, seed=10, positions=5000) > 10_000
    assert compare_ludo(load_game("ludo", ("ludo/blocks.yaml",)), True, seed=11, positions=5000) > 10_000
    assert compare_trouble(load_game("trouble"), seed=12, positions=5000) > 8_000
