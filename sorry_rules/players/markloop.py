"""The flat random-game loop for variants with marks: flat state kept in place, marks as data.

`play_marked(game, state, players, max_plies, record)` plays exactly what `runner.play_game`
(and `players.fastloop`) plays when every player is a `RandomPlayer`: the same cards drawn,
the same candidates in the same order (`FastMoves.flat_marked`, the flat flavour with
marks, `compiler.markloopgen`), the same choices (`below_at(base, plies, n)` among two or
more), the same winner checks, so the same final `State` (its marks included) and the same
recorded choices.

The position lives in `engine.flatstate`'s flat form, changed in place by the chosen
candidate (as `players.flatloop`); the marks (`State.marks`) in a local, changed as
`Game.apply` changes them: the chosen candidate's marks after it (`engine.flatmarks`: those
of its key, else the marks before), those its consequences place
(`engine.marks.consequence_marks`; where every consequence is judged on the move's events
alone, `moverules.Consequence.on_events`, on the candidate's events with no `Move` built,
`MarkedFlatMoves.events`, `judged` and `consequence_marks`; else on the candidate's `Move`; neither for
a move that neither bumps nor slides where every consequence needs a bump or a slide) and
those that end when a turn begins (`engine.marks.turn_begins`). A
placement is built where a win condition must be judged after every move (one not about Home
only) and at the end; one about Home counts only (`Game.win_on_home_only`: it reads no marks)
is judged after a pawn reached Home, its answer remembered per game and Home counts
(`flatloop.home_winner`, as the flat loop does).

It applies (`applies`) where `fastloop` does, the game has the flat flavour with marks, the
state's marks keep to its modes (`engine.flatmarks.fits`) and there is no `on_turn` or
one that is a tally (`players.tally`: it is told each play's kind and events, no `Move` built).
"""

from __future__ import annotations

import weakref

from sorry_rules.engine.flatmarks import MARK_CODE, QUIET_CODES, fits
from sorry_rules.engine.flatstate import freeze
from sorry_rules.engine.game import State
from sorry_rules.engine.marks import consequence_marks, turn_begins
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.moverules import run_consequences
from sorry_rules.engine.rng import below_at
from sorry_rules.players import fastloop
from sorry_rules.players.flatloop import home_winner, refill, winner_from
from sorry_rules.players.tally import candidate_teller, is_tally, play_teller

#: per game whose win condition reads Home counts only: `flatloop.home_winner`'s answers
_HOME_WINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def applies(game, state, players, on_turn) -> bool:
    """Whether `play_marked` plays this game (see the module docstring)."""
    if (on_turn is not None and not is_tally(on_turn)) or not fastloop.applies(game, state, players):
        return False
    flat = game.fast_moves.flat_marked
    return flat is not None and fits(flat.modes, game.layout, state.marks)


def _consequences(game, flat, colour: int, card: int, candidate: tuple, P, counters, marks: tuple) -> tuple:
    """(counters, bonus turns won, marks) once `candidate` (a move or a pass, listed with the
    marks before it) is played from the flat position P: the consequences run on its `Move`
    as in `Game.apply`, `marks` being the marks after the move."""
    move = flat.marked_move(candidate, freeze(P), card, marks)
    counters, extra, fired = run_consequences(game.after, colour, move, counters)
    if fired:
        marks = consequence_marks(game.marks, game.layout, move.marks, fired, colour, move)
    else:
        marks = move.marks
    return counters, extra, marks


def play_marked(game, state, players, max_plies: int, record, tally=None) -> State:
    """Play from `state` as `runner.play_game` would with these random `players` and no
    `on_turn` or the tally `tally` (call only when `applies`); `record` (a `runner.GameRecord`
    or None) gets the choices."""
    seats, turn, plies, rng, bonus, counters = state.seats, state.turn, state.plies, state.rng, state.bonus, state.counters
    marks, kinds = state.marks, game.marks
    pile, discard = list(state.pile), list(state.discard)
    flat = game.fast_moves.flat_marked
    apply, home = flat.apply, flat.home
    by_seat = [tuple(row[colour] for row in flat.table) for colour in seats]  # by_seat[seat][card]
    P, occ, _ = flat.position(state.placement)
    bases = [player.base for player in players]
    count = len(seats)
    check_always = not game.win_on_home_only or fastloop.setup_wins(game, seats)
    known = None if check_always else _HOME_WINS.setdefault(game, {})  # Home counts only: marks not read
    after = game.after
    eventful = flat.eventful_after  # no consequence fires on a move that neither bumps nor slides
    judged = flat.judged  # the consequences judged on the candidate's events (no Move built), or None
    placing = ()  # the consequences judged on events that fired and place marks
    timed = any(kind.until == "next_turn" for kind in kinds)
    winner = None
    choices = record.choices if record is not None else []
    tell, tell_play = candidate_teller(tally, flat, flat.events), play_teller(tally)
    functions = by_seat[turn]
    while winner is None and plies < max_plies:
        if not pile:
            rng, pile, discard = refill(rng, discard)
        card = pile.pop()
        discard.append(card)
        candidates, flags = functions[card](P, occ, 0, marks)
        options = len(candidates)
        choice = 0 if options < 2 else below_at(bases[turn], plies, options)
        if options:
            candidate = candidates[choice]
            again = candidate[1]
            tell(turn, candidate, occ)
            consequential = after and not (eventful and candidate[2] in QUIET_CODES)
            if consequential and judged is None:  # the consequences read the Move, which gives the marks after it
                counters, extra, marks = _consequences(game, flat, seats[turn], card, candidate, P, counters, marks)
                bonus += extra
            else:
                if consequential:
                    events = flat.events(candidate, occ)
                    counters, extra, placing = judged(seats[turn], card, events, counters)
                    bonus += extra
                if candidate[0].__class__ is tuple:
                    marks = flat.marks_after(candidate, marks)
            code = candidate[2]
            if code == 0:  # one pawn, no bump, no slide: the common case, inline
                c, frm, to = candidate[3], candidate[4], candidate[5]
                squares = P[c]
                squares[squares.index(frm)] = to
                squares.sort()
                occ[frm] = -1
                occ[to] = c
                judge = check_always or to == home[c]
            elif code == MARK_CODE:
                judge = check_always
            else:
                judge = apply(candidate, P, occ) or (check_always and code != 5)
            if placing:
                marks = flat.consequence_marks(marks, placing, seats[turn], events, P)
                placing = ()
            if judge:
                if known is None:
                    winner = winner_from(game, seats, turn, freeze(P), counters, marks)
                else:
                    winner = home_winner(game, seats, turn, P, home, counters, known)
        else:
            again = flags & DRAW_AGAIN
            tell_play(turn, "forfeit")
        choices.append(choice)
        plies += 1
        if winner is None and not again:
            if bonus:
                bonus -= 1
            else:
                turn = (turn + 1) % count
                functions = by_seat[turn]
                if timed and any(marks):
                    marks = turn_begins(kinds, marks, seats[turn])
    return State(freeze(P), seats, turn, None, None, tuple(pile), tuple(discard), rng, winner, plies, counters, bonus,
                 marks)
