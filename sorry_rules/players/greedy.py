"""The `greedy` computer player: the best-looking move one ply ahead.

Each option is played on a table built from the `View` only (the player's own placement,
seats and card or hand; never the pile or other hands: `evaluation.view_table`) and taken
back, and the position it leads to is scored by `evaluation.Evaluator` (progress toward
Home, leaving Start, the safety zone and Home, the opponents' pawns bumped, the danger the
moved pawns stand in). A move that wins scores highest; a move that draws again is worth a
little more. Ties are broken by the player's seeded stream, drawn afresh for each decision
from (seed parts, ply), so the choice depends only on the seed, the view and the moves (a
saved game resumes with the same choices).

Grid games (`game.board_kind`) are scored by `gridchoice.greedy_scores` instead (lines,
open windows, blocking, cards kept), with the same tie-breaking.
"""

from __future__ import annotations

from sorry_rules.engine.board import GRID
from sorry_rules.engine.game import option_of
from sorry_rules.engine.option import DRAW_AGAIN
from sorry_rules.engine.rng import Random
from sorry_rules.players.evaluation import evaluator_for, view_table
from sorry_rules.players.gridchoice import greedy_scores
from sorry_rules.players.protocol import table_view

DRAW_AGAIN_BONUS = 3.0
EPSILON = 1e-9


def pick_best(scores: list, random: Random) -> int:
    """Index of the highest score; equal scores are settled by `random`."""
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s >= best - EPSILON]
    return top[0] if len(top) == 1 else top[random.below(len(top))]


def one_ply_scores(table, colour: int, options) -> list:
    """The score of each option (`engine.option.Option`) one ply ahead on `table` (a table
    of what the player of `colour` sees): the position it leads to read by `table.outcome`,
    or the option pushed and taken back when playing it may do more."""
    evaluator, seats = evaluator_for(table.game), table.seats
    out = []
    for option in options:
        after = table.outcome(option)
        if after is not None:
            score = evaluator.evaluate(after[0], colour, seats, seats[after[1]])
        else:
            table.push(option)
            score = evaluator.terminal_table(table, colour)
            if score is not None:  # a won or lost game: no bonus
                table.pop()
                out.append(score)
                continue
            score = evaluator.evaluate(table.pos.pos, colour, seats, seats[table.turn])
            table.pop()
        out.append(score + DRAW_AGAIN_BONUS if option[2] & DRAW_AGAIN else score)
    return out


class GreedyPlayer:
    """One-ply heuristic player (see the module docstring)."""

    name = "greedy"

    def __init__(self, *seed_parts: object):
        self.seed_parts = ("greedy-player", *seed_parts)

    def scores(self, view, moves) -> list:
        if view.game.board_kind == GRID:
            return greedy_scores(view, moves)
        return one_ply_scores(view_table(view), view.colour, [option_of(move) for move in moves])

    def choose(self, view, moves) -> int:
        return 0 if len(moves) == 1 else pick_best(self.scores(view, moves), Random(*self.seed_parts, view.plies))

    def pick(self, table, options) -> int:
        """`choose` on a game's table (`players.runner`): the same choice, from the options."""
        if table.game.board_kind == GRID:
            return self.choose(table_view(table), [table.move(option) for option in options])
        scores = one_ply_scores(table.seen(), table.seats[table.turn], options)
        return pick_best(scores, Random(*self.seed_parts, table.plies))
