"""The grid table (`engine.gridtable`): its options, listed lazily on the chip masks, are the
plays of every card of the hand (each card's compiled effect run on the position, one per
distinct result, in card order), then the exchanges of dead cards (S6, S12), then a pass when
there is neither a play nor an exchange (S9), at every position of seeded games of every bundled grid rule file and
of test files whose cards are combinators, whose win reads the chip counts, or that end in a
round of passes. The bit masks (`engine.gridmasks`) count and protect as the runs of
`engine.grid` do."""

from __future__ import annotations

import random

import pytest
import yaml

from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler import load_game
from sorry_rules.engine.grid import Grid
from sorry_rules.engine.gridmasks import LineMasks
from sorry_rules.engine.gridmechanics import SHAPE_CELLS, SHAPE_EMPTY, SHAPE_REMOVE, GridView
from sorry_rules.engine import gridtable
from sorry_rules.engine.gridmechanics import PLACE, REMOVE
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, play_game

GRID_FILES = ("sequence", "grid/mini-grid", "grid/sequence-four", "grid/sequence-quick")


def _mini(tmp_path, name: str, **changes) -> object:
    data = yaml.safe_load((variants_dir() / "grid" / "mini-grid.yaml").read_text(encoding="utf-8"))
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key].update(value)
        else:
            data[key] = value
    data["name"] = name
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_game(str(path))


@pytest.fixture(scope="module")
def combos(tmp_path_factory):
    """Cards that are no single primitive, guards reading the position or asking whether
    another effect could be played (`can`), and a win that reads the chip counts (judged
    after every play)."""
    return _mini(tmp_path_factory.mktemp("combos"), "combos", cards={
        "c1": "place on card | remove opponent",
        "c2": "place on empty if sequences(team) >= 1",
        "c3": "remove opponent then place on card",
        "c4": "place on card | place on card",
        "c5": "place on card if chips(opponents) > chips(team)",
        "joker": "place on empty if can(remove opponent)",
        "bomb": "remove opponent unprotected",
    }, win="sequences(team) >= 3 or chips(team) >= 15")


@pytest.fixture(scope="module")
def stalled(tmp_path_factory):
    """No Jokers, no Bombs, no exchange, an unreachable target: the board fills and the
    game ends in a round of passes."""
    game = _mini(tmp_path_factory.mktemp("stalled"), "stalled", cards={"joker": "place on card", "bomb": "place on card"},
                 turn={"exchange": "none"}, win="sequences(team) >= 40")
    return game


def _reference_moves(game, state) -> list:
    """SEQUENCE.md S6, S9, S12 read literally: every card's plays from its compiled effect on
    the whole placement (distinct results, card order), the dead cards' exchanges, a pass
    where there is nothing else (S9: after any exchange)."""
    p, view = state.seats[state.turn], game.view(state)
    moves, dead = [], []
    for card in sorted(set(state.hands[state.turn])):
        seen, plays = set(), []
        for placement, events in game.card_programs[card](p, view):
            if placement not in seen:
                seen.add(placement)
                plays.append((card, placement, events, False, events[0][0]))
        moves.extend(plays)
        if not plays:
            dead.append(card)
    if game.exchange and not state.exchanged:
        moves.extend((card, state.placement, (), False, "exchange") for card in dead)
    if not moves:
        moves.append((None, state.placement, (), False, "pass"))
    return moves


def _checked_game(game, seed: int, players: int, state=None, max_plies: int = 3000):
    """A seeded random game through the one loop, the options at every ply compared with
    `_reference_moves`; the choices replay to the same final state."""
    state = state if state is not None else game.new_game(seed, players=players)
    record = GameRecord(None, state.seats, state.turn)
    turns = []

    def on_turn(turn, after):
        turns.append((turn, after))
    final = play_game(game, state, [RandomPlayer(seed, s) for s in range(players)], on_turn=on_turn,
                      max_plies=max_plies, record=record)
    before = state
    for turn, after in turns:
        moves = game.legal_moves(before)
        assert [tuple(m)[:5] for m in moves] == _reference_moves(game, before)
        assert moves[turn.choice] == turn.move and game.apply(before, turn.move) == after
        before = after
    assert before == final and record.final == final and record.finished == (final.winner is not None)
    return final, record.choices, turns


@pytest.mark.parametrize("spec", GRID_FILES)
def test_the_options_are_every_play_then_the_exchanges_then_a_pass(spec):
    game = load_game(spec)
    for players in (2, 3, 4):
        for seed in range(3):
            _checked_game(game, seed, players)


def test_many_seats_and_cut_games():
    game = load_game("sequence")
    for players in (6, 12):
        _checked_game(game, 3, players, max_plies=60)
    for seed in range(4):  # stopped at max_plies, then resumed from mid-game states
        cut = _checked_game(game, seed, 4, max_plies=7 + 9 * seed)[0]
        assert cut.plies == 7 + 9 * seed and not cut.over
        _checked_game(game, seed, 4, state=cut, max_plies=cut.plies + 40)


def test_a_game_resumes_after_an_exchange():
    game = load_game("grid/mini-grid")
    found = 0
    for seed in range(40):
        state = game.new_game(seed, players=2)
        while not state.over and not state.exchanged:
            state = play_game(game, state, [RandomPlayer(seed, s) for s in range(2)], max_plies=state.plies + 1)
        if state.exchanged and not state.over:
            found += 1
            _checked_game(game, seed, 2, state=state)
    assert found >= 3


def test_combinator_cards_and_a_chips_win(combos):
    assert combos.card_shapes[combos.card_index["bomb"]][0] == SHAPE_REMOVE
    assert all(combos.card_shapes[combos.card_index[c]] is None for c in ("c1", "c2", "c3", "c4", "c5"))
    assert "chips" in combos.win_reads
    won, by_chips, played = 0, 0, set()
    for players in (2, 3, 4):
        for seed in range(6):
            final, _, turns = _checked_game(combos, seed, players)
            won += final.winner is not None
            colour = combos.winning_colour(final)
            by_chips += colour is not None and combos.sequences(final.placement, colour) < 3
            played.update((combos.card_names[turn.card], len(turn.move.events)) for turn, _ in turns
                          if turn.move.kind in (PLACE, REMOVE))
    assert won >= 6 and by_chips >= 1
    assert {("c1", 1), ("c2", 1), ("c3", 2), ("c4", 1), ("c5", 1)} <= played


def test_a_guard_asks_whether_another_effect_has_a_play(combos, tmp_path):
    """`place on empty if can(remove opponent)`: the card has the plays of `place on empty`
    where `remove opponent` (S5's removal, protected chips kept) has a play on the position
    the card is played on, and none elsewhere; at every position of seeded games."""
    plain = _mini(tmp_path, "plain", cards={"c1": "remove opponent", "c2": "place on empty"})
    joker = combos.card_programs[combos.card_index["joker"]]
    removal, placing = (plain.card_programs[plain.card_index[c]] for c in ("c1", "c2"))
    seen = set()
    for seed in range(3):
        state = combos.new_game(seed, players=2)
        for _, after in _checked_game(combos, seed, 2)[2]:
            p, view = state.seats[state.turn], combos.view(state)
            allowed = bool(removal(p, view))
            assert joker(p, view) == (placing(p, view) if allowed else [])
            seen.add(allowed)
            state = after
    assert seen == {True, False}


def test_aggregates_range_over_the_seated_colours(tmp_path):
    """REFERENCE's aggregates, "over the seated colours of a group", on a grid: a seated colour
    with no chip yet counts (it is no colour missing from the game), an unseated one does not;
    and a win that reads sequence counts through an aggregate is judged on the counts alone."""
    game = _mini(tmp_path, "aggregates", win="min(c in players: chips(c)) >= 1 and max(c in opponents: sequences(c)) < 9")
    amber, teal, plum = (game.colours.index(name) for name in ("amber", "teal", "plum"))
    cells = [cell for cell in range(game.grid.size) if cell not in game.grid.free]
    one_each = tuple((cells[0],) if c in (amber, teal) else () for c in range(3))
    amber_only = tuple((cells[0],) if c == amber else () for c in range(3))
    seats = (amber, teal)
    assert game.win_holds(amber, one_each, seats)  # plum is not seated: min over amber and teal
    assert not game.win_holds(amber, amber_only, seats)  # teal is seated with no chip: min is 0
    assert not game.win_holds(amber, one_each, (amber, teal, plum))
    counted = _mini(tmp_path, "counted", win="sequences(team) >= 1 and max(c in opponents: sequences(c)) < 1")
    assert counted.win_reads == {"sequences"}
    won = 0
    for seed in range(6):
        final = _checked_game(counted, seed, 3)[0]
        if final.winner is not None:  # else a round of passes ended it
            won += 1
            winner = final.seats[final.winner]
            assert counted.sequences(final.placement, winner) >= 1
            assert all(counted.sequences(final.placement, c) < 1 for c in final.seats if c != winner)
    assert won


def test_games_ending_in_a_round_of_passes(stalled):
    assert not stalled.exchange
    for players in (2, 3):
        for seed in range(4):
            final = _checked_game(stalled, seed, players)[0]
            assert final.over and final.winner is None and final.passes == players


@pytest.mark.slow
@pytest.mark.parametrize("spec", GRID_FILES)
def test_the_options_many_seeds(spec):
    game = load_game(spec)
    for players in sorted(n for n in game.seating if n <= 6):
        for seed in range(100, 130):
            _checked_game(game, seed, players)


def test_shapes_of_the_sequence_cards():
    game = load_game("sequence")
    shapes = {name: game.card_shapes[i] for i, name in enumerate(game.card_names)}
    assert shapes["2S"] == (SHAPE_CELLS, game.grid.cells_of_card["2S"])
    assert shapes["JD"] == shapes["JC"] == (SHAPE_EMPTY,)
    assert shapes["JH"] == (SHAPE_REMOVE, ((1, 2), (0, 2), (0, 1)), True)
    assert game.win_reads == {"sequences"}


def _runs_count(grid, chips) -> int:
    step = grid.length - grid.shared
    return sum((len(run) - grid.length) // step + 1 for run in grid.runs(chips))


def _runs_protected(grid, chips) -> frozenset:
    return frozenset(cell for run in grid.runs(chips) for cell in run if cell in set(chips))


def test_masks_count_and_protect_as_the_runs():
    rng = random.Random(14)
    for _ in range(150):
        width, height = rng.randint(1, 11), rng.randint(1, 11)
        length = rng.randint(1, max(width, height))
        directions = rng.sample(["row", "column", "diagonal"], rng.randint(1, 3))
        cards = [None if rng.random() < 0.1 else "x" for _ in range(width * height)]
        grid = Grid(["a"], [str(i) for i in range(width)], [str(i) for i in range(height)], cards, length, directions,
                    rng.randint(0, length - 1))
        lines = grid.lines
        for _ in range(4):
            density = rng.random()
            chips = tuple(c for c in range(width * height) if cards[c] and rng.random() < density)
            assert grid.sequences(chips) == _runs_count(grid, chips)
            assert grid.protected(chips) == _runs_protected(grid, chips)
            assert lines.cells_of(lines.mask(chips)) == chips
            for cell in chips:  # `lined` False: no line through the cell, with the chip or without
                if not lines.lined(lines.mask(chips), cell):
                    assert cell not in grid.protected(chips)
                    assert grid.sequences(tuple(c for c in chips if c != cell)) == grid.sequences(chips)


def test_kth_bit():
    rng = random.Random(3)
    for _ in range(300):
        mask = rng.getrandbits(rng.randint(1, 130)) | 1
        bits = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
        for k in range(len(bits)):
            assert gridtable.kth_bit(mask, k) == bits[k]


@pytest.mark.parametrize("spec", GRID_FILES)
def test_chips_keep_counts_of_plays_and_lines(spec):
    """`Chips.avail` (per card of a cell mask its plays), the sequence counts and the
    removable chips follow random chips placed and taken away, as counted from scratch."""
    game = load_game(spec)
    lines, shape = game.grid.lines, gridtable.shapes(game)
    cells = [cell for cell in range(game.grid.size) if lines.bit[cell] & lines.cells]
    rng = random.Random(spec)
    for sides in (2, 3):
        chips = gridtable.Chips(game, tuple(() for _ in game.colours), frozenset(range(sides)))
        for _ in range(300):
            cell = rng.choice(cells)
            bit = lines.bit[cell]
            holder = next((c for c, mask in enumerate(chips.masks) if mask & bit), None)
            colour = holder if holder is not None else rng.randrange(sides)
            before = chips.counts[colour]
            changed = chips.change(colour, cell)
            assert chips.counts == [lines.count(mask) for mask in chips.masks]
            assert changed == (chips.counts[colour] != before)
            for card, mask in enumerate(shape.cell_masks):
                expected = (mask & chips.empty).bit_count() if shape.counted[card] else -1
                assert chips.avail[card] == expected
            for o, mask in enumerate(chips.masks):
                assert chips.removable(o, True) == mask & ~lines.protected(mask)
            assert chips.placement() == tuple(lines.cells_of(mask) for mask in chips.masks)
        fresh = gridtable.Chips(game, chips.placement(), chips.seated)
        assert (fresh.masks, fresh.counts, fresh.avail) == (chips.masks, chips.counts, chips.avail)


def test_the_win_verdicts_kept_are_the_win_condition(combos):
    """`Shapes.judged` holds, per (seats, mover, counts), the first seat from the mover
    whose win condition holds; a win that reads the chips is never kept."""
    for spec in GRID_FILES:
        game = load_game(spec)
        for players in (2, 3, 4):
            for seed in range(3):
                play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)])
        judged = gridtable.shapes(game).judged
        assert judged
        for (seats, mover, counts), seat in judged.items():
            view = GridView(None, frozenset(seats), game.grid, counts)
            holds = [k for k in range(len(seats)) if game.win(seats[(mover + k) % len(seats)], view, None)]
            assert seat == ((mover + holds[0]) % len(seats) if holds else None)
    for seed in range(3):
        play_game(combos, combos.new_game(seed, players=2), [RandomPlayer(seed, s) for s in range(2)])
    assert not gridtable.shapes(combos).judged


def test_lined_and_cells_of_on_random_grids(monkeypatch):
    """`lined` is true exactly when some line through the cell could be covered (its
    pre-test over every line at once changes nothing); `cells_of` gives the same cells
    with its row patterns kept or not."""
    rng = random.Random(41)
    for kept in (LineMasks.PATTERNS, 0):
        monkeypatch.setattr(LineMasks, "PATTERNS", kept)
        for _ in range(60):
            width, height = rng.randint(1, 12), rng.randint(1, 12)
            length = rng.randint(1, max(width, height))
            directions = rng.sample(["row", "column", "diagonal"], rng.randint(1, 3))
            free = [cell for cell in range(width * height) if rng.random() < 0.05]
            lines = LineMasks(width, height, length, directions, rng.randint(0, length - 1), free)
            for _ in range(5):
                chips = tuple(c for c in range(width * height) if c not in free and rng.random() < rng.random())
                mask = lines.mask(chips)
                assert lines.cells_of(mask) == chips
                covered = mask | lines.free
                for cell in range(width * height):
                    could = any((covered & segment).bit_count() >= length for segment in lines.reach[cell])
                    assert lines.lined(mask, cell) == could
