"""Conditions judged on a move's events alone (`MoveFilter.on_events`, `Consequence.on_events`)
say what the same conditions judged on the public `Move` (the placement after it, marks)
say: the compiler gives a filter or a consequence that form only where its tree reads facts of
the move, counters, numbers and counts of the pawns the move moved by owner and place
(`compiler.vocab.events_only`), and the table then judges every option by it.

Checked along random games, on every option listed, for every bundled rule file with such
conditions (H34's `count(pawns controlled moved in opponent start_exit)`, Ludo's and
Parcheesi's counters of throws, bump facts) and an overlay that counts moved pawns by every
owner and zone word."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.engine.option import MOVE, PASS_KIND
from sorry_rules.engine.rng import Random
from sorry_rules.rules.loader import bundled_names
from sorry_rules.rules.yamlsafe import load_yaml

COUNTING = {
    "counters": {"moved_safe": {}, "moved_out": {}},
    "after": {
        "own_safe": {"when": "count(pawns own moved in safety) + count(pawns partner moved in home) > 0",
                     "add": {"moved_safe": "count(pawns any moved in safety)"}, "label": "safe"},
        "out": {"when": "count(pawns opponent moved) == 0 and count(pawns controlled moved in track) >= 1",
                "add": {"moved_out": "count(pawns other moved in start_exit) + count(pawns moved in own start_exit) + 1"},
                "label": "out"},
        "first_bump": {"when": "bumps(opponents) > 0 and count(pawns controlled moved in track) == 1", "draw_again": True,
                       "label": "bump"},
    },
    "filters": {"no_exit": {"prefer": "count(pawns controlled moved in opponent start_exit) == 0", "label": "exit"}},
}


def _with_events_form(game) -> list:
    """(kind, filter or consequence) of `game` that have a form judged on events alone."""
    return [("filter", f) for f in game.filters if f.on_events is not None] + \
           [("after", c) for c in game.after if c.on_events is not None]


VARIANTS = Path(__file__).parent.parent / "variants"
#: the bundled track rule files with filters or consequences (each must have some judged on events alone)
JUDGING = [name for name in bundled_names() if not name.startswith("grid/") and name != "sequence.yaml"
           and re.search(r"^(after|filters):", (VARIANTS / name).read_text(), re.MULTILINE)]
#: bundled files whose conditions all count the pawns a move moved where squares are counted
#: (Trouble's finish, `home_hold`): judged on the whole move (`compiler.vocab.events_only`)
ON_THE_MOVE = ["trouble/double-trouble.yaml"]
CASES = [(name.removesuffix(".yaml"), None) for name in JUDGING if name not in ON_THE_MOVE] + \
    [("standard", COUNTING), ("partnership", COUNTING)]


@pytest.mark.parametrize("name", ON_THE_MOVE)
def test_moved_pawns_on_counted_squares_are_judged_on_the_move(name):
    game = load_game(name.removesuffix(".yaml"))
    assert game.layout.stacked and game.after and not _with_events_form(game)


@pytest.mark.parametrize(("variant", "layer"), CASES, ids=[v + ("+counting" if layer else "") for v, layer in CASES])
def test_events_alone_judge_as_the_move_does(variant, layer):
    game = load_game(variant, layers=[load_yaml(json.dumps(layer), "counting.yaml")] if layer else [])
    judged = _with_events_form(game)
    assert judged
    held = 0
    for seed in range(3):
        players = min(game.players_max, 4)
        table = game.table(game.new_game(seed, players=players))
        random = Random("events-judged", seed)
        while not table.over and table.plies < 300:
            options = table.options()
            if not options:
                break
            p = table.seats[table.turn]
            # the options as the rules judge them: before the effects of `then:` are played with them
            listed = table.card_options(p, table.card) if table.card is not None and not table.drawn else options
            for option in listed:
                if option.kind is not MOVE and option.kind is not PASS_KIND:
                    continue
                move = table.move(option)
                for kind, rule in judged:
                    if kind == "filter":
                        verdict = bool(rule.on_events(p, option.events, table.counters, option.card))
                        assert verdict == bool(rule.test(p, move, table.counters)), (rule.label, option.events)
                        held += verdict
                        continue
                    when, adds, _ = rule.on_events
                    fired = bool(when(p, option.events, table.counters, option.card))
                    assert fired == bool(rule.when(p, move, table.counters)), (rule.label, option.events)
                    if fired:
                        assert [a(p, option.events, table.counters, option.card) for _, a in adds] == \
                            [a(p, move, table.counters) for _, a in rule.adds], (rule.label, option.events)
                        held += 1
            table.play(options[random.below(len(options))])
    assert held > 0  # some condition held: both forms said yes somewhere, additions compared
