"""The play screen of grid games: the grid of chips and card faces and a side panel, as rich
`Text` lines, with the same functions (and signatures) as `cli.screen` so that
`terminal.Session` draws either board kind through its `look`.

The board: one cell a column (`cell_width` characters, at least 3, so a 10x10 grid with its
row names is 42 columns and a panel of 36 fits beside it at 80): a chip is its colour's
label (`chip_labels`: its initial, upper case); a chip in a completed line of its colour is
drawn in brackets `[B]` (and reversed where there is colour); a free cell is `*`; an empty
cell shows the card face that puts a chip there. The panel: one line per side (a colour, its
completed lines and the seats that play it), the person's own hand, the pile,
and the last moves. The moves are listed in columns (`render_turn`), numbered from 1 over
all the pages.

Contract: pure functions of the data given (no printing, no input); every line fits in
`width` columns; the letters and brackets alone tell everything (colour only helps), so the
screen reads the same with NO_COLOR or piped output. Nothing here knows a variant, card or
colour: cells, faces, labels and counts come from the compiled game.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from sorry_rules.base.words import plural
from sorry_rules.cli import screen
from sorry_rules.cli.paging import TurnScreen, fit, heading, paged
from sorry_rules.cli.screen import PAGE_MIN, Scene, beside, colour_styles
from sorry_rules.engine.describe import colour_name
from sorry_rules.engine.gridmechanics import PLACE
from sorry_rules.engine.gridtable import EXCHANGE, PASS
from sorry_rules.records.pawnnames import initials
from sorry_rules.records.storage import game_over

__all__ = ["HELP", "Scene", "TurnScreen", "cell_width", "chip_labels", "move_label", "render_board", "render_moves",
           "render_outcome", "render_panel", "render_scene", "render_turn", "state_scene", "turn_text", "view_scene"]

HELP = """\
On your turn the board shows your hand, and the moves it allows are listed by
number: 'CARD on CELL' plays the card and puts your chip on that cell; 'CARD
takes COLOUR CELL' takes that chip away; 'exchange dead CARD' swaps a card
that has no play for a new one. Type a number and press Enter, or a cell name
(any case) for the one move that uses that cell.
  ?  this help       h  a hint: what a computer player would do
  n  next page       p  previous page: a long list of moves comes in pages;
                        the numbers run on over the pages, type any of them
  b  draw the board  q  save the game and quit (continue with --resume FILE)
The board: a letter is a chip (the initial of its colour); a letter in
brackets is a chip in a completed line of its colour; * is a free cell, which
counts for every colour; every other cell shows the card face that lets a
chip be put there. The panel shows each side's completed lines (seq) and its
players. With no play at all you pass."""
COLUMN_GAP = 2      # spaces between two columns of moves


def chip_labels(colours) -> tuple:
    """Short unique chip labels: the colours' initials (upper case) when they differ, else
    their first two letters, else digits. (A grid has no glyphs a letter could be taken for,
    unlike the track's `screen.colour_labels`.)"""
    return initials(colours, after_number="")


def cell_width(game) -> int:
    """Characters a cell takes: room for the longest card face and a bracketed label."""
    faces = max((len(face) for face in game.grid.card_of if face is not None), default=1)
    labels = max(len(label) for label in chip_labels(game.colours))
    return max(3, faces, labels + 2)


def state_scene(game, state, title: str, seat_names, log=(), names=None) -> Scene:
    """The scene of a whole grid state as everyone may see it (no hand): for the end of a game
    and for replays (`screen.state_scene` for grid states, which have no counters or scores;
    chips have no names, so `names` is not used)."""
    return Scene(game, state.placement, state.seats, None if game_over(state) else state.turn, state.plies, title,
                 tuple(seat_names), pile_size=len(state.pile), discard_size=len(state.discard), log=list(log))


def view_scene(game, view, title: str, seat_names, log=()) -> Scene:
    """The scene of a person about to choose: what their `View` shows, their own hand only."""
    return Scene(game, view.placement, view.seats, view.seat, view.plies, title, tuple(seat_names), hand=view.hand,
                 pile_size=view.pile_size, discard_size=len(view.discard), log=list(log))


def help_text(game) -> str:
    """The help of the grid screen (the same for every grid game)."""
    return HELP


def start_names(game, state):
    """Chips have no names (see `screen.start_names`)."""
    return None


# ---- the board -------------------------------------------------------------------------------
def render_board(scene: Scene) -> list:
    """The grid as lines of `Text`: a line of column names, then one line per row."""
    game = scene.game
    grid = game.grid
    labels, styles = chip_labels(game.colours), colour_styles(game.colours)
    w = cell_width(game)
    rw = max(len(row) for row in grid.rows)
    owner, lined = {}, set()
    for c, chips in enumerate(scene.placement):
        owner.update((cell, c) for cell in chips)
        if chips:
            lined |= grid.protected(chips)
    head = Text(" " * rw, style="dim")
    for column in grid.columns:
        head.append(" " + f"{column:^{w}}", style="dim")
    head.rstrip()
    lines = [head]
    for r, row in enumerate(grid.rows):
        line = Text(f"{row:>{rw}}", style="dim")
        for c in range(grid.width):
            cell = r * grid.width + c
            line.append(" ")
            if cell in owner:
                o = owner[cell]
                if cell in lined:
                    line.append(f"{'[' + labels[o] + ']':^{w}}", style=f"bold reverse {styles[o]}")
                else:
                    line.append(f"{labels[o]:^{w}}", style=f"bold {styles[o]}")
            elif cell in grid.free:
                line.append(f"{'*':^{w}}", style="bold")
            else:
                line.append(f"{grid.card_of[cell]:^{w}}", style="dim")
        line.rstrip()
        lines.append(line)
    return lines


# ---- the panel -------------------------------------------------------------------------------
def _sides(seats) -> list:
    """The colours at the table, in the order of their first seat."""
    return list(dict.fromkeys(seats))


def _players_text(names) -> str:
    """'you, 2 greedy' for the seats of one side."""
    counts = Counter(names)
    return ", ".join(name if n == 1 else f"{n} {name}" for name, n in counts.items())


def render_panel(scene: Scene, height: int, width: int | None = None) -> list:
    """The side panel: the title, one line per side (`>` marks the side to move), the hand
    or nothing, the pile, a key, and as many of the last moves as fit `height` lines (at
    least `screen.LOG_MIN`), each wrapped to `width` when given."""
    game = scene.game
    grid = game.grid
    labels, styles = chip_labels(game.colours), colour_styles(game.colours)
    lines = [Text(scene.title, style="bold")]
    moving = scene.seats[scene.turn] if scene.turn is not None else None
    for c in _sides(scene.seats):
        chips = scene.placement[c]
        line = Text(">" if c == moving else " ", style="bold")
        line.append(f"{labels[c]:>2}", style=f"bold reverse {styles[c]}")
        line.append(f" {colour_name(game, c):<7.7}", style=f"bold {styles[c]}")
        line.append(f" {grid.sequences(chips)} seq ")
        line.append(_players_text(scene.seat_names[s] for s, sc in enumerate(scene.seats) if sc == c))
        lines.append(line)
    if scene.hand is not None:
        lines.append(screen.hand_line(game, scene.hand))
    when = f"game move {scene.plies + 1}" if scene.turn is not None else f"{scene.plies} moves played"
    lines.append(Text(f"Pile {scene.pile_size}, discards {scene.discard_size}; {when}", style="dim"))
    lines.append(Text(f"[{labels[_sides(scene.seats)[0]]}] in a line, * free", style="dim"))
    return lines + screen.log_lines(scene.log, len(_sides(scene.seats)), height - len(lines), width, len(lines))


def render_scene(scene: Scene, width: int = 80, room: int | None = None) -> list:
    """Board and panel side by side (or stacked when narrow), each line at most `width` wide;
    with `room`, as few of the last moves as make it fit (`screen.within`)."""
    return screen.within(lambda shown: beside(render_board(shown), lambda height, wide: render_panel(shown, height, wide),
                                              width), scene, room)


# ---- moves and the end ---------------------------------------------------------------------------
def move_label(game, move, hand_play: bool = True, colour: int | None = None, names=None) -> str:
    """A legal move in words: 'QS on C3', 'JH takes green F5', 'exchange dead 4H', 'pass'.
    Without `colour` (the player to move) the chips placed are named by their colour too
    (`names` is not used: chips have none)."""
    if move.kind == PASS:
        return "pass (no play)"
    card = game.card_names[move.card]
    if move.kind == EXCHANGE:
        return f"exchange dead {card}"
    parts = []
    for kind, c, cell in move.events:
        if kind == PLACE:
            parts.append(f"on {game.grid.name(cell)}" if c == colour else f"{game.colours[c]} on {game.grid.name(cell)}")
        else:
            parts.append(f"takes {game.colours[c]} {game.grid.name(cell)}")
    return f"{card} {' and '.join(parts)}"


def turn_text(game, colour: int, move, names=None) -> str:
    """One applied move for the 'last moves' list: 'Blue: QS on C3' (`names` is not used)."""
    return f"{colour_name(game, colour)}: {move_label(game, move, True, colour)}"


def _notes(moves) -> list:
    if any(m.kind == PASS for m in moves):
        return [Text("  (no card in your hand can be played: you pass)", style="dim")]
    return []


def render_moves(game, moves, colour: int | None, width: int, first: int, count: int, rows: int) -> list:
    """Moves `first` .. `first + count - 1` numbered from 1 over the whole list, in columns
    of `rows` lines (down, then across), each entry cut to fit `width`."""
    digits = len(str(len(moves)))
    labels = [move_label(game, move, True, colour) for move in moves]
    entry = digits + 2 + max(len(label) for label in labels)
    shown = range(first, first + count)
    columns = [shown[i:i + rows] for i in range(0, count, rows)]
    lines = []
    for r in range(min(rows, count)):
        line = Text()
        for k, column in enumerate(columns):
            if r >= len(column):
                break
            i = column[r]
            if k:
                line.append(" " * COLUMN_GAP)
            line.append(f"{i + 1:>{digits}}. ", style="bold")
            room = width - line.cell_len
            line.append(f"{fit(labels[i], room):<{min(entry - digits - 2, room)}}")
        line.rstrip()
        lines.append(line)
    return lines


def render_turn(scene: Scene, moves, hand_play: bool, header: str, page: int = 0,
                width: int = 80, height: int = 24, message: str = "", first: int | None = None) -> TurnScreen:
    """The screen of a person about to choose (as `screen.render_turn`): the scene, the
    heading (wrapped) and page `page` (0-based, clamped; or the page that begins at move
    `first`) of the moves in as many columns as
    fit `width` and as many rows as leave room for a one-line prompt in `height` lines."""
    notes = _notes(moves)
    widest = heading(header, message, len(moves) - 1, 1, len(moves), True, width)
    lines = render_scene(scene, width, height - len(notes) - len(widest) - 1 - min(PAGE_MIN, len(moves)))
    rows = max(PAGE_MIN, height - len(lines) - len(notes) - len(widest) - 1)
    colour = scene.seats[scene.turn] if scene.turn is not None else None
    digits = len(str(len(moves)))
    entry = digits + 2 + max(len(move_label(scene.game, m, True, colour)) for m in moves)
    columns = max(1, (width + COLUMN_GAP) // (entry + COLUMN_GAP))
    pages, page = paged([1] * len(moves), rows * columns, page, first)
    first, count = pages[page]
    head = heading(header, message, first, count, len(moves), len(pages) > 1, width)
    rows_here = -(-count // columns)
    body = render_moves(scene.game, moves, colour, width, first, count, rows_here)
    return TurnScreen(lines + head + body + notes, page, len(pages), first, count, tuple(p[0] for p in pages))


def render_outcome(game, state, width: int | None = None) -> list:
    """Who won (and every side's completed lines), a draw, or a game stopped unfinished."""
    sides = ", ".join(f"{colour_name(game, c)} {game.grid.sequences(state.placement[c])}" for c in _sides(state.seats))
    if state.winner is not None:
        colour = state.seats[state.winner]
        seats = [str(i + 1) for i, c in enumerate(state.seats) if c == colour]
        text = f"{colour_name(game, colour)} wins after {plural(state.plies, 'move')} (seat{'s' if len(seats) > 1 else ''} " \
               f"{', '.join(seats)})."
    elif game_over(state):
        text = f"No winner: every player passed for a whole round (a draw) after {plural(state.plies, 'move')}."
    else:
        text = f"No winner after {plural(state.plies, 'move')} (stopped)."  # as `screen.render_outcome` says it
    return [Text(text, style="bold"), Text(f"Sequences: {sides}")]
