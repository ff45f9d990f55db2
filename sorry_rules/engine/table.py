"""A track game in progress, changed in place: the turn flow written once.

A `Table` holds everything of a game (`engine.game.State`'s fields) in mutable form: the
`Position` (pawns and marks), the pile and discards as lists, the hands, the turn. The
player to move chooses among `options()`; `play(option)` applies the choice. Every loop,
player and tool goes through these two methods (the public `Game.legal_moves` and `apply`
build a table from a `State` and read one back).

Turn flow (RULES R5, R11, R17, R19, R34, R35, A13, A16, A21, P4, P5):
- draw play: `draw` takes the top card (reshuffling the discards when the pile is empty);
  the options are what that card allows; playing one discards the card and passes the turn
  unless the move grants another draw.
- hand play: the options are every move of every card in the hand (a card that cannot move
  a pawn is not playable, even if it offers a pass; an explicit pass survives only when
  every playable card also offers one, A21); when no card can move, one discard per
  distinct card (P5), none drawing again (A13). Playing refills the hand from the pile
  (reshuffling the discards, A16); a move that draws again keeps the turn (A13).
- a card with no legal move gives a single `forfeit` option.
- turn policies (`engine.turnpolicy`): `take` > 1 draws that many cards at once; the
  player plays one (card and move are one choice) and the others are discarded with it;
  stuck, all are discarded. `redraw` turns a stuck turn into a `redraw` (discard, take
  another card, same turn), at most N a turn; the consequences that follow forfeits follow
  a redraw too (their counters and marks: a stuck throw still counts, LU19; their extra
  cards are not added, the redraw being itself the card taken again). Hand `actions` are
  options beside the card moves; a hand with an action is not stuck, so P5's free discard
  is not offered then, and its 11 is not declined (the action is a play that is no switch,
  A21).
- filters (`filters:`, `rules.must_bump`) judge the options; consequences (`after:`)
  follow a move or a pass (counters, bonus turns, marks), and a forfeit where they say so;
  the effects of consequences with `then:` are played as part of the option they follow
  (`followed`: the player chooses the way they are played with the option).
- the game ends at once when a player's win condition holds (checked after every move,
  the mover first, then the other seats in order). Played for `places` > 1, such a side
  has finished instead: its seats (`finished`, in order) sit out, a turn that would pass to
  one passes on, the mover's own turn ends there (no card it was still due), and the game
  ends, the first to finish its winner, once that many sides finished or one is left.

The choices are `engine.option.Option`s: the card generators' own (`Game.program`), and the
turn's forfeits, discards, redraws and hand actions. Options of one turn are distinct by
result (A24): by placement, draw-again flag and, with marks, the marks after.

Contract: the same table and the same choices give the same game on every machine (the RNG
lives in the table); nothing here prints.
"""

from __future__ import annotations

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine import marks as _marks
from sorry_rules.engine import rng as _rng
from sorry_rules.engine.events import bumped_to, moved_to
from sorry_rules.engine.moverules import run_consequences, run_on_events
from sorry_rules.engine.position import Position
from sorry_rules.engine.option import DISCARD, DRAW_AGAIN, FORFEIT, MOVE, PASS, PASS_KIND, Option, new_option
from sorry_rules.engine.turnpolicy import ACTION, REDRAW, action_choices, policy_env


class NoDiscards(list):
    """The discards of a dice game: a throw goes back to the dice, so nothing is kept."""

    def append(self, card) -> None:
        pass

    def extend(self, cards) -> None:
        pass


def _option(card, events, flags, kind, cards=(), label="") -> Option:
    return new_option(Option, (card, events, flags, kind, 0, cards, label))


def _ways(options: list) -> list:
    """The moves and passes of `options` (the ways of playing a card, without the outcomes
    that move nothing)."""
    return [o for o in options if o[3] is MOVE or o[3] is PASS_KIND]


def _reaches_home(events: tuple, home: tuple) -> bool:
    """Whether a step, slide or send of `events` ends in its pawn's Home."""
    for e in events:
        if len(e) == 4 and e[3] == home[e[1]]:
            return True
    return False


class Table:
    """A game in progress (module contract). Built by `Game.table(state)`."""

    __slots__ = ("game", "pos", "seats", "turn", "card", "hands", "pile", "discard", "rng", "winner", "plies",
                 "counters", "bonus", "drawn", "redraws", "programs", "over", "judge_always", "pushed", "passed",
                 "won_at_setup", "finished")

    def __init__(self, game, state):
        self.game = game
        self.programs = game.programs
        self.pos = Position(game.layout, state.placement, game.marks, state.marks)
        self.seats = state.seats
        self.turn = state.turn
        self.card = state.card
        self.hands = None if state.hands is None else [list(hand) for hand in state.hands]
        self.pile = list(state.pile)
        self.discard = list(state.discard) if game.dice is None else NoDiscards()
        self.rng = state.rng
        self.winner = state.winner
        self.over = state.winner is not None  # the game has ended (`winner` set)
        # a win condition that holds from the start (`win: true`) ends the game at the first play, whatever it is (R35)
        self.won_at_setup = game.win_on_home_only and game.wins_at_setup(state.seats)
        # whether every move is judged for a winner (else only those that reach Home: `Game.wins_at_setup`)
        self.judge_always = not game.win_on_home_only or self.won_at_setup
        self.plies = state.plies
        self.counters = self.pos.counters = state.counters  # a card's guards read them on the position
        self.bonus = state.bonus
        self.drawn = state.drawn
        self.redraws = state.redraws
        self.pushed: list = []  # what `pop` takes back, last first
        self.passed = False  # whether the last `play` passed the turn on (to the next seat, or to the only one)
        self.finished = state.finished  # seats whose side finished, in order (`places` > 1)

    def state(self):
        """The `State` of this table (a snapshot: later plays do not change it)."""
        hands = None if self.hands is None else tuple(map(tuple, self.hands))
        return self.game.state_type(self.pos.placement(), self.seats, self.turn, self.card, hands, tuple(self.pile),
                                    tuple(self.discard), self.rng, self.winner, self.plies, self.counters, self.bonus,
                                    self.pos.marks, self.drawn, self.redraws, self.finished)

    def seen(self) -> "Table":
        """A table of what the player to move sees, to reason on with `push` and `pop`: the
        position, seats, turn, counters, the card(s) drawn or the own hand; no pile, no
        discards, no other hand (as `players.evaluation.view_table` of its view)."""
        other = Table.__new__(Table)
        other.game, other.programs, other.pos = self.game, self.programs, self.pos.copy()
        other.seats, other.turn, other.card, other.drawn = self.seats, self.turn, self.card, self.drawn
        other.redraws = self.redraws
        other.hands = None if self.hands is None else [list(h) if i == self.turn else [] for i, h in enumerate(self.hands)]
        other.pile, other.discard, other.rng, other.bonus = [], [], 0, 0
        other.winner, other.over, other.plies, other.counters = self.winner, self.over, self.plies, self.counters
        other.judge_always, other.won_at_setup, other.pushed = self.judge_always, self.won_at_setup, []
        other.passed, other.finished = False, self.finished
        return other

    # ---- chance ------------------------------------------------------------------------------
    def needs_draw(self) -> bool:
        return not self.game.hand_play and self.card is None and self.winner is None

    def take(self):
        """The top card of the pile (its last element), reshuffling the discards into a new
        pile when it is empty (R34, A16, S8); None when both are empty. With dice (no pile): a
        throw, drawn from the bag of their outcomes with replacement (`engine.dice`)."""
        if not self.pile:
            bag = self.game.deck if self.game.dice is not None else None
            if bag is not None:
                self.rng, i = _rng.below(self.rng, len(bag))
                return bag[i]
            if not self.discard:
                return None
            self.rng, pile = _rng.shuffled(self.rng, self.discard)
            self.pile, self.discard = list(pile), []
        return self.pile.pop()

    def draw(self) -> None:
        """Draw the card(s) of a turn of draw play (R5; `turn.take` > 1: that many, one by one)."""
        if not self.needs_draw():
            raise IllegalMoveError("no card is to be drawn now")
        cards = []
        for _ in range(self.game.take):
            card = self.take()
            if card is None:
                break
            cards.append(card)
        if not cards:
            raise IllegalMoveError("the draw pile and the discards are both empty")
        self.card, self.drawn = cards[0], tuple(cards[1:])

    # ---- options -----------------------------------------------------------------------------
    def options(self) -> list:
        """Every option of the player to move (see the module contract), the turn's card(s)
        drawn first when it needs them; [] once the game is over."""
        if self.over:
            return []
        game = self.game
        if game.hand_play:
            options = self._hand_options(self.seats[self.turn])
            return self.followed(self.seats[self.turn], options) if game.after_then else options
        card = self.card
        if card is None:
            if game.take == 1 and self.pile:
                card = self.card = self.pile.pop()
            else:
                self.draw()
                card = self.card
        p = self.seats[self.turn]
        if self.drawn:
            options = self.cards_options(p, (card,) + self.drawn, raw=bool(game.filters))
            if game.filters:
                options = self.merged(p, self.filtered(p, options)[0])
            options = options or [_option(card, (), 0, FORFEIT, self.drawn)]  # the others are discarded with it
        else:
            options = []
            (self.programs[card][p] or game.program(card, p))(self.pos, options)
            if len(options) != 1 or options[0][3] is not MOVE or game.judged:  # else: one move, nothing to judge
                options = self.card_options(p, card, options)
        if game.redraw is not None and options[0][3] == FORFEIT and not self._ends_turn(p, options[0]):
            redraws = self._redraws(p, (card,), self.drawn)
            if redraws:
                return redraws
        return self.followed(p, options) if game.after_then else options

    def _ends_turn(self, p: int, option: Option) -> bool:
        """Whether a consequence that `option` fires ends the turn (`ends_turn`): a stuck card
        whose forfeit ends it is no redraw (the turn ends; LU13's third six)."""
        return self.game.ends_turns and any(c.ends_turn for c in self.consequences(p, option)[2])

    def options_of(self, card) -> list:
        """The options of `card` as the card the player to move drew, the table unchanged (a
        look ahead at a card that may come): `card_options`, or, where a stuck draw follows
        the `redraw` policy, what `options` lists with `card` drawn."""
        if self.game.redraw is None or self.game.hand_play:
            return self.card_options(self.seats[self.turn], card)
        held, self.card = self.card, card
        try:
            return self.options()
        finally:
            self.card = held

    def listed(self, p: int, card: int) -> list:
        """Every option the program of `card` lists for player colour p on this table's
        position, unmerged (moves, passes and the outcomes that move nothing)."""
        made: list = []
        (self.programs[card][p] or self.game.program(card, p))(self.pos, made)
        return made

    def card_options(self, p: int, card: int, made: list | None = None) -> list:
        """The options `card` gives player colour p, filtered; a forfeit when there is none
        (`made`: the card's options listed already). The filters judge every way of playing
        the card before the ways of one result are merged (a result some way of which a
        filter keeps is kept). A card whose plays the filters all remove could not be used:
        its own extra draw stands, as a 2's does (R19)."""
        filters = self.game.filters_of[card]
        if not filters:
            options, spare = self.distinct(p, card, made)
            return options or [self.game.forfeits[card][spare & DRAW_AGAIN]]
        if made is None:
            made = self.listed(p, card)
        listed, spare = self.distinct(p, card, made)
        options = []
        if listed:
            ways = _ways(made)
            options = self.filtered(p, listed, filters)[0] if len(ways) == len(listed) else \
                self.distinct(p, card, self.filtered(p, ways, filters)[0])[0]  # some results have several ways
            if not options and any(option[2] & DRAW_AGAIN for option in listed):
                spare |= DRAW_AGAIN
        return options or [self.game.forfeits[card][spare & DRAW_AGAIN]]

    def emptied_by(self, option: Option) -> str:
        """Why a forfeited card ends the turn, in the rule file's labels ('; ' between them):
        for a card whose plays filters all removed (LU13's third six, PA7's third doubles),
        those filters; for one with no play at all, the consequences that end the turn with
        it (LU13's third six that nothing could move); else ''."""
        game, card = self.game, option[0]
        if option[3] is not FORFEIT or card is None or game.hand_play or self.drawn:
            return ""
        p = self.seats[self.turn]
        listed = self.distinct(p, card)[0] if game.filters_of[card] else []
        if listed:
            return "; ".join(dict.fromkeys(f.label for _, f in self.filtered(p, listed, game.filters_of[card])[1]))
        if game.ends_turns:
            return "; ".join(dict.fromkeys(c.label for c in self.consequences(p, option)[2] if c.ends_turn))
        return ""

    def distinct(self, p: int, card: int, made: list | None = None) -> tuple[list, int]:
        """(options, spare flags): one option per distinct result of `card` for player
        colour p (A24), and the flags of outcomes that move nothing and are no pass (a
        forfeited 2 still draws again); `made`: the card's options listed already. A result
        is the placement, the extra draw, and where they differ the marks after, and the
        counters and extra cards of the consequences (`after:`). Where consequences play
        `then:` effects, moves of one result whose pawns' counts ended on different squares
        (`events.moved_to`, what `moved` selectors and the facts of where a move ends read)
        are kept apart: `followed` plays those effects and merges what then has one result."""
        options = self.listed(p, card) if made is None else made
        if len({option[4] for option in options if option[3] is MOVE}) == len(options):
            return options, 0  # moves only, each with a placement (so a result) of its own, whatever the marks
        marked, followed, start = self.game.marks, self.game.after_then, self.game.layout.start
        counted = self.game.after_tells_apart  # ways of one placement may leave other counters, extra cards
        before = self._stood if self.game.layout.stacked else None  # several pawns a square: who leaves (`moved_to`)
        out, spare, seen = [], 0, {}  # seen: result without marks -> [[option kept, its marks or None], ...]
        for option in options:
            kind, flags = option[3], option[2]
            if kind is MOVE:
                known = option[4] if not flags & DRAW_AGAIN else (option[4], DRAW_AGAIN)
                if followed:  # one result, but `then:` may read where counts ended (H34): told apart by it
                    known = (known, frozenset(moved_to(start, option[1], before).items()))
            elif kind is PASS_KIND:
                known = (PASS_KIND, flags & DRAW_AGAIN)
            else:
                spare |= flags
                continue
            kept = seen.get(known)
            if kept is None:
                seen[known] = [[option, None]]
                out.append(option)
            elif marked or counted:  # the same placement: distinct when what follows differs (worked out only now)
                mine = self._after_of(p, option)
                for pair in kept:
                    if pair[1] is None:
                        pair[1] = self._after_of(p, pair[0])
                    if pair[1] == mine:
                        break
                else:
                    kept.append([option, mine])
                    out.append(option)
        return out, spare

    def _marks_after(self, option: Option) -> tuple:
        return self.pos.marks_after(option[1]) if option[1] else self.pos.marks

    def _after_of(self, p: int, option: Option) -> tuple:
        """What tells apart two options of one placement (`distinct`): the marks after the
        option, and the counters and extra cards its consequences give (`after:`)."""
        marks = self._marks_after(option) if self.game.marks else ()
        return (marks, self.consequences(p, option)[:2]) if self.game.after_tells_apart else (marks,)

    def cards_options(self, p: int, cards, raw: bool = False) -> list:
        """The options of a choice of cards (a hand, or the cards drawn together): a card that
        cannot move a pawn is no play, even if it offers a pass (P4); a pass survives only
        when every playable card offers one (A21). With `raw`, every way of playing each
        playable card, the ways of one result not merged yet (for the filters to judge each
        way first: `merged`)."""
        options = []
        declinable, passes = True, False
        for card in sorted(set(cards)):
            made = self.listed(p, card)
            own = self.distinct(p, card, made)[0]
            kinds = {o[3] for o in own}
            if MOVE not in kinds:
                continue
            passing = PASS_KIND in kinds
            declinable, passes = declinable and passing, passes or passing
            options.extend(_ways(made) if raw else own)
        if passes and not declinable:
            options = [o for o in options if o[3] != PASS_KIND]
        return options

    def merged(self, p: int, options: list) -> list:
        """`options` of several cards (`cards_options` with `raw`, filtered) with the ways of
        one result of each card merged (`distinct`), in order; other kinds (hand actions) as
        they are."""
        by_card: dict = {}
        for option in options:
            if option[3] is MOVE or option[3] is PASS_KIND:
                by_card.setdefault(option[0], []).append(option)
        out, done = [], set()
        for option in options:
            card = option[0]
            if option[3] is not MOVE and option[3] is not PASS_KIND:
                out.append(option)
            elif card not in done:
                done.add(card)
                out.extend(self.distinct(p, card, by_card[card])[0])
        return out

    def hand_candidates(self, p: int, hand, raw: bool = False) -> list:
        """The plays of `hand` for player colour p before the filters: its cards' options
        (`cards_options`, with `raw` every way unmerged) and its hand actions."""
        options = self.cards_options(p, hand, raw)
        if self.game.actions:
            actions = self._actions(p, hand)
            if actions:  # a hand action is a play that is no switch: the 11 is not declined (A21)
                options = [o for o in options if o.kind != PASS_KIND] + actions
        return options

    def _hand_options(self, p: int) -> list:
        game = self.game
        hand = self.hands[self.turn]
        if not hand:
            return [_option(None, (), 0, FORFEIT)]
        options = self.hand_candidates(p, hand, raw=bool(game.filters))
        if game.filters:
            options = self.merged(p, self.filtered(p, options)[0])
        if not options:
            if game.redraw is not None:
                options = self._redraws(p, hand)
            return options or [_option(card, (), 0, DISCARD) for card in sorted(set(hand))]
        return options

    def redraw_applies(self) -> bool:
        """Whether a stuck card (or throw) of the player to move would be taken again under
        `turn.redraw`: its condition holds and the turn has redraws left (False without the
        policy, or once the game is over)."""
        policy = self.game.redraw
        if policy is None or self.over or self.game.hand_play:
            return False
        return self.redraws < policy.at_most and policy.when(self.seats[self.turn], self.pos, policy_env(self.counters))

    def _redraws(self, p: int, cards, others: tuple = ()) -> list:
        """The redraw options replacing a stuck turn (`engine.turnpolicy.Redraw`); `others`:
        the other cards drawn with the stuck one (`turn.take`), discarded with it."""
        policy = self.game.redraw
        if self.redraws >= policy.at_most or not policy.when(p, self.pos, policy_env(self.counters)):
            return []
        return [_option(card, (), DRAW_AGAIN, REDRAW, others, policy.label) for card in sorted(set(cards))]

    def _actions(self, p: int, hand) -> list:
        """Every hand action the hand allows (`engine.turnpolicy.action_choices`)."""
        env = policy_env(self.counters)
        return [_option(card, (), DRAW_AGAIN if again else 0, ACTION, others, label)
                for card, others, again, label in action_choices(self.game.actions, self.pos, env, p, hand)]

    # ---- filters and consequences ------------------------------------------------------------
    def filtered(self, p: int, options: list, filters: tuple | None = None) -> tuple[list, list]:
        """(kept, removed) of `options` under the game's filters (or `filters`, those of the
        options' card), in order (`engine.moverules`): `removed` lists (option, filter) for
        each option a filter removed."""
        removed = []
        counters = self.counters
        for f in self.game.filters if filters is None else filters:
            if not options:
                break
            if f.on_events is not None:
                passing = [f.cards is not None and o.card not in f.cards or f.on_events(p, o.events, counters, o.card)
                           for o in options]
            else:
                passing = [f.cards is not None and o.card not in f.cards or f.test(p, self.move(o), counters)
                           for o in options]
            if f.prefer:
                if f.cards is None:  # every card's moves together (H17 across a hand)
                    if not any(passing):
                        continue
                else:  # each listed card narrowed by its own moves alone (H20 in a hand)
                    met = {o.card for o, ok in zip(options, passing) if ok and o.card in f.cards}
                    if not met:
                        continue
                    passing = [ok or o.card not in met for o, ok in zip(options, passing)]
            kept = []
            for o, ok in zip(options, passing):
                if ok:
                    kept.append(o)
                else:
                    removed.append((o, f))
            options = kept
        return options, removed

    def consequences(self, p: int, option: Option, move=None) -> tuple:
        """(counters after, extra cards, fired consequences) of playing `option` (`after:`; a
        forfeit: the consequences that follow forfeits); `move`: its public `Move`, when the
        caller has it."""
        game = self.game
        card = option[0]
        if option[3] is FORFEIT or option[3] == REDRAW:  # a redraw is a card that could not be played, drawn anew
            after = game.after_forfeit if card is None else game.after_forfeit_of[card]
            on_events = game.forfeit_on_events
        else:
            after, on_events = game.after if card is None else game.after_of[card], game.after_on_events
        if not after:
            return self.counters, 0, ()
        if on_events:
            return run_on_events(after, p, option.card, option.events, self.counters, game.counter_ranges, self.seats)
        return run_consequences(after, p, move or self.move(option), self.counters, game.counter_ranges, self.seats)

    def followed(self, p: int, options: list) -> list:
        """`options` with the effects of the consequences with `then:` that each fires played
        right after it, as part of it (`engine.moverules`): every way of playing a fired
        effect is one option (none: the option alone), the consequences in file order, each
        judged on the option as listed (a forfeit only by those that follow forfeits); the
        effects' own moves fire no further `then:`. A followed option's `label` names the
        consequences it followed ("; " between them). Options of one result are given once."""
        out, seen, marked = [], set(), self.game.marks
        for option in options:
            kind = option[3]
            if kind is not MOVE and kind is not PASS_KIND and kind is not FORFEIT:
                out.append(option)
                continue
            chain = [option]
            for i, c in enumerate(self.game.after_then):
                if (kind is FORFEIT and not c.forfeits) or (c.cards is not None and option[0] not in c.cards):
                    continue
                if self._fires(c, p, option):
                    chain = [joined for base in chain for joined in self._then(i, c, p, base, option)]
            for joined in chain:
                # one result (A24): the placement, the draw again (a pass flag on a move that moves means
                # nothing), the card, and the marks after
                known = (joined[3], joined[4], joined[2] & DRAW_AGAIN, joined[0],
                         self._marks_after(joined) if marked else None) if joined[1] else joined
                if known not in seen:
                    seen.add(known)
                    out.append(joined)
        return out

    def _stood(self, c: int, sq: int) -> int:
        """How many colour-c pawns stand on sq now, before the option judged (`moved_to`)."""
        return self.pos.pos[c].count(sq)

    def _fires(self, c, p: int, option: Option) -> bool:
        if c.on_events is not None:
            return bool(c.on_events[0](p, option[1], self.counters, option[0]))
        return bool(c.when(p, self.move(option), self.counters))

    def _then(self, i: int, c, p: int, base: Option, first: Option) -> list:
        """The options of `base` followed by the `then:` effect of consequence `c` (the i-th
        with one), played by p on the position after `base`; its selectors' `moved` are the
        pawns `first`, the option as listed, moved, and `bumped` those it sent back to Start."""
        game, pos = self.game, self.pos
        gen = game.followers.get((i, p))
        if gen is None:
            gen = game.followers[(i, p)] = c.then(p, 0, first[0])
        moved = moved_to(game.layout.start, first[1], self._stood if game.layout.stacked else None)
        undo = pos.make(base[1]) if base[1] else None
        pos.moved, pos.bumped = moved, bumped_to(game.layout.start, first[1])
        pos.followed = {"@events": first[1], "@card": first[0]}
        more: list = []
        try:
            gen(pos, more)
        finally:
            pos.moved, pos.bumped, pos.followed = {}, {}, None
            if base[1]:
                pos.unmake(base[1], undo)
        more = [m for m in more if m[3] is MOVE]
        if not more:
            return [base]
        kind = FORFEIT if base[3] is FORFEIT else MOVE
        label = f"{base[6]}; {c.label}" if base[6] else c.label  # the follow-ups a move has, in words
        return [base._replace(events=base[1] + m[1], flags=(base[2] | m[2]) & ~PASS, key=base[4] + m[4], kind=kind,
                              label=label) for m in more]

    # ---- playing -----------------------------------------------------------------------------
    def play(self, option: Option) -> None:
        """Play `option` (one of `options()`): the move made, its card(s) discarded, the hand
        refilled, its consequences run, the winner checked, the turn passed on."""
        if self.over:
            raise IllegalMoveError("the game is over")
        game = self.game
        card, events, kind = option[0], option[1], option[3]
        if card is not None:
            self.discard.append(card)
        if self.drawn:  # the other cards drawn this turn (a forfeit names them as its `cards`)
            self.discard.extend(self._unplayed(card))
        elif option[5]:
            self.discard.extend(option[5])
        if game.hand_play:
            self._refill(option)
        ends = False
        if kind in game.made_kinds:
            ends = self._made(option, kind, events)
        if self.won_at_setup and not self.over:  # judged after a play that changed nothing too
            self._judge()
        turn = self.turn
        self.passed = False
        done = self.finished and turn in self.finished  # the mover's side finished: its turn ends (`places`)
        if not self.over and (ends or not option[2] & DRAW_AGAIN or done):
            if self.bonus and not done:
                self.bonus -= 1
            else:
                self.passed, self.bonus = True, 0
                self.turn = self._next_seat()
                if game.marks:
                    marks = _marks.turn_begins(game.marks, self.pos.marks, self.seats[self.turn])
                    if marks is not self.pos.marks:
                        self.pos.set_marks(marks)
        if game.redraw is not None:
            self.redraws = 0 if self.turn != turn else self.redraws + (kind == REDRAW)
        self.card = None
        if self.drawn:
            self.drawn = ()
        self.plies += 1

    def _next_seat(self) -> int:
        """The seat after the one to move, round the table (passing over the seats that
        finished, `places`)."""
        seat = self.turn + 1 if self.turn + 1 < len(self.seats) else 0
        while self.finished and seat in self.finished:
            seat = seat + 1 if seat + 1 < len(self.seats) else 0
        return seat

    def outcome(self, option: Option) -> tuple | None:
        """(placement, turn) once `option` (a move, pass or forfeit of `options()`) is
        played, the table unchanged: what `push` then `placement()` and `turn` would read,
        without the play, when playing it runs no consequence and judges no winner (no
        `after:` rules, no win that holds from the start, a move that reaches no Home where
        only such moves are judged). None otherwise: `push` it."""
        game, kind, events = self.game, option[3], option[1]
        if game.after or self.over or self.judge_always or not (kind is MOVE or kind is PASS_KIND or kind is FORFEIT):
            return None
        if _reaches_home(events, game.layout.home):
            return None
        placement = self.pos.after(events)[0] if events else self.pos.placement()
        passes = not option[2] & DRAW_AGAIN and not self.bonus  # as `play` passes the turn
        return placement, self._next_seat() if passes else self.turn

    def _made(self, option: Option, kind: str, events: tuple) -> bool:
        """Make a move, a pass, a forfeit or a redraw that consequences follow, run the
        consequences, and judge the winner after a move, or after any play that changed the
        pawns, the counters or the marks (a forfeit whose consequences moved a pawn Home, a
        pass that brought a counter to its target). Whether a consequence ended the turn."""
        game = self.game
        counters, marks = self.counters, self.pos.marks
        ends = False
        if game.after:
            ends = self._consequences(option)
        elif events:
            self.pos.make(events)
        if self._judged(kind, events, self.counters != counters or self.pos.marks != marks):
            self._judge()
        return ends

    def _judged(self, kind, events: tuple, changed: bool) -> bool:
        """Whether a play of `kind` with `events` that `changed` the counters or marks (or not)
        is judged for a winner by `_made`: a move; a pass, forfeit or redraw that changed the
        pawns (a forfeit moves pawns only by the then: of its consequences, `after:
        forfeits: true`, which may bring one Home), the counters or the marks a win condition
        reads; and, unless a win held at setup, only where it may reach Home
        (`judge_always`)."""
        return (kind is MOVE or bool(events) or changed) and \
            (self.judge_always or _reaches_home(events, self.game.layout.home))

    # ---- search: play and take back ----------------------------------------------------------
    def push(self, option: Option) -> None:
        """`play(option)`, remembering how to take it back (`pop`). For tables whose pile is
        empty (what a player reasons about: `seen`, `players.evaluation.view_table`): a play
        draws nothing then, so taking it back restores everything."""
        self.pushed.append((option, self.turn, self.card, self.drawn, self.winner, self.over, self.plies, self.counters,
                            self.bonus, self.redraws, self.pos.marks, len(self.discard),
                            self.hands[self.turn][:] if self.hands is not None else None, self.finished))
        self.play(option)

    def pop(self) -> None:
        """Take back the last `push`."""
        (option, self.turn, self.card, self.drawn, self.winner, self.over, self.plies, self.counters, self.bonus,
         self.redraws, marks, discards, hand, self.finished) = self.pushed.pop()
        self.pos.counters = self.counters
        if option[1] and (option[3] is MOVE or option[3] is FORFEIT):
            self.pos.unmake(option[1], marks)
        elif self.pos.kinds and marks is not self.pos.marks:
            self.pos.set_marks(marks)
        del self.discard[discards:]
        if hand is not None:
            self.hands[self.turn] = hand

    def _consequences(self, option: Option) -> bool:
        """Make a move or a pass whose consequences (`after:`) are judged on it: counters,
        bonus turns, marks (in the order of `Game.apply`'s contract). Whether one of them
        ends the turn (`ends_turn`: the extra cards still due are dropped)."""
        game, p = self.game, self.seats[self.turn]
        counters, extra, fired = self.consequences(p, option)
        if option[1]:
            self.pos.make(option[1])
        if fired:
            self.counters = self.pos.counters = counters
            if option[3] != REDRAW:  # a redraw is itself the card taken again: no extra card on top
                self.bonus += extra
            if game.marks:
                self.pos.set_marks(_marks.consequence_marks(game.marks, game.layout, self.pos.marks, fired, p,
                                                            option[1], self.pos.pos))
            if any(c.ends_turn for c in fired):
                self.bonus = 0
                return True
        return False

    def _refill(self, option: Option) -> None:
        """Hand play: the cards `option` plays leave the hand and as many are drawn."""
        hand = self.hands[self.turn]
        if option.card is None:
            return
        for card in (option.card,) + option.cards:
            if card not in hand:
                raise IllegalMoveError(f"card {self.game.card_names[card]} is not in the hand")
            hand.remove(card)
        for _ in range(1 + len(option.cards)):
            card = self.take()
            if card is not None:
                hand.append(card)

    def _unplayed(self, card) -> list:
        """The cards drawn this turn other than `card`, in the order drawn (discarded with it)."""
        cards = [self.card, *self.drawn]
        if card not in cards:
            raise IllegalMoveError(f"card {self.game.card_names[card]} was not drawn this turn")
        cards.remove(card)
        return cards

    def _judge(self) -> None:
        """Judge the win conditions after a play: the game is over with the first seat (from
        the mover on) whose condition holds as its winner; played for `places` > 1, every
        seat not finished yet whose condition holds finishes (in that order), and the game is
        over, the first to finish its winner, once `places` sides finished or one is left."""
        game = self.game
        if game.places == 1:
            self.winner = self._winner()
            self.over = self.winner is not None
            return
        seats, finished = self.seats, self.finished
        env = game.env(self.counters, self.pos.marks)
        n = len(seats)
        newly = tuple(seat for seat in ((self.turn + k) % n for k in range(n))
                      if seat not in finished and game.win(seats[seat], self.pos, env))
        if not newly:
            return
        self.finished = finished = finished + newly
        sides = {game.team_of[c] for c in seats}
        done = {game.team_of[seats[seat]] for seat in finished}
        if len(done) >= game.places or len(sides) - len(done) <= 1:
            self.winner, self.over = finished[0], True

    def _winner(self):
        """The first seat from the mover on whose win condition holds, or None."""
        game, seats = self.game, self.seats
        env = game.env(self.counters, self.pos.marks)
        n = len(seats)
        for k in range(n):
            seat = (self.turn + k) % n
            if game.win(seats[seat], self.pos, env):
                return seat
        return None

    # ---- what people and tools look at -------------------------------------------------------
    def move(self, option: Option):
        """The public `Move` of `option`: with the placement after it and, for a move or a
        pass of a variant with marks, the marks after it; it draws again only where the turn
        goes on (no consequence ends it, and played for places the mover's side does not
        finish with it)."""
        if option[1]:
            placement, marks = self.pos.after(option[1])
        else:
            placement, marks = self.pos.placement(), self.pos.marks
        if not self.game.marks or option[3] not in (MOVE, PASS_KIND):
            marks = ()
        move = self.game.move_type(option[0], placement, option[1], bool(option[2] & DRAW_AGAIN), option[3],
                                   option[5], option[6], marks)
        if move.draw_again and self.game.ends_turns and option[3] != REDRAW and \
                any(c.ends_turn for c in self.consequences(self.seats[self.turn], option, move)[2]):
            return move._replace(draw_again=False)  # a consequence ends the turn: no card follows
        if move.draw_again and self.game.places > 1 and self._finishes(option, move):
            return move._replace(draw_again=False)  # the mover's side finishes: its turn ends
        return move

    def _finishes(self, option: Option, move) -> bool:
        """Whether playing `option` (`move`) finishes the mover's side (`places`): the play is
        judged (`_judged`, as `play` judges it; always where a win held at setup) and the
        mover's win condition then holds, its consequences' counters and marks included."""
        game, p, kind = self.game, self.seats[self.turn], option[3]
        counters = self.consequences(p, option, move)[0] if game.after else self.counters
        marks = move.marks or self.pos.marks
        if not self.won_at_setup and not (kind in game.made_kinds and self._judged(kind, option[1], counters != self.counters
                                                                                   or marks != self.pos.marks)):
            return False
        return bool(game.win(p, game.view(move.placement), game.env(counters, marks)))
