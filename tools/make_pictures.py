#!/usr/bin/env python3
"""Draw the pictures the README and docs/AUTHORING.md show, into docs/pictures/.

    python tools/make_pictures.py           # (re)write docs/pictures/
    python tools/make_pictures.py --check   # exit 1 (and say which) when a picture is out of date

Every picture is drawn by `sorry_rules.pictures` from bundled rule files, seeded games and
seeded simulations (one process, so the figures do not depend on the machine), so the same
tree draws the same bytes. tests/test_pictures.py checks that the committed pictures are
what this script draws now.

Contract: `pictures()` returns {file name: text}; it reads nothing but rule files (through
`compiler.load_game`) and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"
SIX_COLOURS = "six-colours"
MINI_GRID = "variants/grid/mini-grid.yaml"
GAMES = 100          # games per side of the plotted simulations (a small sample, quick to check)


def _track_position(spec: str, seed: int, players: int, plies: int, rules: tuple = ()):
    """A seeded game between random players, `plies` moves in, of `spec` with the overlays
    `rules`: (game, state, pawn names)."""
    from sorry_rules.compiler.build import load_game
    from sorry_rules.pictures.trackboard import labels_of
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import play_game
    from sorry_rules.records.pawnnames import PawnNames

    game = load_game(spec, rules)
    state = game.new_game(seed, players=players)
    names = [PawnNames.start(game, state.placement, labels_of(game.colours))]
    bots = [make_player("random", seed, seat) for seat in range(players)]
    final = play_game(game, state, bots, max_plies=plies,
                      on_turn=lambda turn, after: names.append(names[-1].after(turn.move, after.placement)))
    return game, final, names[-1]


def _grid_game(spec: str, seed: int, players: int):
    """A seeded grid game between random players, played to its end: the states and moves."""
    from sorry_rules.compiler.build import load_game
    from sorry_rules.engine.rng import Random

    game = load_game(spec, ())
    start = state = game.new_game(seed, players=players)
    choosers = [Random(seed, seat) for seat in range(players)]
    moves = []
    while not state.over and state.plies < 2000:
        legal = game.legal_moves(state)
        move = legal[choosers[state.turn].below(len(legal))] if len(legal) > 1 else legal[0]
        colour = state.seats[state.turn]
        state = game.apply(state, move)
        moves.append((colour, move, state))
    return game, start, moves


def _report(spec: str, rules: tuple, players: int, seed: int = 1) -> dict:
    from sorry_rules.simulation.simexec import run
    from sorry_rules.simulation.simreport import summary
    from sorry_rules.simulation.simulate import Setup, lineup_of, load_source
    from sorry_rules.base.limits import DEFAULT_MAX_PLIES

    source, game = load_source(spec, rules)
    setup = Setup(source, players, lineup_of(["random"], players), seed, DEFAULT_MAX_PLIES, False)
    tally = run({"a": (setup, GAMES)}, jobs=1, batch_size=GAMES)["a"]
    return summary(setup, tally, game)


def _replay() -> str:
    from sorry_rules.compiler.build import load_game
    from sorry_rules.pictures.replaypage import record_page
    from sorry_rules.players.registry import make_player
    from sorry_rules.players.runner import GameRecord, play_game
    from sorry_rules.records.gamelog import new_log

    game = load_game("standard", ())
    start = game.new_game(7, players=2)
    kept = GameRecord(7, start.seats, start.turn)
    final = play_game(game, start, [make_player("greedy", 7, s) for s in range(2)], record=kept)
    return record_page(new_log(game, "standard", (), 7, start, kept.choices, final), "standard, seed 7")


def pictures() -> dict:
    """{file name: text} of every picture (see the module docstring)."""
    from sorry_rules.authoring.gridoracle import describe_grid_move
    from sorry_rules.pictures import gridboard, plots, replaypage, trackboard

    out = {}
    game, state, names = _track_position("standard", 7, 4, 160)
    out["standard-board.svg"] = trackboard.board_svg(game, state, title="standard, seed 7, after 160 moves", names=names)
    game, state, names = _track_position(SIX_COLOURS, 3, 6, 300)
    out["six-colours-board.svg"] = trackboard.board_svg(game, state, title="six-colours, seed 3, after 300 moves",
                                                        names=names)
    game, state, names = _track_position("ludo", 5, 4, 160)  # two pawns on a start square
    out["ludo-board.svg"] = trackboard.board_svg(game, state, title="ludo, seed 5, after 160 moves", names=names)
    game, state, names = _track_position("parcheesi", 7, 4, 80)  # two blockades
    out["parcheesi-board.svg"] = trackboard.board_svg(game, state, title="parcheesi, seed 7, after 80 moves",
                                                      names=names)
    game, state, names = _track_position("trouble", 3, 4, 60, ("trouble/warp.yaml", "trouble/double-trouble.yaml"))
    out["trouble-warp-board.svg"] = trackboard.board_svg(game, state, title="trouble with warp and Double Trouble "
                                                         "spaces, seed 3, after 60 moves", names=names)
    game, start, moves = _grid_game("sequence", 5, 2)
    out["sequence-board.svg"] = gridboard.board_svg(game, moves[-1][2], title="sequence, seed 5, the end of the game")
    game, start, moves = _grid_game(MINI_GRID, 2, 3)
    out["mini-grid-board.svg"] = gridboard.board_svg(game, moves[-1][2], title="mini-grid, seed 2, the end of the game")
    frames = replaypage.grid_frames(game, start, moves, describe_grid_move)
    final = moves[-1][2]
    end = (f"{game.colours[final.seats[final.winner]]} wins after {final.plies} moves." if final.winner is not None
           else f"No winner after {final.plies} moves: every player passed for a whole round.")
    out["mini-grid-replay.html"] = replaypage.page(game, frames, "mini-grid: a replay", "mini-grid, seed 2, random players",
                                                   end)
    out["standard-replay.html"] = _replay()
    a = _report("standard", (), 4)
    b = _report("standard", ("house/quick-game.yaml",), 4)
    out["simulate.svg"] = plots.simulation_svg(a)
    out["compare.svg"] = plots.comparison_svg({"a": a, "b": b})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/pictures/ is up to date")
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default docs/pictures)")
    args = parser.parse_args(argv)
    drawn = pictures()
    if args.check:
        stale = [name for name, text in drawn.items()
                 if not (args.out / name).exists() or (args.out / name).read_text(encoding="utf-8") != text]
        for name in stale:
            print(f"{args.out / name} is out of date: run python tools/make_pictures.py", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in drawn.items():
        (args.out / name).write_text(text, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
