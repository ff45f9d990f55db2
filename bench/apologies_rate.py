#!/usr/bin/env python3
"""Measure how fast the PyPI package ``apologies`` plays random Sorry! games.

This is the reference point for sorry-rules' own throughput numbers: the same
job (complete games, uniformly random legal moves, standard rules) done by a
hand-written Python engine.

What is timed
-------------
``apologies`` (tested with 0.4.2) offers two ways to play a game:

* ``Engine.play_next()`` -- the public flow.  Every turn it calls
  ``Game.copy()`` (a full cattrs unstructure/structure round trip of the game,
  *including the ever-growing history list*, so it gets slower as the game goes
  on) and every move it calls ``Game.create_player_view()``, which copies every
  ``Player`` the same way.

* The ``Rules`` / ``Game`` objects directly, which is what this script times by
  default (``api="lowlevel"``).  Per game::

      game  = apologies.game.Game(playercount=n)
      rules = apologies.rules.Rules(GameMode.STANDARD)
      rules.start_game(game)
      first = random.choice(colors[:n])          # as Engine's default `first`

  and per move (turn order is a plain rotation starting at ``first``, the same
  as ``apologies.util.CircularQueue``)::

      view  = PlayerView(player, {c: p for c, p in game.players.items() if c != color})
              # (the opponents dicts are built once per game: same live objects)
      card  = game.deck.draw()
      moves = rules.construct_legal_moves(view, card=card)
      move  = random.choice(moves)               # == RandomInputSource.choose_move
      if not move.actions:                       # forfeit, as Engine._execute_move_standard
          game.deck.discard(card); game.track("Turn is forfeit; ...", player, card); turn over
      else:
          rules.execute_move(game, player, move)  # applies actions + side effects, tracks history
          game.deck.discard(card)
          turn over unless rules.draw_again(card) and not game.completed

  i.e. exactly the body of ``Engine.play_next`` / ``choose_next_move`` /
  ``_execute_move_standard`` minus the two copies: the ``PlayerView`` is built
  from the *live* ``Player`` objects instead of via ``create_player_view``
  (safe in standard mode: hands are always empty, and
  ``construct_legal_moves`` only reads the view; every ``Position`` it puts in
  a ``Move`` is a fresh copy), and there is no ``Game.copy()`` rollback
  snapshot.  The engine's ``move not in legal_moves`` sanity check is also
  skipped since the move is picked from the list.  No ``copy.deepcopy`` or
  cattrs copy of the Game or of a Player happens anywhere in this loop.  What
  remains is apologies' own per-move cost inside ``construct_legal_moves``
  (including small ``Position.copy()`` cattrs round trips for candidate
  target squares, which are part of its move generator and can't be avoided
  without patching it): ``Move`` objects with a ``uuid4`` id, the O(n^2) duplicate
  filter in ``construct_legal_moves``, a ``History`` entry with an
  ``arrow.utcnow()`` timestamp for every card played, and ``game.completed``
  checks.

``api="lowlevel-view"`` is the same loop but builds each view with
``game.create_player_view(color)`` (one cattrs copy of every Player per
move) -- i.e. Engine.play_next minus only its ``Game.copy()`` snapshot.
This is roughly the "about 12 four-player games/s" figure.

``api="engine"`` times the public ``Engine(GameMode.STANDARD,
[Character(..., RandomInputSource())] * n)`` + ``start_game()`` +
``while not completed: play_next()`` flow instead, for comparison.

Both flows consume the global ``random`` module in exactly the same order, so
for a given seed they play the *same* games (``--check`` verifies this).

Randomness: apologies draws cards with the global ``random`` module, so
``measure`` seeds it (``random.seed(seed)``) and restores the previous global
state afterwards.  ``Move.id`` uses ``uuid4`` (os.urandom) but never affects
play.

Counting: ``turns`` = player turns (a 2 followed by its extra draw is one
turn); ``cards`` = cards drawn (= moves executed or forfeited).

Usage::

    pip install apologies
    python bench/apologies_rate.py --players 4 --games 50
    python bench/apologies_rate.py --players 2 --games 60 --batches 5 --seed 1
    python bench/apologies_rate.py --players 4 --games 2 --batches 3 --api engine   # slow
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

try:
    import apologies  # noqa: F401
    from apologies.game import Game, GameMode, PlayerColor, PlayerView
    from apologies.rules import Rules

    HAVE_APOLOGIES = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_APOLOGIES = False


def apologies_version() -> str | None:
    if not HAVE_APOLOGIES:
        return None
    try:
        from importlib.metadata import version

        return version("apologies")
    except Exception:  # noqa: BLE001
        return "unknown"


def _play_lowlevel(players: int, rules: "Rules", copy_views: bool = False) -> tuple[int, int, "Game"]:
    """Play one complete random game; return (turns, cards, finished game).

    copy_views=True builds each move's PlayerView with game.create_player_view()
    (cattrs copies of every Player), as Engine.play_next does.
    """
    rand_choice = random.choice
    colors = list(PlayerColor)[:players]
    first = rand_choice(colors)  # Engine's default `first`
    game = Game(playercount=players)
    rules.start_game(game)
    deck = game.deck
    players_by_color = game.players
    order = colors[colors.index(first):] + colors[: colors.index(first)]
    # Opponent dicts never change identity (players are mutated in place),
    # so build them once per game.
    opponents = {c: {o: p for o, p in players_by_color.items() if o != c} for c in colors}
    construct = rules.construct_legal_moves
    execute = rules.execute_move
    draw_again = rules.draw_again
    turns = 0
    cards = 0
    i = 0
    n = len(order)
    while True:
        color = order[i]
        i = (i + 1) % n
        player = players_by_color[color]
        turns += 1
        while True:
            view = game.create_player_view(color) if copy_views else PlayerView(player, opponents[color])
            card = deck.draw()
            cards += 1
            moves = construct(view, card=card)
            move = rand_choice(moves)
            if not move.actions:
                deck.discard(card)
                game.track(f"Turn is forfeit; discarded card {card.cardtype.value}", player, card)
                break
            execute(game, player, move)
            deck.discard(card)
            if game.completed:
                return turns, cards, game
            if not draw_again(card):
                break


def _play_engine(players: int) -> tuple[int, int, "Game"]:
    """Play one game through the public Engine flow (copies every turn)."""
    from apologies.engine import Character, Engine
    from apologies.source import RandomInputSource

    chars = [Character(f"p{k}", RandomInputSource()) for k in range(players)]
    engine = Engine(GameMode.STANDARD, chars)
    engine.start_game()
    turns = 0
    while not engine.completed:
        engine.play_next()
        turns += 1
    game = engine.game
    cards = sum(p.turns for p in game.players.values())  # one track() per card played/forfeited
    return turns, cards, game


def _history_signature(game: "Game") -> list[tuple]:
    return [(h.action, h.color, h.card) for h in game.history]


def check_equivalence(players: int, games: int, seed: int) -> bool:
    """Verify the low-level loop plays exactly the games Engine.play_next plays."""
    from apologies.engine import Character, Engine
    from apologies.source import RandomInputSource

    saved = random.getstate()
    try:
        ok = True
        for g in range(games):
            random.seed(seed * 1_000_003 + g)
            chars = [Character(f"p{k}", RandomInputSource()) for k in range(players)]
            engine = Engine(GameMode.STANDARD, chars)
            engine.start_game()
            while not engine.completed:
                engine.play_next()
            ref = _history_signature(engine.game)

            random.seed(seed * 1_000_003 + g)
            _, _, game = _play_lowlevel(players, Rules(GameMode.STANDARD))
            mine = _history_signature(game)
            # the histories (minus timestamps) must be identical entry for entry
            if ref != mine:
                ok = False
                print(f"game {g}: MISMATCH ({len(ref)} vs {len(mine)} history entries)", file=sys.stderr)
        return ok
    finally:
        random.setstate(saved)


APIS = ("lowlevel", "lowlevel-view", "engine")


def measure(players: int, games: int, batches: int, seed: int, api: str = "lowlevel") -> dict:
    """Time `batches` batches of `games` complete random games each.

    Returns a JSON-serialisable dict; games_per_second_median is the median of
    the per-batch rates.  The global `random` state is seeded with `seed` and
    restored afterwards.
    """
    if not HAVE_APOLOGIES:
        raise RuntimeError("apologies is not installed: pip install apologies")
    if api not in APIS:
        raise ValueError(f"api must be one of {APIS}")
    saved = random.getstate()
    rules = Rules(GameMode.STANDARD)
    # Untimed warm-up game: cattrs generates its (un)structure functions lazily
    # on first use, which would otherwise be charged to the first batch.
    random.seed(seed ^ 0x5EED)
    _play_lowlevel(players, rules, copy_views=True)
    random.seed(seed)
    samples: list[float] = []
    total_turns = 0
    total_cards = 0
    played = 0
    wins: dict[str, int] = {}
    try:
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(games):
                if api == "lowlevel":
                    turns, cards, game = _play_lowlevel(players, rules)
                elif api == "lowlevel-view":
                    turns, cards, game = _play_lowlevel(players, rules, copy_views=True)
                else:
                    turns, cards, game = _play_engine(players)
                total_turns += turns
                total_cards += cards
                played += 1
                winner = game.winner.color.value
                wins[winner] = wins.get(winner, 0) + 1
            samples.append(games / (time.perf_counter() - t0))
    finally:
        random.setstate(saved)
    return {
        "engine": "apologies",
        "available": True,
        "version": apologies_version(),
        "api": api,
        "players": players,
        "games": games,
        "batches": batches,
        "seed": seed,
        "games_per_second_median": round(statistics.median(samples), 3),
        "samples": [round(s, 3) for s in samples],
        "min_batch_seconds": round(games / max(samples), 3),
        "mean_turns": round(total_turns / played, 2),
        "mean_cards": round(total_cards / played, 2),
        "wins": wins,
        "python": platform.python_version(),
    }


def games_per_second(players: int, seconds: float, seed: int) -> tuple[float, float, int]:
    """Random games of the copy-free loop (`api="lowlevel"`) for about `seconds` after one
    untimed warm-up game: (games per wall second, games per CPU second, games). The global
    `random` state is seeded with `seed` and restored afterwards."""
    if not HAVE_APOLOGIES:
        raise RuntimeError("apologies is not installed: pip install apologies")
    saved = random.getstate()
    rules = Rules(GameMode.STANDARD)
    try:
        random.seed(seed ^ 0x5EED)
        _play_lowlevel(players, rules)
        random.seed(seed)
        games = 0
        wall, cpu = time.perf_counter(), time.process_time()
        while True:
            _play_lowlevel(players, rules)
            games += 1
            if time.perf_counter() - wall >= seconds:
                break
        return games / (time.perf_counter() - wall), games / (time.process_time() - cpu), games
    finally:
        random.setstate(saved)


def midgame_samples(count: int = 400, seed: int = 10_000, players: int = 4) -> list:
    """(rules, view, card) decisions of seeded random 4-player games (the low-level loop),
    taken at every 20th card from card 60 to 240 as sorry-rules' bench/engine_rate.py takes
    its positions; each view is a copy (`create_player_view`), so later play cannot change it."""
    if not HAVE_APOLOGIES:
        raise RuntimeError("apologies is not installed: pip install apologies")
    saved = random.getstate()
    rules = Rules(GameMode.STANDARD)
    out: list = []
    try:
        random.seed(seed)
        while len(out) < count:
            _play_sampled(players, rules, out)
    finally:
        random.setstate(saved)
    return out[:count]


def _play_sampled(players: int, rules: "Rules", out: list) -> None:
    """One game of `_play_lowlevel`'s loop, appending (rules, view, card) at cards 60..240."""
    colors = list(PlayerColor)[:players]
    first = random.choice(colors)
    game = Game(playercount=players)
    rules.start_game(game)
    order = colors[colors.index(first):] + colors[: colors.index(first)]
    cards, i = 0, 0
    while cards < 240:
        color = order[i]
        i = (i + 1) % len(order)
        player = game.players[color]
        while True:
            view = game.create_player_view(color)
            card = game.deck.draw()
            cards += 1
            if cards >= 60 and cards % 20 == 0:
                out.append((rules, view, card))
            move = random.choice(rules.construct_legal_moves(view, card=card))
            if move.actions:
                rules.execute_move(game, player, move)
            game.deck.discard(card)
            if game.completed:
                return
            if not move.actions or not rules.draw_again(card):
                break


def movegen_per_second(samples: list, seconds: float = 2.0) -> float:
    """Legal-move lists (`Rules.construct_legal_moves`) per wall-clock second over `samples`
    (from `midgame_samples`), repeated for about `seconds`."""
    calls = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for rules, view, card in samples:
            rules.construct_legal_moves(view, card=card)
        calls += len(samples)
    return calls / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=50, help="games per timed batch")
    ap.add_argument("--batches", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--api", choices=APIS, default="lowlevel")
    ap.add_argument("--check", type=int, metavar="K", default=0,
                    help="first verify on K seeded games that the low-level loop replays Engine.play_next exactly")
    args = ap.parse_args(argv)
    if not HAVE_APOLOGIES:
        print("apologies is not installed; to compare against it run: pip install apologies", file=sys.stderr)
        print(json.dumps({"engine": "apologies", "available": False}))
        return 0
    if args.check:
        ok = check_equivalence(args.players, args.check, args.seed)
        print(f"equivalence check on {args.check} games: {'OK' if ok else 'FAILED'}", file=sys.stderr)
        if not ok:
            return 1
    print(json.dumps(measure(args.players, args.games, args.batches, args.seed, args.api)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
