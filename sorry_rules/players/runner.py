"""Play games: the loop that joins the engine and the players.

Contract: `play_game` drives a state to the end (or `max_plies`), asking the seat's player
for every choice among two or more moves (a single move is taken without asking), and
stopping when there is no legal move left (a game over without a winner: a grid draw), and
reports each turn to `on_turn` if given. It records the choices so a game can be replayed:
`replay(game, seed, players, choices)` reaches the identical final state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sorry_rules.base import limits
from sorry_rules.players import fastloop, flatloop, gridloop, handloop, markloop
from sorry_rules.players.protocol import view_of

DEFAULT_MAX_PLIES = limits.DEFAULT_MAX_PLIES


@dataclass(frozen=True)
class Turn:
    """One applied move: who played, which card, what happened."""

    ply: int
    seat: int
    card: int | None
    move: object
    choice: int
    options: int


@dataclass
class GameRecord:
    seed: object
    seats: tuple
    first: int
    choices: list = field(default_factory=list)
    final: object = None
    finished: bool = False


def play_game(game, state, players, on_turn=None, max_plies: int = DEFAULT_MAX_PLIES, record: GameRecord | None = None):
    """Play from `state` until someone wins or `max_plies` moves were applied.
    `players[seat]` chooses for each seat. Returns the final state. Random players only:
    the same game by `players.flatloop` (track games over flat state), `players.markloop`
    (the same with marks, no `on_turn` or a tally: `players.tally`), `players.fastloop`
    (track games, draw play), `players.handloop` (track games, hand play and turn policies)
    or `players.gridloop` (grid games) when one applies; an `on_turn` whose attribute
    `needs_state` is False may be given None for the state by the flat loop."""
    if flatloop.applies(game, state, players, on_turn):
        state = flatloop.play_flat(game, state, players, max_plies, record, on_turn, Turn)
        if record is not None:
            record.final = state
            record.finished = state.winner is not None
        return state
    if markloop.applies(game, state, players, on_turn):
        state = markloop.play_marked(game, state, players, max_plies, record, on_turn)
        if record is not None:
            record.final = state
            record.finished = state.winner is not None
        return state
    lean = next((loop for loop in (fastloop, handloop, gridloop) if loop.applies(game, state, players)), None)
    if lean is not None:
        state = lean.play_random(game, state, players, on_turn, max_plies, record, Turn)
        if record is not None:
            record.final = state
            record.finished = state.winner is not None
        return state
    legal_moves, apply, draw, needs_draw = game.legal_moves, game.apply, game.draw, game.needs_draw
    while state.winner is None and state.plies < max_plies:
        if needs_draw(state):
            state = draw(state)
        moves = legal_moves(state)
        if not moves:
            break
        if len(moves) == 1:
            choice = 0
        else:
            choice = players[state.turn].choose(view_of(game, state), moves)
            if not 0 <= choice < len(moves):
                raise ValueError(f"player chose move {choice} of {len(moves)}")
        if record is not None:
            record.choices.append(choice)
        move = moves[choice]
        seat = state.turn
        state = apply(state, move)
        if on_turn is not None:
            on_turn(Turn(state.plies, seat, move.card, move, choice, len(moves)), state)
    if record is not None:
        record.final = state
        record.finished = state.winner is not None
    return state


def replay(game, state, choices, on_turn=None, max_plies: int = DEFAULT_MAX_PLIES):
    """Replay recorded `choices` (one per move, as in GameRecord.choices) from `state`."""
    legal_moves, apply, draw, needs_draw = game.legal_moves, game.apply, game.draw, game.needs_draw
    for choice in choices:
        if state.winner is not None or state.plies >= max_plies:
            break
        if needs_draw(state):
            state = draw(state)
        moves = legal_moves(state)
        if not moves:
            break
        if not 0 <= choice < len(moves):
            raise ValueError(f"recorded choice {choice} is not one of the {len(moves)} legal moves at ply {state.plies}")
        move = moves[choice]
        seat = state.turn
        state = apply(state, move)
        if on_turn is not None:
            on_turn(Turn(state.plies, seat, move.card, move, choice, len(moves)), state)
    return state
