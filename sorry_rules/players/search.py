"""The `search` computer player: determinised Monte Carlo search with greedy playouts.

For every board kind and rule file alike. A decision among the legal moves:

1. *Deals*: the cards the player cannot see are dealt at random, seeded, into the other
   hands and the pile (`sampling.Deals`: from `evaluation.unseen_cards`, the chance model
   of every bot); deal k is a table of the view on which the game can go on.
2. *Playouts*: a move is played on a fresh table of a deal, then every seat (partners and
   opponents alike) plays the greedy player's move for up to `horizon` more plies; the
   position reached is worth the chance that the player's side wins
   (`winchance.WinChance`: 1 or 0 when the game ended, else the evaluation turned into a
   probability fitted on greedy self-play). Every move is tried on the same deals, so the
   moves are compared on the same luck.
3. *Sequential halving*: the budget of `playouts` is spread over rounds; each round gives
   every move still in the running the same number of new deals and keeps the better half
   (by mean win chance), until one is left. A move that wins at once is taken at once;
   with more moves than the budget gives `MIN_PLAYOUTS` each, the greedy player's best
   `playouts // MIN_PLAYOUTS` are searched.
4. *Caution*: the greedy player's move is kept unless the move the search prefers beat it,
   on the deals both had, by more than `caution` standard errors of the mean difference (a
   small budget's noise would otherwise pick worse moves than the greedy player does).

Hidden information: only the `View` is read (never the real pile or other hands: the deals
replace them). Teams: a partner's win is the side's. Budget: `playouts` counts playouts (a
move played on a deal and its playout; the default per board kind is `DEFAULTS`), so the
choice is a function of the seed parts, the view, the moves and the budget: deterministic,
and a saved game resumes with the same choices. An
optional `seconds` budget (without `playouts`) makes the time the budget: the search is
run again with twice the playouts while twice the last run's time still fits, and stops
when the time is up (then the choice depends on the machine's speed); the moves left in
the running are then compared on the deals they share. Ties are broken by a stream seeded
from (seed parts, ply). A throw of several dice shares the default playouts among its dice.

`analyse(view, moves)` returns the numbers behind a choice (`Analysis`); `advise` gives the
choice with one line of why (`hints.reason`), for the terminal's hints.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from sorry_rules.engine.board import GRID, TRACK
from sorry_rules.engine.game import option_of
from sorry_rules.engine.rng import Random
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.hints import reason
from sorry_rules.players.protocol import table_view
from sorry_rules.players.sampling import Deals
from sorry_rules.players.winchance import win_chance_for

#: the default budget per board kind: (playouts, horizon in plies); a grid's greedy ply costs
#: about forty times a track's (bench/README.md), so its default budget is smaller
DEFAULTS = {TRACK: (240, 8), GRID: (60, 4)}
#: standard errors by which a move must beat the greedy player's move to be chosen instead
DEFAULT_CAUTION = 0.0
#: the fewest playouts a move searched gets in the first round (more moves: `SearchPlayer.width`)
MIN_PLAYOUTS = 12


class Analysis(NamedTuple):
    """The numbers behind one decision: the chosen index, each move's mean win chance over
    its playouts (None for a move dropped before any), the playouts of each, the playouts
    spent and each move's lower quartile."""

    choice: int
    chances: list
    counts: list
    playouts: int
    low: list = []      # each move's lower quartile of its playouts' win chances (None: no playout)


class _Halving:
    """One decision's search (module docstring, steps 2 and 3)."""

    def __init__(self, player, view, options: list, limit: int | None = None, deadline: float | None = None):
        self.view, self.options = view, options
        self.colour = view.colour
        self.deals = Deals(view, *player.seed_parts)
        self.chance = win_chance_for(view.game, len(view.seats))
        self.limit, self.horizon = player.budget(view.game)
        if limit is not None:
            self.limit = limit
        self.deadline = deadline if deadline is not None or player.seconds is None else \
            time.perf_counter() + player.seconds
        self.policy = [GreedyPlayer("playout", *player.seed_parts, seat) for seat in range(len(view.seats))]
        n = len(options)
        self.sums, self.counts, self.spent = [0.0] * n, [0] * n, 0
        self.values: list = [[] for _ in range(n)]
        self.alive = list(range(n))

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def playout(self, option, k: int) -> float:
        """The win chance after `option` on deal k and a greedy playout of `horizon` plies."""
        table = self.deals.table(k)
        table.play(option)
        end = table.plies + self.horizon
        policy = self.policy
        while not table.over and table.plies < end:
            options = table.options()
            n = len(options)
            if not n:
                break
            table.play(options[policy[table.turn].pick(table, options) if n > 1 else 0])
        return self.chance.of(table, self.colour)

    def narrow(self, width: int) -> int:
        """Keep the `width` moves the greedy player scores best (all of them when there are
        no more), in their order; return the greedy player's move (the first best)."""
        table = self.deals.table(0)
        scores = self.policy[self.view.seat].scores(self.view, [table.move(option) for option in self.options])
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        if len(self.alive) > width:
            self.alive = sorted(order[:width])
        return order[0]

    def better(self, i: int, j: int, caution: float) -> bool:
        """Whether move i beat move j on the deals both had by more than `caution` standard
        errors of the mean difference."""
        shared = min(self.counts[i], self.counts[j])
        if shared < 2:
            return False
        diffs = [a - b for a, b in zip(self.values[i][:shared], self.values[j][:shared])]
        mean = sum(diffs) / shared
        spread = (sum((d - mean) ** 2 for d in diffs) / (shared - 1)) ** 0.5
        return mean > caution * spread / shared ** 0.5

    def run(self) -> list:
        """The moves still in the running when the budget is spent, best first."""
        alive = self.alive
        rounds = max(1, (len(alive) - 1).bit_length())
        deal = 0
        for r in range(rounds):
            per = max(1, (self.limit - self.spent) // (len(alive) * (rounds - r)))
            for _ in range(per):
                if self.spent + len(alive) > self.limit or self.out_of_time():
                    return self.ranked(alive)
                for i in alive:
                    value = self.playout(self.options[i], deal)
                    self.sums[i] += value
                    self.counts[i] += 1
                    self.values[i].append(value)
                self.spent += len(alive)
                deal += 1
            alive = self.ranked(alive)[:(len(alive) + 1) // 2]
        return alive

    def ranked(self, alive: list) -> list:
        """`alive` by mean win chance over the deals all of them had, best first (stable)."""
        shared = min(self.counts[i] for i in alive)
        return alive if not shared else sorted(alive, key=lambda i: -sum(self.values[i][:shared]))


class SearchPlayer:
    """Determinised Monte Carlo search player (see the module docstring)."""

    name = "search"

    def __init__(self, *seed_parts: object, playouts: int | None = None, horizon: int | None = None,
                 seconds: float | None = None, caution: float = DEFAULT_CAUTION):
        self.seed_parts = ("search-player", *seed_parts)
        self.caution = caution
        self.playouts = playouts
        self.horizon = horizon
        self.seconds = seconds
        self.last_playouts = 0  # playouts spent on the last decision (for tests and bench)

    def budget(self, game) -> tuple[int, int]:
        """(playouts, horizon) for `game`: as given, else the board kind's `DEFAULTS`, the
        playouts shared out among the dice of a throw of several (each ply of a playout then
        weighs every way of spending the dice: Parcheesi's plies cost several of Ludo's)."""
        playouts, horizon = DEFAULTS[game.board_kind]
        dice = getattr(game, "dice", None)
        if dice is not None and dice.count > 1:
            playouts //= dice.count
        return (playouts if self.playouts is None else self.playouts,
                horizon if self.horizon is None else self.horizon)

    def width(self, game) -> int:
        """The most moves searched: the greedy player's best ones beyond it are kept (`narrow`)."""
        return max(2, self.budget(game)[0] // MIN_PLAYOUTS)

    def choose(self, view, moves) -> int:
        return 0 if len(moves) == 1 else self.analyse(view, moves).choice

    def pick(self, table, options) -> int:
        """`choose` on a game's table (`players.runner`): the same choice, from the options."""
        return 0 if len(options) == 1 else self.decide(table_view(table), list(options)).choice

    def analyse(self, view, moves) -> Analysis:
        """The search's numbers for `moves` (one or more) in `view` (see `Analysis`)."""
        return self.decide(view, [option_of(move) for move in moves])

    def advise(self, view, moves) -> tuple[int, str]:
        """(the choice among `moves`, one line of why: `hints.reason`)."""
        if len(moves) == 1:
            return 0, "it is the only move"
        analysis = self.analyse(view, moves)
        return analysis.choice, reason(analysis, moves[analysis.choice])

    def decide(self, view, options: list) -> Analysis:
        search = _Halving(self, view, options)
        chance = search.chance
        wins = []
        for i, option in enumerate(options):
            table = search.deals.table(0)
            table.play(option)
            if chance.won(table, view.colour) == 1.0:
                wins.append(i)
        random = Random(*self.seed_parts, view.plies)
        if wins:
            choice = wins[0] if len(wins) == 1 else wins[random.below(len(wins))]
            self.last_playouts = 0
            return Analysis(choice, [1.0 if i in wins else None for i in range(len(options))], [0] * len(options), 0)
        default = search.narrow(self.width(view.game))
        started = time.perf_counter()
        finalists = search.run() if len(search.alive) > 1 else search.alive
        while self.seconds is not None and self.playouts is None and len(search.alive) > 1 and not search.out_of_time():
            took = time.perf_counter() - started
            if search.deadline - time.perf_counter() < 2.5 * took:  # twice the playouts would not fit the time
                break
            started = time.perf_counter()  # a thinking budget: the search again with twice the playouts
            search = _Halving(self, view, options, 2 * search.limit, search.deadline)
            default = search.narrow(self.width(view.game))
            finalists = search.run()
        chances = [s / c if c else None for s, c in zip(search.sums, search.counts)]
        leaders = _tied(finalists, search)
        choice = leaders[0] if len(leaders) == 1 else leaders[random.below(len(leaders))]
        if choice != default and not search.better(choice, default, self.caution):
            choice = default
        self.last_playouts = search.spent
        low = [sorted(values)[len(values) // 4] if values else None for values in search.values]
        return Analysis(choice, chances, list(search.counts), search.spent, low)


def _tied(finalists: list, search: _Halving) -> list:
    """The finalists whose shared-deal total equals the best one's."""
    shared = min(search.counts[i] for i in finalists)
    if not shared:
        return finalists[:1]
    totals = {i: sum(search.values[i][:shared]) for i in finalists}
    best = totals[finalists[0]]
    return [i for i in finalists if totals[i] >= best - 1e-12]
