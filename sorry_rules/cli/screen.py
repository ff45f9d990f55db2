"""The play screen: the board and a side panel, as rich `Text` lines.

`render_scene(scene, width)` returns the lines of one screen: the board (drawn from
`boardmap.build(game.layout)`, so any board shape renders) with a panel beside it (or below
it when the two do not fit side by side): the seats with their pawns in Start and Home, teams
and scores where the variant has them, the card drawn or the person's own hand, the pile, and
the last few moves. `render_moves` numbers the legal moves in plain words (a list of
rich renderables).

Contract: pure functions of the data given (no printing, no input); the output fits in
`width` columns; the letters and glyphs alone tell everything (colour only helps), so the
screen reads the same with NO_COLOR or piped output. A hand is shown only when the scene
carries one: the caller passes the person's own hand, never another player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.color import Color, ColorParseError
from rich.table import Table
from rich.text import Text

from sorry_rules.cli import boardmap
from sorry_rules.engine.describe import colour_name, describe_move, seated_teams

#: Terminal colours for colour names a terminal does not know, by colour index.
PALETTE = ("red", "blue", "yellow", "green", "magenta", "cyan", "bright_red", "bright_blue",
           "bright_yellow", "bright_green", "bright_magenta", "bright_cyan")
CELL = 2            # characters per board cell
GAP = 2             # columns between the board and the panel
PANEL_MIN = 34      # narrowest panel worth putting beside the board
LOG_MIN = 4         # last moves shown at least


@dataclass
class Scene:
    """Everything one screen shows."""

    game: object
    placement: tuple
    seats: tuple
    turn: int | None              # seat to move (None when the game is over)
    plies: int
    title: str
    seat_names: tuple             # per seat: "you", "greedy", "human 2", ...
    card: int | None = None       # the card drawn by the player to move (draw play)
    hand: tuple | None = None     # the person's own hand (hand play), else None
    pile_size: int = 0
    discard_size: int = 0
    log: list = field(default_factory=list)   # recent moves, oldest first
    scores: dict | None = None    # seat -> points, where the variant scores


#: Single letters a pawn label must not be, as the board draws them (case ignored).
RESERVED = set("OVSH")


def state_scene(game, state, title: str, seat_names, log=()) -> Scene:
    """The scene of a whole state as everyone may see it (no card, no hand): for the end of a
    game and for replays."""
    return Scene(game, state.placement, state.seats, None if state.winner is not None else state.turn, state.plies,
                 title, tuple(seat_names), pile_size=len(state.pile), discard_size=len(state.discard), log=list(log),
                 scores=game.standing(state) if game.scoring else None)


def colour_labels(colours) -> tuple:
    """Short unique pawn labels (1-2 characters) for colour names, in order; one letter when
    the first letters are unique and none looks like a board glyph (o, v, S, H)."""
    for length in (1, 2):
        labels = tuple(name[:length].capitalize() for name in colours)
        if len(set(labels)) == len(labels) and all(labels) and (length > 1 or not RESERVED & set(labels)):
            return labels
    digits = "123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return tuple(digits[i] if i < len(digits) else "?" for i in range(len(colours)))


def colour_styles(colours) -> tuple:
    """A terminal colour for each colour: its own name when the terminal knows it."""
    out = []
    for i, name in enumerate(colours):
        try:
            Color.parse(name.lower())
            out.append(name.lower())
        except ColorParseError:
            out.append(PALETTE[i % len(PALETTE)])
    return tuple(out)


class _Look:
    """Labels and styles of one game, computed once per render."""

    def __init__(self, game):
        self.labels = colour_labels(game.colours)
        self.styles = colour_styles(game.colours)

    def pawn(self, c: int) -> str:
        return f"bold reverse {self.styles[c]}"

    def colour(self, c: int) -> str:
        return f"bold {self.styles[c]}"


# ---- the board -------------------------------------------------------------------------------
def render_board(scene: Scene, bmap=None) -> list:
    """The board as lines of `Text`, `CELL` characters per grid cell."""
    game = scene.game
    layout = game.layout
    bmap = bmap or boardmap.build(layout)
    look = _Look(game)
    occupant = {}
    for c, squares in enumerate(scene.placement):
        for sq in squares:
            if sq < layout.X:
                occupant[sq] = c
    playing = set(scene.seats)
    lines = []
    for r in range(bmap.rows):
        line = Text()
        c = 0
        while c < bmap.cols:
            cell = bmap.cells.get((r, c))
            if cell is None:
                line.append(" " * CELL)
            elif cell.kind == "label":
                line.append(f"{colour_name(game, cell.colour)[:2 * CELL - 1]:<{2 * CELL}}", style=look.colour(cell.colour))
                c += 1
            elif cell.kind in ("home", "start"):
                if cell.colour in playing:
                    n = scene.placement[cell.colour].count(cell.square)
                    text = f"{cell.glyph}{n}" if n < 10 else str(n)
                    line.append(f"{text:<{CELL}}", style=look.colour(cell.colour))
                else:
                    line.append(f"{cell.glyph}-", style="dim")
            elif cell.square in occupant:
                owner = occupant[cell.square]
                line.append(f"{look.labels[owner]:<{CELL}}", style=look.pawn(owner))
            elif cell.colour is not None:
                line.append(f"{cell.glyph:<{CELL}}", style=look.styles[cell.colour])
            else:
                line.append(f"{cell.glyph:<{CELL}}", style="dim")
            c += 1
        line.rstrip()
        lines.append(line)
    return lines


# ---- the panel -------------------------------------------------------------------------------
def _seat_line(scene: Scene, seat: int, look: _Look) -> Text:
    game = scene.game
    layout = game.layout
    c = scene.seats[seat]
    squares = scene.placement[c]
    line = Text(">" if seat == scene.turn else " ", style="bold")
    line.append(f"{look.labels[c]:>2} ", style=look.pawn(c))
    line.append(f"{colour_name(game, c):<8.8}", style=look.colour(c))
    line.append(f" {scene.seat_names[seat]:<8.8}")
    line.append(f" start {squares.count(layout.start[c])} home {squares.count(layout.home[c])}")
    if scene.scores is not None:
        line.append(f"  {scene.scores.get(seat, 0):>3} pts")
    return line


def _teams_line(scene: Scene) -> Text | None:
    game = scene.game
    teams = seated_teams(game, scene.seats)
    if all(len(t) == 1 for t in teams):
        return None
    return Text("Teams: " + " vs ".join("+".join(colour_name(game, c) for c in t) for t in teams))


def render_panel(scene: Scene, height: int) -> list:
    """The side panel, at least `height` lines when there are moves to fill it."""
    game = scene.game
    look = _Look(game)
    lines = [Text(scene.title, style="bold")]
    lines += [_seat_line(scene, seat, look) for seat in range(len(scene.seats))]
    teams = _teams_line(scene)
    if teams is not None:
        lines.append(teams)
    if scene.hand is not None:
        hand = Text("Your hand: ", style="bold")
        hand.append(" ".join(game.card_names[card] for card in sorted(scene.hand)), style="bold")
        lines.append(hand)
    elif scene.card is not None:
        card = Text("Card: ", style="bold")
        card.append(game.card_names[scene.card], style="bold reverse")
        lines.append(card)
    when = f"move {scene.plies + 1}" if scene.turn is not None else f"{scene.plies} moves played"
    lines.append(Text(f"Pile {scene.pile_size}, discards {scene.discard_size}, {when}", style="dim"))
    room = max(LOG_MIN, height - len(lines) - 1)
    if scene.log:
        lines.append(Text("Last moves:", style="bold"))
        lines += [Text(entry) for entry in scene.log[-room:]]
    return lines


def render_scene(scene: Scene, width: int = 80) -> list:
    """Board and panel side by side (or stacked when narrow), each line at most `width` wide."""
    board = render_board(scene)
    board_width = max((line.cell_len for line in board), default=0)
    panel_width = width - board_width - GAP
    if panel_width >= PANEL_MIN:
        panel = render_panel(scene, len(board))
        out = []
        for i in range(max(len(board), len(panel))):
            line = board[i].copy() if i < len(board) else Text()
            line.pad_right(board_width - line.cell_len)
            if i < len(panel):
                line.append(" " * GAP)
                part = panel[i].copy()
                part.truncate(panel_width, overflow="ellipsis")
                line.append_text(part)
            out.append(line)
    else:
        out = [line.copy() for line in board] + [Text()] + render_panel(scene, 0)
    for line in out:
        line.truncate(width, overflow="ellipsis")
        line.rstrip()
    return out


# ---- moves and the end ---------------------------------------------------------------------------
def move_label(game, move, hand_play: bool) -> str:
    prefix = f"[{game.card_names[move.card]}] " if hand_play and move.card is not None and move.kind != "discard" else ""
    return prefix + describe_move(game, move)


def render_moves(game, moves, hand_play: bool) -> list:
    """The numbered legal moves (long ones wrap under their text, not under the number),
    then a note on passes or discards when there are any."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column()
    for i, move in enumerate(moves, 1):
        table.add_row(Text(f"{i:2}."), Text(move_label(game, move, hand_play)))  # Text: "[sorry]" is no markup
    lines = [table]
    if any(m.kind == "pass" for m in moves):
        lines.append(Text("     (pass: this card may be declined; nothing moves and the turn ends)", style="dim"))
    if moves and all(m.kind == "discard" for m in moves):
        lines.append(Text("     (no card in your hand can move: discard one and draw a new card)", style="dim"))
    return lines


def render_outcome(game, state) -> list:
    """Who won, with the score table where the variant scores."""
    outcome = game.outcome(state)
    if outcome is None:
        return [Text(f"No winner after {state.plies} moves (stopped).", style="bold")]
    names = " and ".join(colour_name(game, state.seats[s]) for s in outcome.winning_seats)
    verb = "wins" if len(outcome.winning_seats) == 1 else "win"
    lines = [Text(f"{names} {verb} after {state.plies} moves.", style="bold")]
    if not game.scoring:
        return lines
    lines.append(Text("Scores:"))
    # the winner and partners first, then the others in seat order
    order = list(outcome.winning_seats) + [s for s in range(len(state.seats)) if s not in outcome.winning_seats]
    for seat in order:
        total, score_lines = outcome.scores[seat]
        colour = state.seats[seat]
        home = state.placement[colour].count(game.layout.home[colour])
        detail = " + ".join(f"{line.points} ({line.label})" for line in score_lines) or "no scoring line applies"
        lines.append(Text(f"  {colour_name(game, colour):8} {total:5} points  {home}/{game.pawns} Home  = {detail}"))
    return lines


def turn_text(game, colour: int, move) -> str:
    """One applied move for the 'last moves' list: 'Blue 11: track:15 <-> Red pawn track:13'
    (the mover's own colour is not repeated before its pawns)."""
    card = "-" if move.card is None else game.card_names[move.card]
    name = colour_name(game, colour)
    text = describe_move(game, move).replace(f"{name} pawn ", "")
    return f"{name} {card}: {text}"
