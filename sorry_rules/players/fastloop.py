"""A lean loop for games of random players only: the same game as `runner.play_game`, faster.

`play_random(game, state, players, ...)` plays exactly what `play_game` plays when every
player is a `RandomPlayer` (each choice is `below(stream_at(base, plies), len(moves))`, here `below_at`,
asked only among two or more moves): the same cards drawn (the pile and discards as lists,
reshuffled by the same `rng.shuffled` when the pile runs out), the same move lists (the
game's generated move functions, `Game.fast_moves`), the same choices, the same winner
checks, so the same final `State`, the same recorded choices and the same `on_turn` calls.
It keeps the state in locals and builds a `State` only for `on_turn` and at the end; in a
game with no filters and no consequences it asks for candidates (`FastMoves.select`: the
same moves told apart by exact placement keys) and builds only the chosen `Move`.

It applies to draw-play track games whose every card has generated moves, started with no
card drawn (`applies`); filters, consequences (`after:`), counters and bonus turns run as in
`Game.card_moves` and `Game.apply` (the engine's `moverules` functions). Marks (`State.marks`)
live in a local too and change as `Game.apply` changes them (the chosen move's marks, those
its consequences place, those that end when a turn begins: `engine.marks`); a variant with
marks has no candidates flavour and plays with the Moves flavour (`table[card][colour]
(placement, marks)`). `play_game` uses it
then, `players.handloop` for hand play and turn policies, and its own loop otherwise
(tests/test_codegen.py plays both on many seeds).
"""

from __future__ import annotations

import weakref

from sorry_rules.base.errors import IllegalMoveError
from sorry_rules.engine.game import Move, State
from sorry_rules.engine.marks import consequence_marks, turn_begins
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.moverules import filter_moves, run_consequences
from sorry_rules.engine.rng import below_at, shuffled
from sorry_rules.players.protocol import RandomPlayer

_COVERED = frozenset({"board:track", "turn:draw", "filters", "after", "counters", "geometry", "marks"})


def applies(game, state, players) -> bool:
    """Whether `play_random` plays this game: random players only, draw play with every
    card generated, no card waiting, no feature but those it covers."""
    return lean_loop_applies(game, state, players, _COVERED)


def lean_loop_applies(game, state, players, covered: frozenset) -> bool:
    """The guard the lean loops share: random players only, every card generated, no card
    waiting or drawn, no winner yet, no feature outside `covered` (besides `rules.` switches)."""
    fast = getattr(game, "fast_moves", None)  # grid games have no generated move functions
    if fast is None or state.card is not None or state.drawn or state.winner is not None:
        return False
    if not _covers(game, fast, covered):
        return False
    return all(type(player) is RandomPlayer for player in players)


#: per game: covered -> (its FastMoves, `_covers`' answer), kept while the game keeps them
_COVERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _covers(game, fast, covered: frozenset) -> bool:
    """Whether every feature of `game` is in `covered` (besides `rules.` switches) and `fast`
    covers every card; remembered per game, `covered` and `fast`."""
    known = _COVERS.setdefault(game, {})
    entry = known.get(covered)
    if entry is None or entry[0] is not fast:
        answer = all(f in covered or f.startswith("rules.") for f in game.features()) and \
            all(fast.covers(card) for card in range(len(game.card_names)))
        entry = known[covered] = (fast, answer)
    return entry[1]


def setup_wins(game, seats) -> bool:
    """`Game`'s shortcut guard: whether a seat's win condition already holds at set-up."""
    start = game.initial_placement(seats)
    return any(game.win_holds(c, start) for c in seats)


def reaches_home(events, home) -> bool:
    """Whether one of `events` brings a pawn to its colour's Home (`home[colour]`)."""
    for e in events:
        if len(e) == 4 and e[3] == home[e[1]]:
            return True
    return False


def _choose_candidate(select, placement, key: int, card: int, base: int, plies: int, to_move) -> tuple:
    """(move, choice, options, key of the new placement) from the candidates of `select`."""
    candidates, flags = select(placement, key)
    options = len(candidates)
    if not options:
        return Move(card, placement, (), bool(flags & DRAW_AGAIN), "forfeit"), 0, 1, key
    choice = 0 if options == 1 else below_at(base, plies, options)
    candidate = candidates[choice]
    return to_move(candidate, placement, card), choice, options, candidate[0]


def _choose_move(table, filters, colour: int, card: int, placement, counters, marks, base: int, plies: int) -> tuple:
    """(move, choice, options) by the Moves flavour `table` (functions of the placement, and
    of the marks when `marks` is not None), the moves as `Game.card_moves` lists them."""
    function = table[card][colour]
    moves, flags = function(placement) if marks is None else function(placement, marks)
    if filters:
        moves = filter_moves(filters, colour, moves, counters)[0]
    if not moves:
        moves = [Move(card, placement, (), bool(flags & DRAW_AGAIN), "forfeit")]
    options = len(moves)
    choice = 0 if options == 1 else below_at(base, plies, options)
    return moves[choice], choice, options


def _marks_after(game, marks: tuple, move: Move, fired, colour: int) -> tuple:
    """The marks once `move` of `colour` and its `fired` consequences are played (as `Game.apply`,
    before the next turn begins)."""
    if move.kind == "move":
        marks = move.marks
    if fired:
        marks = consequence_marks(game.marks, game.layout, marks, fired, colour, move)
    return marks


def play_random(game, state, players, on_turn, max_plies: int, record, turn_type) -> State:
    """Play from `state` as `runner.play_game` would with these random `players` (see the
    module docstring; call only when `applies`); `on_turn` gets `turn_type` (`runner.Turn`)
    records as there, `record` (a `runner.GameRecord` or None) gets the choices."""
    seats, turn, plies = state.seats, state.turn, state.plies
    placement, rng, counters, bonus = state.placement, state.rng, state.counters, state.bonus
    filters, after = game.filters, game.after
    pile, discard = list(state.pile), list(state.discard)
    fast = game.fast_moves
    table, select, to_move = fast.table, fast.select, fast.move
    marked = fast.takes_marks
    marks = state.marks  # () without marks
    plain = not filters and not after and not marked  # nothing reads a Move before it is chosen
    key = fast.key(placement) if plain else 0
    bases = [player.base for player in players]
    count = len(seats)
    home = game.layout.home
    check_always = not game.win_on_home_only or setup_wins(game, seats)
    win_holds = game.win_holds
    winner = None
    choices = record.choices if record is not None else None
    while winner is None and plies < max_plies:
        if not pile:
            if not discard:
                raise IllegalMoveError("the draw pile and the discards are both empty")
            rng, shuffled_pile = shuffled(rng, discard)
            pile, discard = list(shuffled_pile), []
        card = pile.pop()
        colour = seats[turn]
        if plain:  # candidates with exact keys: only the chosen one becomes a Move
            move, choice, options, key = _choose_candidate(select[card][colour], placement, key, card, bases[turn],
                                                           plies, to_move)
        else:
            move, choice, options = _choose_move(table, filters, colour, card, placement, counters,
                                                 marks if marked else None, bases[turn], plies)
        if choices is not None:
            choices.append(choice)
        discard.append(card)
        placement = move.placement
        seat = turn
        fired = ()
        if after and move.kind in ("move", "pass"):
            counters, extra, fired = run_consequences(after, colour, move, counters)
            bonus += extra
        if marked:
            marks = _marks_after(game, marks, move, fired, colour)
        if move.kind == "move" and (check_always or reaches_home(move.events, home)):
            for k in range(count):
                if win_holds(seats[(seat + k) % count], placement, counters, marks):
                    winner = (seat + k) % count
                    break
        if winner is None and not move.draw_again:
            if bonus:
                bonus -= 1
            else:
                turn = (turn + 1) % count
                if marked:
                    marks = turn_begins(game.marks, marks, seats[turn])
        plies += 1
        if on_turn is not None:
            on_turn(turn_type(plies, seat, card, move, choice, options),
                    State(placement, seats, turn, None, None, tuple(pile), tuple(discard), rng, winner, plies, counters, bonus,
                          marks))
    return State(placement, seats, turn, None, None, tuple(pile), tuple(discard), rng, winner, plies, counters, bonus,
                 marks)
