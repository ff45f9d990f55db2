"""The play screen: the board and a side panel, as rich `Text` lines.

`render_scene(scene, width)` returns the lines of one screen: the board (drawn from
`boardmap.build(game.layout)`, so any board shape renders) with a panel beside it (or below
it when the two do not fit side by side): the seats with their pawns in Start and Home, teams
and scores where the variant has them, the marks on the board (a marked pawn is drawn with
its mark's symbol after its label's first letter), the card drawn or the person's own hand,
the pile, and the last few moves. `render_moves` numbers the legal moves in plain words, one line each.
`render_turn` puts a whole turn screen together: the scene, a header line and one page of
the moves, sized so that the lines plus a one-line prompt fit `width` x `height`.

Contract: pure functions of the data given (no printing, no input); every line fits in
`width` columns (move texts are shortened, never wrapped); the letters and glyphs alone tell
everything (colour only helps), so the screen reads the same with NO_COLOR or piped output.
A hand is shown only when the scene carries one: the caller passes the person's own hand,
never another player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import re

from rich.color import Color, ColorParseError
from rich.text import Text

from sorry_rules.cli import boardmap
from sorry_rules.engine.describe import colour_name, describe_move, seated_teams

#: Terminal colours for colour names a terminal does not know, by colour index.
PALETTE = ("red", "blue", "yellow", "green", "magenta", "cyan", "bright_red", "bright_blue",
           "bright_yellow", "bright_green", "bright_magenta", "bright_cyan")
CELL = 2            # characters per board cell
GAP = 2             # columns between the board and the panel
PANEL_MIN = 34      # narrowest panel worth putting beside the board
LOG_MIN = 4         # last moves shown at least (and at least one per seat)
PAGE_MIN = 3        # moves on a page at least, however small the terminal
ELLIPSIS = "…"


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
    counters: tuple = ()          # per colour: the values of the rule file's counters (() without)
    marks: tuple = ()             # State.marks: a marked pawn shows its mark's symbol, the panel lists them
    drawn: tuple = ()             # the other cards drawn with `card` (turn.take)
    redraws: int = 0              # extra cards the turn took by turn.redraw (shown under that policy)


#: Single letters a pawn label must not be, as the board draws them (case ignored).
RESERVED = set("OVSH")


def state_scene(game, state, title: str, seat_names, log=()) -> Scene:
    """The scene of a whole state as everyone may see it (no card, no hand): for the end of a
    game and for replays."""
    return Scene(game, state.placement, state.seats, None if state.winner is not None else state.turn, state.plies,
                 title, tuple(seat_names), pile_size=len(state.pile), discard_size=len(state.discard), log=list(log),
                 scores=game.standing(state) if game.scoring else None, counters=state.counters, marks=state.marks,
                 redraws=state.redraws)


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
    symbols = {(c, sq): kind.symbol for kind, entries in zip(game.marks, scene.marks) for c, sq, _ in entries}
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
                label = look.labels[owner]
                symbol = symbols.get((owner, cell.square)) if symbols else None
                if symbol is not None:  # a marked pawn: its label's first letter and the mark's symbol
                    label = label[:CELL - 1] + symbol
                line.append(f"{label:<{CELL}}", style=look.pawn(owner))
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
    """The side panel, at least `height` lines when there are moves to fill it; the last
    moves list shows at least one move per seat (and `LOG_MIN`)."""
    game = scene.game
    look = _Look(game)
    lines = [Text(scene.title, style="bold")]
    lines += [_seat_line(scene, seat, look) for seat in range(len(scene.seats))]
    teams = _teams_line(scene)
    if teams is not None:
        lines.append(teams)
    if scene.counters:
        lines += counter_lines(game, scene)
    if scene.hand is not None:
        hand = Text("Your hand: ", style="bold")
        hand.append(" ".join(game.card_names[card] for card in sorted(scene.hand)), style="bold")
        lines.append(hand)
    elif scene.card is not None:
        card = Text("Cards: " if scene.drawn else "Card: ", style="bold")
        card.append(" ".join(game.card_names[c] for c in (scene.card,) + scene.drawn), style="bold reverse")
        if scene.drawn:
            card.append(" (play one, discard the rest)", style="dim")
        lines.append(card)
    if any(scene.marks):
        lines += mark_lines(game, scene.marks)
    if game.redraw is not None and scene.turn is not None:
        lines.append(Text(f"Extra cards this turn: {scene.redraws} of {game.redraw.at_most} ({game.redraw.label})",
                          style="dim"))
    when = f"move {scene.plies + 1}" if scene.turn is not None else f"{scene.plies} moves played"
    lines.append(Text(f"Pile {scene.pile_size}, discards {scene.discard_size}, {when}", style="dim"))
    room = max(LOG_MIN, len(scene.seats), height - len(lines) - 1)
    if scene.log:
        lines.append(Text("Last moves:", style="bold"))
        lines += [Text(entry) for entry in scene.log[-room:]]
    return lines


def board_map(game, width: int = 80):
    """The board's drawing grid for a screen `width` wide: a `sides` board wraps its rows so
    that a panel still fits beside it."""
    return boardmap.build(game.layout, max_cols=max(5, (width - GAP - PANEL_MIN) // CELL - 2))


def render_scene(scene: Scene, width: int = 80) -> list:
    """Board and panel side by side (or stacked when narrow), each line at most `width` wide."""
    return beside(render_board(scene, board_map(scene.game, width)), lambda height: render_panel(scene, height), width)


def beside(board: list, render_panel, width: int) -> list:
    """The lines `board` with the panel `render_panel(height)` to their right (`GAP` columns
    between) when `PANEL_MIN` columns are left for it, else below them (`render_panel(0)`);
    each line cut to `width`. Every board kind's screen is put together here."""
    board_width = max((line.cell_len for line in board), default=0)
    panel_width = width - board_width - GAP
    if panel_width >= PANEL_MIN:
        panel = render_panel(len(board))
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
        out = [line.copy() for line in board] + [Text()] + render_panel(0)
    for line in out:
        line.truncate(width, overflow="ellipsis")
        line.rstrip()
    return out


# ---- moves and the end ---------------------------------------------------------------------------
_BUMP_SQUARE = re.compile(r"(bumps \w+) \([^)]*\)")
_BUMPS_AGAIN = re.compile(r"(bumps \w+(?:, \w+)*), bumps ")


def move_label(game, move, hand_play: bool, colour: int | None = None) -> str:
    """A legal move in words: '[7] Red pawn track:4 -> track:11' (the card in brackets in
    hand play). With `colour` (the player to move) that colour's own pawns are not named:
    '[7] track:4 -> track:11', as in the last moves list."""
    named = hand_play or game.take > 1  # the move is one choice among several cards
    shown = named and move.card is not None and move.kind not in ("discard", "redraw")
    prefix = f"[{game.card_names[move.card]}] " if shown else ""
    text = describe_move(game, move)
    if colour is not None and move.kind not in ("pass", "discard", "forfeit"):
        text = text.replace(f"{colour_name(game, colour)} pawn ", "")
    return prefix + text


def _bumps_once(text: str) -> str:
    """'bumps A, bumps B, bumps C' -> 'bumps A, B, C'."""
    while True:
        text, n = _BUMPS_AGAIN.subn(r"\1, ", text)
        if not n:
            return text


def fit(text: str, room: int) -> str:
    """`text` in at most `room` characters, shortened step by step only as far as needed:
    bumped pawns' squares left out, 'then' dropped between the parts of a split, 'bumps A,
    bumps B' said as 'bumps A, B', arrows without spaces; as a last resort cut with an
    ellipsis."""
    steps = (lambda t: _BUMP_SQUARE.sub(r"\1", t), lambda t: t.replace("; then ", "; "),
             _bumps_once, lambda t: t.replace(" -> ", "->").replace(" <-> ", "<->"))
    for step in steps:
        if len(text) <= room:
            return text
        text = step(text)
    return text if len(text) <= room else text[: max(0, room - 1)] + ELLIPSIS


def _notes(moves) -> list:
    lines = []
    if any(m.kind == "pass" for m in moves):
        lines.append(Text("     (pass: this card may be declined; nothing moves and the turn ends)", style="dim"))
    if moves and all(m.kind == "discard" for m in moves):
        lines.append(Text("     (no card in your hand can move: discard one and draw a new card)", style="dim"))
    if moves and all(m.kind == "redraw" for m in moves):
        lines.append(Text("     (no pawn can move: discard and take another card, this turn)", style="dim"))
    if any(m.kind == "action" for m in moves):
        lines.append(Text("     (an action plays cards of your hand together: all are discarded, as many drawn)", style="dim"))
    return lines


def render_moves(game, moves, hand_play: bool, colour: int | None = None, width: int = 80,
                 first: int = 0, count: int | None = None) -> list:
    """The numbered legal moves `first` .. `first + count - 1` (all by default), one line
    each, numbered from 1 over the whole list and shortened to `width` columns (`fit`); then
    a note on passes or discards when there are any. `colour`: see `move_label`."""
    digits = max(2, len(str(len(moves))))
    lines = []
    shown = moves[first:] if count is None else moves[first:first + count]
    for i, move in enumerate(shown, first + 1):
        number = f"{i:>{digits}}. "
        line = Text()
        line.append(number, style="bold")
        line.append(fit(move_label(game, move, hand_play, colour), width - len(number)))  # no markup: "[sorry]"
        lines.append(line)
    return lines + _notes(moves)


@dataclass(frozen=True)
class TurnScreen:
    """One turn screen: its lines (the prompt not included), the page shown and the pages."""

    lines: list
    page: int
    pages: int
    first: int        # index of the first move on the page
    count: int        # moves on the page


def page_heading(total: int, per_page: int, page: int, header: str, message: str | None, width: int) -> tuple:
    """`(heading, page, pages, first, count)` for page `page` (clamped) of `total` moves shown
    `per_page` at a time: the heading is `message` if given, else `header` with the range
    shown ("1-20 of 45:") when there is more than one page, cut to `width`."""
    pages = max(1, -(-total // per_page))
    page = min(max(page, 0), pages - 1)
    first = page * per_page
    count = min(per_page, total - first)
    if not message:
        header += f" {first + 1}-{first + count} of {total}:" if pages > 1 else ":"
    head = Text(message or header, style="bold")
    head.truncate(width, overflow="ellipsis")
    return head, page, pages, first, count


def render_turn(scene: Scene, moves, hand_play: bool, header: str, page: int = 0,
                width: int = 80, height: int = 24, message: str = "") -> TurnScreen:
    """The screen of a person about to choose: the scene, a header line and page `page`
    (0-based, clamped) of the numbered moves. The header line is `message` when there is one
    (an answer to the person), else `header` followed by the numbers of the moves on the
    page ('Your moves 7-12 of 18:') when there are several pages; it is cut to `width`.
    Each page holds as many moves a
    page as leave room for a one-line prompt in `height` lines (`PAGE_MIN` at least, for
    tiny terminals). Moves keep their numbers across pages; the moves of the player to move
    (`scene.seats[scene.turn]`) do not repeat that player's colour."""
    lines = render_scene(scene, width)
    notes = _notes(moves)
    per_page = max(PAGE_MIN, height - len(lines) - len(notes) - 2)
    head, page, pages, first, count = page_heading(len(moves), per_page, page, header, message, width)
    colour = scene.seats[scene.turn] if scene.turn is not None else None
    lines = lines + [head] + render_moves(scene.game, moves, hand_play, colour, width, first, count)
    return TurnScreen(lines, page, pages, first, count)


def mark_lines(game, marks) -> list:
    """One line per mark kind on the board: 'frozen #: Blue track:20 (by Red)'; Start and
    Home say how many marked pawns are there. [] when no mark is placed."""
    lines = []
    for kind, entries in zip(game.marks, marks):
        if not entries:
            continue
        counted: dict = {}
        for c, sq, by in entries:
            counted[(c, sq, by)] = counted.get((c, sq, by), 0) + 1
        parts = [f"{colour_name(game, c)} {game.layout.name(sq)}{f' x{n}' if n > 1 else ''} (by {colour_name(game, by)})"
                 for (c, sq, by), n in counted.items()]
        lines.append(Text(f"{kind.label} {kind.symbol}: " + ", ".join(parts)))
    return lines


def counter_lines(game, state) -> list:
    """One line per declared counter (`counters:`) with every seat's value; [] without.
    `state` is a `State` or a `Scene` (both have `seats` and `counters`)."""
    return [Text(f"{label}: " + ", ".join(f"{colour_name(game, c)} {state.counters[c][i]}" for c in state.seats))
            for i, (_, _, label) in enumerate(game.counters)]


def render_outcome(game, state, width: int | None = None) -> list:
    """Who won, with the score table where the variant scores. With `width` (a screen) the
    table has no 'Scores:' heading and a score line too long for `width` goes on in
    continuation lines (without, the lines are those of `--auto` output, whatever their
    length)."""
    outcome = game.outcome(state)
    if outcome is None:
        return [Text(f"No winner after {state.plies} moves (stopped).", style="bold")]
    names = " and ".join(colour_name(game, state.seats[s]) for s in outcome.winning_seats)
    verb = "wins" if len(outcome.winning_seats) == 1 else "win"
    lines = [Text(f"{names} {verb} after {state.plies} moves.", style="bold")]
    lines.extend(counter_lines(game, state))
    if not game.scoring:
        return lines
    if width is None:
        lines.append(Text("Scores:"))
    # the winner and partners first, then the others in seat order
    order = list(outcome.winning_seats) + [s for s in range(len(state.seats)) if s not in outcome.winning_seats]
    for seat in order:
        total, score_lines = outcome.scores[seat]
        colour = state.seats[seat]
        home = state.placement[colour].count(game.layout.home[colour])
        detail = " + ".join(f"{line.points} ({line.label})" for line in score_lines) or "no scoring line applies"
        text = f"  {colour_name(game, colour):8} {total:5} points  {home}/{game.pawns} Home  = {detail}"
        lines += [Text(part) for part in (_folded(text, width) if width else [text])]
    return lines


def _folded(text: str, width: int) -> list:
    """A score line broken before its ' + ' parts into lines of at most `width` columns; the
    continuation lines start with '+' under the points."""
    indent = " " * 10
    parts = text.split(" + ")
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " + " + part
        else:
            lines.append(f"{indent} + {part}")
    return [fit(line, width) for line in lines]


def turn_text(game, colour: int, move) -> str:
    """One applied move for the 'last moves' list: 'Blue 11: track:15 <-> Red pawn track:13'
    (the mover's own colour is not repeated before its pawns)."""
    card = "-" if move.card is None else game.card_names[move.card]
    name = colour_name(game, colour)
    text = describe_move(game, move).replace(f"{name} pawn ", "")
    return f"{name} {card}: {text}"
