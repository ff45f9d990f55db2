"""The `greedy` computer player: the best-looking move one ply ahead.

Each legal move is applied to a hypothetical state built from the `View` only (the player's
own placement, seats and card; never the pile or other hands) and the result is scored by
`evaluation.Evaluator` (progress toward Home, leaving Start, the safety zone and Home, the
opponents' pawns bumped, the danger the moved pawns stand in). A move that wins scores
highest; a move that draws again is worth a little more. Ties are broken by the player's
seeded stream, drawn afresh for each decision from (seed parts, ply), so the choice depends
only on the seed, the view and the moves (a saved game resumes with the same choices).

Grid games (`game.board_kind`) are scored by `gridchoice.greedy_scores` instead (lines,
open windows, blocking, cards kept), with the same tie-breaking.
"""

from __future__ import annotations

from sorry_rules.engine.board import GRID
from sorry_rules.engine.rng import Random
from sorry_rules.players.evaluation import evaluator_for, hypothetical
from sorry_rules.players.gridchoice import greedy_scores

DRAW_AGAIN_BONUS = 3.0
EPSILON = 1e-9


def view_state(view):
    """The hypothetical state of the player to move, from what the view shows."""
    game = view.game
    if view.hand is not None:
        return game.position(view.placement, view.seats, view.seat, hand=view.hand, redraws=view.redraws)
    if view.drawn or view.redraws:
        return game.position(view.placement, view.seats, view.seat, card=view.card, drawn=view.drawn,
                             redraws=view.redraws)
    return hypothetical(game, view.placement, view.seats, view.seat, view.card)


def pick_best(scores: list, random: Random) -> int:
    """Index of the highest score; equal scores are settled by `random`."""
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s >= best - EPSILON]
    return top[0] if len(top) == 1 else top[random.below(len(top))]


def children(view, moves) -> list:
    """The hypothetical state after each move (see `view_state`)."""
    game = view.game
    root = view_state(view)
    return [game.apply(root, move) for move in moves]


def one_ply_scores(view, moves, after) -> list:
    """Score of each move from the state it leads to (`after[i]` follows `moves[i]`)."""
    evaluator = evaluator_for(view.game)
    out = []
    for move, child in zip(moves, after):
        score = evaluator.terminal(child, view.colour)
        if score is None:
            score = evaluator.evaluate(child.placement, view.colour, child.seats, child.seats[child.turn])
            if move.draw_again:
                score += DRAW_AGAIN_BONUS
        out.append(score)
    return out


class GreedyPlayer:
    """One-ply heuristic player (see the module docstring)."""

    name = "greedy"

    def __init__(self, *seed_parts: object):
        self.seed_parts = ("greedy-player", *seed_parts)

    def scores(self, view, moves) -> list:
        if view.game.board_kind == GRID:
            return greedy_scores(view, moves)
        return one_ply_scores(view, moves, children(view, moves))

    def choose(self, view, moves) -> int:
        if len(moves) == 1:
            return 0
        return pick_best(self.scores(view, moves), Random(*self.seed_parts, view.plies))
