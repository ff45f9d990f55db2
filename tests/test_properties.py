"""Property tests of the engine for EVERY bundled rule file (variants and house rules, found
at test time with `loader.bundled_names()`), at every player count the file allows, and for
every movement switch of `rules:` set away from its default (RULE_SWITCHES), and games played on for
places (FIELD_SWITCHES).

Random legal play with every invariant of tests/invariants.py checked after each step
(pawn conservation, one pawn per track/safety square, colours in their own safety zone and
Home, pile + discards + hands + drawn card = the deck, hands full while cards remain, one
move per distinct result, events that explain each move, Home pawns never move, the turn
passing, the game ending exactly when a win condition holds, or played for places when
that many sides finished, scores = sum of score lines),
the game ending within tests/randomplay.MAX_PLIES, and every game replayed from its seed and
choices and through a JSON game log to the identical final state.

For each rule file hypothesis draws the player count, the seed and the choices (the first
choices of a game come from hypothesis, the rest from seeded random players; the stateful
machine draws the rule file too), so a failure shrinks to a small seed and a short choice
list and is reported with its replay recipe.

Default run: GAMES_PER_FILE whole games per rule file plus a stateful machine of
STATEFUL_DEFAULT runs. The soak (`pytest -m slow`) plays SORRY_SOAK_GAMES games per rule file
(default 2000) and the stateful machine for STATEFUL_SOAK runs.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sorry_rules.records import gamelog
from sorry_rules.compiler import load_game
from sorry_rules.base.errors import RuleFileError
from sorry_rules.rules.loader import bundled_names, load_variant
from sorry_rules.rules.yamlsafe import load_yaml
from sorry_rules.engine.game import Game
from sorry_rules.players.protocol import RandomPlayer, view_of

from .invariants import check_moves, check_outcome, check_state, check_step
from .randomplay import MAX_PLIES, play_random

#: The movement switches of `rules:` (docs/REFERENCE.md) set away from their defaults, each
#: on a bundled file, played as the bundled files are (no game log: an inline overlay has no
#: file to name it by).
RULE_SWITCHES = {
    "split-simultaneous": ("standard", {"split": "simultaneous"}),  # A2's option
    "slide-after-switch-mover": ("standard", {"slide_after_switch": "mover"}),  # A4's option
    "slide-after-switch-none": ("standard", {"slide_after_switch": "none"}),
    "no-slide-after-sorry": ("standard", {"slide_after_sorry": False}),  # A6's option
    "slide-sweep-bumpable": ("partnership", {"slide_sweep": "bumpable"}),
    "overshoot-home-stops": ("standard", {"overshoot_home": "stop"}),
    "must-bump": ("points", {"must_bump": True}),
    "bump-opponents-only": ("partnership", {"bump": ["opponent"]}),
    "slides-of-every-colour": ("partnership", {"slide_on": ["own", "partner", "opponent"]}),
    "capture-all": ("trouble", {"capture": "all"}),
}
#: Top-level fields set away from their defaults, each on a bundled file (as RULE_SWITCHES).
FIELD_SWITCHES = {
    "places-standard": ("standard", {"places": 3}),
    "places-partnership": ("partnership", {"places": 2}),
    "places-ludo": ("ludo", {"places": 4}),
    "places-points": ("points", {"places": 2}),
}


@lru_cache(maxsize=None)
def game_of(name):
    """A bundled rule file by name (house overlays extend their base, so each loads by name),
    or a switch of RULE_SWITCHES on its file."""
    if name in RULE_SWITCHES:
        base, rules = RULE_SWITCHES[name]
        return load_game(base, layers=[load_yaml(json.dumps({"rules": rules}), f"{name}.yaml")])
    if name in FIELD_SWITCHES:
        base, fields = FIELD_SWITCHES[name]
        return load_game(base, layers=[load_yaml(json.dumps(fields), f"{name}.yaml")])
    return load_game(name)


# Grid variants play a `GridGame` with invariants of its own (tests/test_sequence_properties.py).
# Read from the loaded (not compiled) rule files: collection, which every test process runs,
# compiles nothing; the games are compiled by the process that plays them (game_of).
NAMES = [name for name in bundled_names() if load_variant(name).variant.board.kind != "grid"]
PLAYED = NAMES + list(RULE_SWITCHES) + list(FIELD_SWITCHES)
GAMES_PER_FILE = 3
STATEFUL_DEFAULT = 8
STATEFUL_SOAK = 300
SOAK_GAMES = int(os.environ.get("SORRY_SOAK_GAMES", "2000"))


def test_every_bundled_rule_file_loads_and_compiles():
    assert "standard.yaml" in NAMES
    for name in NAMES:
        game = game_of(name)
        assert isinstance(game, Game)  # a track game (NAMES leaves out the grid variants)
        assert game.players_min <= game.players_max


def _cases():
    """(rule file, player count) pairs for the stateful machine. A file that does not load
    is left out here (this runs at collection) and fails the test above instead."""
    cases = []
    for name in NAMES:
        try:
            players = load_variant(name).variant.players  # the game's players_min and players_max
        except RuleFileError:
            continue
        cases.extend((name, count) for count in range(players.min, players.max + 1))
    return cases


choices_prefix = st.lists(st.integers(0, 255), max_size=300)
seeds = st.integers(0, 2**32 - 1)


def _check_game(name, players, seed, prefix):
    game = game_of(name)
    note(f"variant={name!r} players={players} seed={seed} prefix={prefix}")
    played = play_random(game, seed, players, prefix, spec=name if name in NAMES else None)
    final = played.final
    assert final.winner is not None
    assert game.outcome(final) is not None
    note(f"moves={len(played.choices)} choices={played.choices}")
    return played


@pytest.mark.parametrize("name", PLAYED)
@settings(max_examples=GAMES_PER_FILE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds, prefix=choices_prefix)
def test_random_games_keep_every_invariant_and_replay(name, data, seed, prefix):
    """Invariants after every step, the end within the bound, replay and JSON log round trip."""
    game = game_of(name)
    players = data.draw(st.integers(game.players_min, game.players_max), label="players")
    _check_game(name, players, seed, prefix)


@pytest.mark.slow
@pytest.mark.parametrize("name", PLAYED)
@settings(max_examples=SOAK_GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=seeds, prefix=choices_prefix)
def test_soak_random_games(name, data, seed, prefix):
    """The same property with many more games (SORRY_SOAK_GAMES per rule file)."""
    game = game_of(name)
    players = data.draw(st.integers(game.players_min, game.players_max), label="players")
    _check_game(name, players, seed, prefix)


def test_a_failing_game_reports_a_replay_recipe():
    """A failure carries the recipe (variant, players, seed, choices) as a game log that
    replays the game up to and including the failing move."""
    game = game_of("standard.yaml")
    played = play_random(game, 3, 2, spec="standard.yaml")
    broken = load_game("standard")
    real_apply, applied, stop = broken.apply, [], 40

    def apply(state, move):  # the 40th move breaks the ply count
        applied.append(move)
        after = real_apply(state, move)
        return after._replace(plies=after.plies + 5) if len(applied) == stop else after

    broken.apply = apply
    with pytest.raises(AssertionError) as caught:
        play_random(broken, 3, 2, spec="standard.yaml")
    text = str(caught.value)
    assert "plies count applied moves" in text
    assert "replay recipe: variant='standard.yaml'" in text and "seed=3" in text and "players=2" in text
    log = gamelog.from_json(text.splitlines()[-1])
    assert list(log.choices) == played.choices[:stop]
    _, state = gamelog.replay_log(log, game)
    assert state.plies == stop


class GameMachine(RuleBasedStateMachine):
    """A game driven step by step by hypothesis: single moves chosen by hypothesis, bursts of
    seeded random moves, and game-log round trips in the middle of the game."""

    @initialize(case=st.sampled_from(_cases()), seed=seeds)
    def start(self, case, seed):
        self.name, self.players = case
        self.game = game_of(self.name)
        self.seed = seed
        self.start_state = self.game.new_game(seed, players=self.players)
        self.state = self.start_state
        self.choices: list[int] = []

    def _step(self, pick):
        game, state = self.game, self.state
        if game.needs_draw(state):
            state = game.draw(state)
            check_state(game, state)
        moves = game.legal_moves(state)
        check_moves(game, state, moves)
        choice = 0 if len(moves) == 1 else pick(state, moves)
        after = game.apply(state, moves[choice])
        check_step(game, state, moves[choice], after)
        self.choices.append(choice)
        self.state = after

    @precondition(lambda self: self.state.winner is None and self.state.plies < MAX_PLIES)
    @rule(index=st.integers(0, 255))
    def play_one(self, index):
        self._step(lambda state, moves: index % len(moves))

    @precondition(lambda self: self.state.winner is None and self.state.plies < MAX_PLIES)
    @rule(count=st.integers(1, 80), bot_seed=st.integers(0, 2**16))
    def play_random_moves(self, count, bot_seed):
        bot = RandomPlayer(self.seed, bot_seed)
        for _ in range(count):
            if self.state.winner is not None:
                break
            self._step(lambda state, moves: bot.choose(view_of(self.game, state), moves))

    @rule()
    def log_round_trip(self):
        log = gamelog.new_log(self.game, self.name, (), self.seed, self.start_state, self.choices, final=self.state)
        back = gamelog.from_json(gamelog.to_json(log))
        assert back == log
        _, state = gamelog.replay_log(back, self.game)
        assert state == self.state

    @invariant()
    def state_is_consistent(self):
        if hasattr(self, "state"):
            check_state(self.game, self.state)
            check_outcome(self.game, self.state)

    def teardown(self):
        if hasattr(self, "state"):
            note(f"replay recipe: variant={self.name!r} players={self.players} seed={self.seed} choices={self.choices}")


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(max_examples=STATEFUL_DEFAULT, stateful_step_count=40, deadline=None,
                                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
class TestGameMachineSoak(GameMachine.TestCase):
    """The same machine for STATEFUL_SOAK runs."""

    settings = settings(max_examples=STATEFUL_SOAK, stateful_step_count=40, deadline=None,
                        suppress_health_check=list(HealthCheck))
