"""The race games as configurations of the one engine (docs/LUDO.md, docs/TROUBLE.md,
docs/PARCHEESI.md): their rule files validate with --strict, full seeded games for every
player count finish with every invariant kept and replay exactly, the seats and the first
player follow the rule books, the bots play them, a copy with every name renamed plays the
same games, and who throws next follows LU13-LU20, TR7 and PA7 over whole games. What a
throw allows in a position is shown by the scenarios in tests/scenarios/ludo, trouble and
parcheesi."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from sorry_rules.base.resources import variants_dir
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import play_game

from .randomplay import play_random
from .sizes import short_and_full

GAMES = ("ludo", "trouble", "parcheesi")
#: player counts each rule book allows (LU1, TR1, PA1)
COUNTS = {"ludo": (2, 3, 4), "trouble": (2, 3, 4), "parcheesi": (2, 3, 4)}


@pytest.fixture(scope="module")
def games():
    return {name: load_game(name) for name in GAMES}


@pytest.mark.parametrize("name", GAMES + ("ludo --rule ludo/blocks.yaml --rule ludo/capture-throw.yaml "
                                          "--rule ludo/home-throw.yaml",))
def test_the_rule_files_validate_strictly(name):
    """No problem, not even a warning: `sorry-play validate --strict`."""
    spec, *rest = name.split(" --rule ")
    files = [str(variants_dir() / f"{spec}.yaml")] + [str(variants_dir() / r) for r in rest]
    result = CliRunner().invoke(main, ["validate", "--strict", *files])
    assert result.exit_code == 0, result.output
    assert "0 warnings" in result.output or "valid" in result.output


def _finished(game, state) -> bool:
    """Whether the winner has every pawn where its game ends: Home (LU14, PA15), the finish
    line (TR12)."""
    c = state.seats[state.winner]
    layout = game.layout
    done = sum(1 for sq in state.placement[c] if sq == layout.home[c] or layout.T <= sq < layout.X)
    return done == game.pawns


@pytest.mark.parametrize("games_per_count", short_and_full(4, 200))
@pytest.mark.parametrize("name", GAMES)
def test_seeded_games_finish_with_every_invariant(games, name, games_per_count):
    """LU1, LU3, LU14; TR1, TR3, TR12; PA1, PA3, PA15: seeded random games of every player count
    end with a winner whose pawns are all in, keep every invariant after every move (pawns
    conserved, no square over what it holds, colours only where they may share, no pile and
    no discards) and replay from their seed and choices."""
    game = games[name]
    for players in COUNTS[name]:
        for seed in range(games_per_count):
            played = play_random(game, seed, players, check="all" if seed == 0 else "state")
            assert played.final.winner is not None
            assert _finished(game, played.final), f"{name} seed {seed}: the winner is not all in"


def _ludo_turn_flow(game, capture_throw: bool, home_throw: bool):
    """An observer that checks, move by move, who throws next as LUDO.md says: a six throws
    again (LU13), so do a capture (LU15) and a token reaching Home (LU16) under their options,
    the extra throws add up (LU20), every throw counts toward three sixes in a row and a
    non-six ends the run (LU19), and a third six is lost and ends the turn whatever extra
    throws were still due (LU13). A turn of LU6 throws again with the same extra throws due."""
    layout, names = game.layout, game.card_names
    flow = {"seat": None, "due": 0, "sixes": 0, "before": None}

    def observe(turn, after) -> None:
        before, throw = flow["before"], int(names[turn.card])
        if flow["seat"] is not None:
            assert turn.seat == flow["seat"], f"ply {turn.ply}: seat {turn.seat} threw, LU13/LU15/LU16 say {flow['seat']}"
        keeps = False
        if turn.move.kind == "redraw":  # LU6: the same player throws again; a non-six ends the run
            keeps, flow["sixes"] = True, 0
        elif throw == 6 and flow["sixes"] >= 2:  # LU13: the third six is lost and ends the turn
            flow["due"] = flow["sixes"] = 0
        else:
            mover = before.seats[before.turn]
            captured = sum(after.placement[c].count(layout.start[c]) - before.placement[c].count(layout.start[c])
                           for c in before.seats if c != mover)
            reached = after.placement[mover].count(layout.home[mover]) - before.placement[mover].count(layout.home[mover])
            flow["due"] += (throw == 6) + (capture_throw and captured > 0) + (home_throw and reached > 0)
            flow["sixes"] = flow["sixes"] + 1 if throw == 6 else 0
            if flow["due"]:
                flow["due"] -= 1
                keeps = True
        if not keeps:
            flow["sixes"] = 0
        flow["seat"] = turn.seat if keeps else (turn.seat + 1) % len(after.seats)
        flow["before"] = after

    return flow, observe


@pytest.mark.parametrize("games_per_option", short_and_full(12, 120))
@pytest.mark.parametrize("options", [(), ("ludo/capture-throw.yaml",), ("ludo/home-throw.yaml",),
                                     ("ludo/capture-throw.yaml", "ludo/home-throw.yaml")])
def test_ludo_extra_throws_and_the_third_six_follow_the_rule_book(options, games_per_option):
    """LU13, LU15, LU16, LU19, LU20 over whole seeded games of four players: who throws next
    after every move. A third six after a capture's extra throw ends the turn (the game used
    to throw that extra throw)."""
    game = load_game("ludo", options)
    for seed in range(games_per_option):
        state = game.new_game(seed, players=4)
        flow, observe = _ludo_turn_flow(game, "ludo/capture-throw.yaml" in options, "ludo/home-throw.yaml" in options)
        flow["before"] = state
        players = [make_player("random", seed, seat) for seat in range(4)]
        final = play_game(game, state, players, on_turn=observe)
        assert final.winner is not None


def _trouble_next(throw: str, flow: dict) -> bool:
    """TR7: a 6 pops again, used or not, with no limit to sixes in a row."""
    return throw == "6"


def _parcheesi_next(throw: str, flow: dict) -> bool:
    """PA7: doubles throw again; the third doubles in a row is not moved and ends the turn
    (PA19: the run starts again at the next turn)."""
    first, second = throw.split("+")
    flow["run"] = flow["run"] + 1 if first == second else 0
    if flow["run"] == 3:
        flow["run"] = 0
    return flow["run"] > 0


@pytest.mark.parametrize("games_per_count", short_and_full(2, 100))
@pytest.mark.parametrize("name, again", [("trouble", _trouble_next), ("parcheesi", _parcheesi_next)])
def test_who_throws_next_follows_the_rule_book(games, name, again, games_per_count):
    """TR7, PA7, PA19 over whole seeded games of random and greedy players: after every
    throw the same player throws again exactly when the rule book says, else the next seat."""
    game = games[name]
    for players in COUNTS[name]:
        for seed in range(games_per_count):
            flow = {"seat": None, "run": 0, "again": 0}

            def observe(turn, after) -> None:
                if flow["seat"] is not None:
                    assert turn.seat == flow["seat"], f"{name} seed {seed} ply {turn.ply}: seat {turn.seat} threw"
                keeps = again(game.card_names[turn.card], flow)
                flow["again"] += keeps
                flow["seat"] = turn.seat if keeps else (turn.seat + 1) % len(after.seats)

            kinds = ("random", "greedy")
            state = game.new_game(seed, players=players)
            final = play_game(game, state, [make_player(kinds[(seed + s) % 2], seed, s) for s in range(players)],
                              on_turn=observe)
            assert final.winner is not None and flow["again"] > 0


@pytest.mark.parametrize("name, two, three", [("ludo", ("red", "yellow"), ("red", "green", "yellow")),
                                              ("trouble", ("red", "green"), ("red", "blue", "green")),
                                              ("parcheesi", ("yellow", "red"), ("yellow", "blue", "red"))])
def test_seats_follow_the_rule_books(games, name, two, three):
    """LU1, TR1, PA1: two players sit opposite each other, three take the first three colours."""
    game = games[name]
    assert tuple(game.colours[c] for c in game.seats_for(2)) == two
    assert tuple(game.colours[c] for c in game.seats_for(3)) == three


@pytest.mark.parametrize("name", GAMES)
def test_the_first_player_follows_the_seed(games, name):
    """LU4, TR4, PA4: the seed decides who plays first (the same seed, the same seat)."""
    game = games[name]
    firsts = [game.new_game(seed, players=4).turn for seed in range(40)]
    assert len(set(firsts)) == 4
    assert firsts == [game.new_game(seed, players=4).turn for seed in range(40)]


@pytest.mark.parametrize("name, bots", [("ludo", ("greedy", "expert")), ("trouble", ("expert", "greedy")),
                                        ("parcheesi", ("greedy", "random"))])
def test_the_bots_play_the_race_games(games, name, bots):
    """The computer players play a whole game of each (they see the throw, never the dice's
    future: a throw comes from the whole bag)."""
    game = games[name]
    state = game.new_game(3, players=2)
    players = [make_player(bot, 3, i) for i, bot in enumerate(bots)]
    final = play_game(game, state, players)
    assert final.winner is not None and _finished(game, final)


def _renamed(name: str, tmp_path) -> str:
    """A copy of bundled rule file `name` with every name renamed: colours, counters, named
    squares, filters, consequences (and the DSL texts that read them)."""
    data = yaml.safe_load((variants_dir() / f"{name}.yaml").read_text())
    colours = {c: f"colour_{i}" for i, c in enumerate(data["colours"])}
    words = {}
    words.update({n: f"count_{i}" for i, n in enumerate(data.get("counters", {}))})
    words.update({n: f"spot_{i}" for i, n in enumerate(data["board"].get("squares", {}))})

    def text(value: str) -> str:
        return re.sub(r"\b[a-z_]+\b", lambda m: words.get(m.group(0), m.group(0)), value)

    data["name"] = f"renamed {name}"
    data["colours"] = [colours[c] for c in data["colours"]]
    data["board"]["squares"] = {words[n]: square for n, square in data["board"].get("squares", {}).items()}
    data["counters"] = {words[n]: counter for n, counter in data.get("counters", {}).items()}
    data["filters"] = {f"filter_{i}": {**f, **{k: text(v) for k, v in f.items() if k in ("must", "prefer")}}
                       for i, f in enumerate(data.get("filters", {}).values())}
    after = {}
    for i, c in enumerate(data.get("after", {}).values()):
        c = dict(c)
        for key in ("when", "then"):
            if key in c:
                c[key] = text(c[key])
        c["add"] = {words[k]: text(str(v)) for k, v in c.get("add", {}).items()}
        after[f"after_{i}"] = c
    data["after"] = after
    data["win"] = text(data["win"])
    if data["turn"].get("redraw"):
        data["turn"]["redraw"]["when"] = text(data["turn"]["redraw"]["when"])
    path = tmp_path / f"renamed-{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


@pytest.mark.parametrize("name", GAMES)
def test_renamed_rules_play_the_same_games(games, name, tmp_path):
    """Nothing in Python names a game, a colour, a counter or a square: the renamed copy plays
    the same games from the same seeds (LU22, TR14, PA20: what the rule books do not play has
    no rule anywhere, so the files alone are the games)."""
    renamed = load_game(_renamed(name, tmp_path))
    assert renamed.colours[0] == "colour_0"
    for seed in range(3):
        original = play_random(games[name], seed, 4, check=None)
        other = play_random(renamed, seed, 4, check=None)
        assert original.final == other.final and original.choices == other.choices


def test_a_throw_lost_to_a_rule_names_the_rule():
    """LU13, PA7: a third six (third doubles) that had moves is lost to a filter; the printed
    game names it, where a throw with no move at all says only that it is lost."""
    for variant, seed, label in (("ludo", "1", "LU13: a third six in a row is lost"),
                                 ("parcheesi", "5", "PA7: the third doubles in a row is not moved")):
        lines = CliRunner().invoke(main, ["--auto", "-v", variant, "-s", seed, "-p", "2"]).output.splitlines()
        lost = [line for line in lines if "the throw is lost" in line]
        named = [line for line in lost if f"({label})" in line]
        assert named and len(named) < len(lost), (variant, lost)


def test_a_third_six_nothing_can_move_names_the_rule_that_ends_the_turn():
    """LU13, LU19: a six nothing can move still throws again, but not the third in a row: the
    printed game says why the turn ends there ('--seed 3', move 295: Yellow's third six)."""
    lines = CliRunner().invoke(main, ["--auto", "-v", "ludo", "-s", "3"]).output.splitlines()
    third = [line.split() for line in lines if line.strip().startswith("295 ")]
    assert third and third[0][1:3] == ["Yellow", "6"]
    assert " ".join(third[0][3:]) == "no legal move: the throw is lost (LU13: the third six ends the turn)"
    assert all("(LU13: the third six ends the turn)" not in line for line in lines if " 6  " not in line)


def test_a_bonus_no_pawn_can_move_is_said_as_not_played(tmp_path):
    """PA11, PA23: the capture's 20 spaces that no pawn can move are lost, and the moves report
    says so on the move ("unplayed"); the 10 of PA14 that is moved is listed under "after"."""
    state = tmp_path / "position.yaml"
    state.write_text("players: [yellow, blue, red, green]\nturn: yellow\ncard: \"2+3\"\npawns:\n"
                     "  yellow: [safety:5, track:28, track:40, track:40]\n  blue: [track:30, track:52, track:52]\n",
                     encoding="utf-8")
    report = json.loads(CliRunner().invoke(main, ["moves", "-v", "parcheesi", "--state", str(state), "--format",
                                                  "json"]).stdout)
    lost = {move["text"]: (move["after"], move.get("unplayed", [])) for move in report["moves"]}
    capture, home = "PA11: a capture earns 20 spaces", "PA14: a pawn reaching Home earns 10 spaces"
    assert lost["Yellow pawn track:28 -> track:30, bumps Blue (track:30); then Yellow pawn safety:5 -> home; then "
                "Yellow pawn track:40 -> track:50"] == ([home], [capture])
    assert lost["Yellow pawn track:28 -> track:30, bumps Blue (track:30); then Yellow pawn track:40 -> track:43; then "
                "Yellow pawn track:30 -> track:50"] == ([capture], [])
    assert all(not unplayed for after, unplayed in lost.values() if capture not in after + unplayed)
    text = CliRunner().invoke(main, ["moves", "-v", "parcheesi", "--state", str(state)]).stdout
    assert "      not played (no way): PA11: a capture earns 20 spaces" in text


def test_a_finishing_six_says_its_extra_throw_is_void(tmp_path):
    """LU13, LU14, LU24: a six that takes the last token Home still counts toward the sixes in
    a row (its consequence is listed for its counter), but no throw follows: the moves report
    says the extra throw is void, because the game is won (LU14) or the player has finished
    and sits out (LU24)."""
    state = tmp_path / "position.yaml"
    state.write_text("players: [red, green, yellow]\nturn: red\ncard: \"6\"\npawns:\n"
                     "  red: [track:6, home, home, home]\n  green: [track:40]\n  yellow: [track:30]\n", encoding="utf-8")
    six = "LU13: a six throws again"
    for rules, ended in (([], "the game is won"), (["--rule", "ludo/play-on.yaml"], "red has finished")):
        args = ["moves", "-v", "ludo", *rules, "--state", str(state)]
        (move,) = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)["moves"]
        assert move["after"] == [six] and move["no_extra"] == [six] and move["extra_cards"] == 0
        assert f"      after: {six} (no extra throw: {ended})" in CliRunner().invoke(main, args).stdout
    state.write_text("players: [red, green, yellow]\nturn: red\ncard: \"6\"\npawns:\n"
                     "  red: [track:6, track:10, home, home]\n  green: [track:40]\n  yellow: [track:30]\n",
                     encoding="utf-8")
    report = json.loads(CliRunner().invoke(main, ["moves", "-v", "ludo", "--state", str(state), "--format",
                                                  "json"]).stdout)
    assert all(move["after"] == [six] and "no_extra" not in move and move["extra_cards"] == 1
               for move in report["moves"])
