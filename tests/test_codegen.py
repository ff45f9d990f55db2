"""Generated move functions (`compiler.codegen`) against the interpreter (the reference):
the same legal moves, in the same order, on random positions and along seeded random games
of every bundled track variant and house rule; the same games; and the generated source is
built from templates and integers only (a hostile rule file's names never reach it)."""

from __future__ import annotations

import functools

from pathlib import Path

import pytest

from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler import load_game
from sorry_rules.compiler.codegen import COVERED
from sorry_rules.engine.rng import Random
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import bundled_names

from .sizes import short_and_full

TRACK_VARIANTS = ["standard", "partnership", "points"]
HOUSE = [n for n in bundled_names() if n.startswith(("house/", "options/"))]
TEST_RULES = sorted(str(p) for p in (Path(__file__).parent / "rules").glob("*.yaml"))
CASES = ([(v, ()) for v in TRACK_VARIANTS] + [("standard", (h,)) for h in HOUSE]
         + [("partnership", (h,)) for h in HOUSE] + [(p, ()) for p in TEST_RULES])


@functools.lru_cache(maxsize=None)
def _pair(spec, rules):
    """(generated, reference): two copies of one game, the second with the interpreter alone
    (loaded once per test process and shared, with test_flatloop too: tests only read them)."""
    fast = load_game(spec, rules)
    reference = load_game(spec, rules)
    reference.use_fast_moves(None)
    return fast, reference


def random_placement(game, rnd: Random) -> tuple:
    """A random legal placement: each colour's pawns in Start, Home, or on distinct exclusive squares."""
    layout = game.layout
    free = list(range(layout.X))
    placement = []
    for c in range(layout.C):
        squares = []
        for _ in range(game.pawns):
            roll = rnd.below(4)
            if roll == 0:
                squares.append(layout.start[c])
            elif roll == 1 and rnd.below(3) == 0:
                squares.append(layout.home[c])
            else:
                candidates = [sq for sq in free if sq < layout.T or layout.colour_of_square(sq) == c]
                sq = candidates[rnd.below(len(candidates))]
                free.remove(sq)
                squares.append(sq)
        placement.append(tuple(sorted(squares)))
    return tuple(placement)


def _check_candidates(fast, placement, card, colour) -> None:
    """The candidates flavour lists the Moves flavour's moves, in order, with exact keys."""
    generated = fast.fast_moves
    if not generated.covers(card) or not generated.select:  # a variant with marks has no candidates flavour
        return
    moves, spare = generated.table[card][colour](placement)
    candidates, spare_too = generated.select[card][colour](placement, generated.key(placement))
    assert [generated.move(c, placement, card) for c in candidates] == moves
    assert [c[0] for c in candidates] == [generated.key(m.placement) for m in moves]
    assert spare_too == spare


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s.split('/')[-1]}{'+' + r[0] if r else ''}" for s, r in CASES])
@pytest.mark.parametrize("positions", short_and_full(8, 1500))
def test_generated_moves_equal_the_interpreter_on_random_positions(spec, rules, positions):
    """Every card, on random positions: the same legal moves in the same order, the same
    states after each of them, and the candidates flavour listing the same moves."""
    fast, reference = _pair(spec, rules)
    if not fast.features() <= COVERED:  # marks, geometry, turn policies: the whole game on the interpreter
        assert fast.fast_moves is None
        return
    assert fast.fast_moves is not None
    assert len(TEST_RULES) >= 5
    rnd = Random("codegen", spec, *rules)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        placement = random_placement(fast, rnd)
        turn = rnd.below(len(seats))
        if fast.hand_play:
            hand = tuple(fast.deck[rnd.below(len(fast.deck))] for _ in range(fast.hand_size))
            state = fast.position(placement, seats, turn, hand=hand)
            assert fast.legal_moves(state) == reference.legal_moves(state)
            for card in set(hand):
                _check_candidates(fast, placement, card, seats[turn])
            continue
        for card in range(len(fast.card_names)):
            state = fast.position(placement, seats, turn, card=card)
            moves = fast.legal_moves(state)
            assert moves == reference.legal_moves(state), (placement, turn, fast.card_names[card])
            _check_candidates(fast, placement, card, seats[turn])
            for move in moves:
                assert fast.apply(state, move) == reference.apply(state, move)


@pytest.mark.parametrize("spec,rules", CASES, ids=[f"{s.split('/')[-1]}{'+' + r[0] if r else ''}" for s, r in CASES])
@pytest.mark.parametrize("games", short_and_full(1, 40))
def test_generated_moves_play_the_same_games(spec, rules, games):
    """Seeded random games with the generated moves (and the lean loop where it applies) and
    with the interpreter end in the same state; along the reference game, sampled positions
    have the same legal moves both ways."""
    fast, reference = _pair(spec, rules)
    for seed in range(games):
        for players in sorted({fast.players_min, fast.players_max}):
            states = []
            finals = []
            for game in (fast, reference):
                start = game.new_game(seed, players=players)
                finals.append(play_game(game, start, [RandomPlayer(seed, s) for s in range(players)],
                                        on_turn=(lambda turn, state: states.append(state)) if game is reference else None))
            assert finals[0] == finals[1]
            for state in states[:: max(1, len(states) // 40)]:
                if state.winner is None and not fast.hand_play:
                    state = fast.draw(state)
                if state.winner is None:
                    assert fast.legal_moves(state) == reference.legal_moves(state)


def _standard_data():
    import yaml

    return yaml.safe_load((variants_dir() / "standard.yaml").read_text())


def _write(tmp_path, data, name: str) -> str:
    import yaml

    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


#: Names the rule-file patterns accept that would break or subvert the source if they reached it.
HOSTILE = ["red' import os -", "x.__class__ !", "blue' or 1 -- ", "K_MOVE'! import sys"]


def hostile_standard_data() -> tuple[dict, dict]:
    """(data, cards): standard's rule data with the colours, the card names and the game's name
    replaced by `HOSTILE` names, `cards[name]` the hostile name of standard's card `name`."""
    data = _standard_data()
    colours = dict(zip(data["colours"], HOSTILE))
    cards = {name: f"{HOSTILE[i % len(HOSTILE)]}{i}" for i, name in enumerate(data["deck"])}
    data["colours"] = [colours[c] for c in data["colours"]]
    data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
    data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
    data["name"] = HOSTILE[0]
    return data, cards


def test_hostile_names_never_reach_the_generated_source(tmp_path):
    """The source comes from templates and integers only: a copy of the standard game with
    hostile colour and card names generates the identical source, and no name is in it."""
    data, cards = hostile_standard_data()
    hostile = load_game(_write(tmp_path, data, "hostile"))
    plain = load_game("standard")
    assert hostile.colours == tuple(HOSTILE)
    assert hostile.fast_moves.source == plain.fast_moves.source
    for name in (*hostile.colours, *hostile.card_names, hostile.name, "import", "'", "red", "sorry opponent"):
        assert name not in hostile.fast_moves.source


def test_each_generated_function_is_compiled_on_its_first_call_and_then_called_directly():
    """`fast_moves` compiles nothing up front: a table entry is a stand-in until its first
    call, which gives the real function's result and puts the real function in its place;
    the other entries stay stand-ins (`sorry-play moves` compiles one or two functions)."""
    fast, reference = load_game("standard"), load_game("standard")  # fresh: nothing called yet
    reference.use_fast_moves(None)
    generated = fast.fast_moves
    card, colour = fast.card_index["7"], 0
    stand_in = generated.table[card][colour]
    placement = random_placement(fast, Random("lazy"))
    moves = stand_in(placement)
    compiled = generated.table[card][colour]
    assert compiled is not stand_in and compiled.__name__ == f"m{card}_{colour}"
    assert compiled(placement) == moves == stand_in(placement)
    assert generated.table[card][1].__name__ == "first_call"
    assert generated.select[card][colour].__name__ == "first_call"
    state = fast.position(placement, fast.seats_for(4), 0, card=card)
    assert fast.legal_moves(state) == reference.legal_moves(state)


def test_an_effect_the_generator_does_not_cover_falls_back_to_the_interpreter(tmp_path):
    data = _standard_data()
    data["cards"]["1"] = "enter then forward 1"  # a general `then`: not generated
    path = _write(tmp_path, data, "then")
    fast, reference = _pair(path, ())
    covered = [fast.fast_moves.covers(card) for card in range(len(fast.card_names))]
    assert covered == [name != "1" for name in fast.card_names]
    rnd = Random("fallback")
    seats = fast.seats_for(4)
    for _ in range(60):
        placement = random_placement(fast, rnd)
        state = fast.position(placement, seats, rnd.below(4), card=fast.card_index["1"])
        assert fast.legal_moves(state) == reference.legal_moves(state)


def test_a_feature_the_generator_does_not_know_means_no_generated_moves(monkeypatch):
    from sorry_rules.engine.game import Game

    known = Game.features
    monkeypatch.setattr(Game, "features", lambda self: known(self) | {"a construct added later"})
    assert load_game("standard").fast_moves is None
    monkeypatch.setattr(Game, "features", known)
    assert load_game("standard").fast_moves is not None


@pytest.mark.parametrize("spec,rules", [("standard", ()), ("partnership", ()), ("standard", ("house/sorry-forward-4.yaml",)),
                                        ("standard", ("house/split-7-any.yaml",)), ("standard", ("house/three-pawns.yaml",)),
                                        ("standard", ("house/revenge-7.yaml",)), ("standard", ("house/must-bump.yaml",)),
                                        ("standard", ("house/bump-points.yaml",)), ("standard", ("house/bump-bonus.yaml",)),
                                        ("partnership", ("house/bump-bonus.yaml",))])
@pytest.mark.parametrize("games", short_and_full(6, 400))
def test_the_lean_random_loop_plays_the_reference_games(spec, rules, games):
    """players.fastloop against play_game's own loop on the interpreter: same choices, same
    turns reported (with the same states), same final state, for every seed and player count."""
    from sorry_rules.players import fastloop
    from sorry_rules.players.runner import GameRecord

    fast, reference = _pair(spec, rules)
    for seed in range(games):
        players = fast.players_min + seed % (fast.players_max - fast.players_min + 1)
        runs = []
        for game in (fast, reference):
            start = game.new_game(seed, players=players)
            bots = [RandomPlayer(seed, s) for s in range(players)]
            assert fastloop.applies(game, start, bots) == (game is fast)
            turns, record = [], GameRecord(seed, start.seats, start.turn)
            final = play_game(game, start, bots, on_turn=lambda turn, state: turns.append((turn, state)), record=record)
            runs.append((final, turns, record.choices, record.finished))
        assert runs[0] == runs[1]


def test_the_lean_loop_is_for_random_players_and_draw_play_only():
    from sorry_rules.players import fastloop
    from sorry_rules.players.greedy import GreedyPlayer

    standard = load_game("standard")
    start = standard.new_game(1, players=2)
    assert fastloop.applies(standard, start, [RandomPlayer(1, 0), RandomPlayer(1, 1)])
    assert not fastloop.applies(standard, start, [RandomPlayer(1, 0), GreedyPlayer(1, 1)])
    assert not fastloop.applies(standard, standard.draw(start), [RandomPlayer(1, 0), RandomPlayer(1, 1)])
    bots = [RandomPlayer(1, 0), RandomPlayer(1, 1)]
    points = load_game("points")  # hand play
    assert not fastloop.applies(points, points.new_game(1, players=2), bots)
    for rules in (("house/revenge-7.yaml",), ("house/bump-points.yaml",)):  # filters, after:, counters
        game = load_game("standard", rules)
        assert fastloop.applies(game, game.new_game(1, players=2), bots)


def test_below_at_is_the_random_players_choice():
    from sorry_rules.engine.rng import below, below_at, stream_at

    rnd = Random("below_at")
    for _ in range(3000):
        base, index = rnd.below(1 << 64), rnd.below(1 << 20)
        n = 1 + rnd.below(60) if rnd.below(4) else (1 << 63) + 1 + rnd.below(1000)  # large n: rejections happen
        assert below_at(base, index, n) == below(stream_at(base, index), n)[1]


@pytest.mark.parametrize("placements", short_and_full(1000, 3000))
def test_placement_keys_are_exact(placements):
    """Two placements have the same key exactly when they are equal (random legal placements,
    and placements one pawn apart)."""
    for spec in ("standard", "points", str(Path(__file__).parent / "rules" / "six-colours.yaml")):
        game = load_game(spec)
        rnd = Random("keys", spec)
        keys = {}
        for _ in range(placements):
            placement = random_placement(game, rnd)
            key = game.fast_moves.key(placement)
            assert keys.setdefault(key, placement) == placement


#: Rule files the generator used to leave to the interpreter: geometry (routes, bounces,
#: blockers), marks, pawn selectors and general splits are generated now (every card).
GENERATED_OVERLAYS = ["house/bounce-back.yaml", "house/backward-into-safety.yaml", "house/no-passing-opponents.yaml",
                      "house/mercy-start.yaml", "house/freeze.yaml", "house/safety-sprint.yaml", "house/sorry-safety.yaml",
                      "house/seven-both-ways.yaml", "house/split-7-any.yaml"]


@pytest.mark.parametrize("spec", TRACK_VARIANTS[:2])
@pytest.mark.parametrize("overlay", GENERATED_OVERLAYS)
def test_geometry_marks_selectors_and_splits_are_generated(spec, overlay):
    game, _ = _pair(spec, (overlay,))  # the game the random-position tests above check
    assert game.fast_moves is not None
    assert all(game.fast_moves.covers(card) for card in range(len(game.card_names)))
    # the one primitive still run by the interpreter inside the generated functions: freeze's `mark`
    assert ("PRIM" in game.fast_moves.source) == (overlay == "house/freeze.yaml")


def _random_marks(game, placement, seats, rnd: Random) -> tuple:
    """Marks for `placement`: each kind on a few random pawns (in Start several alike may carry
    it), placed by random seated colours (at most one of a `one_per_player` kind each, on an
    opponent's pawn)."""
    out = []
    for kind in game.marks:
        entries, placers = [], list(seats)
        for c, squares in enumerate(placement):
            for sq in sorted(set(squares)):
                for _ in range(squares.count(sq)):
                    if rnd.below(3) or not placers:
                        continue
                    by = placers[rnd.below(len(placers))]
                    if kind.one_per_player:
                        placers.remove(by)
                        if by == c:
                            continue
                    entries.append((c, sq, by))
        out.append(tuple(sorted(entries)))
    return tuple(out)


@pytest.mark.parametrize("spec", TRACK_VARIANTS[:2])
@pytest.mark.parametrize("overlay", ["house/mercy-start.yaml", "house/freeze.yaml"])
@pytest.mark.parametrize("positions", short_and_full(30, 1500))
def test_generated_moves_with_marks_set_equal_the_interpreter(spec, overlay, positions):
    """Random positions with marks set (marked pawns in Start, frozen pawns on the track):
    the same moves (with the marks after each) and the same states after them."""
    fast, reference = _pair(spec, (overlay,))
    rnd = Random("codegen-marks", spec, overlay)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        placement = random_placement(fast, rnd)
        marks = _random_marks(fast, placement, seats, rnd)
        turn = rnd.below(len(seats))
        for card in range(len(fast.card_names)):
            state = fast.position(placement, seats, turn, card=card, marks=marks)
            moves = fast.legal_moves(state)
            assert moves == reference.legal_moves(state), (placement, marks, turn, fast.card_names[card])
            for move in moves:
                assert fast.apply(state, move) == reference.apply(state, move)


#: Pawn selectors and splits of every shape the templates write (owners, zones, alone,
#: destinations on the track and in the safety zone, splits among 3 and into two directions).
SELECTOR_CARDS = {
    "3": "forward 3 | send opponent in track alone to start | move own in start to start_exit",
    "5": "move controlled in safety to home | send other in track to track:5 | move any in track to safety:2",
    "8": "send partner in start alone to start_exit | move opponent in track to track:0 | forward 8",
    "12": "split 6 among 3 | split 5 into backward, forward",
}


@pytest.mark.parametrize("spec", TRACK_VARIANTS[:2])
@pytest.mark.parametrize("positions", short_and_full(20, 60))
def test_generated_selectors_and_splits_equal_the_interpreter(tmp_path, spec, positions):
    path = _write(tmp_path, {"extends": "standard", "cards": SELECTOR_CARDS}, "selectors")
    fast, reference = _pair(spec, (path,))
    assert all(fast.fast_moves.covers(card) for card in range(len(fast.card_names)))
    assert "PRIM" not in fast.fast_moves.source
    rnd = Random("codegen-selectors", spec)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        placement = random_placement(fast, rnd)
        turn = rnd.below(len(seats))
        for name in SELECTOR_CARDS:
            card = fast.card_index[name]
            state = fast.position(placement, seats, turn, card=card)
            moves = fast.legal_moves(state)
            assert moves == reference.legal_moves(state), (placement, turn, name)
            _check_candidates(fast, placement, card, seats[turn])
            for move in moves:
                assert fast.apply(state, move) == reference.apply(state, move)


def test_hostile_names_never_reach_geometry_marks_or_selector_templates(tmp_path):
    """The new templates (route tables, marks, selectors, splits among many) take integers
    only: hostile colour, card and mark names give the same source as plain ones."""
    sources = []
    for names in (("red", "blue", "yellow", "green"), HOSTILE):
        data = _standard_data()
        colours = dict(zip(data["colours"], names))
        data["colours"] = [colours[c] for c in data["colours"]]
        data["cards"].update(SELECTOR_CARDS)
        data["cards"]["sorry"] = "sorry opponent | enter marked mercy_x | mark frozen_x opponent in track unmarked frozen_x"
        data["marks"] = {"mercy_x": {"symbol": "+", "until": "leaves_start"},
                         "frozen_x": {"until": "next_turn", "immobile": True, "untouchable": True}}
        data["after"] = {"m": {"when": "bumps(players) > 0", "mark": {"mercy_x": "bumped"}}}
        data["geometry"] = {"past_home": "bounce",
                            "turns": {"t": {"at": "safety_entry", "moving": "backward", "onto": "safety"}},
                            "blockers": {"b": {"pawns": "opponent", "on": "track", "pass": False}}}
        game = load_game(_write(tmp_path, data, "hostile" if names is HOSTILE else "plain"))
        assert game.fast_moves is not None and game.fast_moves.takes_marks
        sources.append(game.fast_moves.source)
    assert sources[0] == sources[1]
    for name in (*HOSTILE, "mercy_x", "frozen_x", "'"):
        assert name not in sources[1]


def test_generated_source_is_bounded_and_a_game_past_the_bound_plays_interpreted(monkeypatch):
    """The writers stop at MAX_GENERATED_LINES (base.limits): past it a game gets no generated
    functions (no flavour) and plays the interpreter's moves, the same games."""
    from sorry_rules.compiler import codegen, loopgen

    reference = _pair("standard", ())[1]
    monkeypatch.setattr(codegen, "MAX_GENERATED_LINES", 200)
    monkeypatch.setattr(loopgen, "MAX_GENERATED_LINES", 200)
    small = load_game("standard")
    assert small.fast_moves is None
    for seed in range(2):
        players = [RandomPlayer(seed, s) for s in range(4)]
        assert play_game(small, small.new_game(seed, players=4), players) == \
            play_game(reference, reference.new_game(seed, players=4), players)
