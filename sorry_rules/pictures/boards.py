"""One board picture for any rule file: the track or the grid drawing, chosen by the board
kind of the compiled game, with the pieces of a position file or of the start of a game.

Contract: `position_of(game, source)` reads a position file's data
(`records.position.read_position_file`) as `sorry-play moves` does and raises
`PositionError` for a bad one; `board_svg(game, position)` never reads files;
`game_svg(record, move)` draws a recorded game at any move (`render --game`).
"""

from __future__ import annotations

from sorry_rules.base.errors import UsageError
from sorry_rules.base.words import and_list, plural
from sorry_rules.engine.describe import colour_name, places_words
from sorry_rules.pictures import gridboard, trackboard
from sorry_rules.pictures.paths import move_paths
from sorry_rules.records.gridposition import parse_grid_position
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.position import parse_position
from sorry_rules.records.restore import restore, start_state
from sorry_rules.records.storage import game_over


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
    if position is None:
        return (gridboard if is_grid(game) else trackboard).board_svg(game)
    hand = "hand: " + ", ".join(game.card_names[c] for c in position.hand) if position.hand else None
    if is_grid(game):
        return gridboard.board_svg(game, position.state, hand=hand)
    card = None if position.card is None else f"{game.source_noun}: {game.card_names[position.card]}"
    return trackboard.board_svg(game, position.state, card=hand or card)


def game_svg(record, move: int | None = None, source: str = "game record") -> str:
    """The board of a recorded game (`records.files.read_record`) after move `move` (0: the
    start; None: the last move), checked and replayed as `sorry-play replay` does: a track
    board with its pawns named (`records.pawnnames`), the path of move `move` and, in the
    legend, the move's number and words. Raises SaveFileError for a damaged record, and
    UsageError for a move it does not have (as `replay --position` does)."""
    moves: list = []
    game, final = restore(record, source=source, on_turn=lambda turn, after: moves.append((turn, after)))
    n = len(moves) if move is None else move
    if n > len(moves):
        raise UsageError(f"{source}: the game has {len(moves)} moves; --move takes 0 to {len(moves)}")
    start = start_state(game, record, source)
    state = moves[n - 1][1] if n else start
    where = f"move {n} of {len(moves)}" if n else f"the start ({len(moves)} moves in all)"
    if is_grid(game):
        return gridboard.board_svg(game, state, hand=where)
    names = PawnNames.start(game, start.placement, trackboard.labels_of(game.colours), start.marks)
    for turn, after in moves[:max(n - 1, 0)]:
        names = names.after(turn.move, after.placement, after.marks)
    notes, paths = [where], ()
    if n:
        turn, after = moves[n - 1]
        card = "-" if turn.card is None else game.card_names[turn.card]
        notes.append(f"{colour_name(game, after.seats[turn.seat])} {card}: {names.describe(turn.move)}")
        paths = move_paths(game, turn.move)
        names = names.after(turn.move, after.placement, after.marks)
    if n == len(moves) and game_over(final):
        notes.append(outcome_words(game, final))
    return trackboard.board_svg(game, state, names=names, paths=paths, notes=notes)


def outcome_words(game, state) -> str:
    """'Red wins after 406 moves' (with partners: 'Red and Yellow win ...'; played for places,
    every seat's place after it: '(1st Red, 2nd Blue, ...)') of a finished track game."""
    outcome = game.outcome(state)
    if outcome is None:
        return f"no winner after {plural(state.plies, 'move')}"
    names = and_list(colour_name(game, state.seats[s]) for s in outcome.winning_seats)
    words = f"{names} {'wins' if len(outcome.winning_seats) == 1 else 'win'} after {plural(state.plies, 'move')}"
    if game.places > 1:  # played on for places
        words += f" ({places_words(game, state.seats, outcome.places)})"
    return words
