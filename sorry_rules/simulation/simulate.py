"""Simulation: play many seeded games between computer players and tally what happened.

Contract:
- Game i (0-based) of a simulation with seed S is played from
  `game.new_game(game_seed(S, i), players=P)`, where `game_seed(S, i) = seed_state("simulate",
  S, i)` (a 64-bit int), and the bot in seat s is `make_player(kind, game_seed(S, i), s)`. So a
  game depends only on (S, i) and the seat's bot kind, never on how games are split into
  batches, on the number of jobs or on the engine; and with random bots, game i is exactly
  `sorry-play --auto --seed <game_seed(S, i)> --players P`.
- `play_results(setup, start, count, stop)` plays games start..start+count-1 and returns one
  `GameResult` per game played (a few integers: what a tally and a results file need);
  when `stop` is set it returns after the game in progress, with the games finished so
  far. `Tally.add(result)` counts one game; tallies hold only exact integer aggregates and
  merge by addition, so the figures are the same whatever the order of the games or of
  merging, and a tally of any set of games is exactly the sum of its games. Memory does
  not grow with the number of games: a tally keeps nothing per game, and game lengths are
  counted per distinct length (at most `max_plies` + 1 distinct values). `play_batch` is
  `play_results` tallied.
- Workers compile a variant once per process from the merged rule data carried in
  `VariantSource` (no rule files need to exist on a cluster worker).

Counting: a *ply* is one card played, forfeited or discarded (one applied move,
`State.plies`); a *turn* is one player's turn, including the extra plays a draw-again move
gives, so the length in turns counts the changes of the player to move, plus one. A *bump*
is any pawn sent back to its Start (by landing, a slide or a sorry-style move, any colour);
a *slide* is one slide or jump taken (`sweep: end`); a *redraw* and an *action* are moves
of those kinds (turn policies). Grid games count *removals* (chips taken off), *exchanges*
(dead cards exchanged) and *passes*. A game *ends* won, or *drawn* (no winner and no legal
move left before `max_plies`: a grid game where everyone passed a round), or is *stopped* at
`max_plies`. Per-game figures and lengths are over the games that ended (won or drawn); a
stopped game counts as a game no seat won. The *first side* is the team of the seat that
played first.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import NamedTuple

from sorry_rules import __version__
from sorry_rules.base.errors import SorryRulesError, UsageError
from sorry_rules.compiler.build import compile_variant
from sorry_rules.engine.board import GRID
from sorry_rules.engine.rng import seed_state
from sorry_rules.players.registry import BOTS, bot_names, make_player
from sorry_rules.players.runner import play_game
from sorry_rules.rules.loader import LoadedVariant, Origins, load_variant
from sorry_rules.rules.model import Variant
from sorry_rules.simulation.simstats import Moments

#: Per-game quantities kept as exact moments (n, sum, sum of squares), for every board kind.
METRICS = ("turns", "plies", "bumps", "slides", "forfeits", "discards", "passes", "redraws", "actions", "removals",
           "exchanges")
TRACK_METRICS = METRICS[:9]
#: A rule file's counter NAME is kept in `Tally.metrics[COUNTER + NAME]`: its total over the
#: seats at the end of each game (exact; reports divide by the players for a mean per player).
COUNTER = "counter:"
#: The scores (`scoring:`) of a game won: `Tally.metrics[SCORE]` holds their total over the
#: seats (reports divide by the players), `Tally.metrics[WINNER_SCORE]` the winner's own.
SCORE, WINNER_SCORE = "score:total", "score:winner"
#: Played for places (`places` > 1): seat s's place in each game won is kept in `Tally.metrics[PLACE + str(s)]`.
PLACE = "place:"
GRID_METRICS = ("turns", "plies", "removals", "exchanges", "passes")


def metrics_of(game) -> tuple:
    """The METRICS a game of this board kind can make non-zero (the ones reports show)."""
    return GRID_METRICS if game.board_kind == GRID else TRACK_METRICS


class WorkerError(SorryRulesError):
    """A simulation worker could not run its batch (message says why)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a simulation seeded `seed` (documented derivation)."""
    return seed_state("simulate", seed, index)


@dataclass(frozen=True)
class VariantSource:
    """A variant as workers receive it: its names (for reports) and the merged rule data."""

    variant: str
    rules: tuple
    data: dict = field(repr=False, compare=False)
    content_hash: str
    version: str

    @property
    def label(self) -> str:
        return "+".join((self.variant, *self.rules))


def load_source(variant: str, rules=()) -> tuple[VariantSource, object]:
    """Load and compile a variant in the client; returns (source for workers, Game).
    Raises RuleFileError for a bad variant."""

    loaded = load_variant(variant, tuple(rules))
    game, _ = compile_variant(loaded)
    source = VariantSource(str(variant), tuple(str(r) for r in rules), loaded.data, loaded.content_hash, __version__)
    with _GAMES_LOCK:
        _GAMES[(source.content_hash, source.version)] = game
    return source, game


_GAMES: dict = {}
_GAMES_LOCK = threading.Lock()


def compiled(source: VariantSource):
    """The Game of `source`, compiled at most once per process (thread-safe)."""
    key = (source.content_hash, source.version)
    with _GAMES_LOCK:
        game = _GAMES.get(key)
        if game is None:
            game = _compile_data(source)
            _GAMES[key] = game
    return game


def _compile_data(source: VariantSource):

    here = __version__
    if source.version != here:
        raise WorkerError(f"this worker runs sorry-rules {here}, the client {source.version}: "
                          "install the same version everywhere")
    loaded = LoadedVariant(Variant.model_validate(source.data), Origins(fallback=source.label), (), source.data,
                           source.content_hash)
    game, _ = compile_variant(loaded)
    return game


def warm(*sources: VariantSource) -> None:
    """Process-pool initializer: compile every variant of the run once in this process."""
    for source in sources:
        compiled(source)


@dataclass(frozen=True)
class Setup:
    """Everything that decides the games of one simulation (one side of a comparison)."""

    source: VariantSource
    players: int
    lineup: tuple            # bot kind of each seat (seat 0 first)
    seed: int
    max_plies: int
    rotate: bool = False     # game i shifts the lineup by i seats

    def kinds(self, index: int) -> tuple:
        """Bot kind of each seat in game `index`."""
        if not self.rotate:
            return self.lineup
        shift = index % self.players
        return self.lineup[shift:] + self.lineup[:shift]


def lineup_of(bots: list[str] | tuple, players: int) -> tuple:
    """Bot kinds assigned to seats in order, cycling through `bots`. Raises UsageError."""

    kinds = [b.strip() for b in bots]
    if not kinds or any(not k for k in kinds):
        raise UsageError("--bots: give one or more computer player names separated by commas")
    unknown = [k for k in kinds if k not in BOTS]
    if unknown:
        raise UsageError(f"unknown computer player {unknown[0]!r} (known: {', '.join(bot_names())})")
    if len(kinds) > players:
        raise UsageError(f"--bots names {len(kinds)} computer players for {players} seats")
    return tuple(kinds[s % len(kinds)] for s in range(players))


@dataclass
class Tally:
    """Exact aggregates of a number of games; `merge` adds another tally of the same setup."""

    players: int
    games: int = 0
    finished: int = 0                # games won
    draws: int = 0                   # games that ended without a winner before max_plies
    first_side_wins: int = 0         # games won by the team of the seat that played first
    wins: list | None = None         # per seat: games won by the seat whose move won
    team_wins: list | None = None    # per seat: games won by the seat's team (itself included)
    order_wins: list | None = None   # per position in turn order (0 = the seat that played first)
    kind_wins: dict = field(default_factory=dict)   # bot kind -> games won by a seat of that kind
    turns_counts: dict = field(default_factory=dict)  # length in turns -> finished games
    metrics: dict | None = None      # name in METRICS -> Moments over finished games

    def __post_init__(self):
        self.wins = self.wins or [0] * self.players
        self.team_wins = self.team_wins or [0] * self.players
        self.order_wins = self.order_wins or [0] * self.players
        self.metrics = self.metrics or {name: Moments() for name in METRICS}

    def merge(self, other: "Tally") -> "Tally":
        if other.players != self.players:
            raise ValueError("cannot merge tallies of different player counts")
        self.games += other.games
        self.finished += other.finished
        self.draws += other.draws
        self.first_side_wins += other.first_side_wins
        for mine, theirs in ((self.wins, other.wins), (self.team_wins, other.team_wins), (self.order_wins, other.order_wins)):
            for i, value in enumerate(theirs):
                mine[i] += value
        for mine, theirs in ((self.kind_wins, other.kind_wins), (self.turns_counts, other.turns_counts)):
            for key, value in theirs.items():
                mine[key] = mine.get(key, 0) + value
        for name, moments in other.metrics.items():
            self.metrics.setdefault(name, Moments()).merge(moments)
        return self

    def add(self, result: "GameResult") -> "Tally":
        """Count one game."""
        self.games += 1
        winner = result.winner
        if winner is None:
            if not result.drawn:
                return self
            self.draws += 1
        else:
            self.finished += 1
            self.wins[winner] += 1
            self.order_wins[result.order] += 1
            for seat in result.team:
                self.team_wins[seat] += 1
            self.first_side_wins += result.first_side
            self.kind_wins[result.bot] = self.kind_wins.get(result.bot, 0) + 1
        self.turns_counts[result.turns] = self.turns_counts.get(result.turns, 0) + 1
        m = self.metrics
        for name in METRICS:
            m[name].add(getattr(result, name))
        for name, values in result.counters:
            m.setdefault(COUNTER + name, Moments()).add(sum(values))
        if result.scores:
            m.setdefault(SCORE, Moments()).add(sum(result.scores))
            m.setdefault(WINNER_SCORE, Moments()).add(result.scores[winner])
        for seat, place in enumerate(result.places):
            m.setdefault(PLACE + str(seat), Moments()).add(place)
        return self


class GameResult(NamedTuple):
    """What one game of a simulation did: all a tally or a results file keeps of it.
    `winner` is None for a drawn game (`drawn`) and for a game stopped at `max_plies` (its
    other fields are then kept but not counted). JSON: `as_json()` and `result_from_json`;
    the fields with defaults may be missing from a file written before they existed."""

    game: int                 # the game's index i (its seed is game_seed(S, i))
    winner: int | None        # the seat whose move won
    order: int | None         # the winner's position in turn order (0 = the seat that played first)
    team: tuple               # the seats credited with the win (the winner's team, itself included)
    bot: str | None           # the winner's bot kind
    turns: int
    plies: int
    bumps: int
    slides: int
    forfeits: int
    discards: int
    passes: int
    redraws: int = 0          # track games: stuck cards discarded for another (turn.redraw)
    actions: int = 0          # track games: hand actions played (turn.actions)
    removals: int = 0         # grid games: chips taken off
    exchanges: int = 0        # grid games: dead cards exchanged
    drawn: bool = False       # no winner and no legal move before max_plies (a round of passes)
    first_side: bool = False  # the winner's team holds the seat that played first
    counters: tuple = ()      # the rule file's counters at the end: ((name, (value per seat, ...)), ...)
    scores: tuple = ()        # each seat's score at the end of a game won (`scoring:`; none without it)
    places: tuple = ()        # each seat's place at the end of a game won (played for `places` > 1; none otherwise)

    def as_json(self) -> dict:
        return dict(self._asdict(), team=list(self.team),
                    counters=[[name, list(values)] for name, values in self.counters], scores=list(self.scores),
                    places=list(self.places))


def result_from_json(data, players: int) -> GameResult:
    """The GameResult of a JSON object written by `as_json`. Raises ValueError when a field
    is missing, of the wrong type or out of range for `players` seats."""
    if not isinstance(data, dict):
        raise ValueError("a game result is a JSON object")
    missing = [name for name in GameResult._fields if name not in data and name not in GameResult._field_defaults]
    if missing:
        raise ValueError(f"no {missing[0]!r}")
    values = {name: data.get(name, GameResult._field_defaults.get(name)) for name in GameResult._fields}
    counts = ("game", *METRICS)
    if any(type(values[name]) is not int or values[name] < 0 for name in counts):
        raise ValueError(f"{', '.join(counts)} must be whole numbers >= 0")
    if type(values["drawn"]) is not bool or type(values["first_side"]) is not bool:
        raise ValueError("drawn and first_side must be true or false")
    if values["drawn"] and values["winner"] is not None:
        raise ValueError("a drawn game has no winner")
    seats = range(players)
    if values["winner"] is None:
        if values["order"] is not None or values["bot"] is not None or values["team"]:
            raise ValueError("a game without a winner has no order, bot or team")
    else:
        team = values["team"]
        if not (type(values["winner"]) is int and values["winner"] in seats and type(values["order"]) is int
                and values["order"] in seats and isinstance(values["bot"], str) and isinstance(team, list)
                and all(type(s) is int and s in seats for s in team) and values["winner"] in team):
            raise ValueError(f"winner, order, team and bot do not fit {players} seats")
    values["team"] = tuple(values["team"])
    values["counters"] = _counters_from_json(values["counters"], players)
    scores = values["scores"]
    if not (isinstance(scores, (list, tuple)) and len(scores) in (0, players) and all(type(v) is int for v in scores)) \
            or (scores and values["winner"] is None):
        raise ValueError(f"scores must be one whole number per seat ({players}), for a game won only")
    values["scores"] = tuple(scores)
    places = values["places"]
    if not (isinstance(places, (list, tuple)) and len(places) in (0, players)
            and all(type(v) is int and 1 <= v <= players for v in places)) or (places and values["winner"] is None):
        raise ValueError(f"places must be one place 1-{players} per seat, for a game won only")
    values["places"] = tuple(places)
    return GameResult(**values)


def _counters_from_json(data, players: int) -> tuple:
    if not isinstance(data, (list, tuple)) or not all(
            isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str)
            and isinstance(item[1], (list, tuple)) and len(item[1]) == players
            and all(type(v) is int for v in item[1]) for item in data):
        raise ValueError(f"counters must be [name, [one whole number per seat ({players})]] pairs")
    return tuple((name, tuple(values)) for name, values in data)


#: The `Move.kind`s a GameCounter counts, besides moves, and the field that counts each.
_COUNTED_KINDS = {"forfeit": "forfeits", "discard": "discards", "pass": "passes", "redraw": "redraws", "action": "actions",
                  "remove": "removals", "exchange": "exchanges"}


class GameCounter:
    """The observer of one game: counts turns, bumps, slides and option kinds. It has a
    method `played`, so the loop (`players.runner.play`) tells it each play's kind and
    events and builds nothing for it."""

    __slots__ = ("turns", "last_seat", "passed", "bumps", "slides", "forfeits", "discards", "passes", "redraws", "actions",
                 "removals", "exchanges")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)
        self.last_seat = None

    def played(self, seat: int, kind: str, events: tuple, passed: bool | None = None) -> None:
        """Count a play of `seat` of this `kind` (`Move.kind`) with these `events`; `passed`:
        whether it passed the turn on (None: a board whose tables do not say, judged by the
        seat that plays next). A turn begins at another seat's play, or after a play that
        passed the turn on (a player alone at the table plays turn after turn)."""
        if seat != self.last_seat or self.passed:
            self.turns += 1
            self.last_seat = seat
        self.passed = bool(passed)
        if kind == "move":
            for event in events:
                tag = event[0]
                if tag == "bump":
                    self.bumps += 1
                elif tag == "slide":
                    self.slides += 1
        elif kind in _COUNTED_KINDS:
            name = _COUNTED_KINDS[kind]
            setattr(self, name, getattr(self, name) + 1)


def play_one(game, setup: Setup, index: int) -> GameResult:
    seed = game_seed(setup.seed, index)
    state = game.new_game(seed, players=setup.players)
    first = state.turn
    kinds = setup.kinds(index)
    players = [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]
    counter = GameCounter()
    final = play_game(game, state, players, on_turn=counter, max_plies=setup.max_plies)
    winner = final.winner
    drawn = first_side = False
    if winner is None:
        order = bot = None
        team = ()
        drawn = final.plies < setup.max_plies
    else:
        order = (winner - first) % setup.players
        bot = kinds[winner]
        colours = game.team_of[final.seats[winner]]
        team = tuple(seat for seat, colour in enumerate(final.seats) if colour in colours)
        first_side = final.seats[first] in colours
    return GameResult(index, winner, order, team, bot, counter.turns, final.plies, counter.bumps, counter.slides,
                      counter.forfeits, counter.discards, counter.passes, counter.redraws, counter.actions,
                      counter.removals, counter.exchanges, drawn, first_side, counters_at_end(game, final),
                      scores_at_end(game, final), places_at_end(game, final))


def scores_at_end(game, final) -> tuple:
    """`GameResult.scores` of a finished state: each seat's score when the game was won and
    the rule file scores (`scoring:`), else ()."""
    if final.winner is None or not getattr(game, "scoring", ()):
        return ()
    outcome = game.outcome(final)
    return tuple(outcome.scores[seat][0] for seat in range(len(final.seats)))


def places_at_end(game, final) -> tuple:
    """`GameResult.places` of a finished state: each seat's place when the game was won and
    played for places (`places` > 1), else ()."""
    if final.winner is None or getattr(game, "places", 1) == 1:
        return ()
    return game.outcome(final).places


def counters_at_end(game, final) -> tuple:
    """`GameResult.counters` of a finished state: each declared counter's value per seat."""
    names = [name for name, *_ in getattr(game, "counters", ())]
    if not names:
        return ()
    return tuple((name, tuple(final.counters[c][i] for c in final.seats)) for i, name in enumerate(names))


def play_results(setup: Setup, start: int, count: int, stop=None) -> list:
    """Play games start..start+count-1 of `setup` (the unit of work sent to workers) and
    return their GameResults. `stop` (anything with `is_set()`, e.g. an Event) is looked at
    before each game: once set, the games finished so far are returned."""
    try:
        game = compiled(setup.source)
        results = []
        for index in range(start, start + count):
            if stop is not None and stop.is_set():
                break
            results.append(play_one(game, setup, index))
        return results
    except WorkerError:
        raise
    except SorryRulesError as error:  # re-raised as a plain, picklable error
        raise WorkerError(str(error)) from None


def play_batch(setup: Setup, start: int, count: int) -> Tally:
    """Play games start..start+count-1 of `setup` and tally them."""
    tally = Tally(setup.players)
    for result in play_results(setup, start, count):
        tally.add(result)
    return tally


def batches(games: int, size: int, skip=frozenset()):
    """Split games 0..games-1, leaving out the indices in `skip`, into (start, count) batches
    of at most `size` consecutive games (lazily)."""
    start = count = 0
    for index in range(games):
        if index in skip:
            if count:
                yield start, count
            count = 0
            continue
        if count == 0:
            start = index
        count += 1
        if count == size:
            yield start, count
            count = 0
    if count:
        yield start, count


#: Batches per job by default: enough that the last batches leave the workers idle only
#: briefly (at most about 1/BATCHES_PER_JOB of a run's time), few enough that sending a batch
#: (a Setup of about 1.4 kB, a result of about 40 bytes per game) costs nothing noticeable.
BATCHES_PER_JOB = 16


def default_batch_size(games: int, jobs: int) -> int:
    """About BATCHES_PER_JOB batches per job, between 1 and 250 games each."""
    return max(1, min(250, -(-games // (BATCHES_PER_JOB * max(1, jobs)))))
