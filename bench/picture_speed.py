"""How long drawing takes, and how large replay pages grow (never asserted by tests).

Measures, per rule file, drawing its board in this process (`pictures.boards.board_svg`,
warm: the game compiled, median of --runs), reading and compiling the rule file and drawing
(imports done), the whole `sorry-play render` command in fresh processes (start-up,
imports, compiling the rule file, drawing), and the replay page of the
longest of --seeds random-bot games of standard (4 players): its bytes and bytes per move.
Prints one JSON object.

    python bench/picture_speed.py [--runs 7] [--seeds 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

SPECS = ("standard", "points", "tests/rules/six-colours.yaml", "sequence", "variants/grid/mini-grid.yaml")


def _longest_game(seeds: int):
    from sorry_rules.compiler.build import load_game
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game

    game = load_game("standard", ())
    best = None
    for seed in range(seeds):
        start = game.new_game(seed, players=4)
        moves: list = []
        play_game(game, start, [make_player("random", seed, s) for s in range(4)],
                  on_turn=lambda turn, after: moves.append((turn, after)))
        if best is None or len(moves) > len(best[2]):
            best = (seed, start, moves)
    return game, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=30)
    args = parser.parse_args()

    from sorry_rules.compiler.build import load_game
    from sorry_rules.pictures import boards, replaypage

    out: dict = {"draw_seconds": {}, "compile_and_draw_seconds": {}, "render_command_seconds": {}}
    for spec in SPECS:
        game = load_game(spec, ())
        times, whole = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            boards.board_svg(game)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            boards.board_svg(load_game(spec, ()))
            whole.append(time.perf_counter() - start)
        out["draw_seconds"][spec] = round(statistics.median(times), 5)
        out["compile_and_draw_seconds"][spec] = round(statistics.median(whole), 4)
        cold = []
        for _ in range(max(1, args.runs // 2)):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "sorry_rules", "render", "--variant", spec], capture_output=True)
            cold.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(done.stderr.decode())
        out["render_command_seconds"][spec] = round(statistics.median(cold), 3)
    game, (seed, start, moves) = _longest_game(args.seeds)
    began = time.perf_counter()
    page = replaypage.page(game, replaypage.track_frames(game, start, moves), "bench")
    out["replay_page"] = {"seed": seed, "moves": len(moves), "bytes": len(page.encode()),
                          "bytes_per_move": round(len(page.encode()) / len(moves), 1),
                          "seconds": round(time.perf_counter() - began, 3)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
