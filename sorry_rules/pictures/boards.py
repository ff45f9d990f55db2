"""One board picture for any rule file: the track or the grid drawing, chosen by the board
kind of the compiled game, with the pieces of a position file or of the start of a game.

Contract: `position_state(game, source)` reads a position file's data
(`records.position.read_position_file`) as `sorry-play moves` does and raises
`PositionError` for a bad one; `board_svg(game, position)` never reads files.
"""

from __future__ import annotations

from sorry_rules.pictures import gridboard, trackboard
from sorry_rules.records.gridposition import parse_grid_position
from sorry_rules.records.position import parse_position


def is_grid(game) -> bool:
    return getattr(game, "grid", None) is not None


def position_of(game, source):
    """The `Position` (track) or `GridPosition` (grid) of a position file's data."""
    if is_grid(game):
        return parse_grid_position(game, source.data, source.origins)
    return parse_position(game, source.data, None, source.origins)


def board_svg(game, position=None) -> str:
    """The board of `game` as an SVG document, with the pieces of `position` (see
    `position_of`; None: a track game's start with the most players, an empty grid)."""
    if is_grid(game):
        if position is None:
            return gridboard.board_svg(game)
        hand = "hand: " + ", ".join(game.card_names[c] for c in position.hand) if position.hand else None
        return gridboard.board_svg(game, position.state, hand=hand)
    if position is None:
        return trackboard.board_svg(game)
    card = None if position.card is None else f"card: {game.card_names[position.card]}"
    if position.hand:
        card = "hand: " + ", ".join(game.card_names[c] for c in position.hand)
    return trackboard.board_svg(game, position.state, card=card)
