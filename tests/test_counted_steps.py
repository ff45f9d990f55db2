"""`forward (N)` and `backward (N)` (docs/REFERENCE.md 2.1): a count read on the board.

A count that is a constant plays as the whole number does: every bundled track rule file,
its cards' `forward N` / `backward N` written `forward (N)` / `backward (N)`, lists the same
moves at every decision of seeded random games (plain tables, `geometry:` routes, squares
that hold several pawns, dice). The scenarios of tests/scenarios/house/counted-steps.yaml
show counts read from pawns and counters; here also the compile-time checks.
"""

from __future__ import annotations

import json
import re

import pytest

from sorry_rules.base.errors import RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.players.protocol import RandomPlayer, view_of
from sorry_rules.rules.loader import bundled_names, load_variant
from sorry_rules.rules.yamlsafe import load_yaml

#: `forward N` / `backward N` as a primitive (not a part of `split N into ...`, which has no count form)
_STEP = re.compile(r"(?<![\w,] )\b(forward|backward) (\d+)\b")
TRACK_FILES = [name.removesuffix(".yaml") for name in bundled_names()
               if "/" not in name and load_variant(name).variant.board.kind != "grid"]


def _counted(name: str):
    """The rule file with every card's steps written as a count: (game, counted game, cards changed)."""
    cards = load_variant(name).variant.cards
    written = {card: _STEP.sub(r"\1 (\2)", text) for card, text in cards.items() if "into" not in text}
    changed = {card: text for card, text in written.items() if text != cards[card]}
    layer = load_yaml(json.dumps({"cards": changed}), "counted.yaml")
    return load_game(name), load_game(name, layers=[layer]), changed


@pytest.mark.parametrize("name", TRACK_FILES)
def test_a_constant_count_plays_as_the_number(name):
    game, counted, changed = _counted(name)
    assert changed  # every track file moves pawns by steps
    compared = 0
    for seed in range(2):
        state = game.new_game(seed, players=game.players_max)
        bots = [RandomPlayer(seed, seat) for seat in range(game.players_max)]
        while state.winner is None and state.plies < 400:
            if game.needs_draw(state):
                state = game.draw(state)
            moves = game.legal_moves(state)
            assert [(m.placement, m.events, m.draw_again, m.kind) for m in counted.legal_moves(state)] == \
                [(m.placement, m.events, m.draw_again, m.kind) for m in moves]
            compared += len(moves)
            choice = 0 if len(moves) == 1 else bots[state.turn].choose(view_of(game, state), moves)
            state = game.apply(state, moves[choice])
    assert compared > 100


def _problems(tmp_path, cards: dict, base: str = "standard") -> list:
    path = tmp_path / "counted.yaml"
    path.write_text(f"extends: {base}\nname: counted\ncards: {json.dumps(cards)}\n")
    with pytest.raises(RuleFileError) as raised:
        load_game(str(path))
    return [(p.line, p.col, p.code, p.message) for p in raised.value.problems]


def test_a_count_that_is_never_a_step_is_refused(tmp_path):
    """A number that can never be 1 .. the most steps of a move (SR508, at the number)."""
    text = "forward 12 | forward (0 - pawns(player))"
    [(line, col, code, message)] = _problems(tmp_path, {"12": text})
    assert (line, col, code) == (3, len('cards: {"12": "') + 1 + text.index("0 -"), "SR508")
    assert "never between 1 and 66" in message


def test_a_count_must_be_a_number(tmp_path):
    [(_, _, code, message)] = _problems(tmp_path, {"12": "forward (home(player) > 1)"})
    assert code == "SR304" and "number" in message


def test_facts_of_a_move_are_not_counts_of_a_card(tmp_path):
    [(_, _, code, message)] = _problems(tmp_path, {"12": "forward (bumps(opponents))"})
    assert code == "SR304" and "fact about a move" in message


def test_a_count_above_the_longest_move_moves_nothing():
    """A count read as more than the most steps of a move (66 on the standard board: a lap,
    the safety zone and the step into Home) has no move; one within it moves that far."""
    layer = load_yaml(json.dumps({"counters": {"far": {"min": 0, "max": 500}},
                                  "cards": {"12": "forward (far(player))"},
                                  "after": {"far": {"cards": ["12"], "add": {"far": 100}}}}), "far.yaml")
    game = load_game("standard", layers=[layer])
    start = game.layout.start[0]

    def moves(far: int) -> list:
        position = game.position(((4, start, start, start), (), (), ()), (0, 1), 0, card=game.card_names.index("12"),
                                 counters=((far,), (0,), (0,), (0,)))
        return [(m.kind, m.events) for m in game.legal_moves(position)]

    assert moves(8) == [("move", (("forward", 0, 4, 12),))]
    assert [kind for kind, _ in moves(67)] == ["forfeit"]
    assert [kind for kind, _ in moves(0)] == ["forfeit"]
