"""The flat flavour with marks (`compiler.markloopgen`, `engine.flatmarks`) and its loop
(`players.markloop`) against the Moves flavour and the interpreter: on random positions with
marks set, the flat functions list exactly the Moves flavour's moves (same order, same
placements, events and marks after each) and leave the flat position as they found it;
seeded random games end in the same state (marks included) with the same choices as
`players.fastloop` and as the interpreter alone; the generated source holds no rule-file text."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.compiler.loopgen import needs_bump_or_slide
from sorry_rules.dsl.parser import parse_expr
from sorry_rules.engine.flatmarks import SHIELD, fits
from sorry_rules.engine.moverules import run_on_events
from sorry_rules.engine.rng import Random
from sorry_rules.players import fastloop, markloop
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import GameRecord, Turn, play_game

from .sizes import short_and_full
from .test_codegen import HOSTILE, _random_marks, _standard_data, _write, random_placement

MERCY, FREEZE = "house/mercy-start.yaml", "house/freeze.yaml"
CASES = [("standard", (MERCY,)), ("standard", (FREEZE,)), ("partnership", (MERCY,)), ("partnership", (FREEZE,)),
         ("standard", (MERCY, FREEZE)), ("partnership", (MERCY, FREEZE)), ("standard", (MERCY, "house/bump-bonus.yaml")),
         ("standard", (FREEZE, "house/bump-points.yaml"))]
IDS = ["+".join(r.split("/")[-1].removesuffix(".yaml") for r in rules) + f"@{spec}" for spec, rules in CASES]

_GAMES: dict = {}


def _games(spec, rules) -> tuple:
    """(flat, reference): the game, and a copy playing with the interpreter alone (shared per process)."""
    if (spec, rules) not in _GAMES:
        reference = load_game(spec, rules)
        reference.use_fast_moves(None)
        _GAMES[spec, rules] = (load_game(spec, rules), reference)
    return _GAMES[spec, rules]


def _fitting_marks(game, placement, seats, rnd) -> tuple:
    """Random marks that keep to the flat flavour's modes: shield marks on pawns below X,
    start marks on pawns in their Start."""
    modes, layout = game.fast_moves.flat_marked.modes, game.layout
    marks = _random_marks(game, placement, seats, rnd)
    return tuple(tuple(e for e in entries if (e[1] < layout.X if mode == SHIELD else e[1] == layout.start[e[0]]))
                 for mode, entries in zip(modes, marks))


def _check_position(game, placement, marks, colour) -> None:
    """Every card: the flat candidates stand for the Moves flavour's moves (with their marks),
    applied in place they give the moves' placements, the function leaves its position alone."""
    flat, table = game.fast_moves.flat_marked, game.fast_moves.table
    for card in range(len(game.card_names)):
        P, occ, KP = flat.position(placement)
        before = ([list(s) for s in P], occ[:], KP)
        candidates, spare = flat.table[card][colour](P, occ, KP, marks)
        assert (P, occ, KP) == before
        moves, spare_too = table[card][colour](placement, marks)
        assert [flat.marked_move(c, placement, card, marks) for c in candidates] == moves, \
            (placement, marks, colour, game.card_names[card])
        assert spare == spare_too
        for candidate, move in zip(candidates, moves):
            assert flat.marks_after(candidate, marks) == (move.marks if move.kind == "move" else marks)
            assert flat.events(candidate, occ) == move.events  # what consequences judged on events read
            Q, qocc, _ = flat.position(placement)
            flat.apply(candidate, Q, qocc)
            exact, exact_occ, _ = flat.position(move.placement)
            assert (Q, qocc[:game.layout.X]) == (exact, exact_occ[:game.layout.X])


@pytest.mark.parametrize("spec,rules", CASES, ids=IDS)
@pytest.mark.parametrize("positions", short_and_full(40, 1000))
def test_flat_functions_with_marks_equal_the_moves_flavour_on_random_positions(spec, rules, positions):
    game, _ = _games(spec, rules)
    assert game.fast_moves.flat_marked is not None
    rnd = Random("flatmarks", spec, *rules)
    seats = game.seats_for(game.players_max)
    marked = 0
    for _ in range(positions):
        placement = random_placement(game, rnd)
        marks = _fitting_marks(game, placement, seats, rnd)
        marked += any(marks)
        _check_position(game, placement, marks, seats[rnd.below(len(seats))])
    assert marked, "some position had marks set"


def _shielded(game, pawns: dict, frozen: tuple, by: int = 1) -> tuple:
    """(placement, marks): standard's four colours with `pawns` (colour -> squares below X,
    the rest in Start) and the pawns on `frozen` squares frozen (H31) by colour `by`."""
    layout = game.layout
    placement = tuple(tuple(sorted(pawns.get(c, []) + [layout.start[c]] * (4 - len(pawns.get(c, [])))))
                      for c in range(layout.C))
    owner = {sq: c for c, squares in pawns.items() for sq in squares}
    return placement, (tuple(sorted((owner[sq], sq, by) for sq in frozen)),)


@pytest.mark.parametrize("spec", ["standard", "partnership"])
def test_sorry_and_switch_with_frozen_pawns_are_written_not_handed_to_the_interpreter(spec):
    """H31: a frozen pawn may not switch or be switched or Sorry!'d; a slide after a switch or
    a Sorry! leaves a frozen pawn it passes and may not end on one (A6, R26). The flat
    functions list these moves from their templates (no interpreter primitive for `sorry` or
    `switch`), as the Moves flavour and the interpreter list them."""
    game, reference = _games(spec, (FREEZE,))
    seats = game.seats_for(4)
    sorry, eleven = game.card_names.index("sorry"), game.card_names.index("11")
    functions = game.fast_moves.flat_marked.source.split("\ndef ")
    for card in (sorry, eleven):
        assert not any(f.startswith(f"f{card}_") and "PRIM" in f for f in functions)
    cases = [  # (pawns by colour, frozen squares): red (0) to move
        ({0: [10], 1: [24], 2: [26], 3: [27]}, (26,)),       # switch onto blue's slide at 24: frozen 26 stays, 27 bumped
        ({0: [10], 1: [24], 2: [28]}, (28,)),                # the slide would end on the frozen pawn: no such switch
        ({0: [10, 40], 1: [24, 16], 2: [18]}, (10, 18)),     # red's frozen pawn on 10 may not switch; 40 may
        ({1: [16, 30], 2: [18], 3: [17]}, (18,)),            # Sorry! onto 16 slides to 19: frozen 18 stays, 17 bumped
        ({1: [16, 30], 2: [19]}, (19, 30)),                  # the slide ends on a frozen pawn; frozen 30 untouchable
    ]
    for pawns, frozen in cases:
        placement, marks = _shielded(game, pawns, frozen)
        _check_position(game, placement, marks, 0)
        for card in (sorry, eleven):
            state = game.position(placement, seats, 0, card=card, marks=marks)
            moves = game.legal_moves(state)
            assert moves == reference.legal_moves(state), (pawns, frozen, game.card_names[card])
            assert all(not (e[0] in ("switch", "sorry", "bump") and e[-1] in frozen and e[1] != 0)
                       for move in moves for e in move.events)
    placement, marks = _shielded(game, {0: [10], 1: [24], 2: [26], 3: [27]}, (26,))
    switched = [move for move in game.legal_moves(game.position(placement, seats, 0, card=eleven, marks=marks))
                if move.events[0][0] == "switch" and move.events[0][4] == 24]
    assert [move.events for move in switched] == [(("switch", 0, 10, 1, 24), ("bump", 3, 27), ("slide", 0, 24, 28))]


def _play(game, loop, seed: int, players: int) -> tuple:
    start = game.new_game(seed, players=players)
    bots = [RandomPlayer(seed, s) for s in range(players)]
    record = GameRecord(seed, start.seats, start.turn)
    if loop == "marked":
        assert markloop.applies(game, start, bots, None)
        final = markloop.play_marked(game, start, bots, 5000, record)
    elif loop == "fast":
        final = fastloop.play_random(game, start, bots, None, 5000, record, Turn)
    else:
        final = play_game(game, start, bots, max_plies=5000, record=record)
    return final, record.choices


@pytest.mark.parametrize("spec,rules", CASES, ids=IDS)
@pytest.mark.parametrize("games", short_and_full(3, 200))
def test_the_flat_loop_plays_marks_games_as_fastloop_and_the_interpreter(spec, rules, games):
    game, reference = _games(spec, rules)
    won = 0
    for seed in range(games):
        players = game.players_min + seed % (game.players_max - game.players_min + 1)
        played = _play(game, "marked", seed, players)
        assert _play(game, "fast", seed, players) == played
        assert _play(reference, "interpreter", seed, players) == played
        assert play_game(game, game.new_game(seed, players=players),
                         [RandomPlayer(seed, s) for s in range(players)]) == played[0]
        won += played[0].winner is not None
    assert won


def _mercy_with(tmp_path, when: str, name: str) -> tuple:
    """(game, reference playing with the interpreter alone): standard with H27's marks and
    alternative, its consequence's condition `when`."""
    data = _standard_data()
    data["marks"] = {"mercy": {"symbol": "+", "until": "leaves_start"}}
    data["after"] = {"m": {"when": when, "mark": {"mercy": "bumped"}}}
    data["cards"]["1"] = "enter | forward 1 | enter marked mercy"
    data["cards"]["2"] = "(enter | forward 2 | enter marked mercy) then draw_again"
    path = _write(tmp_path, data, name)
    reference = load_game(path)
    reference.use_fast_moves(None)
    return load_game(path), reference


def test_consequences_read_on_events_alone_are_judged_without_a_move(tmp_path):
    """H27, H21, H22: a consequence whose condition and additions read only facts of the move,
    counters and numbers has them on events (`Consequence.on_events`), and the flat loop judges
    it on the candidate's events; one that reads the board after the move has none (its
    `Move` is built): both play the interpreter's games."""
    for rules in ((MERCY,), (MERCY, "house/bump-bonus.yaml"), (FREEZE, "house/bump-points.yaml")):
        assert all(c.on_events is not None for c in _games("standard", rules)[0].after)
    board = _mercy_with(tmp_path, "bumps(players) > 0 and home(player) < 2", "board")
    events = _mercy_with(tmp_path, "bumps(opponents) + slides(player) > 0", "events")
    assert board[0].after[0].on_events is None and events[0].after[0].on_events is not None
    for game, reference in (board, events):
        assert game.fast_moves.flat_marked is not None
        for seed in range(3):
            played = _play(game, "marked", seed, 2 + seed)
            assert _play(game, "fast", seed, 2 + seed) == played
            assert _play(reference, "interpreter", seed, 2 + seed) == played


def test_consequences_on_events_are_remembered_by_the_events_they_read():
    """H22 (a point per opponent pawn bumped) with H31: `OnEvents` answers as `run_on_events`
    whatever the steps beside the bumps, remembering one answer per card, player, counters
    and bumps (the only events the condition and the addition read)."""
    game = _games("standard", (FREEZE, "house/bump-points.yaml"))[0]
    judged = game.fast_moves.flat_marked.judged
    assert judged is not None and judged.reads == frozenset({"bump"})
    judged.known.clear()
    counters = ((0,), (2,), (0,), (1,))
    for frm in range(0, 40, 3):
        for bumped in ((), ((1, 50),), ((1, 50), (2, 51)), ((0, 50),)):
            events = (("forward", 0, frm, 50),) + tuple(("bump", o, sq) for o, sq in bumped)
            if len(bumped) > 1:
                events += (("slide", 0, 50, 52),)
            for p in (0, 3):
                assert judged(p, 4, events, counters) == run_on_events(game.after, p, 4, events, counters)
    assert len(judged.known) == 2 * 4  # one per player and bumps, not per step or slide


@pytest.mark.parametrize("spec,rules", [("standard", (MERCY,)), ("partnership", (MERCY, FREEZE))],
                         ids=["mercy@standard", "mercy+freeze@partnership"])
def test_remembered_home_wins_change_nothing_with_marks(spec, rules):
    """A win condition that reads Home counts only (it reads no marks) is judged by the marks
    loop once per Home counts, counters and seat and remembered per game
    (`flatloop.home_winner`): the same games the second time, and fastloop's."""
    game = _games(spec, rules)[0]
    assert game.win_on_home_only
    first = [_play(game, "marked", seed, 4) for seed in range(4)]
    assert [_play(game, "marked", seed, 4) for seed in range(4)] == first
    assert first == [_play(game, "fast", seed, 4) for seed in range(4)]
    assert all(final.winner is not None for final, _ in first)


def test_the_flat_loop_stops_at_max_plies_with_the_marks_of_then():
    game, _ = _games("standard", (MERCY, FREEZE))
    for max_plies in (0, 1, 9, 57, 140):
        start = game.new_game(3, players=3)
        bots = [RandomPlayer(3, s) for s in range(3)]
        final = markloop.play_marked(game, start, bots, max_plies, None)
        assert final == fastloop.play_random(game, start, bots, None, max_plies, None, Turn)
        assert final.plies == max_plies


def test_the_flat_loop_applies_only_where_its_modes_hold(tmp_path):
    game, _ = _games("standard", (FREEZE,))
    start = game.new_game(1, players=4)
    bots = [RandomPlayer(1, s) for s in range(4)]
    assert markloop.applies(game, start, bots, None)
    assert not markloop.applies(game, start, bots, lambda turn, state: None)  # on_turn: fastloop reports the states
    in_start = start._replace(marks=(((1, game.layout.start[1], 0),),))  # a frozen pawn in Start: not a shield mode
    assert not fits(game.fast_moves.flat_marked.modes, game.layout, in_start.marks)
    assert not markloop.applies(game, in_start, bots, None)
    # a kind neither mode covers (it follows its pawn round the track), and geometry: no flat flavour
    data = _standard_data()
    data["marks"] = {"hunted": {"symbol": "!", "until": "removed"}}
    data["after"] = {"h": {"when": "bumps(players) > 0", "mark": {"hunted": "bumped"}}}
    assert load_game(_write(tmp_path, data, "hunted")).fast_moves.flat_marked is None
    assert load_game("standard", (FREEZE, "house/bounce-back.yaml")).fast_moves.flat_marked is None
    assert load_game("standard").fast_moves.flat_marked is None


def test_consequences_needing_a_bump_or_slide_are_told_apart():
    yes = ["bumps(players) > 0", "bumps(opponents) >= 1", "slides(own) != 0", "bumps(own) > 0 and moves(own) > 1",
           "bumps(own) > 0 or slides(own) > 0"]
    no = ["moves(own) > 0", "bumps(own) >= 0", "bumps(own) > 0 or moves(own) > 0", "not bumps(own) > 0",
          "reaches_home(own) > 0", "0 < bumps(own)"]
    assert all(needs_bump_or_slide(parse_expr(text)) for text in yes)
    assert not any(needs_bump_or_slide(parse_expr(text)) for text in no)
    assert not needs_bump_or_slide(None)
    assert _games("standard", (MERCY,))[0].fast_moves.flat_marked.eventful_after


def test_hostile_names_never_reach_the_flat_source_with_marks(tmp_path):
    """The flat templates with marks take integers only: hostile colour, card and mark names
    give the same source as plain ones, and none of them is in it."""
    sources = []
    for names in (("red", "blue", "yellow", "green"), HOSTILE):
        data = _standard_data()
        colours = dict(zip(data["colours"], names))
        data["colours"] = [colours[c] for c in data["colours"]]
        cards = {name: (f"{names[i % len(names)]}{i}" if names is HOSTILE else name) for i, name in enumerate(data["deck"])}
        data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
        data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
        sorry = cards["sorry"]
        data["cards"][sorry] = "sorry opponent | enter marked mercy_x | mark frozen_x opponent in track unmarked frozen_x"
        data["marks"] = {"mercy_x": {"symbol": "+", "until": "leaves_start"},
                         "frozen_x": {"until": "next_turn", "immobile": True, "untouchable": True, "one_per_player": True}}
        data["after"] = {"m": {"when": "bumps(players) > 0", "mark": {"mercy_x": "bumped"}}}
        game = load_game(_write(tmp_path, data, "hostile" if names is HOSTILE else "plain"))
        assert game.fast_moves.flat_marked is not None
        sources.append(game.fast_moves.flat_marked.source)
    assert sources[0] == sources[1]
    for name in (*HOSTILE, "mercy_x", "frozen_x", "'", "bumps", "opponent"):
        assert name not in sources[1]
