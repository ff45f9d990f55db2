"""The leanest random-game loop: flat state kept in place, for draw-play track games.

`play_flat(game, state, players, max_plies, record)` plays exactly what `runner.play_game`
(and `players.fastloop`) plays when every player is a `RandomPlayer`: the same cards drawn
(the pile and discards as lists, reshuffled by the same `rng.shuffled`), the same
candidates in the same order (`FastMoves.flat`, the flat flavour of the generated move
functions, `compiler.loopgen`), the same choices (`below_at(base, plies, n)` among two or
more), the same winner checks, so the same final `State` and the same recorded choices.

The position lives in `engine.flatstate`'s flat form (sorted pawn lists, the occupancy
list), changed in place by the chosen candidate only: no `Move`, no placement per ply; a
placement is built where a win condition must be judged (after a pawn reached Home, or
after every move when the variant's win condition is not about Home only; a condition that
reads Home counts only is judged once per Home counts, counters and seat, then remembered
per game: `home_winner`), for the chosen
move's `Move` where consequences (`after:`: counters, bonus turns) must read it (not for a
move that neither bumps nor slides when every consequence needs a bump or a slide:
`FlatMoves.eventful_after`), and at the end.

Filters judged on facts of the move (`rules.must_bump`, `filters:`; the only ones a game
with the flat flavour has) are judged on the candidates (`engine.flatfilters`): the same
candidates kept, in the same order, as `moverules.filter_moves` keeps of their `Move`s.

It applies (`applies`) where `fastloop` does, the game has the flat flavour, and there is
either no `on_turn` or one that reads the turns only (its attribute `needs_state` is False,
as `simulation`'s counters): that one gets each `runner.Turn` (the `Move` built for the
chosen candidate only) and None for the state, or, when it is a tally (`players.tally`), the
plays' kinds and events with no `Move` built.
"""

from __future__ import annotations

import weakref

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine.flatfilters import FlatFilters
from sorry_rules.engine.flatstate import QUIET_CODES, freeze
from sorry_rules.engine.game import Move, State
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.moverules import run_consequences
from sorry_rules.engine.rng import below_at, shuffled
from sorry_rules.players import fastloop
from sorry_rules.players.tally import candidate_play, is_tally

_PLAIN = frozenset({"board:track", "turn:draw", "after", "counters", "filters", "geometry"})

#: per game: (Home counts, counters, seats, seat) -> `winner_from`'s answer, for a game whose win
#: condition reads Home counts only (`Game.win_on_home_only`); cleared when it grows large
_HOME_WINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_HOME_WINS_MAX = 4096


#: per game: (its FastMoves, their flat flavour, whether the flat loop covers the game's
#: features, the flat functions by colour then card), kept while the game keeps them
_PER_GAME: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: per game: seats -> whether a seat's win condition holds at set-up (`fastloop.setup_wins`)
_SETUP_WINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def applies(game, state, players, on_turn) -> bool:
    """Whether `play_flat` plays this game (see the module docstring)."""
    if on_turn is not None and getattr(on_turn, "needs_state", True):
        return False
    if not fastloop.applies(game, state, players):
        return False
    return _per_game(game)[2]


def _per_game(game) -> tuple:
    """`_PER_GAME`'s entry of `game`, worked out again when its moves changed."""
    fast = game.fast_moves
    known = _PER_GAME.get(game)
    if known is None or known[0] is not fast or known[1] is not fast.flat:
        flat = fast.flat
        covered = flat is not None and all(f in _PLAIN or f.startswith("rules.") for f in game.features())
        known = _PER_GAME[game] = (fast, flat, covered, tuple(zip(*flat.table)) if covered else None)
    return known


def _setup_wins(game, seats) -> bool:
    """`fastloop.setup_wins`, remembered per game and seats."""
    known = _SETUP_WINS.setdefault(game, {})
    if seats not in known:
        known[seats] = fastloop.setup_wins(game, seats)
    return known[seats]


def refill(rng: int, discard: list) -> tuple:
    """(rng, pile, discard) once the pile ran out: the discards shuffled as `Game.draw` does."""
    if not discard:
        raise IllegalMoveError("the draw pile and the discards are both empty")
    rng, pile = shuffled(rng, discard)
    return rng, list(pile), []


def winner_from(game, seats, seat: int, placement, counters, marks=()):
    """The first seat from `seat` on whose win condition holds (as `Game.apply`), or None."""
    count = len(seats)
    for k in range(count):
        if game.win_holds(seats[(seat + k) % count], placement, counters, marks):
            return (seat + k) % count
    return None


def home_winner(game, seats, seat: int, P, home, counters, known: dict):
    """`winner_from` on the flat lists P (`home[c]`: colour c's Home square) where the win
    condition reads Home counts only (`Game.win_on_home_only`): the same answer, remembered
    in `known` (a dict kept per game) per (Home counts, counters, seats, seat)."""
    key = (tuple([squares.count(h) for squares, h in zip(P, home)]), counters, seats, seat)
    winner = known.get(key, known)
    if winner is known:
        if len(known) >= _HOME_WINS_MAX:
            known.clear()
        winner = known[key] = winner_from(game, seats, seat, freeze(P), counters)
    return winner


def _reporter(flat, on_turn, turn_type):
    """`report(plies, seat, card, candidates, choice, flags, P, occ)`: tells `on_turn` the move
    about to be played from the flat position (P, occ): to a tally (`players.tally`) its kind
    and events, else as `runner.Turn` with no state (None)."""
    if is_tally(on_turn):  # its plain_move and forfeit take the plain moves and the forfeits (play_flat)
        played = on_turn.played

        def tell(plies, seat, card, candidates, choice, flags, P, occ):
            played(seat, *candidate_play(flat, candidates[choice], occ))
        return tell

    def report(plies, seat, card, candidates, choice, flags, P, occ):
        placement = freeze(P)
        if candidates:
            move = flat.move(candidates[choice], placement, card)
        else:
            move = Move(card, placement, (), bool(flags & DRAW_AGAIN), "forfeit")
        on_turn(turn_type(plies + 1, seat, card, move, choice, max(1, len(candidates))), None)
    return report


def _consequences(after, flat, colour: int, card: int, candidate: tuple, P, counters) -> tuple:
    """(counters, bonus turns won) once `candidate` (a move or a pass) is played from the
    flat position P: the variant's consequences (`after:`) run on its `Move`, as in `Game.apply`."""
    move = flat.move(candidate, freeze(P), card)
    counters, extra, _ = run_consequences(after, colour, move, counters)
    return counters, extra


def play_flat(game, state, players, max_plies: int, record, on_turn=None, turn_type=None) -> State:
    """Play from `state` as `runner.play_game` would with these random `players` (call only
    when `applies`); `record` (a `runner.GameRecord` or None) gets the choices, `on_turn`
    (one whose `needs_state` is False) gets each turn as a `turn_type` and None for the state;
    an `on_turn` with a method `plain_move(seat)` gets that call instead for a move of one
    pawn that neither bumps nor slides, and one with a method `forfeit(seat)` that call for a
    card with no move (no `Move` is built for either); a tally (`players.tally`) gets every
    other play's kind and events, and no `Move` is built at all."""
    seats, turn, plies, rng, bonus, counters = state.seats, state.turn, state.plies, state.rng, state.bonus, state.counters
    pile, discard = list(state.pile), list(state.discard)
    _, flat, _, by_colour = _per_game(game)
    apply, home = flat.apply, flat.home
    by_seat = [by_colour[colour] for colour in seats]  # by_seat[seat][card]
    P, occ = flat.lists(state.placement)
    bases = [player.base for player in players]
    count = len(seats)
    check_always = not game.win_on_home_only or _setup_wins(game, seats)
    known = None if check_always else _HOME_WINS.setdefault(game, {})
    report = _reporter(flat, on_turn, turn_type) if on_turn is not None else None
    plain_move = getattr(on_turn, "plain_move", None)  # see play_flat's docstring
    forfeit = getattr(on_turn, "forfeit", None)
    after = game.after
    eventful = flat.eventful_after  # no consequence fires on a move that neither bumps nor slides
    filtered = FlatFilters(game.filters, flat) if game.filters else None
    winner = None
    choices = record.choices if record is not None else []
    functions = by_seat[turn]
    while winner is None and plies < max_plies:
        if not pile:
            rng, pile, discard = refill(rng, discard)
        card = pile.pop()
        discard.append(card)
        candidates, flags = functions[card](P, occ, 0)  # keys relative to this position
        if filtered is not None:
            candidates = filtered(card, seats[turn], candidates, counters, occ)
        options = len(candidates)
        choice = 0 if options < 2 else below_at(bases[turn], plies, options)
        if report is not None:
            if plain_move is not None and options and candidates[choice][2] == 0:
                plain_move(turn)
            elif forfeit is not None and not options:
                forfeit(turn)
            else:
                report(plies, turn, card, candidates, choice, flags, P, occ)
        if options:
            candidate = candidates[choice]
            again = candidate[1]
            if after and not (eventful and candidate[2] in QUIET_CODES):
                counters, extra = _consequences(after, flat, seats[turn], card, candidate, P, counters)
                bonus += extra
            if candidate[2] == 0:  # one pawn, no bump, no slide: the common case, inline
                c, frm, to = candidate[3], candidate[4], candidate[5]
                squares = P[c]
                squares[squares.index(frm)] = to
                squares.sort()
                occ[frm] = -1
                occ[to] = c
                judge = check_always or to == home[c]
            else:
                judge = apply(candidate, P, occ) or (check_always and candidate[2] != 5)
            if judge:
                if known is None:
                    winner = winner_from(game, seats, turn, freeze(P), counters)
                else:
                    winner = home_winner(game, seats, turn, P, home, counters, known)
        else:
            again = flags & DRAW_AGAIN
        choices.append(choice)
        plies += 1
        if winner is None and not again:
            if bonus:
                bonus -= 1
            else:
                turn = (turn + 1) % count
                functions = by_seat[turn]
    return State(freeze(P), seats, turn, None, None, tuple(pile), tuple(discard), rng, winner, plies, counters, bonus)
