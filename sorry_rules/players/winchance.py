"""A position's chance of winning, for search: the bots' evaluation turned into a probability.

`score(table, colour)` is the one-ply bots' own score of the position on a table for the side
of `colour`: the track evaluator (`evaluation.Evaluator.evaluate`: progress, bonuses, danger)
or the grid evaluator's line strength (`gridevaluation`), the own team's less the other
teams' (half their max, half their mean). `WinChance.of(table, colour)` maps it to the chance
that the side of `colour` wins: 1 or 0 once the game is over (a game over without a winner
is lost by every side), else `1 / (1 + exp(-(a + b * score)))`.

The two numbers are fitted per compiled game and number of seats (`win_chance_for`), at its
first use, by logistic regression on quick greedy self-play: `FIT_GAMES` seeded games, every
other position of each scored for every seat's colour against whether its side won. Nothing
here knows a game: the same fit serves every rule file, and the fit depends only on the rule
file and the seats (the same numbers every run). So they are kept: per game object in memory;
for the bundled rule files, shipped beside them (`SHIPPED`, written by
tools/fit_win_chances.py, by `content_hash` and seats), so that a first decision on a fresh
install plays no fitting games; for any other rules, in the cache folder (`base.diskcache`,
kind "win-chance") under the game's `content_hash`, the seats and the code fingerprint, so
that a search player's first decision does not replay the fitting games in every new
process.
"""

from __future__ import annotations

import json
import math
import weakref
from functools import lru_cache

from sorry_rules.base import diskcache
from sorry_rules.base.resources import variants_dir
from sorry_rules.engine.board import GRID
from sorry_rules.players.evaluation import evaluator_for
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.gridevaluation import combine, grid_evaluator_for

#: greedy self-play games per fit (track, grid: a grid game's greedy plies cost more)
FIT_GAMES = {False: 48, True: 16}
#: the most plies of a fitting game (a game not over by then is left out)
FIT_PLIES = 600


def score(table, colour: int) -> float:
    """The evaluation of `table`'s position for the side of `colour` (module docstring)."""
    game = table.game
    if game.board_kind == GRID:
        seats = table.seats
        colours = tuple(sorted(set(seats)))
        strength = grid_evaluator_for(game).analyse(table.chips.placement(), colours).strength
        team_of, mine, others = game.team_of, 0.0, {}
        for c in colours:
            if c in team_of[colour]:
                mine += strength[c]
            else:
                key = team_of[c]
                others[key] = others.get(key, 0.0) + strength[c]
        return combine(mine, others)
    return evaluator_for(game).evaluate(table.pos.pos, colour, table.seats, table.seats[table.turn])


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class WinChance:
    """`of(table, colour)`: the chance the side of `colour` wins (module docstring)."""

    def __init__(self, game, a: float, b: float):
        self.game, self.a, self.b = game, a, b

    def won(self, table, colour: int) -> float | None:
        """1 or 0 once the game is over (for the side of `colour`), else None."""
        if table.winner is not None:
            return 1.0 if table.seats[table.winner] in self.game.team_of[colour] else 0.0
        return 0.0 if table.over else None

    def of(self, table, colour: int) -> float:
        done = self.won(table, colour)
        return done if done is not None else _sigmoid(self.a + self.b * score(table, colour))


def fit(xs: list, ys: list, rounds: int = 25) -> tuple[float, float]:
    """(a, b) of the logistic regression of `ys` (0 or 1) on `xs` (Newton's method, a tiny
    ridge so that separable data stays finite)."""
    n = len(xs)
    if not n:
        return 0.0, 0.0
    mean = sum(xs) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in xs) / n) or 1.0
    zs = [(x - mean) / spread for x in xs]
    a = b = 0.0
    for _ in range(rounds):
        ga = gb = haa = hab = hbb = 0.0
        for z, y in zip(zs, ys):
            p = _sigmoid(a + b * z)
            w = p * (1 - p)
            ga += y - p
            gb += (y - p) * z
            haa += w
            hab += w * z
            hbb += w * z * z
        gb -= 1e-3 * b
        hbb += 1e-3
        haa += 1e-9
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a - b * mean / spread, b / spread


def samples(game, players: int) -> tuple[list, list]:
    """(scores, outcomes) of greedy self-play (module docstring)."""
    xs, ys = [], []
    grid = game.board_kind == GRID
    for seed in range(FIT_GAMES[grid]):
        table = game.table(game.new_game(("win-chance", seed), players=players))
        bots = [GreedyPlayer("win-chance", seed, seat) for seat in range(players)]
        seen = []
        while not table.over and table.plies < FIT_PLIES:
            options = table.options()
            if not len(options):
                break
            choice = bots[table.turn].pick(table, options) if len(options) > 1 else 0
            table.play(options[choice])
            if table.plies % 2 == 0 and not table.over:
                seen.append(tuple(score(table, colour) for colour in table.seats))
        if table.winner is None:
            continue
        winners = game.team_of[table.seats[table.winner]]
        for scores in seen:
            for colour, x in zip(table.seats, scores):
                xs.append(x)
                ys.append(1.0 if colour in winners else 0.0)
    return xs, ys


_FITTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: the cache folder's kind of fitted numbers (`base.diskcache`)
KIND = "win-chance"


def win_chance_for(game, players: int) -> WinChance:
    """The `WinChance` of `game` with `players` seats, fitted at its first use."""
    per_game = _FITTED.setdefault(game, {})
    found = per_game.get(players)
    if found is None:
        found = per_game[players] = WinChance(game, *fitted(game, players))
    return found


#: the bundled folder's file of the bundled rule files' fits: {"fits": {"<content_hash> <seats>": [a, b]}}
SHIPPED = "win-chances.json"


@lru_cache(maxsize=1)
def shipped() -> dict:
    """The fits shipped with the bundled rule files, by "<content_hash> <seats>" (entries
    that are not two finite numbers left out; none when the file is missing or damaged)."""
    try:
        fits = json.loads((variants_dir() / SHIPPED).read_text(encoding="utf-8")).get("fits")
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(fits, dict):
        return {}
    return {key: pair for key, pair in ((key, _pair(value)) for key, value in fits.items()) if pair is not None}


def _pair(value) -> tuple[float, float] | None:
    """(a, b) when `value` is a list of two finite floats (as JSON gives them back), else None."""
    if isinstance(value, list) and len(value) == 2 and all(type(x) is float and math.isfinite(x) for x in value):
        return value[0], value[1]
    return None


def fitted(game, players: int) -> tuple[float, float]:
    """`fit(*samples(game, players))`: shipped for the bundled rule files (`SHIPPED`), read
    from the cache folder when it holds them for this game's rules, these seats and this code
    (a game without a `content_hash` is always fitted)."""
    rules = getattr(game, "content_hash", "")
    found = shipped().get(f"{rules} {players}") if rules else None
    if found is not None:
        return found
    key = diskcache.digest(KIND, diskcache.code_fingerprint(), rules, str(players)) \
        if rules and diskcache.enabled() else None
    if key is not None:
        kept = _pair(diskcache.read(KIND, key))
        if kept is not None:
            return kept
    a, b = fit(*samples(game, players))
    if key is not None and math.isfinite(a) and math.isfinite(b):
        diskcache.write(KIND, key, [a, b])
    return a, b
