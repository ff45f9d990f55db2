"""Filters judged on flat candidates (`engine.flatfilters`) and the flat split into parts
(`compiler.loopgen`) against the interpreter: on random positions and counters the flat
candidates the filters keep stand for exactly the moves the interpreter's filters keep (same
order, same events); seeded random games played by the flat loop, the candidates loop and
the interpreter end in the same state with the same choices; a filter that reads more than
facts of the move and counters leaves the game to the other loops; no name of a filter,
counter or card reaches the generated source."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.events import KINDS
from sorry_rules.engine.facts import FACTS, READS
from sorry_rules.engine.flatfilters import FlatFilters, candidate_events
from sorry_rules.engine.game import Move
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.rng import Random
from sorry_rules.players import fastloop, flatloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import Turn, play_game

from .sizes import short_and_full
from .test_codegen import HOSTILE, hostile_standard_data, _standard_data, _write, random_placement
from .test_flatloop import _play_three_ways

SEVEN_BOTH_WAYS = '"7": forward 7 | split 7 | split 7 into forward, backward | split 7 into backward, forward'

#: invented overlays on standard: every fact, `must` and `prefer`, card scopes, counters
#: read by a filter, filters in a row, with and without the split into parts
FILTERS = {
    "slides-first": "filters:\n  f: {prefer: slides(player) > 0}\n",
    "gentle": 'filters:\n  f: {cards: ["12", "sorry", "11"], must: bumps(players) == 0}\n',
    "switch-far": 'filters:\n  f: {cards: ["11"], prefer: switches(opponents) > 0 and moves(player) == 0}\n',
    "safety-or-home": "filters:\n  f: {must: not (enters_safety(team) > 0) or reaches_home(player) + 1 > 1}\n",
    "two-in-a-row": ('filters:\n  a: {prefer: bumps(opponents) >= 1}\n'
                     '  b: {cards: ["7", "10"], prefer: -moves(player) < -1 or slides(players) * 2 > 1}\n'),
    "counted": ("counters:\n  bumps_made: {}\nafter:\n  c: {when: bumps(opponents) > 0, add: {bumps_made: bumps(opponents)}}\n"
                "filters:\n  f: {prefer: bumps(opponents) > 0 and bumps_made(player) < 2}\n"),
    "both-ways-must-bump": f"rules:\n  must_bump: true\ncards:\n  {SEVEN_BOTH_WAYS}\n",
    "both-ways-no-bump": f'cards:\n  {SEVEN_BOTH_WAYS}\nfilters:\n  f: {{cards: ["7"], must: bumps(players) == 0}}\n',
    "both-ways-mover-slides": (f"rules:\n  slide_after_switch: mover\n  must_bump: true\ncards:\n  {SEVEN_BOTH_WAYS}\n"
                               "filters:\n  f: {prefer: \"true\"}\n"),
    # splits into parts the flat split does not write out (pawn words, three parts): their primitive
    "parts-with-pawns": ('cards:\n  "7": forward 7 | split 7 into forward, backward opponent | split 7 into forward, forward any\n'
                         '  "12": forward 12 | split 6 into forward, backward, forward\n'
                         'filters:\n  f: {prefer: bumps(opponents) > 0 or slides(player) > 0}\n'),
}


def _game(tmp_path_factory, name: str, base: str = "standard"):
    path = tmp_path_factory.mktemp("flatfilters") / f"{name}.yaml"
    path.write_text(f"extends: {base}\n{FILTERS[name]}")
    fast, reference = load_game(str(path)), load_game(str(path))
    reference.use_fast_moves(None)
    return fast, reference


def _random_counters(game, rnd: Random) -> tuple:
    return tuple(tuple(rnd.below(4) for _ in game.counters) for _ in range(game.layout.C))


def _check_position(fast, reference, placement, seats, turn, counters) -> None:
    flat = fast.fast_moves.flat
    keep = FlatFilters(fast.filters, flat)
    colour = seats[turn]
    for card in range(len(fast.card_names)):
        P, occ, KP = flat.position(placement)
        candidates, flags = flat.table[card][colour](P, occ, KP)
        for candidate in candidates:
            assert candidate_events(candidate, occ, flat.slides, flat.start) == flat.move(candidate, placement, card).events
        kept = keep(card, colour, candidates, counters, occ)
        moves = [flat.move(c, placement, card) for c in kept] or [
            Move(card, placement, (), bool(flags & DRAW_AGAIN), "forfeit")]
        state = reference.position(placement, seats, turn, card=card, counters=counters)
        assert moves == reference.card_moves(state, card), (placement, turn, fast.card_names[card], counters)


@pytest.mark.parametrize("name", sorted(FILTERS))
@pytest.mark.parametrize("positions", short_and_full(15, 600))
def test_flat_filters_keep_the_interpreters_moves_on_random_positions(tmp_path_factory, name, positions):
    fast, reference = _game(tmp_path_factory, name)
    assert fast.fast_moves.flat is not None and fast.filters
    rnd = Random("flatfilters", name)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        _check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(len(seats)),
                        _random_counters(fast, rnd))


@pytest.mark.parametrize("name", sorted(FILTERS))
@pytest.mark.parametrize("games", short_and_full(2, 40))
def test_the_flat_loop_plays_the_same_games_with_filters(tmp_path_factory, name, games):
    fast, reference = _game(tmp_path_factory, name)
    for seed in range(games):
        for players in (2, 4):
            bots = [RandomPlayer(seed, s) for s in range(players)]
            assert flatloop.applies(fast, fast.new_game(seed, players=players), bots, None)
            finals, choices = _play_three_ways(fast, reference, seed, players)
            assert finals[0] == finals[1] == finals[2], (seed, players)
            assert choices[0] == choices[1] == choices[2]


@pytest.mark.parametrize("rules", ["house/must-bump.yaml", "house/revenge-7.yaml", "house/seven-both-ways.yaml"])
def test_play_game_uses_the_flat_loop_for_filters_and_the_split_into_parts(rules):
    game = load_game("standard", (rules,))
    bots = [RandomPlayer(1, s) for s in range(4)]
    assert flatloop.applies(game, game.new_game(1, players=4), bots, None)


@pytest.mark.parametrize("condition", ["home(player) > 0", "count(x in opponents: home(x) > 0) > 0",
                                       "sum(x in players: bumps(x)) > 0"])
def test_a_filter_reading_more_than_facts_leaves_the_game_to_the_other_loops(tmp_path, condition):
    """The board after the move (or an aggregate over the players in the game) is not a fact
    a flat candidate gives: no flat flavour; the candidates loop plays it, as the interpreter."""
    path = tmp_path / "board.yaml"
    path.write_text(f"extends: standard\nfilters:\n  f: {{prefer: \"{condition}\"}}\n")
    game = load_game(str(path))
    assert game.filters[0].on_events is None and game.fast_moves.flat is None
    start = game.new_game(3, players=4)
    bots = [RandomPlayer(3, s) for s in range(4)]
    assert not flatloop.applies(game, start, bots, None) and fastloop.applies(game, start, bots)


def test_each_fact_reads_only_its_event_kinds():
    """`facts.READS`: a fact is 0 on events of every other kind (what lets a plain candidate
    be judged once on no events)."""
    game = load_game("standard")
    colours = tuple(range(game.layout.C))
    samples = {kind: (kind, 0, 3, 1, 9) if kind == "switch" else (kind, 0, 3, 9) for kind in KINDS}
    for name, fact in FACTS.items():
        others = tuple(event for kind, event in samples.items() if kind not in READS[name])
        assert fact(game.layout, others, colours) == 0, name
        if name in ("bumps", "slides", "switches", "moves"):  # the others depend on the squares too
            assert all(fact(game.layout, (samples[kind],), colours) for kind in READS[name]), name


def test_hostile_names_never_reach_the_flat_source_with_filters_and_split_parts(tmp_path):
    """Filters, counters and a split into parts: the flat source is the plain names' one and
    holds none of the names, labels or DSL texts."""
    def with_vocab(data, names, card_seven):
        data["cards"][card_seven] = SEVEN_BOTH_WAYS.split(": ", 1)[1]
        data["rules"]["must_bump"] = True
        data["counters"] = {names[0]: {"label": names[1]}}
        data["after"] = {names[2]: {"when": "bumps(opponents) > 0", "add": {names[0]: "bumps(opponents)"}}}
        data["filters"] = {names[3]: {"cards": [card_seven], "prefer": f"slides(player) > 0 or {names[0]}(player) > 3",
                                      "label": names[1]}}
        return data

    plain_names = ["bumps_made", "bumps made", "count_bumps", "slide_seven"]
    hostile_names = ["x__class__", HOSTILE[0], "K_MOVE_import", "red_or_1"]
    data, cards = hostile_standard_data()
    hostile = load_game(_write(tmp_path, with_vocab(data, hostile_names, cards["7"]), "hostile-vocab"))
    plain = load_game(_write(tmp_path, with_vocab(_standard_data(), plain_names, "7"), "plain-vocab"))
    assert hostile.fast_moves.flat is not None and plain.fast_moves.flat is not None
    source = hostile.fast_moves.flat.source
    assert source == plain.fast_moves.flat.source
    for name in (*hostile.colours, *hostile.card_names, *hostile_names, hostile.name, "import", "'", "red", "bumps",
                 "slides(", "backward"):
        assert name not in source


class _Turns(list):
    """An `on_turn` that keeps the turns only (so the flat loop may serve it)."""

    needs_state = False

    def __call__(self, turn, state):
        self.append(turn)


@pytest.mark.parametrize("name", ["both-ways-must-bump", "counted", "gentle"])
def test_a_turns_only_on_turn_gets_the_same_turns_with_filters(tmp_path_factory, name):
    """The turns reported by the flat loop (the chosen move, the number of moves the filters
    left) are `fastloop`'s."""
    fast, _ = _game(tmp_path_factory, name)
    for seed in range(2):
        start = fast.new_game(seed, players=4)
        bots = [RandomPlayer(seed, s) for s in range(4)]
        flat_turns, lean_turns = _Turns(), _Turns()
        assert flatloop.applies(fast, start, bots, flat_turns)
        final = play_game(fast, start, bots, on_turn=flat_turns)
        assert final == fastloop.play_random(fast, start, bots, lambda t, s: lean_turns.append(t), 5000, None, Turn)
        assert flat_turns == lean_turns and len(flat_turns) == final.plies
