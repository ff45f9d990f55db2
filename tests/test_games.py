"""Full seeded games of the standard variant: they finish, keep every invariant, replay
exactly (every game here is replayed from its seed and choices, tests/randomplay.py), and
do not depend on the names of cards and colours."""

from __future__ import annotations

import pytest

from sorry_rules.compiler import load_game
from sorry_rules.players.runner import replay

from .randomplay import play_random
from .sizes import short_and_full

#: Seeded games per player count: a short run by default, 1,000 under `pytest -m slow`.
GAMES_PER_COUNT = short_and_full(15, 1000)


@pytest.fixture(scope="module")
def standard():
    return load_game("standard")


def _random_game(game, seed, players, check="state"):
    """A seeded random game, replayed from its seed and choices (AssertionError if the
    replay differs); returns (final state, choices)."""
    played = play_random(game, seed, players, check=check)
    return played.final, played.choices


@pytest.mark.parametrize("games", GAMES_PER_COUNT)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_random_games_finish_with_invariants(standard, players, games):
    """R1, R35: seeded games per player count (1,000 in the full run) end with a winner; every
    state after every move keeps pawn counts, one pawn per square, own-colour safety and Home,
    cards; every game replays from its seed and choices to the identical final state."""
    for seed in range(games):
        final, _ = _random_game(standard, seed, players)
        assert final.winner is not None, f"seed {seed}: no winner after {final.plies} moves"
        winner_colour = final.seats[final.winner]
        assert final.placement[winner_colour].count(standard.layout.home[winner_colour]) == standard.pawns


def test_same_seed_same_game(standard):
    a, choices_a = _random_game(standard, 42, 4, check=None)
    b, choices_b = _random_game(standard, 42, 4, check=None)
    assert a == b and choices_a == choices_b


@pytest.mark.parametrize("games", short_and_full(8, 20))
def test_replay_reaches_identical_state(standard, games):
    for seed in range(games):
        final, choices = _random_game(standard, seed, 3, check="all")
        start = standard.new_game(seed, players=3)
        assert replay(standard, start, choices) == final
        if seed:
            assert replay(standard, start, choices[:-1]) != final  # the check can fail


def test_different_seeds_differ(standard):
    finals = {(_random_game(standard, seed, 2, check=None)[0].plies) for seed in range(10)}
    assert len(finals) > 1


@pytest.mark.parametrize("games", short_and_full(8, 25))
def test_renamed_cards_and_colours_play_the_same_game(tmp_path, standard, games):
    """DESIGN 'the one idea': no Python code knows a card or colour name (25 games in the full run)."""
    import yaml

    from sorry_rules.base.resources import variants_dir

    data = yaml.safe_load((variants_dir() / "standard.yaml").read_text())
    colours = {"red": "crimson", "blue": "navy", "yellow": "gold", "green": "olive"}
    cards = {name: f"card_{i}" for i, name in enumerate(data["deck"])}
    data["colours"] = [colours[c] for c in data["colours"]]
    data["deck"] = {cards[k]: v for k, v in data["deck"].items()}
    data["cards"] = {cards[k]: v for k, v in data["cards"].items()}
    data["name"] = "renamed"
    path = tmp_path / "renamed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    renamed = load_game(str(path))
    assert renamed.colours == ("crimson", "navy", "gold", "olive")
    for seed in range(games):
        original, choices_a = _random_game(standard, seed, 4, check=None)
        other, choices_b = _random_game(renamed, seed, 4, check=None)
        assert original == other
        assert choices_a == choices_b
