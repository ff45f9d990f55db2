"""The moves oracle of grid variants (docs/SEQUENCE.md section 5).

Contract: `grid_moves_report(game, position)` returns JSON-ready data
  {"turn": colour, "moves": [{"text", "card", "kind", "result", "winner"}], "forfeit": bool}
`kind` is `place`, `remove` or `exchange`; `card` the card played or exchanged; `result` the
cells of every colour of the game after the move (an exchange leaves them as they were);
`winner` the colour whose win condition the move fulfils, else None. A play of one card
to one result appears once. With no move at all: `"moves": []`, `"forfeit": true` (the
player passes, S9).
"""

from __future__ import annotations


def grid_moves_report(game, position) -> dict:
    state = position.state
    colours = [game.colours[c] for c in state.seats]
    listed = []
    for move in game.legal_moves(state):
        if move.kind == "pass":
            continue
        after = game.apply(state, move)
        winner = game.winning_colour(after)
        listed.append({
            "text": describe_grid_move(game, state.seats[state.turn], move),
            "card": game.card_names[move.card],
            "kind": move.kind,
            "result": {game.colours[c]: [game.grid.name(cell) for cell in move.placement[c]] for c in state.seats},
            "winner": None if winner is None else game.colours[winner],
        })
    return {"turn": colours[state.turn], "moves": listed, "forfeit": not listed}


def describe_grid_move(game, colour: int, move) -> str:
    """A move in words: "blue places a chip on F5 with 4H"."""
    who = game.colours[colour]
    card = game.card_names[move.card] if move.card is not None else None
    if move.kind == "exchange":
        return f"{who} exchanges the dead card {card}"
    if move.kind == "pass":
        return f"{who} passes"
    parts = [f"places a chip on {game.grid.name(cell)}" if kind == "place" else
             f"removes {game.colours[c]}'s chip from {game.grid.name(cell)}" for kind, c, cell in move.events]
    return f"{who} {' and '.join(parts)} with {card}"


def format_grid_report_text(report: dict, details=None) -> str:
    """The report as text; `details(move)` may add indented lines under each move."""
    lines = [f"{report['turn']} to play:"]
    if report["forfeit"]:
        lines.append("  no legal move: the player passes")
    for i, move in enumerate(report["moves"], 1):
        suffix = f"  ({move['winner']} wins)" if move["winner"] else ""
        lines.append(f"  {i:2}. {move['text']}{suffix}")
        if details is not None:
            lines.extend(details(move))
    return "\n".join(lines)
