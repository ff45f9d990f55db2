"""Pawn names (R1, R2, ...) followed through whole games of every bundled track rule file: the
events of each move carry the names exactly to the placement the engine gives (no
reconciling needed), a pawn the move did not touch keeps its square, and a move said with
names is the engine's description with each name put back as 'Colour pawn'."""

from __future__ import annotations

import re

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.describe import colour_name, describe_move
from sorry_rules.engine.events import moved_pawns
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.runner import play_game
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.position import parse_position
from sorry_rules.rules.loader import bundled_names
from sorry_rules.rules.yamlsafe import load_yaml_file
from sorry_rules.base.resources import variants_dir

TRACK = [name for name in bundled_names() if not name.startswith("grid/") and name != "sequence.yaml"]
PLIES = 160


def _spec(name: str) -> tuple:
    """An overlay on the game it extends (`--rule` brings only the overlay's own changes)."""
    if name.startswith(("house/", "options/")):
        return (load_yaml_file(variants_dir() / name, name)[0]["extends"], (name,))
    return (name, ())


def _engine_words(game, text: str) -> str:
    """`text` with every pawn name said as the engine says it."""
    colour = {game.colours[c][0].upper(): colour_name(game, c) for c in range(len(game.colours))}
    text = re.sub(r"bumps ([A-Z])\d+\b", lambda m: f"bumps {colour[m.group(1)]}", text)
    return re.sub(r"\b([A-Z])\d+\b", lambda m: f"{colour[m.group(1)]} pawn", text)


@pytest.mark.parametrize("name", TRACK)
def test_names_follow_every_move_exactly(name):
    spec, rules = _spec(name)
    game = load_game(spec, rules)
    state = game.new_game(4, players=game.players_max)
    names = [PawnNames.start(game, state.placement)]
    assert names[0].at(0, game.layout.start[0]) == [f"{names[0].labels[0]}{i}" for i in range(1, game.pawns + 1)] \
        or state.placement[0] != (game.layout.start[0],) * game.pawns
    checked = [0]

    def follow(turn, after):
        before = names[0]
        words = before.describe(turn.move)
        if all(len(label) == 1 for label in before.labels) and turn.move.kind == "move":
            assert _engine_words(game, words) == describe_move(game, turn.move)
        carried = before.after(turn.move, None)     # the events alone, not reconciled
        for c, squares in enumerate(after.placement):
            assert sorted(carried.where[c]) == sorted(squares), (name, turn.ply, words)
        touched = moved_pawns(turn.move.events) | {(e[1], e[2]) for e in turn.move.events if e[0] in ("bump", "slide", "send")}
        touched |= {(e[3], e[4]) for e in turn.move.events if e[0] == "switch"}
        for c, squares in enumerate(before.where):
            for i, sq in enumerate(squares):
                if (c, sq) not in touched and sq < game.layout.X:
                    assert carried.where[c][i] == sq, f"{before.name(c, i)} moved without an event"
        names[0] = before.after(turn.move, after.placement, after.marks)
        checked[0] += bool(turn.move.events)

    play_game(game, state, [RandomPlayer(4, s) for s in range(len(state.seats))], on_turn=follow, max_plies=PLIES)
    assert checked[0] > 20


def test_a_position_names_pawns_in_its_order_and_lowest_leaves_first():
    game = load_game("standard")
    layout = game.layout
    start = game.new_game(1, players=2)
    names = PawnNames.start(game, start.placement)
    assert names.at(0, layout.start[0]) == [f"R{i}" for i in (1, 2, 3, 4)]
    enter = next(m for m in game.legal_moves(game.position(start.placement, start.seats, 0, card=game.card_index["1"]))
                 if m.events and m.events[0][0] == "enter")
    assert names.describe(enter) == "R1 start -> track:4"
    after = names.after(enter, enter.placement)
    assert after.on(0, 4) == "R1" and after.at(0, layout.start[0]) == [f"R{i}" for i in (2, 3, 4)]


def test_the_pawn_a_forfeits_consequence_sends_back_is_named():
    """PA7: a third doubles is lost and the pawn nearest Home goes back to the nest; the words
    of that forfeit name the pawn (Y2), as every other move's do, not "Yellow pawn"."""
    game = load_game("parcheesi")
    state = parse_position(game, {"players": ["yellow", "red"], "turn": "yellow", "card": "4+4",
                                  "counters": {"yellow": {"doubles_thrown": 2}},
                                  "pawns": {"yellow": ["track:20", "safety:3", "home", "start"]}}).state
    lost = next(m for m in game.legal_moves(state) if m.kind == "forfeit")
    names = PawnNames.start(game, state.placement)
    said = names.describe(lost)
    assert said.startswith("no legal move: the throw is lost; then sends Y") and "Yellow pawn" not in said, said


def _enter_moves(game, state):
    return [m for m in game.legal_moves(state) if m.events and any(e[0] == "enter" for e in m.events)]


def _position(game, pawns: dict, turn: str, card: str, marks: dict | None = None):
    data = {"players": list(pawns), "turn": turn, "card": card, "pawns": pawns}
    return parse_position(game, data | ({"marks": marks} if marks else {})).state


def test_the_marked_pawn_keeps_its_name_through_start():
    """H27 with A24: blue's B1 is bumped and marked (mercy); with a 1, the marked pawn and an
    unmarked one may each leave Start (two results): the marked one is said as B1, the pawn
    bumped, the other as B2; after B1 leaves the mark is gone, after B2 leaves B1 keeps it."""
    game = load_game("standard", ("house/mercy-start.yaml",))
    square = lambda text: game.layout.parse(0, text)  # noqa: E731
    start = _position(game, {"red": ["track:10", "start", "start", "start"],
                             "blue": ["track:15", "start", "start", "start"]}, "red", "5")
    names = PawnNames.start(game, start.placement)
    bump, = [m for m in game.legal_moves(start) if m.events[0][2] == square("track:10")]
    assert names.describe(bump) == "R1 track:10 -> track:15, bumps B1 (track:15)"
    names = names.after(bump, bump.placement, game.apply(start, bump).marks)
    assert names.at(1, game.layout.start[1]) == ["B1", "B2", "B3", "B4"]
    assert names.carrying[1] == (frozenset({0}), frozenset(), frozenset(), frozenset())
    turn = game.position(bump.placement, start.seats, 1, card=game.card_index["1"], marks=game.apply(start, bump).marks)
    words = sorted(names.describe(m) for m in _enter_moves(game, turn))
    assert words == ["B1 (mercy) start -> track:19", "B2 start -> track:19"], words
    for move in _enter_moves(game, turn):
        marked = any(e[0] == "carry" for e in move.events)
        after = names.after(move, move.placement)
        assert after.on(1, square("track:19")) == ("B1" if marked else "B2")
        assert after.carrying[1] == ((frozenset(),) * 4 if marked else names.carrying[1])


def test_a_position_with_marks_names_its_marked_pawns():
    """A position's marks on Start go to the lowest-numbered pawns there (A24: alike but for
    their marks): with one red pawn marked, the 1 takes R1 marked or R2 unmarked."""
    game = load_game("standard", ("house/mercy-start.yaml",))
    state = _position(game, {"red": ["start"] * 4, "blue": ["start"] * 4}, "red", "1",
                      {"mercy": [{"colour": "red", "square": "start", "by": "blue"}]})
    names = PawnNames.start(game, state.placement, marks=state.marks)
    assert sorted(names.describe(m) for m in _enter_moves(game, state)) == \
        ["R1 (mercy) start -> track:4", "R2 start -> track:4"]
