"""Play games: the one loop that joins the engine and the players.

`play_game` and `replay` are one loop over the engine's table (`Game.table(state)`: the
position and the cards changed in place, `options()` and `play(option)`), for every board
kind, turn flow and player: each ply, the cards are drawn where the turn needs it, the
options of the player to move listed, one chosen, and played. A player chooses through
its `pick(table, options)` when it has one (the random player: an index from its seeded
stream; the bots: scored on the table's position) and else through the public protocol,
`choose(view, moves)`, with the `View` and the `Move`s built for it (people, any bot).

Contract: `play_game` drives a state to the end (or `max_plies`), asking the seat's player
for every choice among two or more options (a single option is taken without asking), and
stopping when there is no option left (a game over without a winner: a grid draw). It
records the choices so a game can be replayed: `replay(game, state, choices)` reaches the
identical final state. `on_turn` watches: one with a method `played(seat, kind, events,
passed)` (a tally: it counts and reads no state) is told each play's kind and events, and
whether it passed the turn on (None where the table does not say), once it is played, with
nothing built for it; any other `on_turn(turn, state)` gets each `Turn` and the
state after it (None for the state when its attribute `needs_state` is False).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sorry_rules.base.limits import DEFAULT_MAX_PLIES
from sorry_rules.players.protocol import table_view


@dataclass(frozen=True)
class Turn:
    """One applied move: who played, which card, what happened."""

    ply: int
    seat: int
    card: int | None
    move: object
    choice: int
    options: int
    others: tuple = ()    # the cards it was chosen among besides `card`: the others drawn (turn.take), or the hand
    finishes: tuple = ()  # played for places: the seats whose side finished with this move, in order
    lost_to: str = ""     # a forfeit that ends the turn: the labels of the filters or consequences why (`Table.emptied_by`)
    due: int = 0          # extra cards still due this turn before the move (`State.bonus`)


@dataclass
class GameRecord:
    seed: object
    seats: tuple
    first: int
    choices: list = field(default_factory=list)
    final: object = None
    finished: bool = False


def picker(player):
    """`pick(table, options) -> index` of a player: its own `pick`, or its `choose` given
    the table's `View` and the options as public `Move`s."""
    pick = getattr(player, "pick", None)
    if pick is not None:
        return pick
    choose = player.choose

    def chosen(table, options) -> int:
        return choose(table_view(table), [table.move(option) for option in options])
    return chosen


def play_game(game, state, players, on_turn=None, max_plies: int = DEFAULT_MAX_PLIES, record: GameRecord | None = None):
    """Play from `state` until someone wins, the options run out or `max_plies` moves were
    applied; `players[seat]` chooses for each seat. Returns the final state."""
    final = play(game, state, [picker(player) for player in players], on_turn, max_plies,
                 record.choices if record is not None else None)
    if record is not None:
        record.final = final
        record.finished = final.winner is not None
    return final


def replay(game, state, choices, on_turn=None, max_plies: int = DEFAULT_MAX_PLIES):
    """Replay recorded `choices` (one per move, as in GameRecord.choices) from `state`."""
    recorded = iter(choices)

    def pick(table, options):
        return next(recorded)

    limit = min(max_plies, state.plies + len(choices))
    try:
        return play(game, state, [pick] * len(state.seats), on_turn, limit, forced=False)
    except IllegalChoice as error:
        raise ValueError(f"recorded choice {error.choice} is not one of the {error.options} legal moves at ply "
                         f"{error.ply}") from None


class IllegalChoice(ValueError):
    """A choice outside the options offered."""

    def __init__(self, choice: int, options: int, ply: int):
        super().__init__(f"player chose move {choice} of {options}")
        self.choice, self.options, self.ply = choice, options, ply


def play(game, state, picks, on_turn=None, max_plies: int = DEFAULT_MAX_PLIES, choices: list | None = None,
         forced: bool = True):
    """The loop: `picks[seat](table, options)` gives each choice of that seat (asked only
    among two or more options unless `forced` is False); `choices`, if given, gets every
    choice made. Returns the final state."""
    table = game.table(state)
    tell = getattr(on_turn, "played", None)
    watch = on_turn if on_turn is not None and tell is None else None
    needs_state = getattr(watch, "needs_state", True)
    says_passed = hasattr(table, "passed")  # a track table says whether a play passed the turn on
    options_of, play_option = table.options, table.play
    while not table.over and table.plies < max_plies:
        options = options_of()
        n = len(options)
        if not n:
            break
        seat = table.turn
        if n > 1 or not forced:
            choice = picks[seat](table, options)
            if not 0 <= choice < n:
                raise IllegalChoice(choice, n, table.plies)
        else:
            choice = 0
        if choices is not None:
            choices.append(choice)
        option = options[choice]
        if tell is not None:
            play_option(option)
            tell(seat, option[3], option[1], table.passed if says_passed else None)
        elif watch is not None:
            move = table.move(option)
            lost_to = table.emptied_by(option) if move.kind == "forfeit" and hasattr(table, "emptied_by") else ""
            held = list(table.hands[seat]) if table.hands is not None else [table.card, *table.drawn]
            if move.card in held:
                held.remove(move.card)
            finished, due = table.finished, getattr(table, "bonus", 0)
            table.play(option)
            finishes = table.finished[len(finished):]
            if table.over and move.draw_again:  # a winning move: the game ends at once, no card follows (R35)
                move = move._replace(draw_again=False)  # (a move finishing its side is listed so: `Table.move`)
            watch(Turn(table.plies, seat, move.card, move, choice, n, tuple(c for c in held if c is not None), finishes,
                       lost_to, due), table.state() if needs_state else None)
        else:
            table.play(option)
    return table.state()
