"""How the `greedy` and `expert` players score the moves of a grid game (SEQUENCE.md S6-S13).

The player classes (`greedy.GreedyPlayer`, `expert.ExpertPlayer`) call these functions when
`view.game.board_kind` is a grid; both see only the `View` (own hand, the board, the public
discards) and score each legal move from the placement it leads to
(`gridevaluation.GridEvaluator`):

    score = own side's value - (the other sides: half their max, half their mean) - card cost
    value(colour) = strength (lines and open windows) + threat terms of its winning cells

* `greedy` (one ply): a play that wins scores `WIN`. Each own winning cell is worth
  `OWN_THREAT` lines (two at most count); each opponent winning cell costs `THREAT` lines,
  so a chip (or a removal) that blocks a line about to win comes first. The card cost is
  `KEEP * log2(1 + the card's plays now)`: a card that can go almost anywhere (a wild card)
  or remove many chips is kept for when it matters; a card with one or two cells is spent
  first. A dead card is exchanged before anything but a winning play (S6: the exchange
  costs nothing and the card drawn may play); a pass scores the position.
* `expert` (two plies, hidden information as `players/protocol.py` says): first the one-ply
  scores, with each opponent's winning cells weighed by the chance that one of its seats
  playing before this side's next turn holds a card covering one (hypergeometric, from the
  cards this player cannot see: the deck minus the discards and its own hand). Then each of
  the `TOP` best plays is answered by the next opponent: for every card it may hold, its
  best play with that card (by lines and windows), and the expected value over which cards
  it holds (the best card it holds is the one it plays; each card held with its
  hypergeometric chance, independently). A reply that wins is worth `-LOST` lines. The
  position after the reply counts lines and windows, the winning cells of each side, and
  the own winning cells the cards kept in hand can reach (more than the opponents can block
  before the next turn: `NEAR_WIN` lines). Other plays rank below these. A dead card is
  exchanged first, as greedy does. The work per decision is bounded by the board and the
  deck (no clock), so the choice is deterministic.

Ties are broken by the player's seeded stream, as for track games.
"""

from __future__ import annotations

import math
from collections import Counter

from sorry_rules.engine.gridgame import EXCHANGE, PASS
from sorry_rules.players.gridevaluation import grid_evaluator_for

WIN = 1e9
EXCHANGE_FIRST = WIN / 2
OWN_THREAT = 0.5
THREAT = 2.0
KEEP = 10.0
TOP = 6
NEAR_WIN = 3.0
OWN_REACH = 0.5
LOST = 20.0


class _Judge:
    """Scores placements from the view's side: `threat(colour, cells)` weighs an opponent's
    winning cells (lines lost), `value(analysis, placement)` is the side's score."""

    def __init__(self, view, threat):
        game = view.game
        self.game = game
        self.view = view
        self.ev = grid_evaluator_for(game)
        self.seats = view.seats
        self.colours = tuple(sorted(set(view.seats)))
        self.team = game.team_of[view.colour]
        self.threat = threat

    def strengths(self, strength: dict) -> float:
        """Own side's strength minus the others' (no threat terms), from {colour: strength}."""
        mine, others = 0.0, {}
        for c in self.colours:
            if c in self.team:
                mine += strength[c]
            else:
                key = self.game.team_of[c]
                others[key] = others.get(key, 0.0) + strength[c]
        return _combine(mine, others)

    def value(self, analysis, placement) -> float:
        lv = self.ev.line_value
        mine, others = 0.0, {}
        for c in self.colours:
            wins = self.ev.winning_cells(analysis, placement, c, self.seats)
            if c in self.team:
                mine += analysis.strength[c] + OWN_THREAT * lv * min(len(wins), 2)
            else:
                key = self.game.team_of[c]
                others[key] = others.get(key, 0.0) + analysis.strength[c] + (self.threat(c, wins) if wins else 0.0)
        return _combine(mine, others)


def _combine(mine: float, others: dict) -> float:
    if not others:
        return mine
    values = list(others.values())
    return mine - 0.5 * (max(values) + sum(values) / len(values))


def _card_costs(moves) -> dict:
    plays = Counter(move.card for move in moves if move.kind not in (EXCHANGE, PASS))
    return {card: KEEP * math.log2(1 + n) for card, n in plays.items()}


def _scores(judge: _Judge, moves, base) -> tuple[list, list]:
    """(score, analysis after the move or None) of each move."""
    view, ev, game = judge.view, judge.ev, judge.game
    costs = _card_costs(moves)
    here = judge.value(base, view.placement)
    scores, after = [], []
    for move in moves:
        if move.kind == EXCHANGE:
            scores.append(EXCHANGE_FIRST)
            after.append(None)
        elif move.kind == PASS:
            scores.append(here)
            after.append(None)
        elif game.win_holds(view.colour, move.placement, view.seats):
            scores.append(WIN)
            after.append(None)
        else:
            analysis = ev.changed(base, ev.changes_of(move))
            scores.append(judge.value(analysis, move.placement) - costs[move.card])
            after.append(analysis)
    return scores, after


def greedy_scores(view, moves) -> list:
    """One-ply scores of `moves` (see the module docstring)."""
    game = view.game
    lv = grid_evaluator_for(game).line_value
    judge = _Judge(view, lambda c, wins: THREAT * lv * min(len(wins), 2))
    base = judge.ev.analyse(view.placement, judge.colours)
    return _scores(judge, moves, base)[0]


# ---- expert ------------------------------------------------------------------------------------


class _Unseen:
    """The cards the player cannot see and the seats that play before its side again."""

    def __init__(self, view):
        game = view.game
        unseen = Counter(game.deck)
        unseen.subtract(view.discard)
        unseen.subtract(view.hand)
        self.cards = {card: n for card, n in unseen.items() if n > 0}
        self.total = sum(self.cards.values())
        self.hand = game.hand_sizes.get(len(view.seats), len(view.hand))
        team = game.team_of[view.colour]
        n = len(view.seats)
        before = Counter()
        for k in range(1, n):
            colour = view.seats[(view.seat + k) % n]
            if colour in team:
                break
            before[colour] += 1
        self.before = before   # opponent colour -> its seats that play before this side again

    def chance(self, cards: set, seats: int) -> float:
        """Chance that `seats` unseen hands hold at least one of `cards`."""
        if seats <= 0 or self.total <= 0:
            return 0.0
        hits = sum(self.cards.get(card, 0) for card in cards)
        drawn = min(self.total, seats * self.hand)
        return 1.0 - math.comb(self.total - hits, drawn) / math.comb(self.total, drawn)


def expert_scores(view, moves) -> list:
    """The expert's scores of `moves` (see the module docstring)."""
    game = view.game
    ev = grid_evaluator_for(game)
    unseen = _Unseen(view)
    lv = ev.line_value
    card_list = tuple(sorted(unseen.cards))

    def threat(colour, wins):
        cells = set(wins)
        cover = {card for card in card_list if ev.card_cells(card) & cells}
        return THREAT * lv * unseen.chance(cover, unseen.before.get(colour, 0))

    judge = _Judge(view, threat)
    base = ev.analyse(view.placement, judge.colours)
    scores, after = _scores(judge, moves, base)
    ranked = sorted((i for i, a in enumerate(after) if a is not None), key=lambda i: -scores[i])
    if not ranked or max(scores) >= EXCHANGE_FIRST:
        return scores
    reply = _Reply(judge, view, unseen)
    costs = _card_costs(moves)
    for rank, i in enumerate(ranked):
        scores[i] = reply.value(moves[i], after[i]) - costs[moves[i].card] if rank < TOP else -WIN
    return scores


class _Reply:
    """The next opponent's best answer to a move, in expectation over the cards it may hold."""

    def __init__(self, judge: _Judge, view, unseen: _Unseen):
        self.judge, self.view, self.unseen = judge, view, unseen
        self.game, self.ev = judge.game, judge.ev
        n = len(view.seats)
        self.next_seat = (view.seat + 1) % n
        self.opponent = view.seats[self.next_seat]
        self.cards = tuple(sorted(unseen.cards))
        self.holds = {card: unseen.chance({card}, 1) for card in self.cards}
        self.blockers = max(1, sum(unseen.before.values()))

    def value(self, move, analysis) -> float:
        judge, ev, game, view = self.judge, self.ev, self.game, self.view
        kept = list(view.hand)
        kept.remove(move.card)
        reach = set()
        for card in set(kept):
            reach |= ev.card_cells(card)
        still = self.leaf(analysis, move.placement, reach, self.blockers)
        if self.opponent in judge.team:
            return still
        state = game.position(move.placement, view.seats, self.next_seat, ())
        cheap: dict = {}
        options = []
        for card in self.cards:
            best = None
            for answer in game.plays(state, card):
                changes = tuple(ev.changes_of(answer))
                v = cheap.get(changes)
                if v is None:
                    v = cheap[changes] = judge.strengths(ev.strengths_after(analysis, changes))
                if best is None or v < best[0]:
                    best = (v, answer, changes)
            if best is not None:
                options.append((card, best))
        leaves: dict = {}
        values = []
        for card, (_, answer, changes) in options:
            v = leaves.get(changes)
            if v is None:
                if game.win_holds(self.opponent, answer.placement, view.seats):
                    v = -LOST * ev.line_value
                else:
                    v = self.leaf(ev.changed(analysis, changes), answer.placement, reach, self.blockers - 1)
                leaves[changes] = v
            values.append((v, self.holds[card]))
        values.sort(key=lambda pair: pair[0])
        expected, none = 0.0, 1.0
        for v, p in values:
            expected += none * p * v
            none *= 1.0 - p
        return expected + none * still

    def leaf(self, analysis, placement, reach: set, blockers: int) -> float:
        """The side's strengths, plus what its kept cards reach of its winning cells, minus
        the opponents' winning cells."""
        judge, ev = self.judge, self.ev
        lv = ev.line_value
        value = judge.strengths(analysis.strength)
        for c in judge.colours:
            wins = ev.winning_cells(analysis, placement, c, judge.seats)
            if not wins:
                continue
            if c in judge.team:
                reachable = len(set(wins) & reach)
                value += NEAR_WIN * lv if reachable > blockers else OWN_REACH * lv * reachable
                value += OWN_THREAT * lv * min(len(wins), 2)
            else:
                value -= THREAT * lv * min(len(wins), 2)
        return value
