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
with the default node budget the choice is deterministic. An optional `seconds` budget also
abandons a level that runs past the time (then the choice may depend on the machine's speed).
Ties are broken by a stream seeded from (seed parts, ply).

Grid games (`game.board_kind`) are scored by `gridchoice.expert_scores` instead (open line
windows for every side, the opponents' threats weighed by the cards they may hold, the own
double threats the cards kept reach), with the same tie-breaking.
"""

from __future__ import annotations

import time

from sorry_rules.engine.board import GRID
from sorry_rules.players.evaluation import evaluator_for, hypothetical, unseen_cards
from sorry_rules.players.gridchoice import expert_scores
from sorry_rules.players.greedy import DRAW_AGAIN_BONUS, children, one_ply_scores, pick_best
from sorry_rules.engine.rng import Random

DEFAULT_DEPTH = 2
DEFAULT_NODES = 3000


class _OutOfBudget(Exception):
    pass


class _Search:
    """One decision's search: the unseen-card distribution, leaf cache and node count."""

    def __init__(self, view, nodes: int, seconds: float | None):
        self.game = view.game
        self.colour = view.colour
        self.evaluator = evaluator_for(self.game)
        self.team = self.game.team_of[view.colour]
        dist = unseen_cards(view)
        self.cards = tuple(sorted(dist.items()))
        self.total = sum(dist.values())
        self.nodes = 0
        self.limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.leaves: dict = {}

    def spend(self, n: int) -> None:
        self.nodes += n
        if self.nodes > self.limit:
            raise _OutOfBudget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def leaf(self, state) -> float:
        key = (state.placement, state.turn)
        found = self.leaves.get(key)
        if found is None:
            found = self.evaluator.evaluate(state.placement, self.colour, state.seats, state.seats[state.turn])
            self.leaves[key] = found
        return found

    def value(self, state, depth: int) -> float:
        """Expected value of `state` (no card drawn yet) with `depth` draws to look ahead."""
        done = self.evaluator.terminal(state, self.colour)
        if done is not None:
            return done
        if depth == 0:
            return self.leaf(state)
        game = self.game
        maximise = state.seats[state.turn] in self.team
        total = 0.0
        for card, copies in self.cards:
            s = hypothetical(game, state.placement, state.seats, state.turn, card)
            if game.redraw is not None and not game.hand_play:
                moves = game.legal_moves(s._replace(redraws=state.redraws))
            else:
                moves = game.card_moves(s, card)
            self.spend(len(moves))
            best = None
            for move in moves:
                v = self.value(game.apply(s, move), depth - 1)
                if best is None or (v > best if maximise else v < best):
                    best = v
            total += copies * best
        return total / self.total


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
        search = _Search(view, self.nodes, self.seconds)
        after = children(view, moves)
        bonus = [DRAW_AGAIN_BONUS if move.draw_again else 0.0 for move in moves]
        values = one_ply_scores(view, moves, after)
        self.last_depth = 0
        previous = len(moves)
        for depth in range(1, self.depth + 1):
            before = search.nodes
            if depth > 1:
                growth = max(1.0, previous / max(1, len(moves)))
                if before + previous * growth > self.nodes:
                    break
            try:
                values = [search.value(child, depth) + b for child, b in zip(after, bonus)]
            except _OutOfBudget:
                break
            previous = search.nodes - before
            self.last_depth = depth
        return pick_best(values, Random(*self.seed_parts, view.plies))
