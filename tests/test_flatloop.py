"""The flat-state flavour (`compiler.loopgen`, `engine.flatstate`) and its loop
(`players.flatloop`) against the interpreter and the other loops: on random positions the
flat functions list exactly the interpreter's legal moves (same order, same states), with
exact keys, and leave the flat position as they found it; applying a candidate in place
gives the interpreter's placement; seeded random games end in the same state with the same
choices as `play_game`'s own loop and as the interpreter alone; the generated source never
holds a rule file's text."""

from __future__ import annotations


import pytest

from sorry_rules.compiler import load_game
from sorry_rules.dsl.parser import parse_effect
from sorry_rules.compiler.loopgen import distinct_by_construction
from sorry_rules.engine.flatstate import dedupe, plain_key
from sorry_rules.engine.rng import Random, below, below_at, seed_state, shuffled, stream_at
from sorry_rules.players import fastloop, flatloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, Turn, play_game

from .sizes import short_and_full
from .test_codegen import CASES, HOSTILE, _pair, _standard_data, _write, hostile_standard_data, random_placement

IDS = [f"{s.split('/')[-1]}{'+' + r[0] if r else ''}" for s, r in CASES]


def _flat(game):
    return game.fast_moves.flat if game.fast_moves is not None else None


def _check_position(fast, reference, placement, seats, turn) -> None:
    """Every card: the flat candidates stand for the card's moves (the generated Moves
    flavour, itself checked against the interpreter in test_codegen, and in draw play the
    interpreter's own moves before filters), with exact keys; applied in place they give the moves'
    placements; the function leaves its flat position unchanged."""
    flat = _flat(fast)
    colour = seats[turn]
    for card in range(len(fast.card_names)):
        P, occ, KP = flat.position(placement)
        before = ([list(s) for s in P], occ[:], KP)
        candidates, spare = flat.table[card][colour](P, occ, KP)
        assert (P, occ, KP) == before
        moves, spare_too = fast.fast_moves.table[card][colour](placement)
        assert [flat.move(c, placement, card) for c in candidates] == moves, (placement, turn, fast.card_names[card])
        assert spare == spare_too
        if not fast.hand_play:
            assert reference.candidate_moves(reference.position(placement, seats, turn, card=card), card) == moves
        for candidate, move in zip(candidates, moves):
            key = candidate[0] if candidate[0] is not None else plain_key(candidate, KP, flat.weights)
            assert key == fast.fast_moves.key(move.placement)
            Q, qocc, _ = flat.position(placement)
            flat.apply(candidate, Q, qocc)
            exact, exact_occ, _ = flat.position(move.placement)
            assert (Q, qocc[:fast.layout.X]) == (exact, exact_occ[:fast.layout.X])


@pytest.mark.parametrize("spec,rules", CASES, ids=IDS)
@pytest.mark.parametrize("positions", short_and_full(6, 1000))
def test_flat_functions_equal_the_interpreter_on_random_positions(spec, rules, positions):
    fast, reference = _pair(spec, rules)
    if _flat(fast) is None:
        return  # covered by the other loops (features, hand play, a card not generated)
    rnd = Random("flat", spec, *rules)
    seats = fast.seats_for(fast.players_max)
    for _ in range(positions):
        _check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(len(seats)))


def _play_three_ways(fast, reference, seed: int, players: int):
    start = fast.new_game(seed, players=players)
    bots = [RandomPlayer(seed, s) for s in range(players)]
    records = [GameRecord(seed, start.seats, start.turn) for _ in range(3)]
    flat = flatloop.play_flat(fast, start, bots, 5000, records[0])
    lean = fastloop.play_random(fast, start, bots, None, 5000, records[1], Turn)
    interpreted = play_game(reference, reference.new_game(seed, players=players), bots, max_plies=5000, record=records[2])
    return (flat, lean, interpreted), [r.choices for r in records]


@pytest.mark.parametrize("spec,rules", CASES, ids=IDS)
@pytest.mark.parametrize("games", short_and_full(1, 60))
def test_the_flat_loop_plays_the_same_games(spec, rules, games):
    fast, reference = _pair(spec, rules)
    start = fast.new_game(0, players=fast.players_min)
    bots = [RandomPlayer(0, s) for s in range(fast.players_min)]
    if not flatloop.applies(fast, start, bots, None):
        assert _flat(fast) is None or not fastloop.applies(fast, start, bots) or fast.filters or fast.after or fast.counters
        return
    for seed in range(games):
        for players in sorted({fast.players_min, fast.players_max, min(4, fast.players_max)}):
            finals, choices = _play_three_ways(fast, reference, seed, players)
            assert finals[0] == finals[1] == finals[2], (seed, players)
            assert choices[0] == choices[1] == choices[2]


def test_play_game_uses_the_flat_loop_for_standard_and_partnership():
    for spec in ("standard", "partnership"):
        game = load_game(spec)
        state = game.new_game(1, players=4)
        bots = [RandomPlayer(1, s) for s in range(4)]
        assert flatloop.applies(game, state, bots, None)
        assert not flatloop.applies(game, state, bots, lambda turn, after: None)  # per-turn reports: fastloop


class _Turns(list):
    """An `on_turn` that keeps the turns only (so the flat loop may serve it)."""

    needs_state = False

    def __call__(self, turn, state):
        self.append(turn)


@pytest.mark.parametrize("spec", ["standard", "partnership", "tests/rules/six-colours.yaml"])
def test_a_turns_only_on_turn_gets_the_same_turns(spec):
    """`on_turn` with `needs_state` False: the flat loop reports the same `Turn`s (moves with
    their events, choices, options) as `fastloop` does, and plays the same game."""
    game = load_game(spec)
    for seed in range(3):
        players = game.players_max
        start = game.new_game(seed, players=players)
        bots = [RandomPlayer(seed, s) for s in range(players)]
        flat_turns, lean_turns = _Turns(), _Turns()
        assert flatloop.applies(game, start, bots, flat_turns)
        final = play_game(game, start, bots, on_turn=flat_turns)
        assert final == fastloop.play_random(game, start, bots, lambda t, s: lean_turns.append(t), 5000, None, Turn)
        assert flat_turns == lean_turns and len(flat_turns) == final.plies


def test_distinct_by_construction_is_decided_per_card():
    game = load_game("standard")
    programs = {name: game.card_sources[i] for i, name in enumerate(game.card_names)}
    decided = {name: distinct_by_construction(parse_effect(text), game.mechanics, (0,))
               for name, text in programs.items()}
    assert decided["3"] and decided["4"] and decided["sorry"] and decided["1"] and decided["10"] and decided["11"]
    assert not decided["7"]  # a split: two orders of two parts can give one placement


def test_dedupe_keeps_first_occurrences_and_passes():
    weights = ((0, 1, 2, 4),)
    plain = (None, False, 0, 0, 1, 3, "forward")  # key 10 - 1 + 4 = 13
    assert dedupe([(5, False, 1), (13, False, 1), (5, False, 1), plain, (5, False, 5)], 10, weights) == [
        (5, False, 1), (13, False, 1), (5, False, 5)]
    assert dedupe([plain, (13, False, 1)], 10, weights) == [plain]


def test_hostile_names_never_reach_the_flat_source(tmp_path):
    data, cards = hostile_standard_data()
    hostile = load_game(_write(tmp_path, data, "hostile"))
    plain = load_game("standard")
    source = _flat(hostile).source
    assert source == _flat(plain).source
    for name in (*hostile.colours, *hostile.card_names, hostile.name, "import", "'", "red", "sorry opponent"):
        assert name not in source


def _reference_shuffled(state: int, items) -> tuple:
    """Fisher-Yates with one `below` per swap: what `rng.shuffled` computed before it was unrolled."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


def test_the_unrolled_shuffle_and_choice_give_the_same_numbers():
    """`rng.shuffled` (unrolled) and `below_at` (bounds from a table) keep their numbers."""
    rnd = Random("numbers")
    for size in list(range(0, 60)) + [255, 256, 300]:
        state = seed_state("shuffle", size, rnd.below(1000))
        assert shuffled(state, range(size)) == _reference_shuffled(state, range(size))
    for n in (1, 2, 3, 7, 45, 255, 256, 1000, 2**40 + 3):
        for index in range(50):
            assert below_at(12345, index, n) == below(stream_at(12345, index), n)[1]


def test_hostile_names_never_reach_the_flat_source_of_hand_play(tmp_path):
    """Hand play with a hand action (the flat flavour is written for it too): the same
    source as the plain names', none of the names in it."""
    def hand_play(data, card_name, action_name, label):
        data["turn"].update({"source": "hand", "hand_size": 5, "stuck": "discard_one"})
        data["turn"]["actions"] = {action_name: {"cards": [card_name], "others": {"min": 1, "max": 2}, "label": label}}
        return data

    data, cards = hostile_standard_data()
    hostile = load_game(_write(tmp_path, hand_play(data, cards["8"], HOSTILE[1], HOSTILE[2]), "hostile-hand"))
    plain = load_game(_write(tmp_path, hand_play(_standard_data(), "8", "mulligan", "mulligan"), "plain-hand"))
    assert hostile.hand_play and "actions" in hostile.features()
    source = _flat(hostile).source
    assert source == _flat(plain).source
    for name in (*hostile.colours, *hostile.card_names, hostile.name, HOSTILE[1], HOSTILE[2], "import", "'", "red"):
        assert name not in source


def _checked_positions_with_code(spec, rules, card_name: str, code: int, rnd, wanted: int = 15) -> int:
    """Draw up to 3,000 random positions; check (`_check_position`) each where the card's flat
    function lists a candidate of `code`, until `wanted` were checked; the number checked."""
    fast, reference = _pair(spec, rules)
    flat = _flat(fast)
    card = fast.card_names.index(card_name)
    seats = fast.seats_for(fast.players_max)
    found = 0
    for _ in range(3000):
        placement, turn = random_placement(fast, rnd), rnd.below(len(seats))
        P, occ, KP = flat.position(placement)
        candidates, _ = flat.table[card][seats[turn]](P, occ, KP)
        if any(c[2] == code for c in candidates):
            _check_position(fast, reference, placement, seats, turn)
            found += 1
            if found == wanted:
                break
    return found


@pytest.mark.parametrize("spec", ["standard", "partnership"])
def test_split_first_parts_that_bump_or_slide_give_the_interpreters_moves(spec):
    """A 7's split whose first part bumps or slides (code 10: each part's end and bumps, the
    relocations and events built when played) stands for the interpreter's move, with its key
    and in-place application; positions drawn until 15 such functions were seen."""
    assert _checked_positions_with_code(spec, (), "7", 10, Random("flat split", spec)) == 15


@pytest.mark.parametrize("spec,rules", [("standard", ()), ("partnership", ()), ("standard", ("house/switch-partner",))])
def test_switches_that_slide_give_the_interpreters_moves(spec, rules):
    """An 11's switch that fires a slide (code 11: `Slides.switch` on the flat occupancy, run
    again when played) stands for the interpreter's move, with its key and in-place
    application; positions drawn until 15 such functions were seen."""
    assert _checked_positions_with_code(spec, rules, "11", 11, Random("flat switch", spec, *rules)) == 15


@pytest.mark.parametrize("after", ["mover", "none"])
def test_switches_that_slide_follow_every_slide_after_switch_rule(tmp_path, after):
    """`Slides.switch` with slide_after_switch "mover" (only the switching pawn slides) and
    "none" against the interpreter, on positions with a switch landing on a slide square."""
    data = _standard_data()
    data["rules"]["slide_after_switch"] = after
    path = _write(tmp_path, data, f"after-{after}")
    fast, reference = load_game(path), load_game(path)
    reference.use_fast_moves(None)
    flat = _flat(fast)
    rnd = Random("flat switch", after)
    seats = fast.seats_for(fast.players_max)
    for _ in range(60):
        _check_position(fast, reference, random_placement(fast, rnd), seats, rnd.below(len(seats)))
    assert flat is not None and fast.mechanics.slide_after_switch == after


@pytest.mark.parametrize("spec,rules", [("standard", ()), ("partnership", ()), ("standard", ("house/bump-points",))])
def test_remembered_home_wins_give_the_same_games(spec, rules):
    """The flat loop's remembered answers of a Home-only win condition (`home_winner`):
    the same games, played twice (the second time from what the first remembered), as the
    interpreter's."""
    fast, reference = _pair(spec, rules)
    for _ in range(2):
        for seed in range(4):
            finals, choices = _play_three_ways(fast, reference, seed, fast.players_max)
            assert finals[0] == finals[2] and choices[0] == choices[2], seed


def test_a_tally_with_plain_move_counts_what_the_full_reports_count():
    """`plain_move(seat)` replaces the report of a one-pawn move with no bump and no slide,
    `forfeit(seat)` that of a card with no move: simulate's turn counter ends with the same
    counts either way, on the same games."""
    from sorry_rules.simulation.simulate import GameCounter

    class FullReports(GameCounter):
        plain_move = forfeit = None  # the flat loop then reports every move as a Turn

    for spec in ("standard", "partnership"):
        game = load_game(spec)
        for seed in range(3):
            tallies = []
            for counter in (GameCounter(), FullReports()):
                state = game.new_game(seed, players=4)
                play_game(game, state, [RandomPlayer(seed, s) for s in range(4)], on_turn=counter)
                tallies.append({name: getattr(counter, name) for name in GameCounter.__slots__})
            assert tallies[0] == tallies[1]
            assert tallies[0]["turns"] > 0 and tallies[0]["bumps"] > 0 and tallies[0]["forfeits"] > 0


@pytest.mark.parametrize("rule", ["house/bump-bonus", "house/bump-points"])
def test_consequences_that_need_a_bump_are_skipped_for_quiet_moves(rule):
    """H21/H22 fire on `bumps(opponents) > 0` only: the flat flavour says so
    (`eventful_after`), the loop runs them for moves that bump or slide alone, and the games
    are the interpreter's (with the counters and bonus turns they give)."""
    fast, reference = _pair("standard", (rule,))
    assert _flat(fast).eventful_after
    for seed in range(3):
        finals, choices = _play_three_ways(fast, reference, seed, 4)
        assert finals[0] == finals[2] and choices[0] == choices[2], seed


@pytest.mark.parametrize("after", ["both", "mover", "none"])
def test_switch_key_is_the_key_of_the_switch(tmp_path, after):
    """`Slides.switch_key` (what a listed switch that fires a slide carries, code 11) is the
    key `Slides.switch` gives, None where that is None, for every pair of track pawns of two
    colours on random positions, under each slide_after_switch rule."""
    data = _standard_data()
    data["rules"]["slide_after_switch"] = after
    game = load_game(_write(tmp_path, data, f"after-{after}"))
    flat = _flat(game)
    slides, T, rnd = flat.slides, game.layout.T, Random("switch key", after)
    compared = slid = 0
    for _ in range(150):
        placement = random_placement(game, rnd)
        P, occ, KP = flat.position(placement)
        for c, mine_squares in enumerate(P):
            for o, their_squares in enumerate(P):
                if o == c:
                    continue
                for mine in (sq for sq in mine_squares if sq < T):
                    for sq in (sq for sq in their_squares if sq < T):
                        whole = slides.switch(c, mine, o, sq, occ, KP)
                        assert slides.switch_key(c, mine, o, sq, occ, KP) == (None if whole is None else whole[0])
                        compared += 1
                        slid += whole is not None and len(whole[2]) > 1
    assert compared > 1000 and (slid > 50 or after == "none")
