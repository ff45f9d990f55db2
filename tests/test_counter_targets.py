"""Counters of other players (`after:` `to:`) and geometry turns under a condition
(`geometry.turns.NAME.when`), beyond the rule scenarios (tests/scenarios/house/counter-targets*.yaml,
conditional-turn.yaml, ludo/capture-to-enter.yaml): invariants over seeded games, the
validator's view of a condition that always or never holds, and the words of `moves --why`."""

from __future__ import annotations

import textwrap

from sorry_rules.authoring.explain import load_explained
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.authoring.validate import validate_file
from sorry_rules.authoring.why import add_why
from sorry_rules.compiler import load_game
from sorry_rules.engine.events import BUMP, SEND
from sorry_rules.engine.moverules import recipients
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game
from sorry_rules.records.position import parse_position

BUMPS_BOTH_WAYS = """
    extends: standard
    counters:
      made: {min: 0}
      lost: {min: 0}
      given: {min: 0, max: 3}
    after:
      made: {when: bumps(opponents) > 0, add: {made: bumps(opponents)}}
      lost: {add: {lost: 1}, to: bumped opponent}
      given: {add: {given: 1}, to: other}
"""


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def test_every_opponent_pawn_bumped_is_counted_once_for_the_bumper_and_once_for_its_owner(tmp_path):
    """R24-R26: over whole seeded games, the pawns bumps(opponents) counts for the movers are
    the pawns `to: bumped opponent` counts against their owners (between two players, each
    one's bumps are the other's losses); counters given to every other seated player stop at
    their max; unseated colours get nothing."""
    game = load_game(_write(tmp_path, "both.yaml", BUMPS_BOTH_WAYS))
    made_i, lost_i, given_i = 0, 1, 2
    total = 0
    for seed in range(6):
        players = 2 + seed % 3
        state = game.new_game(seed, players=players)
        final = play_game(game, state, [make_player("random", seed, s) for s in range(players)])
        seated = set(final.seats)
        made = sum(final.counters[c][made_i] for c in seated)
        lost = sum(final.counters[c][lost_i] for c in seated)
        assert made == lost, f"seed {seed}: {made} bumps made, {lost} pawns lost"
        if players == 2:  # each one's bumps are the other's losses
            a, b = final.seats
            assert (final.counters[a][made_i], final.counters[b][made_i]) == (final.counters[b][lost_i], final.counters[a][lost_i])
        assert all(final.counters[c][given_i] == 3 for c in seated), final.counters
        assert all(final.counters[c] == (0, 0, 0) for c in range(len(game.colours)) if c not in seated)
        total += made
    assert total > 0, "the games bumped no pawn: the invariant was not exercised"


def test_a_pawn_bumped_sent_out_and_bumped_again_counts_once():
    """A pawn sent back to its Start, sent out of it again (`send ... to start_exit`, a soft
    bump) and bumped a second time in one move stands in its Start once: one pawn, one
    addition (as the selector item `bumped` chooses it)."""
    start = (100, 101, 102, 103)
    events = (("forward", 0, 10, 15), (BUMP, 1, 15), (SEND, 1, 101, 19), ("forward", 0, 15, 19), (BUMP, 1, 19))
    assert recipients(True, None, start)(0, events, (0, 1)) == ((1, 1),)
    two = events + (("forward", 0, 19, 23), (BUMP, 2, 23))
    assert recipients(True, None, start)(0, two, (0, 1, 2)) == ((1, 1), (2, 1))


CLOSED = """
    extends: standard
    geometry:
      turns:
        always: {at: safety_entry, moving: forward, onto: track, must: true, when: "pawns(player) == 4"}
        never: {at: 5, moving: forward, onto: safety, when: "home(player) > 4"}
"""


def test_a_turn_whose_condition_always_holds_is_judged_as_always_there(tmp_path):
    """SR529 says a turn's condition that always or never holds; the Home analysis (SR509)
    then takes the turn as always there (a closed safety zone: Home unreachable, R31) or
    never there."""
    codes = [(p.code, p.severity) for p in validate_file(_write(tmp_path, "closed.yaml", CLOSED))]
    assert ("SR509", "error") in codes
    assert codes.count(("SR529", "warning")) == 2


TWO_TURNS = """
    extends: standard
    counters: {k: {min: 0}}
    after: {k: {when: bumps(opponents) > 0, add: {k: 1}}}
    geometry:
      turns:
        a: {at: safety_entry, moving: forward, onto: track, must: true, when: k(player) >= 5, label: "A: closed"}
        b: {at: safety_entry, moving: forward, onto: track, must: false, label: "B: round again"}
"""


def test_why_names_the_turn_that_was_there(tmp_path):
    """R31 with two turns at the safety entry: turn A's condition does not hold, so red's 5
    from track:0 goes into the zone or, by turn B, round again; the route names B."""
    explained = load_explained(_write(tmp_path, "two.yaml", TWO_TURNS))
    game = explained.game
    position = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5",
                                     "counters": {"red": {"k": 1}}, "pawns": {"red": ["track:0", "start", "start", "start"]}})
    report = add_why(game, explained.cards, position, moves_report(game, position))
    routes = {entry["text"]: entry["route"] for entry in report["moves"]}
    assert routes == {"Red pawn track:0 -> safety:3": [],
                      "Red pawn track:0 -> track:5": ["red pawn track:0 -> track:5: B: round again"]}


FOLLOWED = """
    extends: standard
    counters: {bumps_made: {min: 0}}
    after:
      counted: {when: bumps(opponents) > 0, add: {bumps_made: 1}}
      push_on: {when: bumps(opponents) > 0, then: forward 5, label: "a bump pushes a pawn 5 on"}
    geometry:
      turns:
        closed: {at: safety_entry, moving: forward, onto: track, must: true, when: bumps_made(player) == 0,
                 label: "no bump yet: the zone is closed"}
"""


def test_a_follow_up_takes_the_turns_there_before_the_move_and_why_names_them(tmp_path):
    """R31 with a closed zone: red's 3 bumps blue on 58; the follow-up of 5 (an `after:`
    `then:`) is judged with the turns there before the move, so it passes the entry (2) to
    track:3, and `--why` names the turn on the follow-up's step (of another count than the card's)."""
    explained = load_explained(_write(tmp_path, "followed.yaml", FOLLOWED))
    game = explained.game
    position = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "3",
                                     "pawns": {"red": ["track:55", "start", "start", "start"], "blue": ["track:58"]}})
    report = add_why(game, explained.cards, position, moves_report(game, position))
    assert [(entry["text"], entry["route"]) for entry in report["moves"]] == [
        ("Red pawn track:55 -> track:58, bumps Blue (track:58); then Red pawn track:58 -> track:3",
         ["red pawn track:58 -> track:3: no bump yet: the zone is closed"])]


def test_additions_to_partners_without_teams_are_said_to_go_to_nobody(tmp_path):
    """T1: only partnership play has partners; `to: partner` elsewhere is an SR506 warning."""
    text = """
        extends: {base}
        counters: {{helped: {{min: 0}}}}
        after: {{helped: {{add: {{helped: 1}}, to: partner}}}}
        scoring: {{h: {{kind: formula, for: every, points: helped(player)}}}}
    """
    alone = validate_file(_write(tmp_path, "alone.yaml", text.format(base="standard")))
    teams = validate_file(_write(tmp_path, "teams.yaml", text.format(base="partnership")))
    assert [(p.code, p.severity, p.line) for p in alone] == [("SR506", "warning", 3)]
    assert teams == []
