"""players.handflat (the lean loops over flat state for hand play and turn policies, no
`Move` built) against `play_game`'s own loop over the generated moves and over the
interpreter alone: the same final state and the same recorded choices, for many seeds, 2-4
players, whole games and games cut short, for every bundled game it takes and for rule files
written to make the policies frequent (tests/test_handloop.py's overlays) or the cards tight
(a pile of one card, five cards drawn at once, two drawn from a deck of four or of one). Also: which games it takes, and that
`play_game` hands them to it."""

from __future__ import annotations

import functools

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players import handflat, handloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, play_game

from .sizes import short_and_full
from .test_handloop import MULLIGAN, NO_START, OVERLAYS, TAKE_TWO, WRITTEN, OwnLoopRandom

TAKEN = [("points", ()), ("points", ("options/cumulative-bonus.yaml",)), ("points", (MULLIGAN,)),
         ("standard", (TAKE_TWO,)), ("standard", (NO_START,)), ("points", (NO_START,)), ("partnership", (TAKE_TWO,)),
         ("partnership", (NO_START,)), ("standard", (TAKE_TWO, NO_START)), ("points", (MULLIGAN, NO_START))]
LEFT = [("points", ("house/must-bump.yaml",)), ("points", ("house/revenge-7.yaml",)),  # filters
        ("points", ("house/bump-points.yaml",)), ("standard", (TAKE_TWO, "house/bump-bonus.yaml"))]  # after:


#: Rule files that stress the card handling: hands so large that the pile holds one card (a
#: reshuffle of a few discards almost every turn) with actions of up to one other card that
#: draw again and redraws; five cards drawn at once with redraws.
STRESS = {
    "tight-deck": ("extends: points\nname: tight-deck\nturn:\n  hand_size: 11\n  redraw:\n    at_most: 3\n"
                   "    label: again\n  actions:\n    m:\n      cards: ['8', '1']\n      others: {min: 0, max: 1}\n"
                   "      draw_again: true\n      label: m\n"),
    "take-five": "extends: standard\nname: take-five\nturn:\n  take: 5\n  redraw:\n    at_most: 2\n    label: again\n",
    # two cards drawn a ply (`handflat._play_pairs`) from a deck of four: the pile refilled
    # between the two draws, the same card drawn twice, the 11 passing, redraws
    "take-two-tiny-deck": ("extends: standard\nname: take-two-tiny-deck\nturn:\n  take: 2\n  redraw:\n"
                           "    at_most: 2\n    label: again\ndeck: {'1': 2, '2': 0, '3': 0, '4': 0, '5': 0, '7': 0,"
                           " '8': 0, '10': 0, '11': 1, '12': 0, sorry: 1}\n"),
    # two cards a ply from a deck of one: the pair loop hands the game to `_play_draws`
    "take-two-one-card": ("extends: standard\nname: take-two-one-card\nturn:\n  take: 2\ndeck: {'1': 1, '2': 0,"
                          " '3': 0, '4': 0, '5': 0, '7': 0, '8': 0, '10': 0, '11': 0, '12': 0, sorry: 0}\n"),
    # conditions that are literals (`HandAction.constant`, `Redraw.constant`): never held, always held
    "literal-conditions": ("extends: points\nname: literal-conditions\nturn:\n  redraw:\n    at_most: 1\n"
                           "    when: 'false'\n    label: again\n  actions:\n    never:\n      cards: ['8']\n"
                           "      others: {min: 1, max: 1}\n      when: 'false'\n      label: never\n    always:\n"
                           "      cards: ['10']\n      others: {min: 0, max: 1}\n      when: 'true'\n      label: always\n"),
}


def _ids(cases):
    return [f"{s}{''.join('+' + r for r in rules)}" for s, rules in cases]


@pytest.fixture
def counted(monkeypatch):
    """The number of games `handflat.play` played (a list of one count)."""
    played = [0]
    play = handflat.play

    def counting(*args, **kwargs):
        played[0] += 1
        return play(*args, **kwargs)

    monkeypatch.setattr(handflat, "play", counting)
    return played


def _play(game, seed: int, players: int, player_type, max_plies: int | None):
    start = game.new_game(seed, players=players)
    record = GameRecord(seed, start.seats, start.turn)
    limit = {} if max_plies is None else {"max_plies": max_plies}
    final = play_game(game, start, [player_type(seed, s) for s in range(players)], record=record, **limit)
    return final, record.choices, record.finished


@functools.lru_cache(maxsize=None)
def _games(spec, rules) -> tuple:
    """(generated, reference): the second with the interpreter alone (loaded once per test
    process: `_check` only plays them)."""
    reference = load_game(spec, rules)
    reference.use_fast_moves(None)
    return load_game(spec, rules), reference


def _check(spec, rules, games: int, counted, max_plies=None) -> int:
    """Every seed: handflat's game = play_game's own loop over the generated moves (and = the
    interpreter's: every seed of a long run, the first of a short one). Returns the plies played."""
    fast, reference = _games(spec, rules)
    plies = 0
    for seed in range(games):
        players = fast.players_min + seed % (fast.players_max - fast.players_min + 1)
        before = counted[0]
        lean = _play(fast, seed, players, RandomPlayer, max_plies)
        assert counted[0] == before + 1, "play_game did not hand the game to handflat"
        assert lean == _play(fast, seed, players, OwnLoopRandom, max_plies), (seed, players)
        if seed == 0 or games > 20:  # the interpreter is slow: once in the default run
            assert lean == _play(reference, seed, players, RandomPlayer, max_plies), (seed, players)
        plies += lean[0].plies
    return plies


@pytest.mark.parametrize("spec,rules", TAKEN, ids=_ids(TAKEN))
@pytest.mark.parametrize("games", short_and_full(3, 150))
def test_handflat_plays_the_reference_games(spec, rules, games, counted):
    assert _check(spec, rules, games, counted) > 0


@pytest.mark.parametrize("name,base", WRITTEN, ids=[f"{n}-{b}" for n, b in WRITTEN])
@pytest.mark.parametrize("games", short_and_full(3, 120))
def test_handflat_plays_frequent_turn_policies(tmp_path, name, base, games, counted):
    path = tmp_path / f"{name}.yaml"
    path.write_text(OVERLAYS[name].format(base=base))
    assert _check(str(path), (), games, counted) > 0


@pytest.mark.parametrize("name", sorted(STRESS))
@pytest.mark.parametrize("games", short_and_full(3, 100))
def test_handflat_plays_tight_decks_and_large_draws(tmp_path, name, games, counted):
    path = tmp_path / f"{name}.yaml"
    path.write_text(STRESS[name])
    assert _check(str(path), (), games, counted) > 0


@pytest.mark.parametrize("spec,rules", [("points", (MULLIGAN,)), ("standard", (TAKE_TWO, NO_START))],
                         ids=["mulligan", "take-two-no-start"])
def test_a_game_cut_short_ends_in_the_same_state(spec, rules, counted):
    for max_plies in (0, 1, 2, 9, 60):
        _check(spec, rules, 3, counted, max_plies)


def test_handflat_takes_games_without_filters_consequences_or_on_turn():
    for spec, rules in TAKEN:
        game = load_game(spec, rules)
        start = game.new_game(1, players=game.players_max)
        assert handloop.applies(game, start, [RandomPlayer(1, s) for s in range(game.players_max)])
        assert handflat.applies(game, None), (spec, rules)
        assert not handflat.applies(game, lambda turn, state: None)
    for spec, rules in LEFT:
        assert not handflat.applies(load_game(spec, rules), None), (spec, rules)
    points = load_game("points")
    points.fast_moves.flat = None  # no flat flavour: handloop's candidates loop
    assert not handflat.applies(points, None)


def test_the_action_plays_remembered_across_games_change_nothing(counted):
    """The second run of the same seeds uses the hands' action plays remembered by the first."""
    game = load_game("points", (MULLIGAN,))
    first = [_play(game, seed, 4, RandomPlayer, None) for seed in range(3)]
    assert [_play(game, seed, 4, RandomPlayer, None) for seed in range(3)] == first
    assert first == [_play(game, seed, 4, OwnLoopRandom, None) for seed in range(3)]


def test_literal_conditions_are_known_and_others_are_not(tmp_path):
    """A policy's condition that is a literal carries its value (`constant`: the loop does not
    evaluate it); any other condition, even one that never changes, carries None."""
    path = tmp_path / "literal-conditions.yaml"
    path.write_text(STRESS["literal-conditions"])
    literal = load_game(str(path))
    assert [action.constant for action in literal.actions] == [False, True]
    assert literal.redraw.constant is False
    assert load_game("points", (MULLIGAN,)).actions[0].constant is True  # `when` left out: "true"
    assert load_game("points", (NO_START,)).redraw.constant is None
    written = tmp_path / "action-again.yaml"
    written.write_text(OVERLAYS["action-again"].format(base="points"))
    assert load_game(str(written)).actions[0].constant is None


@pytest.mark.parametrize("spec,rules", [("points", ()), ("standard", (TAKE_TWO,))], ids=["points", "take-two"])
def test_remembered_home_wins_change_nothing(spec, rules, counted):
    """A win condition that reads Home counts only is judged once per Home counts, counters
    and seat and remembered per game (`flatloop.home_winner`): the same games the second
    time, and the same as `play_game`'s own loop."""
    game = load_game(spec, rules)
    first = [_play(game, seed, 4, RandomPlayer, None) for seed in range(3)]
    assert [_play(game, seed, 4, RandomPlayer, None) for seed in range(3)] == first
    assert first == [_play(game, seed, 4, OwnLoopRandom, None) for seed in range(3)]
