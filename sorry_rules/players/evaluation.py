"""Position evaluation for the computer players, built from public engine data only.

An `Evaluator` (one per compiled game, cached by `evaluator_for`) scores a placement from
one colour's point of view:

    value = (own team's strength) - (the other teams' strength: half their mean, half their max)
    strength(colour) = sum over its pawns of  progress + bonuses - expected loss to bumps

* progress: forward steps made since Start, from `layout.distance_home` (so a pawn moved
  backward to just behind its safety entry is worth almost as much as one in the zone);
* bonuses: out of Start, in the safety zone (cannot be bumped), Home;
* expected loss: a pawn on the track is worth its value times the chance that an opponent
  bumps it before its owner moves again. That chance comes from *probes*: the engine is asked
  (a table's `card_options` on small positions) which squares a lone pawn of each colour on each
  track square lands on or sweeps with each card, and which squares a pawn out of Start can
  take (Sorry!-like effects, entering onto an occupied start exit). The tables are computed
  lazily and weighted by the number of copies of each card in the deck.

Nothing here knows a card, a colour or a variant: cards are indices, colours are indices,
relations come from `game.team_of` and the mechanics' bump table.

`view_state(view)` is the engine state a player may reason about (no pile, no other hands:
only what the `View` shows); `view_table(view)` its table, to push and pop options on.
"""

from __future__ import annotations

import weakref
from collections import Counter

from sorry_rules.engine.events import STEP_KINDS

#: Tunable weights (in forward steps).
OUT_BONUS = 8.0        # a pawn out of Start (leaving Start needs particular cards)
SAFE_BONUS = 6.0       # a pawn in its safety zone cannot be bumped any more
HOME_BONUS = 4.0       # a pawn Home is finished
DANGER = 1.0           # weight of the expected loss of pawns threatened before their owner moves
DANGER_TO_MOVE = 0.25  # the same for the colours whose player moves next (they may escape first)
WIN = 1e6


def view_state(view):
    """The state of the player to move as far as `view` shows it (no pile, no other hands)."""
    counters, marks = view.counters or None, view.marks or None
    return view.game.position(view.placement, view.seats, view.seat, card=None if view.hand is not None else view.card,
                              hand=view.hand, counters=counters, marks=marks, drawn=view.drawn, redraws=view.redraws,
                              finished=view.finished)


def view_table(view):
    """A table (`engine.table`) of `view_state(view)`: what the player may reason about,
    with `push` and `pop`."""
    return view.game.table(view_state(view))


class Evaluator:
    """Scores placements for one compiled game (see the module docstring)."""

    def __init__(self, game):
        self.game = game
        layout = game.layout
        self.layout = layout
        self.T, self.X = layout.T, layout.X
        C = layout.C
        relation = game.mechanics.relation
        bumpable = game.mechanics.bumpable
        # threats[c]: colours whose pawns bump colour c's pawns on purpose (opponents)
        self.threats = tuple(tuple(o for o in range(C) if relation[o][c] == "opponent" and bumpable[o][c]) for c in range(C))
        self.team_of = game.team_of
        self.alone = all(len(team) == 1 for team in game.team_of)
        self.counts = Counter(game.deck)
        self.cards = tuple(sorted(self.counts))
        self.deck_size = max(1, len(game.deck))
        self.value = tuple(self._values(c) for c in range(C))
        self.start = layout.start
        self._reach: dict = {}
        self._entry: dict = {}
        # entry_rows[o][c]: `entry_threat(o, c, x)` of every track square x packed as
        # `packed_rows` are, made on first use (`_entry_row`; None: not made, or a board too
        # large to make it whole)
        self.entry_rows = [[None] * C for _ in range(C)]
        # packed_rows[o][s]: `reach(o, s)` packed into one int, `bits` bits a square (enough for
        # every pawn of every other colour reaching one square with every card of the deck,
        # the entries from Start of `entry_rows` included)
        self.packed_rows = [[None] * self.T for _ in range(C)]
        self._threats: list = [{} for _ in range(C)]  # per colour: its squares -> `_threat_of`
        self._kept = 0
        self.bits = (max(1, len(game.deck)) * game.pawns * C).bit_length() + 1
        self.mask = (1 << self.bits) - 1
        self.shift = tuple(self.bits * sq for sq in range(self.T))
        # chance[h]: h / deck size, for h below it (the chance of a bump is 1 from there on)
        self.chance = tuple(h / self.deck_size for h in range(self.deck_size))
        # loss[c][sq], loss_to_move[c][sq]: the weight of a pawn's danger times its value (None: weight 0)
        self.loss = tuple(self._losses(DANGER, row) for row in self.value)
        self.loss_to_move = tuple(self._losses(DANGER_TO_MOVE, row) for row in self.value)
        # losses[m][c]: colour c's loss row when colour m moves next
        self.losses = tuple(tuple(self.loss_to_move[c] if c in self.team_of[m] else self.loss[c] for c in range(C))
                            for m in range(C))

    @staticmethod
    def _losses(weight: float, values: tuple):
        return tuple(weight * v for v in values) if weight else None

    def _values(self, c: int) -> tuple:
        layout = self.layout
        full = layout.distance_home(c, layout.start[c])
        row = []
        for sq in range(layout.size):
            owner = layout.colour_of_square(sq)
            if owner is not None and owner != c:
                row.append(0.0)
            elif sq == layout.start[c]:
                row.append(0.0)
            elif sq == layout.home[c]:
                row.append(full + OUT_BONUS + SAFE_BONUS + HOME_BONUS)
            else:
                bonus = OUT_BONUS + (SAFE_BONUS if sq >= self.T else 0.0)
                row.append(full - layout.distance_home(c, sq) + bonus)
        return tuple(row)

    # ---- probes ------------------------------------------------------------------------
    def reach(self, o: int, s: int) -> dict:
        """{square: card copies} a lone colour-o pawn on track square `s` lands on or sweeps."""
        key = (o, s)
        found = self._reach.get(key)
        if found is not None:
            return found
        game, layout = self.game, self.layout
        pawns = [s] + [layout.home[o]] * (game.pawns - 1)
        placement = tuple(tuple(sorted(pawns)) if c == o else () for c in range(layout.C))
        table = game.table(game.position(placement, (o,), 0))
        hits: Counter = Counter()
        for card in self.cards:
            squares = set()
            for option in table.card_options(o, card):
                for event in option.events:
                    if event[0] in STEP_KINDS and event[3] < self.T:
                        squares.add(event[3])
                    elif event[0] == "slide":
                        squares.update(layout.slide_at[event[2]].swept)
            for sq in squares:
                hits[sq] += self.counts[card]
        found = dict(hits)
        self._reach[key] = found
        return found

    def entry_threat(self, o: int, victim: int, x: int) -> int:
        """Card copies with which colour o, all pawns in Start, bumps a `victim` pawn on `x`."""
        key = (o, victim, x)
        found = self._entry.get(key)
        if found is not None:
            return found
        game, layout = self.game, self.layout
        placement = tuple(
            tuple([layout.start[o]] * game.pawns) if c == o else ((x,) if c == victim else ())
            for c in range(layout.C)
        )
        table = game.table(game.position(placement, (o, victim), 0))
        total = 0
        for card in self.cards:
            if any(e[0] == "bump" and e[1] == victim and e[2] == x for option in table.card_options(o, card)
                   for e in option.events):
                total += self.counts[card]
        self._entry[key] = total
        return total

    # ---- scoring -----------------------------------------------------------------------
    def threat(self, placement) -> list:
        """Per colour o: (per track square, packed `bits` bits a square, the card copies with
        which o's track pawns reach it; whether o has pawns in Start), what the danger of
        every other pawn reads; kept per o's squares when `placement` is a tuple of tuples."""
        known = self._threats
        if self._kept >= self.KEPT:
            for row in known:
                row.clear()
            self._kept = 0
        out = []
        for o, squares in enumerate(placement):
            if type(squares) is tuple:
                found = known[o].get(squares)
                if found is None:
                    found = known[o][squares] = self._threat_of(o, squares)
                    self._kept += 1
            else:
                found = self._threat_of(o, squares)
            out.append(found)
        return out

    #: the most colours' threats kept (`threat`; cleared past it)
    KEPT = 16_384

    def _threat_of(self, o: int, squares) -> tuple:
        T, rows, reach = self.T, self.packed_rows[o], 0
        for s in squares:  # sorted: the track squares first
            if s >= T:
                break
            row = rows[s]
            if row is None:
                row = rows[s] = self._packed_row(o, s)
            reach += row
        return reach, bool(squares) and squares[-1] == self.start[o]  # Start squares sort last

    #: boards of up to this many track squares make `entry_rows` whole (a probe a square);
    #: larger ones work out only the squares pawns stand on
    EAGER_SQUARES = 240

    def _entry_row(self, o: int, c: int, squares) -> int:
        """`entry_threat(o, c, x)` packed as `_packed_row`'s: of every track square x, kept in
        `entry_rows`, on a board of up to `EAGER_SQUARES` track squares; else of colour c's
        `squares` only (each probed once, `entry_threat` keeps them)."""
        shift, T = self.shift, self.T
        if T <= self.EAGER_SQUARES:
            row = self.entry_rows[o][c] = sum(self.entry_threat(o, c, x) << shift[x] for x in range(T))
            return row
        return sum(self.entry_threat(o, c, sq) << shift[sq] for sq in set(squares) if sq < T)

    def _packed_row(self, o: int, s: int) -> int:
        """`reach(o, s)` as one int: the copies reaching square sq in bits sq * bits and up."""
        bits = self.bits
        return sum(copies << (bits * sq) for sq, copies in self.reach(o, s).items())

    def evaluate(self, placement, colour: int, seats, mover: int) -> float:
        """Value of `placement` for `colour` (and its team) when colour `mover` plays next:
        per colour, each pawn's value less its weight (DANGER, or DANGER_TO_MOVE for the
        mover's team) times its value times the chance min(1, hits / deck size) that an
        opponent's next card bumps it (the copies of the cards reaching its square, from the
        track and from Start)."""
        team_of, losses = self.team_of, self.losses[mover]
        threat = self.threat(placement)
        T, shift, mask, deck_size, chance = self.T, self.shift, self.mask, self.deck_size, self.chance
        threats, entry_rows, alone, values = self.threats, self.entry_rows, self.alone, self.value
        teams: dict = {}  # per team (per colour when every colour plays alone): its pawns' worth
        for c in seats:
            value, loss = values[c], losses[c]
            total = 0.0
            if loss is None:
                for sq in placement[c]:
                    total += value[sq]
            else:
                reach = 0
                for o in threats[c]:
                    packed, from_start = threat[o]
                    reach += packed
                    if from_start:
                        row = entry_rows[o][c]
                        reach += self._entry_row(o, c, placement[c]) if row is None else row
                for sq in placement[c]:
                    total += value[sq]
                    if sq < T:
                        hits = reach >> shift[sq] & mask
                        total -= loss[sq] * (chance[hits] if hits < deck_size else 1.0)
            if alone:
                teams[c] = total
            else:
                team = team_of[c]
                teams[team] = teams.get(team, 0.0) + total
        mine = teams.pop(colour if alone else team_of[colour], 0.0)
        if not teams:
            return mine
        others = list(teams.values())
        return mine - 0.5 * (max(others) + sum(others) / len(others))

    def terminal_table(self, table, colour: int) -> float | None:
        """`terminal` of a state or a table (anything with `winner` and `seats`)."""
        if table.winner is None:
            return None
        winner = table.seats[table.winner]
        return WIN if winner in self.team_of[colour] else -WIN


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def evaluator_for(game) -> Evaluator:
    """The evaluator of `game`, built once per game object (its probe tables fill lazily)."""
    found = _CACHE.get(game)
    if found is None:
        found = _CACHE[game] = Evaluator(game)
    return found


def unseen_cards(view) -> dict:
    """{card: copies} the player cannot see: the deck minus the discards, the player's own hand
    and the drawn card. Other players' hands and the pile are in it, in unknown order. Falls back
    to the whole deck when nothing is unseen. Dice are thrown with replacement: every throw
    comes from the whole bag of their outcomes (`game.deck`)."""
    if getattr(view.game, "dice", None) is not None:
        return dict(Counter(view.game.deck))
    unseen = Counter(view.game.deck)
    unseen.subtract(view.discard)
    if view.hand:
        unseen.subtract(view.hand)
    if view.card is not None:
        unseen[view.card] -= 1
    unseen.subtract(view.drawn)
    known = {card: n for card, n in unseen.items() if n > 0}
    return known or dict(Counter(view.game.deck))
