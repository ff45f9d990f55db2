"""The computer players on grid variants (docs/SEQUENCE.md): legal and seeded choices, the
hidden-information rule, the tactics of S10-S13 on hand-made positions, and strength."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import view_of
from sorry_rules.players.registry import BOTS, bot_names, make_player
from sorry_rules.players.runner import GameRecord, play_game, replay
from sorry_rules.simulation.simulate import Setup, load_source, play_batch

BLUE, GREEN = 0, 1


@pytest.fixture(scope="module")
def sequence():
    return load_game("sequence")


def cells(game, *names) -> tuple:
    return tuple(sorted(game.grid.parse(0, name) for name in names))


def position(game, blue=(), green=(), hand=()):
    placement = (cells(game, *blue), cells(game, *green), ())
    return game.position(placement, (BLUE, GREEN), 0, tuple(game.card_index[c] for c in hand))


def choice(game, kind, state):
    moves = game.legal_moves(state)
    return moves[make_player(kind, 7, 0).choose(view_of(game, state), moves)]


SEQUENCE_ROW = ("A2", "B2", "C2", "D2", "E2")  # 6C 5C 4C 3C 2C: one sequence already (S10, S11)
FOUR = ("B9", "C9", "D9", "E9")                 # 7S 6S 5S 4S; A9 (AC) and F9 (3S) complete five


@pytest.mark.parametrize("kind", ["greedy", "expert"])
@pytest.mark.parametrize("hand", [("9H", "3S", "KD", "2D", "8C", "TC", "QC"),   # the card of F9
                                  ("9H", "KD", "JD", "2D", "8C", "TC", "QC")])  # a two-eyed Jack (S7)
def test_completes_the_winning_sequence_when_it_can(sequence, kind, hand):
    """S7, S11, S13: with one sequence and four in a row, the bot plays the fifth chip and wins."""
    state = position(sequence, blue=SEQUENCE_ROW + FOUR, green=("D5", "E5", "F5"), hand=hand)
    move = choice(sequence, kind, state)
    assert sequence.win_holds(BLUE, move.placement, state.seats)
    assert sequence.apply(state, move).winner == 0


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_blocks_an_opponents_four_in_a_row(sequence, kind):
    """S10, S13: green has a sequence and B9-E9 with A9 covered by blue: F9 would win for
    green; blue holds its card (3S) and cards that build blue's own lines, and blocks F9."""
    hand = ("3S", "4H", "7H", "KD", "2D", "8C", "TC")
    state = position(sequence, blue=("A9", "D5", "E5", "D6"), green=SEQUENCE_ROW + FOUR, hand=hand)
    move = choice(sequence, kind, state)
    assert move.kind == "place" and set(move.placement[BLUE]) - set(state.placement[BLUE]) == set(cells(sequence, "F9"))


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_a_one_eyed_jack_breaks_an_open_four(sequence, kind):
    """S7, S10: green's B9-E9 is open at both ends (two winning cells, too many to block with
    one chip); blue holds a one-eyed Jack and no card for A9 or F9: it removes one of the
    four chips. The chips of green's sequence are protected and are never offered (S10)."""
    hand = ("JH", "9H", "KD", "2D", "8C", "TC", "QC")
    state = position(sequence, blue=("D5",), green=SEQUENCE_ROW + FOUR, hand=hand)
    moves = sequence.legal_moves(state)
    removable = {e[2] for m in moves if m.kind == "remove" for e in m.events}
    assert removable and not removable & set(cells(sequence, *SEQUENCE_ROW))
    move = choice(sequence, kind, state)
    assert move.kind == "remove" and move.events[0][2] in cells(sequence, *FOUR)


@pytest.mark.parametrize("kind", ["greedy", "expert"])
def test_keeps_the_wild_card_when_a_plain_card_does_the_same(sequence, kind):
    """S7: a chip on E5 (5H) extends blue's row either with 5H or with a two-eyed Jack; the
    bot spends the card with fewer plays and keeps the Jack."""
    hand = ("5H", "JD", "KD", "2D", "8C", "TC", "QC")
    state = position(sequence, blue=("C5", "D5"), green=("A3",), hand=hand)
    move = choice(sequence, kind, state)
    assert sequence.card_names[move.card] != "JD"


def _distinct_players() -> list[str]:
    """Every bot name but a level that names the same player as an earlier name (`greedy` is
    `easy`, `search` is `hard`: the same class and budget, so the same choice computed again)."""
    first: dict = {}
    for kind in bot_names():
        first.setdefault(id(BOTS[kind]), kind)
    return list(first.values())


def test_the_choice_depends_only_on_the_view(sequence):
    """players/protocol.py: other hands and the order of the pile are not seen: two games
    that differ only there get the same choices from every bot."""
    state = sequence.new_game(5, players=2)
    hidden = state._replace(hands=(state.hands[0], tuple(reversed(state.hands[1]))), pile=tuple(reversed(state.pile)))
    for kind in _distinct_players():
        moves = sequence.legal_moves(state)
        assert make_player(kind, 3, 0).choose(view_of(sequence, state), moves) == \
            make_player(kind, 3, 0).choose(view_of(sequence, hidden), moves)


@pytest.mark.parametrize("variant, players", [("sequence", 2), ("sequence", 3), ("grid/mini-grid.yaml", 4)])
def test_bots_play_legal_seeded_games(variant, players):
    """Every bot returns an index of a legal move (the runner refuses any other), and the
    same seed gives the same game: recorded choices replay to the identical end."""
    game = load_game(variant)
    kinds = bot_names()
    seen = []

    def on_turn(turn, after):
        assert 0 <= turn.choice < turn.options
        seen.append(turn.move.kind)

    def players_of(seed):
        return [make_player(kinds[s % len(kinds)], seed, s) for s in range(players)]

    record = GameRecord(11, (), 0)
    final = play_game(game, game.new_game(11, players=players), players_of(11), on_turn=on_turn, record=record)
    assert final.over and {"place"} <= set(seen)
    again = play_game(game, game.new_game(11, players=players), players_of(11))
    assert again == final
    assert replay(game, game.new_game(11, players=players), record.choices) == final


def test_a_twelve_player_game_of_experts_ends(sequence):
    """S1, S4: twelve players in three teams, three cards each; the bounded bots finish."""
    players = [make_player("expert" if s % 2 else "greedy", 2, s) for s in range(12)]
    final = play_game(sequence, sequence.new_game(2, players=12), players)
    assert final.over


def test_greedy_beats_random_over_a_small_seeded_batch():
    """Strength with a wide margin: measured 100% of 200 (bench/README.md); 10 of 12 is far below."""
    source, _ = load_source("sequence")
    tally = play_batch(Setup(source, 2, ("greedy", "random"), 1, 20_000, rotate=True), 0, 12)
    assert tally.kind_wins.get("greedy", 0) >= 10, tally.kind_wins


@pytest.mark.parametrize("variant", ["sequence", "grid/mini-grid.yaml"])
def test_incremental_scores_equal_whole_board_scores(variant):
    """The evaluator re-scores only the straights a move touches (S10, S11 are sums over
    straights): along a seeded random game, every move's incremental analysis equals the
    analysis of the whole placement it leads to."""
    from sorry_rules.players.gridevaluation import grid_evaluator_for

    game = load_game(variant)
    ev = grid_evaluator_for(game)
    state = game.new_game(4, players=2)
    colours = tuple(sorted(set(state.seats)))
    bot = make_player("random", 4, 0)
    checked = 0
    while not state.over and state.plies < 60:
        base = ev.analyse(state.placement, colours)
        moves = game.legal_moves(state)
        for move in moves[::7]:
            if move.kind in ("place", "remove"):
                after = ev.changed(base, ev.changes_of(move))
                whole = ev.analyse(move.placement, colours)
                assert after.owner == whole.owner and after.finishing == whole.finishing
                assert after.strength == pytest.approx(whole.strength)
                checked += 1
        state = game.apply(state, moves[bot.choose(view_of(game, state), moves)])
    assert checked > 50


def test_kept_win_answers_are_the_engines_and_stay_bounded(sequence, monkeypatch):
    """S10, S11: the evaluator keeps the engine's answers to "does this chip win?" per
    placement (search asks the same ones again and again); along a seeded game, whether
    asked first or again and whether the kept answers were just emptied (a bound of 3), the
    winning cells are exactly the finishing cells on which `game.win_holds` says a chip wins."""
    from sorry_rules.players import gridevaluation

    monkeypatch.setattr(gridevaluation, "WIN_ENTRIES", 3)
    ev = gridevaluation.GridEvaluator(sequence)
    state = sequence.new_game(11, players=2)
    colours, bot, found = tuple(sorted(set(state.seats))), make_player("greedy", 11, 0), 0
    while not state.over:
        analysis = ev.analyse(state.placement, colours)
        for colour in colours:
            chips = state.placement[colour]
            expected = tuple(cell for cell in sorted(analysis.finishing[colour]) if sequence.win_holds(
                colour, tuple(tuple(sorted(chips + (cell,))) if c == colour else p
                              for c, p in enumerate(state.placement)), state.seats))
            for _ in range(2):
                assert ev.winning_cells(analysis, state.placement, colour, state.seats) == expected
            found += len(expected)
        assert len(ev._wins) <= 3 and len(ev._winning) <= 3
        moves = sequence.legal_moves(state)
        state = sequence.apply(state, moves[bot.choose(view_of(sequence, state), moves)])
    assert found > 0


def placed(game, state, move) -> set:
    return set(move.placement[BLUE]) - set(state.placement[BLUE])


def test_expert_makes_a_double_threat(sequence):
    """S7, S10: blue has D5-F5 (6H 5H 4H). 7C on C5 makes an open four whose two finishing
    cells B5 (QS) and G5 (AH) blue's kept cards both reach: one green chip cannot block both.
    AH on G5 also makes four, but only C5 (7C) of its ends is in hand: the expert takes C5
    (greedy, one ply without the hand, takes G5)."""
    state = position(sequence, blue=("D5", "E5", "F5"), green=("A3", "B3"), hand=("7C", "QS", "AH", "KD", "2D", "8C", "TC"))
    move = choice(sequence, "expert", state)
    assert placed(sequence, state, move) == set(cells(sequence, "C5"))


def test_expert_blocks_an_open_three_before_it_becomes_four(sequence):
    """S7, S10, S11: green has C9-E9 (6S 5S 4S), open at both ends; blue holds 3S (F9) and
    cards that build its own row 6. The expert blocks F9 now (greedy builds C6 instead)."""
    state = position(sequence, blue=("D6", "E6"), green=("C9", "D9", "E9"), hand=("3S", "7H", "KD", "2D", "8C", "TC", "QC"))
    move = choice(sequence, "expert", state)
    assert placed(sequence, state, move) == set(cells(sequence, "F9"))


def test_expert_choices_are_legal_and_seeded_along_a_game(sequence):
    """players/protocol.py: along a seeded expert-vs-greedy game every expert choice is a legal
    index, and a second expert with the same seed and view makes the same choice."""
    state = sequence.new_game(21, players=2)
    players = [make_player("expert", 21, 0), make_player("greedy", 21, 1)]
    twin = make_player("expert", 21, 0)
    checked = 0
    while not state.over and state.plies < 80:
        moves = sequence.legal_moves(state)
        seat = state.turn
        view = view_of(sequence, state)
        index = players[seat].choose(view, moves)
        assert 0 <= index < len(moves)
        if seat == 0:
            assert twin.choose(view, moves) == index
            checked += 1
        state = sequence.apply(state, moves[index])
    assert checked > 10
