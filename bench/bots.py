"""Strength of the computer players: seeded games between bots, win rates, a ladder with ratings.

For each pairing A:B (default: greedy vs random, then expert vs greedy) it plays N games of a
variant (default: standard, 2 players). Game i uses seed i (the deck, the first player and
the bots' tie-breaks derive from it) and bot A's seat rotates with the seed (seat i mod
players), so A sits in every position equally often. `--lineup one` (the default) gives A
that one seat and B every other; `--lineup teams` gives A every seat of that seat's team (a
partnership: A's team against B's). Games run in parallel worker processes (default: every
core). It prints, per pairing, A's wins (a win of A's side), its win rate with a 95% Wilson
confidence interval, the mean game length and the games per second; for a variant that
scores, A's mean score against B's mean score with a 95% interval of the difference (a
paired test over the games); and one JSON line per pairing.

A bot is a name from `players.registry` (`random`, `greedy`, `expert`, `search`, `easy`,
`medium`, `hard`), optionally with its budget after a slash: `search/60` (60 playouts a
decision), `search/60/8` (and a horizon of 8 plies), `expert/400` (400 nodes).

`--ladder` plays the ladder instead: random, greedy, the expert and the search player at
two budgets (`medium` and its default), in pairings on standard (2 players), partnership (teams), points (2 players),
Sequence (2 players) and one house rule; a table of win rates, and per rule file an
Elo-style rating of every player fitted from all its 2-player pairings (Bradley-Terry,
greedy at 1500). `--markdown` prints the tables for bench/README.md.

    python bench/bots.py                              # 1,000 + 1,000 games
    python bench/bots.py --games 200 --pair search/120:greedy
    python bench/bots.py --players 4 --pair search:greedy --games 400       # one search player, three greedy
    python bench/bots.py --variant partnership --lineup teams --pair search:greedy
    python bench/bots.py --ladder --games 200 --processes 2 --markdown
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

_GAMES: dict = {}
_OPTIONS: dict = {}

#: the ladder: (rule file, players, lineup, pairings)
LADDER = (
    ("standard", 2, "one", ("greedy:random", "expert:greedy", "medium:greedy", "search:greedy", "search:expert",
                            "search:medium")),
    ("partnership", 4, "teams", ("greedy:random", "expert:greedy", "search:greedy")),
    ("points", 2, "one", ("greedy:random", "expert:greedy", "medium:greedy", "search:greedy")),
    ("sequence", 2, "one", ("greedy:random", "expert:greedy", "medium:greedy", "search:greedy")),
    ("house/mercy-start", 2, "one", ("greedy:random", "expert:greedy", "search:greedy")),
)


def game_of(variant: str):
    """The compiled `variant`, loaded once per process."""
    from sorry_rules.compiler import load_game

    found = _GAMES.get(variant)
    if found is None:
        found = _GAMES[variant] = load_game(variant)
    return found


def _init(options: dict) -> None:
    global _OPTIONS
    _OPTIONS = options


def bot_options(spec: str) -> tuple[str, dict]:
    """`search/60/8` -> ("search", {"playouts": 60, "horizon": 8}); `expert/400` -> nodes."""
    kind, *budget = spec.split("/")
    options = dict(_OPTIONS.get(kind, {}))
    if budget and kind == "expert":
        options["nodes"] = int(budget[0])
    elif budget:
        options["playouts"] = int(budget[0])
        if len(budget) > 1:
            options["horizon"] = int(budget[1])
        if len(budget) > 2:
            options["caution"] = float(budget[2])
    return kind, options


def _make(spec: str, seed: int, seat: int):
    from sorry_rules.players.registry import make_player

    kind, options = bot_options(spec)
    return make_player(kind, seed, seat, **options)


def _seats_of_a(game, seats: tuple, seat_a: int, lineup: str) -> set:
    if lineup == "teams":
        team = game.team_of[seats[seat_a]]
        return {seat for seat, colour in enumerate(seats) if colour in team}
    return {seat_a}


def play_one(task: tuple) -> tuple:
    """(A, B, seed, players, lineup, variant) -> (seed, A's side won (None: no winner), plies,
    A's mean score, B's mean score)."""
    from sorry_rules.players.runner import play_game

    a, b, seed, players, lineup, variant = task
    game = game_of(variant)
    state = game.new_game(seed, players=players)
    mine = _seats_of_a(game, state.seats, seed % players, lineup)
    bots = [_make(a if seat in mine else b, seed, seat) for seat in range(players)]
    final = play_game(game, state, bots)
    if final.winner is None:
        return seed, None, final.plies, 0.0, 0.0
    won = final.winner in mine
    score_a = score_b = 0.0
    outcome = game.outcome(final) if hasattr(game, "outcome") else None
    if outcome is not None and outcome.scores:
        score_a = sum(outcome.scores[s][0] for s in mine) / len(mine)
        others = [s for s in range(players) if s not in mine]
        score_b = sum(outcome.scores[s][0] for s in others) / len(others)
    return seed, won, final.plies, score_a, score_b


def wilson(wins: int, n: int, z: float = 1.96) -> tuple:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list, z: float = 1.96) -> tuple:
    """(mean, low, high): a normal 95% interval of the mean of `values`."""
    n = len(values)
    if not n:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1))
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def run_pair(pool, a: str, b: str, games: int, players: int, first_seed: int, lineup: str = "one",
             variant: str = "standard") -> dict:
    tasks = [(a, b, first_seed + i, players, lineup, variant) for i in range(games)]
    start = time.perf_counter()
    results = pool.map(play_one, tasks, chunksize=max(1, games // 64))
    seconds = time.perf_counter() - start
    wins = sum(1 for r in results if r[1])
    unfinished = sum(1 for r in results if r[1] is None)
    low, high = wilson(wins, games)
    out = {
        "variant": variant, "first": a, "second": b, "games": games, "players": players, "lineup": lineup,
        "wins": wins, "win_rate": round(wins / games, 4), "ci95": [round(low, 4), round(high, 4)],
        "unfinished": unfinished, "mean_plies": round(sum(r[2] for r in results) / games, 1),
        "seconds": round(seconds, 1), "games_per_second": round(games / seconds, 3),
    }
    finished = [r for r in results if r[1] is not None]
    if any(r[3] or r[4] for r in finished):
        diff, d_low, d_high = mean_interval([r[3] - r[4] for r in finished])
        out["score"] = {"first": round(sum(r[3] for r in finished) / len(finished), 2),
                        "second": round(sum(r[4] for r in finished) / len(finished), 2),
                        "difference": round(diff, 2), "ci95": [round(d_low, 2), round(d_high, 2)]}
    return out


def describe(r: dict, processes: int) -> str:
    a, b = r["first"], r["second"]
    text = (f"{r['variant']}, {r['players']} players ({r['lineup']}): {a} vs {b}: {a} won {r['wins']}/{r['games']} = "
            f"{100 * r['win_rate']:.1f}% (95% CI {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%), "
            f"{r['mean_plies']} moves/game, {r['games_per_second']} games/s on {processes} processes")
    score = r.get("score")
    if score:
        text += (f"; mean score {score['first']} against {score['second']}, difference {score['difference']} "
                 f"(95% CI {score['ci95'][0]} to {score['ci95'][1]})")
    return text


def elo(rows: list) -> dict:
    """Elo-style ratings from 2-sided pairings: a Bradley-Terry fit (minorise-maximise), half a
    win and half a loss added to every pairing so that no rating is infinite, greedy at 1500."""
    names = sorted({r["first"] for r in rows} | {r["second"] for r in rows})
    wins = {n: 0.0 for n in names}
    games: dict = {}
    for r in rows:
        a, b, n, w = r["first"], r["second"], r["games"] - r["unfinished"] + 1, r["wins"] + 0.5
        wins[a] += w
        wins[b] += n - w
        games[(a, b)] = games.get((a, b), 0) + n
        games[(b, a)] = games.get((b, a), 0) + n
    strength = {n: 1.0 for n in names}
    for _ in range(2000):
        new = {}
        for i in names:
            denominator = sum(g / (strength[i] + strength[j]) for (x, j), g in games.items() if x == i)
            new[i] = wins[i] / denominator if denominator else strength[i]
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {n: v / scale for n, v in new.items()}
    anchor = strength.get("greedy", 1.0)
    return {n: round(1500 + 400 * math.log10(strength[n] / anchor)) for n in names}


def markdown(rows: list, ratings: dict) -> str:
    lines = ["| rule file | players | A | B | games | A wins | 95% interval | A's score - B's (95% interval) | s/game |",
             "|---|--:|---|---|--:|--:|--:|--:|--:|"]
    for r in rows:
        score = r.get("score")
        diff = f"{score['difference']:+.1f} ({score['ci95'][0]:+.1f} to {score['ci95'][1]:+.1f})" if score else ""
        lines.append(f"| {r['variant']} | {r['players']} {r['lineup']} | {r['first']} | {r['second']} | {r['games']} | "
                     f"{100 * r['win_rate']:.1f}% | {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}% | {diff} | "
                     f"{1 / r['games_per_second']:.2f} |")
    lines += ["", "| rule file | ratings (greedy = 1500) |", "|---|---|"]
    for variant, rating in ratings.items():
        ranked = ", ".join(f"{n} {v}" for n, v in sorted(rating.items(), key=lambda kv: -kv[1]))
        lines.append(f"| {variant} | {ranked} |")
    return "\n".join(lines)


def ladder(pool, games: int, first_seed: int, processes: int) -> tuple[list, dict]:
    rows, ratings = [], {}
    for variant, players, lineup, pairs in LADDER:
        done = []
        for pair in pairs:
            a, b = pair.split(":")
            r = run_pair(pool, a, b, games, players, first_seed, lineup, variant)
            print(describe(r, processes), flush=True)
            print(json.dumps({"processes": processes, **r}), flush=True)
            done.append(r)
        rows += done
        ratings[variant] = elo(done)
        print(f"{variant} ratings: {ratings[variant]}", flush=True)
    return rows, ratings


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--lineup", choices=("one", "teams"), default="one",
                    help="one: bot A in one seat, B in the others; teams: A in every seat of that seat's team")
    ap.add_argument("--pair", action="append", metavar="A:B",
                    help="bot A against bot B (repeatable; default greedy:random and expert:greedy)")
    ap.add_argument("--ladder", action="store_true", help="play the ladder (module docstring)")
    ap.add_argument("--markdown", action="store_true", help="with --ladder: print the tables in Markdown")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--expert-nodes", type=int, default=None, help="node budget of the expert bot")
    ap.add_argument("--expert-depth", type=int, default=None, help="search depth (draws) of the expert bot")
    ap.add_argument("--expert-seconds", type=float, default=None,
                    help="time budget per move of the expert bot (results then depend on the machine)")
    args = ap.parse_args(argv)
    expert = {}
    if args.expert_nodes is not None:
        expert["nodes"] = args.expert_nodes
    if args.expert_depth is not None:
        expert["depth"] = args.expert_depth
    if args.expert_seconds is not None:
        expert["seconds"] = args.expert_seconds
    options = {"expert": expert}
    with multiprocessing.Pool(args.processes, initializer=_init, initargs=(options,)) as pool:
        if args.ladder:
            rows, ratings = ladder(pool, args.games, args.seed, args.processes)
            if args.markdown:
                print(markdown(rows, ratings))
            return 0
        for pair in args.pair or ["greedy:random", "expert:greedy"]:
            a, b = pair.split(":", 1)
            r = run_pair(pool, a, b, args.games, args.players, args.seed, args.lineup, args.variant)
            print(describe(r, args.processes), flush=True)
            print(json.dumps({"processes": args.processes, **r}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
