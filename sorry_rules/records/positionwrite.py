"""Position files written from a game's state: what `records.position` (track boards) and
`records.gridposition` (grid boards) read, for `sorry-play replay FILE --position N`.

Contract: `position_data(game, state)` is the plain data (dicts, lists, text, numbers,
booleans) of a position file that reads back (`parse_position`, `parse_grid_position`) as
the position of the player to move in `state`, with the same legal moves: the seats, whose
turn, the card (the cards drawn together under `turn.take`; the throw with dice) or the
hand, every seated colour's pawns, counters and marks, the sides that finished, the extra
cards `turn.redraw` has taken this turn and those consequences gave that are still due
(`State.bonus`); on a grid, the chips, the hand and the exchange made. A position file does
not hold what the player cannot see (the pile, the other hands). On a grid, where a
side's colour sits at several seats, each colour is listed once, in the order it first sits.
The state must have its card (or throw) when the turn takes one (`Game.draw`).

`position_text(data, heading)` writes the data as a YAML position file: `heading` (lines
of text) first, as comments.
"""

from __future__ import annotations

import yaml

from sorry_rules.engine.board import GRID


def position_data(game, state) -> dict:
    """The position file of `state` (module contract)."""
    if game.board_kind == GRID:
        return _grid_data(game, state)
    colours, layout = game.colours, game.layout
    seats = state.seats
    data: dict = {"players": [colours[c] for c in seats], "turn": colours[seats[state.turn]]}
    if state.hands is not None:
        data["hand"] = [game.card_names[card] for card in state.hands[state.turn]]
    elif state.card is not None:
        drawn = [game.card_names[card] for card in (state.card, *state.drawn)]
        data["card"] = drawn if state.drawn else drawn[0]
    data["pawns"] = {colours[c]: [layout.name(sq) for sq in state.placement[c]] for c in seats}
    if game.counters:
        data["counters"] = {colours[c]: {name: state.counters[c][i] for i, (name, _, _) in enumerate(game.counters)}
                            for c in seats}
    if game.marks:
        data["marks"] = {kind.name: [{"colour": colours[c], "square": layout.name(sq), "by": colours[by]}
                                     for c, sq, by in state.marks[k]]
                         for k, kind in enumerate(game.marks) if state.marks[k]}
    if state.finished:
        data["finished"] = [colours[seats[seat]] for seat in state.finished]
    if state.redraws:
        data["redraws"] = state.redraws
    if state.bonus:
        data["cards_due"] = state.bonus
    return data


def _grid_data(game, state) -> dict:
    colours, grid = game.colours, game.grid
    sides = list(dict.fromkeys(state.seats))
    return {"players": [colours[c] for c in sides], "turn": colours[state.seats[state.turn]],
            "hand": [game.card_names[card] for card in state.hands[state.turn]],
            "chips": {colours[c]: [grid.name(cell) for cell in state.placement[c]] for c in sides if state.placement[c]},
            "exchanged": state.exchanged}


def position_text(data: dict, heading: list[str] = ()) -> str:
    """`data` as a YAML position file, `heading` first as comment lines."""
    comments = "".join(f"# {line}\n" for line in heading)
    return comments + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
