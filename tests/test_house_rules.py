"""The house-rule catalogue (RULES.md section 7) as overlays: every file in variants/house/
and variants/options/ is a short `extends:` overlay, loads on its own and on top of each seed
variant (the base already merged is not merged again), changes what it claims to change, and
plays full seeded games. What each rule changes in play is shown by the scenarios in
tests/scenarios/house/ (with and without the overlay)."""

from __future__ import annotations

from collections import Counter

import pytest

from sorry_rules.base.errors import RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.rules.loader import bundled_names, load_variant
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.base.resources import variants_dir
from sorry_rules.players.runner import play_game
from sorry_rules.rules.yamlsafe import load_yaml_file

from .invariants import check_state
from .sizes import short_and_full

HOUSE = [n for n in bundled_names() if n.startswith("house/")]
OPTIONS = [n for n in bundled_names() if n.startswith("options/")]

#: RULES.md section 7 rules and the overlay that writes each (the quick game has no id).
CATALOGUE = {
    "H1": "house/sorry-forward-4.yaml",
    "H2": "house/two-no-draw-again.yaml",
    "H3": "house/three-pawns.yaml",
    "H5": "house/quick-start.yaml",
    "H6": "house/start-on-any-forward.yaml",
    "H10": "house/slide-own-colour.yaml",
    "H12": "house/slide-spares-own.yaml",
    "H13": "house/partners-safe.yaml",
    "H14": "house/split-7-any.yaml",
    "H15": "house/switch-partner.yaml",
    "H17": "house/must-bump.yaml",
    "H19": "house/overshoot-home.yaml",
    "H20": "house/revenge-7.yaml",
    "H21": "house/bump-bonus.yaml",
    "H22": "house/bump-points.yaml",
    "H23": "house/mulligan-8.yaml",
    "H25": "house/draw-two-keep-one.yaml",
    "H26": "house/no-start-no-cry.yaml",
    "H24": "house/deck-44.yaml",
    "H27": "house/mercy-start.yaml",
    "H28": "house/safety-sprint.yaml",
    "H29": "house/sorry-safety.yaml",
    "H31": "house/freeze.yaml",
    "H24 (55)": "house/deck-55.yaml",
    "H30": "house/backward-into-safety.yaml",
    "H32": "house/bounce-back.yaml",
    "H33": "house/blockade.yaml",
    "H34": "house/start-exit-penalty.yaml",
    "no jumping (invented)": "house/no-passing-opponents.yaml",
    "seven both ways (invented)": "house/seven-both-ways.yaml",
    "quick game": "house/quick-game.yaml",
}


#: Overlays that a seed variant already has: points starts a pawn on the exit (P2 = H5).
ALREADY_SO = {("points", "house/quick-start.yaml")}
#: Combinations the loader refuses with a coded error: H25 draws cards, points plays a hand;
#: H23's mulligan is a play of a hand, standard and partnership draw (SR513).
REFUSED = {("points", "house/draw-two-keep-one.yaml"): "SR513", ("standard", "house/mulligan-8.yaml"): "SR513",
           ("partnership", "house/mulligan-8.yaml"): "SR513"}


def test_catalogue_is_complete():
    assert sorted(CATALOGUE.values()) == sorted(HOUSE)
    assert "options/cumulative-bonus.yaml" in OPTIONS


@pytest.mark.parametrize("name", HOUSE + OPTIONS)
def test_overlay_is_a_few_lines_with_extends(name):
    """Each house rule is a short overlay file with `extends:` (a few lines of rules)."""
    data, _ = load_yaml_file(variants_dir() / name, name)
    assert data.get("extends") in ("standard", "points")
    lines = (variants_dir() / name).read_text().splitlines()
    body = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert len(body) <= 12, f"{name} has {len(body)} lines of rules"


@pytest.mark.parametrize("base", ["standard", "partnership", "points"])
@pytest.mark.parametrize("name", HOUSE)
def test_overlay_composes_with_every_seed_variant(base, name):
    """--variant BASE --rule house/X.yaml keeps BASE's own changes (the game X extends is
    not merged under --rule: REFERENCE.md, "Overlays") and adds X's."""
    plain = load_variant(base)
    if (base, name) in REFUSED:
        with pytest.raises(RuleFileError) as refused:
            load_game(base, [name])
        assert [p.code for p in refused.value.problems] == [REFUSED[base, name]]
        return
    loaded = load_variant(base, [name])
    overlay, _ = load_yaml_file(variants_dir() / name, name)
    for key in ("teams", "players", "turn", "scoring", "setup"):
        if key not in overlay:
            assert loaded.data.get(key) == plain.data.get(key), key
    rules_of = lambda data: {k: v for k, v in data.items() if k != "description"}  # noqa: E731
    if (base, name) in ALREADY_SO:
        assert rules_of(loaded.data) == rules_of(plain.data)
    else:
        assert rules_of(loaded.data) != rules_of(plain.data), f"{name} changes nothing on {base}"
    load_game(base, [name])  # compiles


def test_rules_compose_in_order():
    """Overlays stack: H1 and the quick game together keep both changes."""
    game = load_game("standard", ["house/sorry-forward-4.yaml", "house/quick-game.yaml"])
    assert game.card_sources[game.card_index["sorry"]] == "sorry | forward 4"
    assert load_variant("standard", ["house/sorry-forward-4.yaml", "house/quick-game.yaml"]).variant.win == "home(team) >= 2"


def test_h24_decks():
    """H24 / section 2 Option: the 1939 deck has 44 cards, four of each; the 55-card deck adds
    five 6s and five 9s to the 45."""
    standard = load_game("standard")
    assert len(standard.deck) == 45
    old = load_game("standard", ["house/deck-44.yaml"])
    assert len(old.deck) == 44 and set(Counter(old.deck).values()) == {4}
    big = load_game("standard", ["house/deck-55.yaml"])
    counts = Counter(big.card_names[c] for c in big.deck)
    assert len(big.deck) == 55 and counts["6"] == 5 and counts["9"] == 5
    assert counts - Counter({"6": 5, "9": 5}) == Counter(standard.card_names[c] for c in standard.deck)


def test_h3_and_h5_setup():
    """H3: three pawns each; H5: one of them begins on the start exit."""
    game = load_game("standard", ["house/three-pawns.yaml", "house/quick-start.yaml"])
    state = game.new_game(1, players=4)
    for c in state.seats:
        assert Counter(state.placement[c]) == Counter({game.layout.start[c]: 2, game.layout.start_exit[c]: 1})


def _games(game, players, count, seed0=0):
    for seed in range(seed0, seed0 + count):
        state = game.new_game(seed, players=players)
        final = play_game(game, state, [RandomPlayer(seed, s) for s in range(players)],
                          on_turn=lambda turn, s: check_state(game, s))
        assert final.winner is not None, f"seed {seed}: no winner"
        yield final


@pytest.mark.parametrize("games", short_and_full(1, 15))
@pytest.mark.parametrize("name", [n for n in HOUSE if n != "house/split-7-any.yaml"])
def test_seeded_games_with_each_overlay(name, games):
    """Every overlay plays full games (standard base, 4 players; 15 in the full run) keeping
    every invariant."""
    game = load_game(load_yaml_file(variants_dir() / name, name)[0]["extends"], [name])  # on the game it extends
    for final in _games(game, 4, games):
        colour = final.seats[final.winner]
        home = final.placement[colour].count(game.layout.home[colour])
        assert home == (2 if name == "house/quick-game.yaml" else game.pawns)


@pytest.mark.parametrize("games", short_and_full(1, 5))
def test_seeded_games_split_any_on_partnership(games):
    """H14 with the T4 option's team of eight pawns: games finish (the largest split search;
    5 games in the full run)."""
    game = load_game("partnership", ["house/split-7-any.yaml"])
    for _ in _games(game, 4, games):
        pass
