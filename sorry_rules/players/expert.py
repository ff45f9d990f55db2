"""The `expert` computer player: expectiminimax over the card draw.

For each legal move the player looks ahead `depth` draws: after the move, the next player to
act (the same player after a draw-again) draws a card from the distribution of the cards this
player cannot see (`evaluation.unseen_cards`: the deck minus the public discards, the own hand
and the drawn card), then plays the move that is best for their side: the searching player's
team maximises, every other team minimises (a "paranoid" search, exact for two sides). After
`depth` draws the position is scored by `evaluation.Evaluator`. In hand play the other
players' hands are unknown, so each of their turns is modelled as one card drawn from the
unseen cards (an approximation: a real hand offers a choice of cards).

Turn policies: the player's own choice among several drawn cards (`turn.take`), a redraw or a
hand action is scored like any move, one ply ahead and then searched; in the search a later
draw is one card (also under `take`, an approximation) and a stuck draw follows the
variant's `redraw` policy (`game.legal_moves` on the searched state, the turn's redraw count
carried over).

Hypothetical states are built from the `View` only (placement, seats, the own card or hand);
the search never looks at the real pile or at other hands.

Budget: the search deepens one draw at a time (depth 1, 2, ... up to `depth`) and keeps the
deepest search that finished. It stops before a level whose estimated size would exceed the
node budget (`nodes`, counted as moves applied), and abandons a level that runs over it; so
with the default node budget the choice is deterministic. A position met again in one
decision (two cards that lead to the same squares) is not searched again: its value is kept
with the nodes its search spent, which count again, so the choice and the levels finished
are those of a search that works it out again (in hand play, where the hands held are not
in the key, every position is searched). An optional `seconds` budget also
abandons a level that runs past the time (then the choice may depend on the machine's speed).
Ties are broken by a stream seeded from (seed parts, ply).

Grid games (`game.board_kind`) are scored by `gridchoice.expert_scores` instead (open line
windows for every side, the opponents' threats weighed by the cards they may hold, the own
double threats the cards kept reach), with the same tie-breaking.
"""

from __future__ import annotations

import time

from sorry_rules.engine.board import GRID
from sorry_rules.engine.game import option_of
from sorry_rules.engine.option import DRAW_AGAIN
from sorry_rules.engine.rng import Random
from sorry_rules.players.evaluation import evaluator_for, unseen_cards, view_table
from sorry_rules.players.gridchoice import expert_scores
from sorry_rules.players.greedy import DRAW_AGAIN_BONUS, one_ply_scores, pick_best
from sorry_rules.players.protocol import table_view

DEFAULT_DEPTH = 2
DEFAULT_NODES = 3000


class _OutOfBudget(Exception):
    pass


class _Search:
    """One decision's search: the table of what the player sees (options pushed on it and
    popped), the unseen-card distribution, leaf cache and node count."""

    def __init__(self, view, nodes: int, seconds: float | None, table=None):
        self.game = view.game
        self.colour = view.colour
        self.evaluator = evaluator_for(self.game)
        self.team = self.game.team_of[view.colour]
        self.table = view_table(view) if table is None else table
        dist = unseen_cards(view)
        self.cards = tuple(sorted(dist.items()))
        self.total = sum(dist.values())
        self.nodes = 0
        self.limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.leaves: dict = {}
        self.known: dict = {}  # a position's value at a depth, and the nodes working it out spent
        # whether two options with equal keys, flags and kinds give one result whatever card
        # played them (no consequences, which may read the card; no marks; no hands)
        self.alike = not self.game.after and not self.game.marks and self.table.hands is None

    def spend(self, n: int) -> None:
        self.nodes += n
        if self.nodes > self.limit or self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def leaf(self, placement, turn: int) -> float:
        """The evaluation of `placement` with seat `turn` to move."""
        key = (placement, turn)
        found = self.leaves.get(key)
        if found is None:
            seats = self.table.seats
            found = self.leaves[key] = self.evaluator.evaluate(placement, self.colour, seats, seats[turn])
        return found

    def value(self, depth: int) -> float:
        """Expected value of the table's position (no card drawn yet) with `depth` draws to look ahead."""
        table = self.table
        done = self.evaluator.terminal_table(table, self.colour)
        if done is not None:
            return done
        if depth == 0:
            return self.leaf(table.pos.placement(), table.turn)
        hands, turn = table.hands, table.turn
        key = None
        if hands is None:
            key = (table.pos.placement(), turn, depth, table.counters, table.pos.marks, table.bonus, table.redraws)
            found = self.known.get(key)
            if found is not None:
                self.spend(found[1])
                return found[0]
        spent = self.nodes
        maximise = table.seats[turn] in self.team
        kept = hands[turn] if hands is not None else None
        total = 0.0
        met = {} if depth == 1 and self.alike else None  # the leaves of this position's options, by result
        try:
            for card, copies in self.cards:
                if hands is not None:
                    hands[turn] = [card]  # an opponent's hand is unknown: one card drawn from the unseen ones
                options = table.options_of(card)
                self.spend(len(options))
                best = None
                for option in options:
                    result = None if met is None else (option[4], option[2], option[3])
                    v = None if result is None else met.get(result)
                    if v is None:
                        after = table.outcome(option) if depth == 1 else None
                        if after is not None:  # a leaf reached without playing the option
                            v = self.leaf(*after)
                        else:
                            table.push(option)
                            try:
                                v = self.value(depth - 1)
                            finally:
                                table.pop()
                        if result is not None:
                            met[result] = v
                    if best is None or (v > best if maximise else v < best):
                        best = v
                total += copies * best
        finally:
            if hands is not None:
                hands[turn] = kept
        value = total / self.total
        if key is not None:
            self.known[key] = (value, self.nodes - spent)
        return value


class ExpertPlayer:
    """Expectiminimax player (see the module docstring)."""

    name = "expert"

    def __init__(self, *seed_parts: object, depth: int = DEFAULT_DEPTH, nodes: int = DEFAULT_NODES,
                 seconds: float | None = None):
        self.seed_parts = ("expert-player", *seed_parts)
        self.depth = depth
        self.nodes = nodes
        self.seconds = seconds
        self.last_depth = 0  # the deepest finished level of the last decision (for tests and bench)

    def choose(self, view, moves) -> int:
        if len(moves) == 1:
            return 0
        if view.game.board_kind == GRID:
            return pick_best(expert_scores(view, moves), Random(*self.seed_parts, view.plies))
        return self.search(view, [option_of(move) for move in moves])

    def pick(self, table, options) -> int:
        """`choose` on a game's table (`players.runner`): the same choice, from the options."""
        view = table_view(table)
        if view.game.board_kind == GRID:
            return self.choose(view, [table.move(option) for option in options])
        return self.search(view, options, table.seen())

    def search(self, view, options: list, table=None) -> int:
        """The index of the option of greatest expected value (module docstring); `table`:
        the table of what the player sees, when at hand."""
        search = _Search(view, self.nodes, self.seconds, table)
        bonus = [DRAW_AGAIN_BONUS if option[2] & DRAW_AGAIN else 0.0 for option in options]
        values = one_ply_scores(search.table, view.colour, options)
        self.last_depth = 0
        previous = len(options)
        for depth in range(1, self.depth + 1):
            before = search.nodes
            if depth > 1:
                growth = max(1.0, previous / max(1, len(options)))
                if before + previous * growth > self.nodes:
                    break
            try:
                values = [self._deep(search, option, depth) + b for option, b in zip(options, bonus)]
            except _OutOfBudget:
                break
            previous = search.nodes - before
            self.last_depth = depth
        return pick_best(values, Random(*self.seed_parts, view.plies))

    @staticmethod
    def _deep(search: _Search, option, depth: int) -> float:
        search.table.push(option)
        try:
            return search.value(depth)
        finally:
            search.table.pop()
