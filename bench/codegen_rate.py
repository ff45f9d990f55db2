"""Generated move functions against the interpreter and the limit_sorry yardstick, in one run.

Each round times, one after another so that machine noise hits all alike:
- random games per second (uniform among the distinct legal moves, until someone wins) of
  standard Sorry! for 4 and 2 players: the interpreter alone (`Game.use_fast_moves(None)`,
  `play_game`'s own loop), the generated moves (`play_game`), and limit_sorry.py
  (a hand-specialised standard-only engine, `/work/shared/bench/limit_sorry.py`), same policy;
- legal-move sets per second over mid-game positions (bench/engine_rate.py's sample) for the
  interpreter, the generated moves and the flat functions, and limit_sorry's own movegen
  figure (over its own mid-game samples);
then, with `--variants`, the cost per card played (microseconds of CPU per ply of random
4-player games) of every bundled track variant and house rule with the generated moves, of
Sequence (also 2 and 3 players) and every grid rule file, and its ratio to standard's (rounds
interleaved across the variants too). Medians of the rounds; CPU time per figure as well as
wall.

Games: "generated" is `play_game` (the flat loop, `players.flatloop`, for standard),
"fastloop" the candidates loop it replaced. Move generation: "generated movegen" counts
`game.legal_moves(state)` calls (full `Move`s with their placements, from a `State`);
"flat movegen" counts calls of the flat move functions on prepared flat positions
(`FlatMoves.prepared`, outside the timing): compact candidates, as limit_sorry counts its own.

    python bench/codegen_rate.py                      # 5 rounds of ~2 s per figure
    python bench/codegen_rate.py --rounds 7 --variants
    python bench/codegen_rate.py --limit /path/to/limit_sorry.py --json
    python bench/codegen_rate.py --rounds 3 --seconds 1 --only points --only draw-two
    python bench/codegen_rate.py --rounds 3 --seconds 1 --only sequence --only grid/

`--only SUBSTRING` (repeatable) times only the cost per card of the variants whose label holds
one of the substrings, and standard's as the reference; the standard-only figures are skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_rate import mid_game_positions  # noqa: E402

from sorry_rules.compiler import load_game  # noqa: E402
from sorry_rules.players import fastloop  # noqa: E402
from sorry_rules.players.protocol import RandomPlayer  # noqa: E402
from sorry_rules.players.runner import Turn, play_game  # noqa: E402
from sorry_rules.rules.loader import bundled_names  # noqa: E402

LIMIT = "/work/shared/bench/limit_sorry.py"


def games_rate(game, players: int, seconds: float, first_seed: int) -> tuple[float, float, int, int]:
    """Random games for about `seconds`: (games/s wall, games/s CPU, games, plies)."""
    games = plies = 0
    wall, cpu = time.perf_counter(), time.process_time()
    seed = first_seed
    while True:
        final = play_game(game, game.new_game(seed, players=players), [RandomPlayer(seed, s) for s in range(players)])
        games += 1
        plies += final.plies
        seed += 1
        if time.perf_counter() - wall >= seconds:
            break
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu), games, plies


def movegen_rate(game, positions, seconds: float) -> float:
    """Legal-move sets per wall-clock second over `positions` (repeated for about `seconds`),
    as limit_sorry measures its own."""
    legal_moves = game.legal_moves
    calls = 0
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        for state in positions:
            legal_moves(state)
        calls += len(positions)
    return calls / (time.perf_counter() - wall)


def flat_samples(game, positions) -> list:
    """(function, P, occ, KP) per position: the flat move function of its card and player and
    the flat position (`FlatMoves.prepared`), built outside the timing, as limit_sorry
    prepares its own samples."""
    flat = game.fast_moves.flat
    return [flat.prepared(state.placement, state.card, state.seats[state.turn]) for state in positions]


def flat_movegen_rate(samples, seconds: float) -> float:
    """Legal-move sets per wall-clock second over prepared flat positions: one set is one
    call of a flat move function, its list of distinct candidates (the moves in the
    interpreter's order, each a compact tuple, no Move or placement built)."""
    calls = 0
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        for function, P, occ, KP in samples:
            function(P, occ, KP)
        calls += len(samples)
    return calls / (time.perf_counter() - wall)


def lean_games_rate(game, players: int, seconds: float, first_seed: int) -> float:
    """Random games per wall-clock second by `players.fastloop` (the candidates loop before
    the flat loop), for comparison."""
    games = 0
    wall = time.perf_counter()
    seed = first_seed
    while time.perf_counter() - wall < seconds:
        start = game.new_game(seed, players=players)
        fastloop.play_random(game, start, [RandomPlayer(seed, s) for s in range(players)], None, 100_000, None, Turn)
        games += 1
        seed += 1
    return games / (time.perf_counter() - wall)


def load_limit(path: str):
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location("limit_sorry", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def variant_costs(seconds: float, rounds: int = 1, only: tuple = ()) -> dict:
    """CPU microseconds per ply of random 4-player games per bundled variant: every track
    variant and house rule (generated moves), points with a turn policy, Sequence and every
    grid rule file (the grid lean loop, `players.gridloop`), and Sequence with 2 and 3
    players (3 sides). The median of `rounds` rounds, each timing every variant in turn (the
    same seeds), and the median of its per-round ratios to standard's. `only`: when given, just
    the cases whose label holds one of these substrings, and standard (the reference)."""
    cases = [("standard", (), 4), ("partnership", (), 4), ("points", (), 4)]
    cases += [("standard", (name,), 4) for name in bundled_names() if name.startswith(("house/", "options/"))]
    cases += [("points", ("house/no-start-no-cry.yaml",), 4)]  # a turn policy over hand play
    cases += [("sequence", (), 4), ("sequence", (), 2), ("sequence", (), 3)]
    cases += [(name.removesuffix(".yaml"), (), 4) for name in bundled_names() if name.startswith("grid/")]
    if only:
        cases = [case for case in cases if case == ("standard", (), 4) or any(part in _label(*case) for part in only)]
    games = {}
    for case in cases:
        games[case] = game = load_game(case[0], case[1])
        games_rate(game, case[2], 0.2, 50_000)  # warm-up
    costs: dict = {case: [] for case in cases}
    played: dict = {case: [0, 0] for case in cases}
    for _ in range(rounds):
        for case, game in games.items():
            cpu = time.process_time()
            _, _, count, plies = games_rate(game, case[2], seconds, 60_000)
            costs[case].append((time.process_time() - cpu) / plies * 1e6)
            played[case][0] += count
            played[case][1] += plies
    out = {}
    base = costs["standard", (), 4]
    for (spec, rules, players), game in games.items():
        case = (spec, rules, players)
        label = _label(spec, rules, players)
        out[label] = {"us_per_ply": round(statistics.median(costs[case]), 2), "cards": len(game.card_names),
                      "plies_per_game": round(played[case][1] / played[case][0], 1),
                      "ratio_to_standard": round(statistics.median(c / b for c, b in zip(costs[case], base)), 2)}
        if getattr(game, "fast_moves", None) is not None:
            out[label]["generated_cards"] = sum(game.fast_moves.covers(c) for c in range(len(game.card_names)))
        elif hasattr(game, "card_shapes"):  # a grid game: cards the lean loop counts on masks
            out[label]["shaped_cards"] = sum(shape is not None for shape in game.card_shapes)
        else:
            out[label]["generated_cards"] = 0
    return out


def _label(spec: str, rules: tuple, players: int) -> str:
    """A variant case's label in the table: `spec + rule..., N players`."""
    return spec + "".join(f" + {r}" for r in rules) + (f", {players} players" if players != 4 else "")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per figure and round")
    parser.add_argument("--limit", default=LIMIT, help="path of limit_sorry.py (skipped when absent)")
    parser.add_argument("--variants", action="store_true", help="also the cost per card of every track variant")
    parser.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                        help="only the cost per card of the variants whose label holds SUBSTRING (repeatable;"
                             " standard is kept as the reference; the standard-only figures are skipped)")
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    return _only(args) if args.only else _full(args)


def _full(args) -> int:
    """Every figure: standard's games and movegen against the interpreter and limit_sorry,
    and with `--variants` the cost per card of every variant."""
    generated = load_game("standard")
    reference = load_game("standard")
    reference.use_fast_moves(None)
    limit = load_limit(args.limit)
    positions = mid_game_positions(reference)
    prepared = flat_samples(generated, positions)
    limit_samples = limit.midgame_samples(1000) if limit else None
    load_before = os.getloadavg()[0]
    samples: dict[str, list] = {}

    def add(key, value):
        samples.setdefault(key, []).append(value)

    for _ in range(args.rounds):
        for players in (4, 2):
            for name, game in (("interpreter", reference), ("generated", generated)):
                wall, cpu, _, _ = games_rate(game, players, args.seconds, 0)
                add(f"{name} {players}p", wall)
                add(f"{name} {players}p cpu", cpu)
            add(f"fastloop {players}p", lean_games_rate(generated, players, args.seconds, 0))
            if limit:
                wall, cpu = limit.games_per_second(players, args.seconds)
                add(f"limit_sorry {players}p", wall)
                add(f"limit_sorry {players}p cpu", cpu)
        add("interpreter movegen", movegen_rate(reference, positions, args.seconds))
        add("generated movegen", movegen_rate(generated, positions, args.seconds))
        add("flat movegen", flat_movegen_rate(prepared, args.seconds))
        if limit:
            add("limit_sorry movegen", limit.movegen_per_second(limit_samples, args.seconds))
    medians = {key: round(statistics.median(values), 1) for key, values in samples.items()}
    result = {"python": sys.version.split()[0], "rounds": args.rounds, "load_before": round(load_before, 2),
              "load_after": round(os.getloadavg()[0], 2), "medians": medians}
    ratios = {}
    for players in (4, 2):
        ratios[f"generated / interpreter {players}p"] = medians[f"generated {players}p"] / medians[f"interpreter {players}p"]
        ratios[f"generated / fastloop {players}p"] = medians[f"generated {players}p"] / medians[f"fastloop {players}p"]
        if limit:
            ratios[f"generated / limit_sorry {players}p"] = medians[f"generated {players}p"] / medians[f"limit_sorry {players}p"]
    ratios["generated / interpreter movegen"] = medians["generated movegen"] / medians["interpreter movegen"]
    ratios["flat / interpreter movegen"] = medians["flat movegen"] / medians["interpreter movegen"]
    if limit:
        ratios["generated / limit_sorry movegen"] = medians["generated movegen"] / medians["limit_sorry movegen"]
        ratios["flat / limit_sorry movegen"] = medians["flat movegen"] / medians["limit_sorry movegen"]
    result["ratios"] = {k: round(v, 3) for k, v in ratios.items()}
    if args.variants:
        result["variants"] = variant_costs(args.seconds, args.rounds)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"Python {result['python']}, {args.rounds} rounds, load average {result['load_before']} -> {result['load_after']}"
          f" ({os.cpu_count()} CPUs); medians")
    for key, value in medians.items():
        print(f"  {key:28s} {value:>12,.1f}")
    for key, value in result["ratios"].items():
        print(f"  {key:36s} {value:.3f}")
    for label, entry in result.get("variants", {}).items():
        cards = (f"{entry['generated_cards']}/{entry['cards']} cards generated" if "generated_cards" in entry
                 else f"{entry['shaped_cards']}/{entry['cards']} cards by shape, grid lean loop")
        print(f"  {label:48s} {entry['us_per_ply']:7.2f} us/card  x{entry['ratio_to_standard']:.2f}  ({cards})")
    return 0


def _only(args) -> int:
    """`--only`: the cost per card of the chosen variants and standard, nothing else."""
    load_before = os.getloadavg()[0]
    variants = variant_costs(args.seconds, args.rounds, tuple(args.only))
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "rounds": args.rounds, "load_before": round(load_before, 2),
                          "load_after": round(os.getloadavg()[0], 2), "variants": variants}))
        return 0
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, load average {load_before:.2f} ->"
          f" {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs); medians")
    for label, entry in variants.items():
        print(f"  {label:48s} {entry['us_per_ply']:7.2f} us/card  x{entry['ratio_to_standard']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
