"""The leanest random loops for hand play and turn policies: flat state kept in place, no
`Move` built.

`play(game, state, players, max_plies, record)` plays exactly what `players.handloop`
(and `runner.play_game`) plays when every player is a `RandomPlayer`, for the games
`applies` accepts: the flat flavour (`FastMoves.flat`, `engine.flatstate`), no filters (they
judge `Move`s), no consequences (`after:`: they read `Move`s) and no `on_turn` (it reads
`Move`s and `State`s) but a tally (`players.tally`: told each play's kind and events, no
`Move` built). The same cards are dealt, drawn and discarded (the pile and the
discards as lists changed in place, reshuffled by the same `rng.shuffled`), the same moves
listed in the same order as `Game.legal_moves` lists them, the same choice made
(`below_at(base, plies, n)`, asked only among two or more), the same winner checks, bonus
turns and redraw counts, so the same final `State` and the same recorded choices.

A turn lists the candidates of the distinct cards (the hand's, or those drawn together) in
sorted order with the flat functions (a card that cannot move a pawn is no play; passes kept
only when every playable card offers one: P4, A21), then the plays beside them as small
tuples `(card, others, draw_again, kind)`: the hand actions, or when nothing else is legal
the stuck plays (`turnpolicy.redraw_moves`' redraws, else the discards of P5 or the
forfeit). The chosen candidate is played on the flat lists in place (a one-pawn move
inline); a stuck play or an action only moves cards. Different cards never give the same
move (a move carries its card), so the moves of a turn are the concatenation of the cards'
lists, each already without repeats (A24), and the choice is uniform over all of them.

Remembered per game (pure functions of what the key holds, so remembering changes no
game): the action plays of a hand (`turnpolicy.action_moves` depends only on the cards and
on which actions' conditions hold), a policy's condition per colour, placement and
counters (a condition that is a literal, `constant` of `engine.turnpolicy`'s policies, e.g.
a `when` left out, is not evaluated at all), and, for a win condition that reads Home counts
only, the winner per Home counts, counters and seat (`flatloop.home_winner`).

A turn lists each distinct card once (the hand sorted, repeats skipped), walks the lists
inline to the chosen candidate and passes the turn inline; `_declined` runs only when a
card that may pass listed a pass (without one, it keeps every list as it is). Draw play
with two cards a ply (`turn.take` 2) has its own loop (`_play_pairs`): the two cards are
popped from the pile and listed inline, the choice taken by index over the two lists, with
no list of the cards drawn and no call per ply besides the two cards' functions and the
choice (rare cases, a stuck pair or a card that passes, call a helper).
"""

from __future__ import annotations

import weakref
from operator import itemgetter

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine.fastmoves import PASS_CODE
from sorry_rules.engine.flatstate import freeze
from sorry_rules.engine.game import State
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.placement import PlacementView
from sorry_rules.engine.rng import below_at, shuffled
from sorry_rules.engine.turnpolicy import ACTION, REDRAW, action_moves
from sorry_rules.players.fastloop import setup_wins
from sorry_rules.players.flatloop import home_winner
from sorry_rules.players.tally import candidate_teller, is_tally, play_teller

DISCARD, FORFEIT = "discard", "forfeit"
_CODE = itemgetter(2)  # a candidate's code

#: per game: (sorted hand, which actions' conditions hold) -> the action plays (`_Turns.action_plays`),
#: and (policy, colour, placement, counters) -> whether its condition holds (`_Turns.holds`);
#: each cleared when it grows large
_ACTION_PLAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_CONDITIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: per game whose win condition reads Home counts only: `flatloop.home_winner`'s answers
_HOME_WINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_REMEMBERED_MAX = 4096


def applies(game, on_turn) -> bool:
    """Whether `play` plays a game `players.handloop` plays (see the module docstring)."""
    return ((on_turn is None or is_tally(on_turn)) and game.fast_moves.flat is not None and not game.filters
            and not game.after)


class Deck:
    """The draw pile (the next card last) and the discards as lists that are never replaced
    (a loop may hold them), the RNG that reshuffles the discards (`engine.game.take_card`)."""

    __slots__ = ("pile", "discard", "rng")

    def __init__(self, state: State):
        self.pile, self.discard, self.rng = list(state.pile), list(state.discard), state.rng

    def take(self):
        """The top card, None when the pile and the discards are both empty."""
        pile = self.pile
        if not pile:
            if not self.discard:
                return None
            self.rng, cards = shuffled(self.rng, self.discard)
            pile.extend(cards)
            self.discard.clear()
        return pile.pop()

    def draw(self, n: int) -> list:
        """`n` cards one by one (`Game.draw`); an error when none is left."""
        cards = []
        for _ in range(n):
            card = self.take()
            if card is None:
                break
            cards.append(card)
        if not cards:
            raise IllegalMoveError("the draw pile and the discards are both empty")
        return cards

    def refill(self, hand: list, played: tuple) -> None:
        """The cards `played` leave `hand` and as many are drawn (`Game._refill`)."""
        for card in played:
            hand.remove(card)
        for _ in played:
            card = self.take()
            if card is not None:
                hand.append(card)


def _declined(groups: list, may_pass) -> tuple[list, int]:
    """`groups` (`[(card, candidates)]`, every card with candidates) as `Game._cards_moves`
    keeps them: a card whose candidates are all passes is no play (P4), and passes stay only
    when every playable card offers one (A21); and the number of candidates."""
    kept = []
    declinable = True
    passing = False
    for card, candidates in groups:
        if not may_pass[card]:
            declinable = False
            kept.append((card, candidates))
            continue
        passes = [*map(_CODE, candidates)].count(PASS_CODE)
        if passes == len(candidates):
            continue
        declinable = declinable and passes > 0
        passing = passing or passes > 0
        kept.append((card, candidates))
    if passing and not declinable:
        kept = [(card, [c for c in candidates if c[2] != PASS_CODE]) for card, candidates in kept]
    return kept, sum(len(candidates) for _, candidates in kept)


class _Turns:
    """A game's tables and what the rarer plays need: the win checks, the hand actions, the
    stuck plays (redraws, discards, forfeits)."""

    def __init__(self, game, state: State):
        self.game = game
        self.seats, self.counters = state.seats, state.counters
        self.check_always = not game.win_on_home_only or setup_wins(game, state.seats)
        self.actions, self.redraw = game.actions, game.redraw
        self.action_cards = frozenset().union(*(action.cards for action in self.actions))
        self.remembered = _ACTION_PLAYS.setdefault(game, {}) if self.actions else {}
        self.conditions = _CONDITIONS.setdefault(game, {}) if self.actions or self.redraw else {}
        self.home = game.fast_moves.flat.home
        self.home_wins = None if self.check_always else _HOME_WINS.setdefault(game, {})

    def holds(self, which: int, policy, colour: int, P) -> bool:
        """Whether a policy's condition (`engine.turnpolicy`: `policy.when(colour, view, env)`,
        a function of the placement and the counters; its value `policy.constant` when it
        reads nothing; `which`: the action's index, -1 for the redraw) holds for a player of
        `colour` on the flat position P."""
        if policy.constant is not None:
            return policy.constant
        when, placement = policy.when, freeze(P)
        key = (which, colour, placement, self.counters)
        held = self.conditions.get(key)
        if held is None:
            if len(self.conditions) >= _REMEMBERED_MAX:
                self.conditions.clear()
            env = {"@counters": self.counters} if self.counters else None
            held = self.conditions[key] = bool(when(colour, PlacementView(placement), env))
        return held

    def winner(self, turn: int, P):
        """The first seat from `turn` on whose win condition holds (as `Game.apply`), or None;
        remembered per Home counts (`flatloop.home_winner`) when it reads Home counts only."""
        if self.home_wins is not None:
            return home_winner(self.game, self.seats, turn, P, self.home, self.counters, self.home_wins)
        seats, count, placement = self.seats, len(self.seats), freeze(P)
        for k in range(count):
            seat = (turn + k) % count
            if self.game.win_holds(seats[seat], placement, self.counters):
                return seat
        return None

    def action_plays(self, hand: list, colour: int, P) -> list:
        """The hand actions `hand` allows (`turnpolicy.action_moves`, the same order) as
        `(card, others, draw_again, ACTION)`."""
        if not self.action_cards or self.action_cards.isdisjoint(hand):
            return []
        held = []
        for which, action in enumerate(self.actions):
            if not action.cards.isdisjoint(hand):
                held.append(self.holds(which, action, colour, P))
        key = (tuple(sorted(hand)), tuple(held))
        plays = self.remembered.get(key)
        if plays is None:
            actions = [action for action in self.actions if not action.cards.isdisjoint(hand)]
            holding = tuple(action for action, holds in zip(actions, held) if holds)
            position = self.game.position(freeze(P), self.seats, 0, counters=self.counters)
            plays = action_moves(holding, position, colour, key[0], _action_play)
            if len(self.remembered) >= _REMEMBERED_MAX:
                self.remembered.clear()
            self.remembered[key] = plays
        return plays

    def stuck(self, cards, colour: int, P, redraws: int, forfeit_again: bool, hand_play: bool) -> list:
        """The plays of a stuck turn (nothing else legal): the redraws (`turnpolicy.redraw_moves`:
        one per distinct card of `cards`, the hand's or the first drawn), else the discards
        (hand play, P5) or a forfeit (draw play; `forfeit_again`: it keeps the turn)."""
        policy = self.redraw
        if policy is not None and redraws < policy.at_most and self.holds(-1, policy, colour, P):
            return [(card, (), True, REDRAW) for card in sorted(set(cards))]
        if not hand_play:
            return [(cards[0], (), forfeit_again, FORFEIT)]
        if not cards:
            return [(None, (), False, FORFEIT)]
        return [(card, (), False, DISCARD) for card in sorted(set(cards))]


def _action_play(card, _placement, _events, draw_again, _kind, others, _label) -> tuple:
    """`action_moves`' `move_type`: the play as `(card, others, draw_again, ACTION)`."""
    return card, others, draw_again, ACTION


def play(game, state: State, players, max_plies: int, record, tally=None) -> State:
    """Play from `state` as `runner.play_game` would with these random `players` (call only
    when `handloop.applies` and `applies`); `record` (a `runner.GameRecord` or None) gets the
    choices; `tally` (a `players.tally` tally, or None) is told every play."""
    choices = record.choices if record is not None else []
    if state.hands is not None:
        loop = _play_hands
    else:
        loop = _play_pairs if game.take == 2 else _play_draws
    return loop(game, state, [player.base for player in players], choices, max_plies, tally)


def _final(state: State, P, hands, deck: Deck, turn: int, winner, plies: int, bonus: int, redraws: int) -> State:
    hands = tuple(tuple(hand) for hand in hands) if hands is not None else None
    return State(freeze(P), state.seats, turn, None, hands, tuple(deck.pile), tuple(deck.discard), deck.rng, winner, plies,
                 state.counters, bonus, state.marks, (), redraws)


def _play_hands(game, state: State, bases: list, choices: list, max_plies: int, tally=None) -> State:
    """The loop for hand play: every distinct card of the hand listed, then the actions; a
    stuck hand redraws or discards. A candidate moving one pawn (code 0) is played inline."""
    flat, turns, deck = game.fast_moves.flat, _Turns(game, state), Deck(state)
    seats, may_pass, check_always, home = state.seats, game.fast_moves.passes, turns.check_always, flat.home
    by_seat = [tuple(row[colour] for row in flat.table) for colour in seats]
    P, occ = flat.lists(state.placement)
    hands = [list(hand) for hand in state.hands]
    pile, discard, apply, count, action_cards = deck.pile, deck.discard, flat.apply, len(seats), turns.action_cards
    counts_redraws = turns.redraw is not None
    turn, plies, bonus, redraws, winner = state.turn, state.plies, state.bonus, state.redraws, None
    tell, tell_play = candidate_teller(tally, flat), play_teller(tally)
    while winner is None and plies < max_plies:
        hand, functions = hands[turn], by_seat[turn]
        groups, total, passing, last = [], 0, False, None
        for card in sorted(hand):  # the distinct cards in sorted order
            if card == last:
                continue
            last = card
            candidates = functions[card](P, occ, 0)[0]  # keys relative to this position
            if candidates:
                groups.append((card, candidates))
                total += len(candidates)
                # `_declined` changes nothing unless a card that may pass listed a pass
                passing = passing or (may_pass[card] and PASS_CODE in map(_CODE, candidates))
        if passing:
            groups, total = _declined(groups, may_pass)
        extra = turns.action_plays(hand, seats[turn], P) if action_cards and not action_cards.isdisjoint(hand) else ()
        if not total and not extra:
            extra = turns.stuck(hand, seats[turn], P, redraws, False, True)
        options = total + len(extra)
        choice = 0 if options == 1 else below_at(bases[turn], plies, options)
        choices.append(choice)
        plies += 1
        if choice >= total:
            tell_play(turn, extra[choice - total][3])
            again, redrew = _play_cards(extra[choice - total], hand, deck)
        else:
            left = choice  # the chosen candidate among the cards' lists
            for card, candidates in groups:
                if left < len(candidates):
                    candidate = candidates[left]
                    break
                left -= len(candidates)
            tell(turn, candidate, occ)
            discard.append(card)
            hand.remove(card)
            drawn = pile.pop() if pile else deck.take()
            if drawn is not None:
                hand.append(drawn)
            if candidate[2] == 0:  # one pawn, no bump, no slide: the common case, inline
                c, frm, to = candidate[3], candidate[4], candidate[5]
                squares = P[c]
                squares[squares.index(frm)] = to
                squares.sort()
                occ[frm] = -1
                occ[to] = c
                judge = check_always or to == home[c]
            else:
                judge = candidate[2] != PASS_CODE and (apply(candidate, P, occ) or check_always)
            if judge:
                winner = turns.winner(turn, P)
            again, redrew = candidate[1], False
        if winner is not None or again or bonus:  # the same seat (one bonus turn used), else the next
            if not (winner is not None or again):
                bonus -= 1
            redraws = redraws + redrew if counts_redraws else 0
        else:
            turn, redraws = (turn + 1) % count, 0
    return _final(state, P, hands, deck, turn, winner, plies, bonus, redraws)


def _play_cards(play: tuple, hand: list, deck: Deck) -> tuple[bool, bool]:
    """Play an action or a stuck play `(card, others, draw_again, kind)` from `hand`: the
    cards discarded, the hand refilled; (draw again, whether it was a redraw)."""
    card, others, again, kind = play
    if card is not None:
        deck.discard.append(card)
        deck.discard.extend(others)
        deck.refill(hand, (card,) + others)
    return again, kind == REDRAW


def _chosen(functions: tuple, may_pass, cards: list, P, occ, base: int, plies: int) -> tuple:
    """`(choice, total, card, candidate)` among the candidates of the distinct `cards` in
    sorted order (`_declined` when one that may pass listed a pass): the choice
    `below_at(base, plies, total)` (0 below two), and its card and candidate (None, None
    when there is none). Two different cards that may not pass (the commonest draw of
    several) are listed without building the groups."""
    if len(cards) == 2 and cards[0] != cards[1]:
        first, second = cards if cards[0] < cards[1] else (cards[1], cards[0])
        if not (may_pass[first] or may_pass[second]):
            listed = functions[first](P, occ, 0)[0]  # keys relative to this position
            rest = functions[second](P, occ, 0)[0]
            total = len(listed) + len(rest)
            choice = 0 if total < 2 else below_at(base, plies, total)
            if choice < len(listed):
                return choice, total, first, listed[choice]
            return (choice, total, second, rest[choice - len(listed)]) if rest else (choice, 0, None, None)
    groups, total, passing, last = [], 0, False, None
    for card in sorted(cards):
        if card == last:
            continue
        last = card
        candidates = functions[card](P, occ, 0)[0]  # keys relative to this position
        if candidates:
            groups.append((card, candidates))
            total += len(candidates)
            if may_pass[card] and PASS_CODE in map(_CODE, candidates):
                passing = True  # `_declined` changes only lists where a card that may pass does
    if passing:
        groups, total = _declined(groups, may_pass)
    choice = 0 if total < 2 else below_at(base, plies, total)
    left = choice
    for card, candidates in groups:
        if left < len(candidates):
            return choice, total, card, candidates[left]
        left -= len(candidates)
    return choice, total, None, None


def _play_draws(game, state: State, bases: list, choices: list, max_plies: int, tally=None) -> State:
    """The loop for draw play with turn policies: `turn.take` cards drawn (the distinct ones
    listed together, in sorted order), a stuck turn redraws or forfeits."""
    flat, turns, deck = game.fast_moves.flat, _Turns(game, state), Deck(state)
    seats, may_pass, check_always, take = state.seats, game.fast_moves.passes, turns.check_always, game.take
    by_seat = [tuple(row[colour] for row in flat.table) for colour in seats]
    P, occ = flat.lists(state.placement)
    pile, discard, count, home, apply = deck.pile, deck.discard, len(seats), flat.home, flat.apply
    counts_redraws = turns.redraw is not None
    turn, plies, bonus, redraws, winner = state.turn, state.plies, state.bonus, state.redraws, None
    tell, tell_play = candidate_teller(tally, flat), play_teller(tally)
    while winner is None and plies < max_plies:
        if len(pile) >= take:  # the cards in the order drawn, the top one first
            drawn = pile[-take:]
            del pile[-take:]
            drawn.reverse()
        else:
            drawn = deck.draw(take)
        functions = by_seat[turn]
        if len(drawn) == 1:
            card = drawn[0]
            candidates, flags = functions[card](P, occ, 0)  # keys relative to this position
            total = len(candidates)
            choice = 0 if total < 2 else below_at(bases[turn], plies, total)
            if total:
                candidate = candidates[choice]
        else:
            flags = 0  # cards drawn together: a stuck turn forfeits without drawing again
            choice, total, card, candidate = _chosen(functions, may_pass, drawn, P, occ, bases[turn], plies)
        choices.append(choice)
        plies += 1
        redrew = False
        if total:
            tell(turn, candidate, occ)
            code = candidate[2]
            if code == 0:  # one pawn, no bump, no slide: the common case, inline
                c, frm, to = candidate[3], candidate[4], candidate[5]
                squares = P[c]
                squares[squares.index(frm)] = to
                squares.sort()
                occ[frm] = -1
                occ[to] = c
                judge = check_always or to == home[c]
            else:
                judge = code != PASS_CODE and (apply(candidate, P, occ) or check_always)
            if judge:
                winner = turns.winner(turn, P)
            again = candidate[1]
        else:
            card, _, again, kind = turns.stuck(drawn[:1], seats[turn], P, redraws, bool(flags & DRAW_AGAIN), False)[0]
            redrew = kind == REDRAW
            tell_play(turn, kind)
        discard.append(card)
        if len(drawn) > 1:
            drawn.remove(card)
            discard.extend(drawn)
        if winner is not None or again or bonus:  # the same seat (one bonus turn used), else the next
            if not (winner is not None or again):
                bonus -= 1
            redraws = redraws + redrew if counts_redraws else 0
        else:
            turn, redraws = (turn + 1) % count, 0
    return _final(state, P, None, deck, turn, winner, plies, bonus, redraws)


def _pair_declined(first: int, listed: list, second: int, rest: list, may_pass) -> tuple[list, list]:
    """The lists of two cards drawn together (`first` < `second`, or the same card twice with
    `rest` empty) as `_declined` keeps them: unchanged unless a card that may pass listed a
    pass; a card that is no play gets an empty list."""
    if not (may_pass[first] and PASS_CODE in map(_CODE, listed)) and not (may_pass[second] and PASS_CODE in map(_CODE, rest)):
        return listed, rest
    groups = [(card, candidates) for card, candidates in ((first, listed), (second, rest)) if candidates]
    kept = dict(_declined(groups, may_pass)[0])
    return kept.get(first, []), kept.get(second, []) if second != first else []


def _stuck_pair(turns: _Turns, discard: list, first: int, second: int, P, redraws: int, bonus: int, turn: int,
                tell_play) -> tuple:
    """Two cards drawn together of which neither moves: the redraw of the first card (when the
    turn policy allows it) or the forfeit, both cards discarded; (turn, bonus, redraws) after it.
    `tell_play` (`players.tally.play_teller`) is told the play."""
    discard.append(first)
    discard.append(second)
    if turns.redraw is None:  # no redraw policy: the forfeit (`_Turns.stuck`), which keeps no turn
        again, kind = False, FORFEIT
    else:
        _, _, again, kind = turns.stuck((first,), turns.seats[turn], P, redraws, False, False)[0]
    tell_play(turn, kind)
    if again or bonus:  # the same seat (one bonus turn used), else the next
        if not again:
            bonus -= 1
        return turn, bonus, (redraws + (kind == REDRAW) if turns.redraw is not None else 0)
    return (turn + 1) % len(turns.seats), bonus, 0


def _play_pairs(game, state: State, bases: list, choices: list, max_plies: int, tally=None) -> State:
    """`_play_draws` for `turn.take` 2, with the two cards drawn together listed inline: the
    top two cards popped (the pile refilled by `Deck.draw` when it holds fewer), the lower
    card's candidates first, a card drawn twice listed once, `_pair_declined` where a card
    may pass. When fewer than two cards are left to draw, `_play_draws` goes on from there."""
    flat, turns, deck = game.fast_moves.flat, _Turns(game, state), Deck(state)
    seats, may_pass, check_always = state.seats, game.fast_moves.passes, turns.check_always
    by_seat = [tuple(row[colour] for row in flat.table) for colour in seats]
    P, occ = flat.lists(state.placement)
    pile, discard, count, home, apply = deck.pile, deck.discard, len(seats), flat.home, flat.apply
    counts_redraws = turns.redraw is not None
    turn, plies, bonus, redraws, winner = state.turn, state.plies, state.bonus, state.redraws, None
    tell, tell_play = candidate_teller(tally, flat), play_teller(tally)
    functions, base = by_seat[turn], bases[turn]
    record, throw = choices.append, discard.append
    while winner is None and plies < max_plies:
        if len(pile) < 2:
            if len(pile) + len(discard) < 2:  # one card or none left: the general loop from here
                state = _final(state, P, None, deck, turn, None, plies, bonus, redraws)
                return _play_draws(game, state, bases, choices, max_plies, tally)
            pile.extend(reversed(deck.draw(2)))  # popped in the order drawn
        first = pile.pop()  # the cards in the order drawn, the top one first
        second = pile.pop()
        if first <= second:
            lo, hi = first, second
        else:
            lo, hi = second, first
        listed = functions[lo](P, occ, 0)[0]  # keys relative to this position
        rest = functions[hi](P, occ, 0)[0] if hi != lo else ()
        if may_pass[lo] or may_pass[hi]:
            listed, rest = _pair_declined(lo, listed, hi, rest, may_pass)
        shown = len(listed)
        total = shown + len(rest)
        choice = 0 if total < 2 else below_at(base, plies, total)
        record(choice)
        plies += 1
        if not total:
            turn, bonus, redraws = _stuck_pair(turns, discard, first, second, P, redraws, bonus, turn, tell_play)
            functions, base = by_seat[turn], bases[turn]
            continue
        if choice < shown:
            candidate = listed[choice]
            throw(lo)
            throw(hi)
        else:
            candidate = rest[choice - shown]
            throw(hi)
            throw(lo)
        tell(turn, candidate, occ)
        code = candidate[2]
        if code == 0:  # one pawn, no bump, no slide: the common case, inline
            c, frm, to = candidate[3], candidate[4], candidate[5]
            squares = P[c]
            squares[squares.index(frm)] = to
            squares.sort()
            occ[frm] = -1
            occ[to] = c
            judge = check_always or to == home[c]
        else:
            judge = code != PASS_CODE and (apply(candidate, P, occ) or check_always)
        if judge:
            winner = turns.winner(turn, P)
        if winner is None and not candidate[1]:
            if not bonus:
                turn, redraws = (turn + 1) % count, 0
                functions, base = by_seat[turn], bases[turn]
                continue
            bonus -= 1
        if not counts_redraws:
            redraws = 0
    return _final(state, P, None, deck, turn, winner, plies, bonus, redraws)
