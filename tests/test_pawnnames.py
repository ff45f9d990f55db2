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
        names[0] = before.after(turn.move, after.placement)
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
