"""Position evaluation of grid games (SEQUENCE.md S10, S11) for the computer players, built
from public engine data only (`game.grid`, `game.plays`, `game.win_holds`).

Lines on different straights share at most one cell, so a colour's line count is a sum over
straights (`engine.grid`), and so is everything this module scores. For one colour on one
straight (`StraightFacts`):

* `count`: the lines of the colour counted there (S11);
* `potential`: every *open window* (`length` consecutive cells holding no chip of another
  colour) that would add a line if it were filled, worth `WINDOW_BASE ** k` with k of its
  cells covered (own chips and free cells);
* `finishing`: the empty cells that would complete such a window (it lacks one cell).

A colour's `strength` is `LINE_VALUE * count + potential` summed over the straights; its
*winning cells* are the finishing cells on which one more chip would satisfy the win
condition (asked from the engine, `game.win_holds`, on the whole placement). Facts are
cached per (straight, its cells' owners, colour): a pure function of the key, so a cache's
history never changes a score; `changed` re-scores only the straights through the cells a
move changes, so scoring a move costs a few straights, not the board.

Nothing here knows a card, a colour or a variant: cards are indices, the cells a card can
cover come from asking the engine (`card_cells`), and the win from the compiled condition
(`wins`: the engine's answers, kept per placement, bounded as the facts are)."""

from __future__ import annotations

import weakref
from operator import itemgetter
from typing import NamedTuple

from sorry_rules.engine.gridmechanics import PLACE

EMPTY = -1
FREE = -2
#: A window with k of its cells covered is worth WINDOW_BASE ** k; a line is worth WINDOW_BASE ** length.
WINDOW_BASE = 4.0
#: Straight facts kept per evaluator before the cache is emptied (memory stays bounded).
CACHE_ENTRIES = 200_000
#: The same for the engine's answers to "does this placement win?" (a key holds a placement).
WIN_ENTRIES = 16_384


class StraightFacts(NamedTuple):
    count: int
    potential: float
    finishing: tuple     # cells


class Analysis(NamedTuple):
    """One placement as the evaluator sees it: the owner of each cell, and per colour its
    facts per straight, its strength and its finishing cells."""

    owner: tuple
    facts: dict          # colour -> tuple of StraightFacts, one per straight
    strength: dict       # colour -> float
    finishing: dict      # colour -> frozenset of cells


class GridEvaluator:
    """Scores grid placements for one compiled grid game (see the module docstring)."""

    def __init__(self, game):
        grid = game.grid
        self.game = game
        self.grid = grid
        self.L = grid.length
        self.step = grid.length - grid.shared
        self.straights = grid.straights
        # codes_of[s](owner): the owner codes of straight s's cells, in its order
        self.codes_of = tuple(_getter(cells) for cells in self.straights)
        through: list = [[] for _ in range(grid.size)]
        for s, cells in enumerate(self.straights):
            for cell in cells:
                through[cell].append(s)
        self.through = tuple(tuple(t) for t in through)
        self.blank = tuple(FREE if cell in grid.free else EMPTY for cell in range(grid.size))
        self.window_value = tuple(WINDOW_BASE ** k if k else 0.0 for k in range(self.L))
        self.line_value = WINDOW_BASE ** self.L
        self._facts: dict = {}
        self._cells: dict = {}
        self._wins: dict = {}
        self._winning: dict = {}

    # ---- one straight --------------------------------------------------------------------
    def _lines(self, covered) -> int:
        L, step = self.L, self.step
        total = run = 0
        for c in covered:
            if c:
                run += 1
                continue
            if run >= L:
                total += (run - L) // step + 1
            run = 0
        if run >= L:
            total += (run - L) // step + 1
        return total

    def _compute(self, s: int, codes: tuple, colour: int) -> StraightFacts:
        L = self.L
        covered = [x == colour or x == FREE for x in codes]
        count = self._lines(covered)
        potential = 0.0
        finishing = []
        cells = self.straights[s]
        for i in range(len(codes) - L + 1):
            window = codes[i:i + L]
            if any(x >= 0 and x != colour for x in window):
                continue
            k = sum(covered[i:i + L])
            if k == L:
                continue
            if self._lines(covered[:i] + [True] * L + covered[i + L:]) <= count:
                continue  # overlaps a counted line too much to add one (S11)
            potential += self.window_value[k]
            if k == L - 1:
                finishing.append(cells[i + window.index(EMPTY)])
        return StraightFacts(count, potential, tuple(finishing))

    def straight_facts(self, s: int, owner, colour: int) -> StraightFacts:
        codes = self.codes_of[s](owner)
        key = (s, codes, colour)
        found = self._facts.get(key)
        if found is None:
            if len(self._facts) >= CACHE_ENTRIES:
                self._facts.clear()
            found = self._facts[key] = self._compute(s, codes, colour)
        return found

    # ---- placements ----------------------------------------------------------------------
    def owner_of(self, placement) -> tuple:
        owner = list(self.blank)
        for c, chips in enumerate(placement):
            for cell in chips:
                owner[cell] = c
        return tuple(owner)

    def _total(self, facts) -> float:
        lv = self.line_value
        return sum(f.count * lv + f.potential for f in facts)

    def analyse(self, placement, colours) -> Analysis:
        """The whole placement, for each of `colours`."""
        owner = self.owner_of(placement)
        facts, strength, finishing = {}, {}, {}
        for c in colours:
            per = tuple(self.straight_facts(s, owner, c) for s in range(len(self.straights)))
            facts[c] = per
            strength[c] = self._total(per)
            finishing[c] = frozenset(cell for f in per for cell in f.finishing)
        return Analysis(owner, facts, strength, finishing)

    def changed(self, base: Analysis, changes) -> Analysis:
        """`base` after `changes` [(cell, new owner code)], re-scoring only the straights
        through the changed cells."""
        owner = list(base.owner)
        touched = set()
        for cell, code in changes:
            owner[cell] = code
            touched.update(self.through[cell])
        owner = tuple(owner)
        facts, strength, finishing = {}, {}, {}
        for c, old in base.facts.items():
            delta = 0.0
            new = list(old)
            lv = self.line_value
            for s in touched:
                f = self.straight_facts(s, owner, c)
                o = old[s]
                delta += (f.count - o.count) * lv + f.potential - o.potential
                new[s] = f
            facts[c] = new
            strength[c] = base.strength[c] + delta
            if any(old[s].finishing or new[s].finishing for s in touched):
                finishing[c] = frozenset(cell for f in new for cell in f.finishing)
            else:
                finishing[c] = base.finishing[c]
        return Analysis(owner, facts, strength, finishing)

    def changes_of(self, move) -> list:
        """[(cell, new owner code)] of a play's events (`engine.gridmechanics` events)."""
        return [(cell, colour if tag == PLACE else EMPTY) for tag, colour, cell in move.events]

    # ---- the engine's answers ---------------------------------------------------------------
    def wins(self, colour: int, placement, seats: tuple) -> bool:
        """`game.win_holds(colour, placement, seats)`, kept per its arguments (a pure function
        of them: a search asks the same placements again and again)."""
        key = (colour, placement, seats)
        found = self._wins.get(key)
        if found is None:
            if len(self._wins) >= WIN_ENTRIES:
                self._wins.clear()
            found = self._wins[key] = self.game.win_holds(colour, placement, seats)
        return found

    def winning_cells(self, analysis: Analysis, placement, colour: int, seats: tuple) -> tuple:
        """The finishing cells of `colour` on which one more chip of it would win (`analysis`
        is `placement`'s; kept per placement, as `wins`)."""
        finishing = analysis.finishing[colour]
        if not finishing:
            return ()
        key = (colour, placement, seats)
        found = self._winning.get(key)
        if found is not None:
            return found
        out = []
        chips = placement[colour]
        for cell in sorted(finishing):
            after = placement[:colour] + (tuple(sorted(chips + (cell,))),) + placement[colour + 1:]
            if self.wins(colour, after, seats):
                out.append(cell)
        if len(self._winning) >= WIN_ENTRIES:
            self._winning.clear()
        found = self._winning[key] = tuple(out)
        return found

    def card_cells(self, card: int) -> frozenset:
        """The cells `card` can put a chip on when the board is empty (asked from the engine)."""
        found = self._cells.get(card)
        if found is None:
            game = self.game
            state = game.position(tuple(() for _ in game.colours), (0,), 0, (card,))  # one seat, an empty board
            found = self._cells[card] = frozenset(e[2] for move in game.plays(state, card) for e in move.events
                                                  if e[0] == PLACE)
        return found


def combine(mine: float, others: dict, defence: float = 1.0) -> float:
    """A side's value `mine` less `defence` times the other sides' (`others`: side -> value):
    half their max, half their mean."""
    if not others:
        return mine
    values = list(others.values())
    return mine - defence * 0.5 * (max(values) + sum(values) / len(values))


def _getter(cells):
    """A function of a sequence giving the tuple of its items at `cells` (a tuple even for one cell)."""
    if len(cells) == 1:
        cell = cells[0]
        return lambda owner: (owner[cell],)
    return itemgetter(*cells)


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def grid_evaluator_for(game) -> GridEvaluator:
    """The evaluator of `game`, built once per game object (its caches fill lazily)."""
    found = _CACHE.get(game)
    if found is None:
        found = _CACHE[game] = GridEvaluator(game)
    return found
