#!/usr/bin/env python3
"""Write the win-chance fits shipped with the bundled rule files (variants/win-chances.json).

    python tools/fit_win_chances.py                 # fit every bundled rule file and seat count
    python tools/fit_win_chances.py --processes 2   # the same, on two processes
    python tools/fit_win_chances.py --missing       # fit only what the file lacks, keep the rest
    python tools/fit_win_chances.py --check         # exit 1 (and say why) when the file does not
                                                    # name exactly today's bundled rules and seats

The search player turns the bots' evaluation into a chance of winning with two numbers fitted
on greedy self-play (`sorry_rules.players.winchance`). For a bundled rule file they are read
from this file, by the file's content hash and the seats, so a first decision on a fresh
install plays no fitting games. A rule file that changed has another content hash: its fit is
then made at first use, as for any other rules, until this is run again. The fits also depend
on the players' and the engine's code: tests/test_winchances.py refits one of them in every
run and all of them in the slow run, and fails when they differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.base.resources import variants_dir
from sorry_rules.compiler import load_game
from sorry_rules.players import winchance
from sorry_rules.rules.locate import bundled_names


def wanted() -> dict:
    """{"<content_hash> <seats>": (bundled name, seats)} for every bundled rule file and seat count."""
    out = {}
    for name in bundled_names():
        game = load_game(name)
        for players in range(game.players_min, game.players_max + 1):
            try:
                game.seats_for(players)
            except IllegalMoveError:  # a grid's seating table need not take every count between
                continue
            out.setdefault(f"{game.content_hash} {players}", (name, players))
    return out


def fit_of(job: tuple) -> list:
    name, players = job
    return list(winchance.fit(*winchance.samples(load_game(name), players)))


def text_of(fits: dict) -> str:
    """The file's text: JSON, one fit a line, in the order of their keys."""
    about = "win-chance fits of the bundled rule files by content hash and seats: tools/fit_win_chances.py"
    lines = ",\n".join(f"  {json.dumps(key)}: {json.dumps(fits[key])}" for key in sorted(fits))
    return f'{{\n "about": {json.dumps(about)},\n "fits": {{\n{lines}\n }}\n}}\n'


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file names today's rules and seats")
    parser.add_argument("--processes", type=int, default=1, metavar="N", help="fit on N processes (default 1)")
    parser.add_argument("--missing", action="store_true",
                        help="fit only the rule files and seats the file lacks (a changed rule file), keep the other "
                             "fits (the fits are deterministic) and drop those of rules no longer bundled")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    path = variants_dir() / winchance.SHIPPED
    jobs = wanted()
    if args.check:
        found = set(winchance.shipped())  # a fit that is no two finite numbers counts as missing
        missing = sorted({jobs[key] for key in set(jobs) - found})
        if missing or found - set(jobs):
            print(f"{path}: {len(missing)} fits missing (first: {missing[:3]}), {len(found - set(jobs))} of rules no "
                  "longer bundled (run python tools/fit_win_chances.py)", file=sys.stderr)
            return 1
        return 0
    fits = {key: list(pair) for key, pair in winchance.shipped().items() if key in jobs} if args.missing else {}
    keys = sorted((key for key in jobs if key not in fits), key=lambda key: jobs[key])
    with ProcessPoolExecutor(args.processes) as pool:
        for done, (key, pair) in enumerate(zip(keys, pool.map(fit_of, [jobs[key] for key in keys])), 1):
            fits[key] = pair
            name, players = jobs[key]
            print(f"[{done}/{len(keys)}] {name} {players} seats: a={pair[0]:.4f} b={pair[1]:.4f}", file=sys.stderr)
    path.write_text(text_of(fits), encoding="utf-8")
    print(f"wrote {len(fits)} fits to {path} ({len(keys)} fitted now)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
