"""Property tests of Sequence over random games (docs/SEQUENCE.md) for every allowed player
count: cards and chips are conserved, protected chips are never removed, no chip lands on
a covered or free cell, and the game always ends (a sequence target reached, or a round
of passes, S9, S13). A renamed copy of the rule file plays the same game."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from sorry_rules.compiler import load_game
from sorry_rules.base.resources import variants_dir

COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)
#: A bound no random game comes near (the longest of 480 seeded games took 210 plies).
MAX_PLIES = 3000


@lru_cache(maxsize=None)
def sequence():
    return load_game("sequence")


def check_step(game, before, move, after, spares_protected: bool = True):
    """`spares_protected`: the variant's removals are `unprotected` ones (Sequence's S10)."""
    grid = game.grid
    p = before.seats[before.turn]
    # cards: every card of the deck is in a hand, the pile or the discards, once each
    held = [c for hand in after.hands for c in hand] + list(after.pile) + list(after.discard)
    assert Counter(held) == Counter(game.deck)
    # chips: disjoint, never on a free cell, and changed by exactly the move's one chip
    cells = [cell for chips in after.placement for cell in chips]
    assert len(cells) == len(set(cells)) and not set(cells) & grid.free
    change = {"place": 1, "remove": -1}.get(move.kind, 0)
    assert len(cells) == sum(len(chips) for chips in before.placement) + change
    if move.kind == "place":
        ((_, c, cell),) = move.events
        assert c == p and cell not in before.placement[p] and cell in after.placement[p]
    if move.kind == "remove":
        ((_, c, cell),) = move.events
        assert c != p, "S7: only an opponent's chip is removed"
        assert not spares_protected or cell not in grid.protected(before.placement[c]), "S10: a protected chip was removed"
    if move.kind == "exchange":
        assert after.turn == before.turn and after.exchanged and after.placement == before.placement
        assert not game.plays(before, move.card), "S12: only a dead card is exchanged"
    if move.kind == "pass":
        assert after.hands == before.hands and after.pile == before.pile  # S9: no draw
        assert not [m for m in game.legal_moves(before) if m.kind in ("place", "remove")]


def play(game, seed: int, players: int, choose=None):
    rng = random.Random(seed)
    state = game.new_game(seed, players=players)
    steps = []
    while not state.over and state.plies < MAX_PLIES:
        moves = game.legal_moves(state)
        assert moves
        move = moves[rng.randrange(len(moves))] if choose is None else choose(moves, rng)
        after = game.apply(state, move)
        steps.append((state, move, after))
        state = after
    return state, steps


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.parametrize("players", COUNTS)
def test_random_games_keep_the_invariants_and_end(players, seed):
    game = sequence()
    state, steps = play(game, seed, players)
    for before, move, after in steps:
        check_step(game, before, move, after)
    assert state.over, f"no end after {MAX_PLIES} plies"
    colour = game.winning_colour(state)
    sides = len(set(state.seats))
    if colour is None:  # S9: a full round of passes
        assert state.passes == players
    else:                 # S13: the target by number of sides
        assert game.sequences(state.placement, colour) >= (2 if sides == 2 else 1)


def test_the_same_seed_and_choices_give_the_same_game():
    game = sequence()
    assert play(game, 11, 4)[0] == play(game, 11, 4)[0]


# ---- a renamed copy ------------------------------------------------------------------------
def _renamed(tmp_path):
    """sequence.yaml with every card, colour, column and row renamed."""
    data = yaml.safe_load((variants_dir() / "sequence.yaml").read_text(encoding="utf-8"))
    cards = {name: f"k{i}" for i, name in enumerate(data["deck"])}
    colours = {"blue": "navy", "green": "olive", "red": "ruby"}
    board = data["board"]
    board["cells"] = [[cards.get(c, c) for c in row] for row in board["cells"]]
    board["columns"] = [f"c{c.lower()}" for c in board["columns"]]
    board["rows"] = [f"_{r}" for r in board["rows"]]
    data["colours"] = [colours[c] for c in data["colours"]]
    data["seating"] = {k: [colours[c] for c in v] for k, v in data["seating"].items()}
    data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
    data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
    data["name"] = "renamed"
    path = tmp_path / "renamed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_game(str(path)), cards, colours


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_renamed_copy_plays_the_same_game(tmp_path, players):
    game = sequence()
    renamed, cards, colours = _renamed(tmp_path)

    def trace(g, seed):
        state, steps = play(g, seed, players)
        return [(m.kind, None if m.card is None else g.card_names[m.card],
                 tuple((k, g.colours[c], g.grid.name(cell)) for k, c, cell in m.events)) for _, m, _ in steps], state

    for seed in range(3):
        original, end = trace(game, seed)
        copy, renamed_end = trace(renamed, seed)
        cell = {c + r: f"c{c.lower()}_{r}" for c in "ABCDEFGHIJ" for r in map(str, range(1, 11))}
        mapped = [(kind, cards.get(card, card), tuple((k, colours[c], cell[x]) for k, c, x in events))
                  for kind, card, events in original]
        assert copy == mapped
        assert (end.winner, end.plies, end.passes) == (renamed_end.winner, renamed_end.plies, renamed_end.passes)


# ---- overlays and another grid game: rule files only ---------------------------------------
def test_quick_overlay_wins_with_one_sequence_for_two_sides():
    """S13 Option: any target."""
    game = load_game("grid/sequence-quick")
    grid = game.grid
    chips = tuple(sorted(grid.parse(0, c) for c in ("B7", "C7", "D7", "E7")))
    state = game.position((chips, (), ()), (0, 1), 0, (game.card_index["QC"],))
    wins = {grid.name(m.events[0][2]): game.apply(state, m).winner for m in game.legal_moves(state)}
    assert wins == {"A7": 0, "D8": None}


def test_four_overlay_counts_lines_of_four():
    """S10 Option: a line of four; S11 still shares at most one cell (7 in a row count 2)."""
    grid = load_game("grid/sequence-four").grid
    cells = lambda text: [grid.parse(0, c) for c in text.split()]  # noqa: E731
    assert [grid.sequences(cells(t)) for t in ("B3 C3 D3", "B3 C3 D3 E3", "A3 B3 C3 D3 E3 F3 G3")] == [0, 1, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_invented_grid_game_plays_with_no_code_of_its_own(players):
    game = load_game("grid/mini-grid")
    assert (game.grid.width, game.grid.height, len(game.grid.free)) == (6, 6, 4)
    for seed in range(4):
        state, steps = play(game, seed, players)
        for before, move, after in steps:
            check_step(game, before, move, after, spares_protected=False)  # its bomb removes any chip
        assert state.over
