"""How much of a search's strength is information: a search that sees the real pile.

A diagnostic for the strength targets of the search player, not a player anyone can pick.
The *seer* plays one seat against greedy players: for each of its moves it copies the real
table (the true pile, the other hands), plays the move, lets every seat play the greedy
player's move for `horizon` plies on that copy and scores the end with the search player's
own win chance (`players.winchance`). One playout a move is exact: against greedy players
the future it simulates is the future that comes, up to the horizon, apart from its own
later moves (greedy) and ties (the greedy players' tie-breaks differ). The honest search
player (`players.search`) does the same over guessed deals of the cards it cannot see.

So the seer's win rate bounds what this kind of search (greedy continuations and the
fitted win chance at the horizon) can reach at that horizon; its gap to the honest search
is what the hidden cards are worth to it. Horizon 0 is the one-ply greedy choice scored by
the win chance.

    python bench/information_ceiling.py --games 400 --horizon 0 --horizon 2 --horizon 8
    python bench/information_ceiling.py --players 4 --horizon 8 --horizon 16 --json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bots import game_of, wilson  # noqa: E402  (bench/bots.py, beside this script)

class Seer:
    """Chooses by one greedy playout of `horizon` plies per move on a copy of the real table."""

    def __init__(self, seed: int, seat: int, players: int, horizon: int):
        from sorry_rules.players.greedy import GreedyPlayer

        self.horizon = horizon
        self.policy = [GreedyPlayer("seer-playout", seed, s) for s in range(players)]

    def pick(self, table, options) -> int:
        from sorry_rules.players.winchance import win_chance_for

        game, state, colour = table.game, table.state(), table.seats[table.turn]
        chance = win_chance_for(game, len(table.seats))
        best, best_value = 0, -1.0
        for i, option in enumerate(options):
            copy = game.table(state)
            copy.play(option)
            end = copy.plies + self.horizon
            while not copy.over and copy.plies < end:
                moves = copy.options()
                if not moves:
                    break
                copy.play(moves[self.policy[copy.turn].pick(copy, moves) if len(moves) > 1 else 0])
            value = chance.of(copy, colour)
            if value > best_value + 1e-12:
                best, best_value = i, value
        return best


def play_one(task: tuple) -> bool:
    """(variant, players, horizon, seed) -> whether the seer's side won."""
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game

    variant, players, horizon, seed = task
    game = game_of(variant)
    state = game.new_game(seed, players=players)
    mine = seed % players
    bots = [Seer(seed, s, players, horizon) if s == mine else make_player("greedy", seed, s) for s in range(players)]
    final = play_game(game, state, bots)
    return final.winner is not None and game.team_of[final.seats[final.winner]] == game.team_of[final.seats[mine]]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="first seed (game i: seed + i; seer in seat seed mod players)")
    parser.add_argument("--horizon", type=int, action="append", help="plies after the move (repeatable; default 0, 2, 8)")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    horizons = args.horizon or [0, 2, 8]
    rows = []
    with multiprocessing.Pool(args.processes) as pool:
        for horizon in horizons:
            tasks = [(args.variant, args.players, horizon, args.seed + i) for i in range(args.games)]
            start = time.perf_counter()
            wins = sum(pool.map(play_one, tasks, chunksize=max(1, args.games // 64)))
            low, high = wilson(wins, args.games)
            row = {"variant": args.variant, "players": args.players, "horizon": horizon, "games": args.games,
                   "wins": wins, "win_rate": round(wins / args.games, 4), "ci95": [round(low, 4), round(high, 4)],
                   "seconds": round(time.perf_counter() - start, 1)}
            rows.append(row)
            if not args.json:
                print(f"{args.variant}, {args.players} players: the seer (horizon {horizon}) vs greedy won {wins}/"
                      f"{args.games} = {100 * wins / args.games:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)",
                      flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
