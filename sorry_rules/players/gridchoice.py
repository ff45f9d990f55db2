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
* `expert` (one ply, with what the next turns are likely to bring; hidden information as
  `players/protocol.py` says): the greedy score with each opponent's winning cells weighed
  by the chance that one of its seats playing before this side's next turn holds a card
  covering one (hypergeometric, from the cards this player cannot see: the deck minus the
  discards and its own hand), the other sides' strength and the card cost weighed by
  `DUEL_WEIGHTS` with two sides (blocking counts more, wild cards are kept longer) and by
  `MANY_WEIGHTS` with more, plus a *tempo* term in units of the
  gain of finishing a window: `DOUBLE` when the cards kept in hand reach two or more own
  finishing cells (a double threat: one chip cannot block both), `SINGLE` times the chance
  that no opponent holds a card for it when they reach one, minus `OPPONENT` times the
  chance that an opponent holds a card for one of its finishing cells (so a window of four
  is blocked before it becomes a line, S10, S11). A dead card is exchanged first, as greedy
  does. The work per decision is a fixed function of the position and the hand (no clock,
  no search), so the choice is deterministic; it costs about as much as greedy's.
  (A two-ply version, the next opponent's best reply averaged over its possible cards,
  measured no stronger than greedy at twenty times the CPU time: bench/README.md.)

Ties are broken by the player's seeded stream, as for track games.
"""

from __future__ import annotations

import math
from collections import Counter

from sorry_rules.engine.gridtable import EXCHANGE, PASS
from sorry_rules.players.gridevaluation import combine, grid_evaluator_for

WIN = 1e9
EXCHANGE_FIRST = WIN / 2
OWN_THREAT = 0.5
THREAT = 2.0
KEEP = 10.0
#: The expert's tempo terms, in units of the gain of finishing a window (see `_tempo`).
DOUBLE = 1.5
SINGLE = 0.8
OPPONENT = 1.0
#: The expert's (weight of the other sides' strength, weight of its card costs): in a duel
#: (two sides) and with more sides, where a chip that blocks one opponent also helps the others.
DUEL_WEIGHTS = (1.3, 3.0)
MANY_WEIGHTS = (1.0, 2.0)


class _Judge:
    """Scores placements from the view's side: `threat(colour, cells)` weighs an opponent's
    winning cells (lines lost), `value(analysis, placement)` is the side's score; `defence`
    weighs the other sides' value and `keep` the card costs (1 for greedy)."""

    def __init__(self, view, threat):
        game = view.game
        self.game = game
        self.view = view
        self.ev = grid_evaluator_for(game)
        self.seats = view.seats
        self.colours = tuple(sorted(set(view.seats)))
        self.team = game.team_of[view.colour]
        self.threat = threat
        self.defence = 1.0
        self.keep = 1.0

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
        return combine(mine, others, self.defence)


def _card_costs(moves) -> dict:
    plays = Counter(move.card for move in moves if move.kind not in (EXCHANGE, PASS))
    return {card: KEEP * math.log2(1 + n) for card, n in plays.items()}


def _scores(judge: _Judge, moves, base) -> tuple[list, list]:
    """(score, analysis after the move or None) of each move."""
    view, ev = judge.view, judge.ev
    costs = _card_costs(moves)
    here = judge.value(base, view.placement)
    scores, after = [], []
    for move in moves:
        analysis = None
        if move.kind == EXCHANGE:
            score = EXCHANGE_FIRST
        elif move.kind == PASS:
            score = here
        elif ev.wins(view.colour, move.placement, view.seats):
            score = WIN
        else:
            analysis = ev.changed(base, ev.changes_of(move))
            score = judge.value(analysis, move.placement) - judge.keep * costs[move.card]
        scores.append(score)
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
    cover_cache: dict = {}

    def opponent_has(colour, cells) -> float:
        key = (colour, frozenset(cells))
        found = cover_cache.get(key)
        if found is None:
            cover = {card for card in card_list if ev.card_cells(card) & key[1]}
            found = cover_cache[key] = unseen.chance(cover, unseen.before.get(colour, 0))
        return found

    def threat(colour, wins):
        return THREAT * lv * opponent_has(colour, wins)

    judge = _Judge(view, threat)
    sides = {game.team_of[c] for c in judge.colours}
    judge.defence, judge.keep = DUEL_WEIGHTS if len(sides) == 2 else MANY_WEIGHTS
    base = ev.analyse(view.placement, judge.colours)
    scores, after = _scores(judge, moves, base)
    if max(scores) >= EXCHANGE_FIRST:
        return scores
    gain = lv - ev.window_value[ev.L - 1]
    reach_of: dict = {}
    for i, analysis in enumerate(after):
        if analysis is None:
            continue
        card = moves[i].card
        reach = reach_of.get(card)
        if reach is None:
            kept = list(view.hand)
            kept.remove(card)
            reach = reach_of[card] = set().union(*(ev.card_cells(other) for other in set(kept)))
        scores[i] += gain * _tempo(judge, analysis, reach, opponent_has)
    return scores


def _tempo(judge: _Judge, analysis, reach: set, opponent_has) -> float:
    """Lines (in units of a finished window's gain) the next turns are likely to bring: own
    finishing cells the kept cards reach (two or more cannot all be blocked), minus each
    opponent's finishing cells weighed by the chance it holds a card for one."""
    value = 0.0
    enemy = {}
    for c in judge.colours:
        cells = analysis.finishing[c]
        if not cells:
            continue
        if c in judge.team:
            mine = cells & reach
            if len(mine) >= 2:
                value += DOUBLE
            elif mine:
                blocked = max((opponent_has(o, mine) for o in judge.colours if o not in judge.team), default=0.0)
                value += SINGLE * (1.0 - blocked)
        else:
            key = judge.game.team_of[c]
            enemy[key] = enemy.get(key, 0.0) + OPPONENT * opponent_has(c, cells)
    return combine(value, enemy)
