"""The play screen: the board and a side panel, as rich `Text` lines.

`render_scene(scene, width)` returns the lines of one screen: the board (drawn from
`boardmap.build(game.layout)`, so any board shape renders; every fifth track square
numbered, each pawn by its name, R1-R4) with a panel beside it (or below it when the two do
not fit side by side): the seats with their pawns in Start and Home, teams and scores where
the variant has them, the marks on the board (a marked pawn is drawn with its mark's symbol
after its label's first letter), the card drawn or the person's own hand, the pile, and the
last few moves. `render_moves` numbers the legal moves in plain words. `render_turn` puts a
whole turn screen together: the scene, the heading and one page of the moves, sized so that
the lines plus a one-line prompt fit `width` x `height` (`cli.paging`). `help_text` is the
help of a game's screen.

Contract: pure functions of the data given (no printing, no input); every line fits in
`width` columns (texts are shortened, then wrapped; none is cut); the letters and glyphs
alone tell everything (colour only helps), so the screen reads the same with NO_COLOR or
piped output. A hand is shown only when the scene carries one: the caller passes the
person's own hand, never another player's.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from dataclasses import dataclass, field, replace

from rich.color import Color, ColorParseError
from rich.text import Text

from sorry_rules.base.words import and_list, place_word, plural
from sorry_rules.cli import boardmap
from sorry_rules.cli.lines import wrap, wrap_all
from sorry_rules.cli.paging import TurnScreen, fit, heading, paged
from sorry_rules.engine.describe import colour_name, describe_move, places_words, seated_teams
from sorry_rules.engine.dice import faces_text
from sorry_rules.records.pawnnames import PawnNames

#: Terminal colours for colour names a terminal does not know, by colour index.
PALETTE = ("red", "blue", "yellow", "green", "magenta", "cyan", "bright_red", "bright_blue",
           "bright_yellow", "bright_green", "bright_magenta", "bright_cyan")
CELL = 2            # characters per board cell
TARGET = "bold underline"  # a move's number on the square where it ends: unlike a pawn's name (reverse or colour)
MILEPOST = 5        # every track square whose number is a multiple of this shows it when empty
GAP = 2             # columns between the board and the panel
PANEL_MIN = 20      # narrowest panel worth putting beside the board (its lines wrap)
LOG_MIN = 4         # last moves shown at least (and at least one per seat)
PAGE_MIN = 3        # moves on a page at least, however small the terminal
PANEL_MAX = 24 - PAGE_MIN - 2   # panel lines at most where the board is shorter: an 80x24 screen keeps PAGE_MIN moves


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
    names: object = None          # records.pawnnames.PawnNames of `placement` (None: pawns show their colour only)
    finished: tuple = ()          # State.finished: the seats whose side finished, in order (played for places)
    unplayed: dict = field(default_factory=dict)  # move index -> labels of the `after:` follow-ups it cannot play
    targets: dict = field(default_factory=dict)   # square -> the number of the move shown ending there (`move_targets`)
    redraw_open: bool = True      # a stuck card would be taken again now (`Table.redraw_applies`): the panel says so
    mark_targets: bool = False    # `render_turn` marks where the moves of its page end (a terminal's screen)


#: Single letters a pawn label must not be, as the board draws them (case ignored).
RESERVED = set("OVSH")


def state_scene(game, state, title: str, seat_names, log=(), names=None) -> Scene:
    """The scene of a whole state as everyone may see it (no card, no hand): for the end of a
    game and for replays; `names`: the pawn names of `state`."""
    return Scene(game, state.placement, state.seats, None if state.winner is not None else state.turn, state.plies,
                 title, tuple(seat_names), pile_size=len(state.pile), discard_size=len(state.discard), log=list(log),
                 scores=game.standing(state) if game.scoring else None, counters=state.counters, marks=state.marks,
                 redraws=state.redraws, names=names, finished=state.finished, redraw_open=redraw_open(game, state))


def redraw_open(game, state) -> bool:
    """Whether a stuck card of the player to move in `state` would be taken again now
    (`Table.redraw_applies`; no table is set up for a game without `turn.redraw`)."""
    return game.redraw is not None and game.table(state).redraw_applies()


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


HELP = """\
On your turn the board shows {shows}, and the moves it
allows are listed by number; each number also stands, highlighted, on the empty
square its move ends on. Type a number and press Enter.
  ?  this help       h  a hint: what the strongest computer player would do
  n  next page       p  previous page: the numbers run on over the pages
  b  draw the board  q  save the game and quit (continue with --resume FILE)
Pawns are named by colour and number: {first}1-{first}{pawns} are {colour}'s pawns, and the
moves name them: '{first}2 track:4 -> track:9, bumps {second}1 (track:9)'.
Squares: track:N is track square N. The {track} track squares are numbered from
0 clockwise; the board shows the number of every {milepost}th one (0, {milepost}, {twice} ...)
where no pawn stands. safety:K is the K-th square of a safety zone (':'),
counted from the track; start and home are S and H, with their pawn counts.
{board}"""

#: the last lines of the help: the board's squares and slides, and how a card or a throw is played
HELP_SLIDES = ("The board: '.' a track square; '>' 'v' '<' '^' a slide's start, '=' its body, 'o' its end: land "
               "exactly on {whose} slide start and the pawn slides to the end, {sweep}.")
HELP_ONLY_JUMPS = "The board: '.' a track square."
HELP_JUMPS = (" '~' is a jump's start: land exactly on {whose} jump start and the pawn jumps over the squares between "
              "to the jump's end (an 'o', or another '~'; `sorry-play explain` names it), ending there as the move "
              "would (a pawn it may not land on there forbids the move).")
HELP_YOUR_START = " Your Start is next to the square your pawns come out on."
HELP_CARDS = ("A move that '{again}' gives you another card. When no move is possible the card is forfeited (the "
              "board then shows it and waits for Enter); when no card in your hand can move you discard one.")
#: whose slides a pawn takes (`rules.slide_on`), in words
_SLIDE_WHOSE = {frozenset(("own", "partner", "opponent")): "any colour's", frozenset(("partner", "opponent")):
                "another colour's", frozenset(("opponent",)): "an opponent's", frozenset(("own",)): "your own colour's",
                frozenset(("own", "opponent")): "your own or an opponent's", frozenset(("partner",)): "a partner's",
                frozenset(("own", "partner")): "your own or a partner's"}
#: what the help adds where some slides say who takes them (`board.slides.*.slide_on`)
HELP_TAKERS = " Some {kinds} are taken by some pawns only: `sorry-play explain` says whose."
HELP_PLAIN = """The board: '.' a track square. Your Start is next to the square your pawns
come out on."""
HELP_DICE = """A move that 'throws again' gives you another throw; a throw with no move is
lost (the board then shows it and waits for Enter). With several dice each
move says what each die does, one after the other ('...; then ...')."""
#: what the help adds for squares that hold several pawns and for named squares
HELP_SEVERAL = ("A square holding several pawns shows how many and whose: '{count}{first}' is {count} of "
                "{colour}'s pawns, '3+' pawns of several colours; the panel names them ('Together:').")
HELP_NAMED = """Named squares show their symbol while empty: {names}."""
HELP_MARKS = ("Marks: a marked pawn on the track or in a safety zone shows the mark's symbol in place of its "
              "number ('{first}{symbol}'); the panel lists each mark with the pawns that carry it, those in Start "
              "or Home too, and who placed it: {names}.")
HELP_TEAM = ("Partners play together: your moves list your partner's pawns beside yours, by their names, and "
             "a card may move either; what a card may bump, switch or replace (a partner's pawn too) is in "
             "`sorry-play explain`.")


def help_text(game) -> str:
    """The help of the play screen for `game`: keys, pawn names, how squares are counted,
    slides where the board has them, cards or dice, partners' pawns where a player moves
    them, squares that hold several pawns and named squares where the board has them, and
    marks where the game has them."""
    labels = colour_labels(game.colours)
    layout = game.layout
    dice = getattr(game, "dice", None) is not None
    slides = any(info is not None for info in layout.slide_at)
    cards = HELP_CARDS.format(again="plays again" if game.hand_play else "draws again")
    if slides:
        rules = game.rules
        takers = {frozenset(rules.slide_on if info.on is None else info.on) for info in layout.slide_at if info is not None}
        own_takers = len(takers) > 1  # slides taken by different pawns (`board.slides.*.slide_on`)
        whose = "a" if own_takers else _SLIDE_WHOSE.get(takers.pop(), "a")
        sweep = "bumping every pawn on the way" if rules.slide_sweep == "all" else \
            "bumping the pawns on the way that it may bump (the others stay)"
        kinds = {info.jump for info in layout.slide_at if info is not None}
        words = HELP_SLIDES.format(whose=whose, sweep=sweep) if False in kinds else HELP_ONLY_JUMPS
        words += HELP_JUMPS.format(whose=whose) if True in kinds else ""
        named = " and ".join(word for word, kind in (("slides", False), ("jumps", True)) if kind in kinds)
        words += (HELP_TAKERS.format(kinds=named) if own_takers else "") + HELP_YOUR_START
        board = textwrap.fill(words + ("" if dice else " " + cards), 79) + ("\n" + HELP_DICE if dice else "")
    else:
        board = HELP_PLAIN + "\n" + (HELP_DICE if dice else textwrap.fill(cards, 79))
    text = HELP.format(first=labels[0], second=labels[1 % len(labels)], pawns=game.pawns,
                       colour=colour_name(game, 0), track=layout.T, milepost=MILEPOST, twice=2 * MILEPOST,
                       shows="your throw" if dice else "the card you drew (or your hand)", board=board)
    parts = []
    if any(len(colours) > 1 for colours in game.mechanics.control_of):
        parts.append(HELP_TEAM)
    if layout.several:
        parts.append(HELP_SEVERAL.format(count=2, first=labels[0], colour=colour_name(game, 0)))
    if layout.square_symbols:
        names = ", ".join(f"'{symbol}' {layout.square_labels[name]}{_square_words(layout, name)}"
                          for name, symbol in layout.square_symbols.items())
        parts.append(HELP_NAMED.format(names=names))
    if game.marks:
        names = ", ".join(f"'{kind.symbol}' {kind.label}" for kind in game.marks)
        parts.append(HELP_MARKS.format(first=labels[0], symbol=game.marks[0].symbol, names=names))
    return "\n".join([text, *(textwrap.fill(part, 79) for part in parts)])


def _square_words(layout, name: str) -> str:
    """What a named square changes, in words, from the board's tables (its first square):
    " (no capture there; colours may share it)"; '' where it changes nothing."""
    sq = layout.named[name][0][0]
    words = []
    capture = layout.capture[sq]
    if capture is not None:
        words.append("no capture there" if not capture else f"captures there only by {' or '.join(sorted(capture))}")
    if layout.safe[sq]:
        words.append("some colours are safe there")
    if layout.share[sq]:
        words.append("colours may share it")
    return f" ({'; '.join(words)})" if words else ""


def start_names(game, state):
    """The pawn names of `state`'s placement (with its marks) as the screen writes them
    (`records.pawnnames`, with the board's colour labels: R1-R4 on the standard board)."""
    return PawnNames.start(game, state.placement, colour_labels(game.colours), state.marks)


# ---- the board -------------------------------------------------------------------------------
def render_board(scene: Scene, bmap=None) -> list:
    """The board as lines of `Text`, `CELL` characters per grid cell: a pawn shows its name
    (`R2`, from `scene.names`; its colour's label when the name does not fit a cell), an
    empty track square whose number is a multiple of `MILEPOST` shows that number (a number
    wider than a cell runs on into the empty track cells after it; it is left out where it
    does not fit, or right after a pawn or a count, which it would run into: not "R25")."""
    game = scene.game
    layout = game.layout
    bmap = bmap or boardmap.build(layout)
    look = _Look(game)
    occupant, crowd = _occupants(scene.placement, layout.X)
    targets = scene.targets
    taken = {**occupant, **dict.fromkeys(targets, -1)} if targets else occupant  # where a milepost may not run on
    named = scene.names.by_square() if scene.names is not None else {}
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
            elif cell.square in crowd:  # several pawns: how many, and whose ("2R"; "3+": several colours)
                colours = crowd[cell.square]
                one = len(set(colours)) == 1
                text = f"{len(colours)}{look.labels[colours[0]][:1] if one else '+'}"
                line.append(f"{text:<{CELL}}", style=look.pawn(colours[0]) if one else "bold reverse")
            elif cell.square in occupant:
                owner = occupant[cell.square]
                label = named.get(cell.square, look.labels[owner])
                label = label if len(label) <= CELL else look.labels[owner]
                symbol = symbols.get((owner, cell.square)) if symbols else None
                if symbol is not None:  # a marked pawn: its label's first letter and the mark's symbol
                    label = look.labels[owner][:CELL - 1] + symbol
                line.append(f"{label:<{CELL}}", style=look.pawn(owner))
            elif cell.square in targets and cell.kind in ("track", "safety"):  # where a move of the page ends
                after_name = line.plain[-1:].isalnum()  # "R1 3", not "R13": apart from a pawn or a count before it
                line.append(f"{targets[cell.square]:{'>' if after_name else '<'}{CELL}}", style=TARGET)
            elif cell.kind == "track" and cell.square % MILEPOST == 0 and not line.plain[-1:].isalnum() and \
                    (cells := _milepost_cells(bmap, r, c, str(cell.square), taken)):  # "R2" "5": not "R25"
                line.append(f"{cell.square:<{CELL * cells}}", style=look.styles[cell.colour] if cell.colour is not None
                            else "dim")
                c += cells - 1
            else:
                line.append(f"{cell.glyph:<{CELL}}", style=look.styles[cell.colour] if cell.colour is not None else "dim")
            c += 1
        line.rstrip()
        lines.append(line)
    return lines


def _occupants(placement, board: int) -> tuple:
    """`({square: the colour on it}, {square: its pawns' colours where it holds several})`
    for the track and safety squares (ids below `board`)."""
    occupant, crowd = {}, {}
    for c, squares in enumerate(placement):
        for sq in squares:
            if sq < board:
                if sq in occupant:
                    crowd.setdefault(sq, [occupant[sq]]).append(c)
                occupant[sq] = c
    return occupant, crowd


def _milepost_cells(bmap, r: int, c: int, number: str, occupant: dict) -> int:
    """How many cells the number of the track square at (r, c) takes (it runs on into the
    empty plain track cells after it when wider than one), or 0 when it does not fit."""
    need = -(-len(number) // CELL)
    for k in range(1, need):
        after = bmap.cells.get((r, c + k))
        if after is None or after.kind != "track" or after.glyph != "." or after.square in occupant:
            return 0
    after = bmap.cells.get((r, c + need))
    if len(number) == need * CELL and after is not None and (after.square in occupant or after.kind in ("start", "home")):
        return 0  # a number that fills its cells runs into a pawn, a count or a Start after it: "352B", "50S4"
    return need


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
    if seat in scene.finished or (scene.finished and scene.turn is None):  # played for places: its side's place
        line.append(f"  {place_word(game.places_of(scene.seats, scene.finished)[seat])}", style="bold")
    if scene.scores is not None:
        line.append(f"  {scene.scores.get(seat, 0):>3} pts")
    return line


def _teams_lines(scene: Scene) -> list:
    game = scene.game
    teams = seated_teams(game, scene.seats)
    if all(len(t) == 1 for t in teams):
        return []
    return [Text("Teams: " + " vs ".join("+".join(colour_name(game, c) for c in t) for t in teams))]


def render_panel(scene: Scene, height: int, width: int | None = None) -> list:
    """The side panel, at least `height` lines when there are moves to fill it; the last
    moves list shows at least one move per seat (and `LOG_MIN`), then as many more as fit
    `height`. With `width` every line is wrapped to it (`lines.wrap`), never cut."""
    game = scene.game
    look = _Look(game)
    lines = [Text(scene.title, style="bold")]
    lines += [_seat_line(scene, seat, look) for seat in range(len(scene.seats))]
    lines += _teams_lines(scene)
    if scene.counters:
        lines += counter_lines(game, scene)
    if scene.hand is not None:
        lines.append(hand_line(game, scene.hand))
    elif scene.card is not None:
        noun = "Throw: " if getattr(game, "dice", None) is not None else "Cards: " if scene.drawn else "Card: "
        card = Text(noun, style="bold")
        card.append(" ".join(game.card_names[c] for c in (scene.card,) + scene.drawn), style="bold reverse")
        if scene.drawn:
            card.append(" (play one, discard the rest)", style="dim")
        lines.append(card)
    lines += mark_lines(game, scene.marks)
    if game.redraw is not None and scene.turn is not None and (scene.redraws or scene.redraw_open):
        lines.append(Text(f"Extra {game.source_noun}s this turn: {scene.redraws} of {game.redraw.at_most} ({game.redraw.label})",
                          style="dim"))
    lines += together_lines(scene)
    when = f"game move {scene.plies + 1}" if scene.turn is not None else f"{scene.plies} moves played"
    if getattr(game, "dice", None) is not None:  # no pile: the dice
        dice = "1 die" if game.dice.count == 1 else f"{game.dice.count} dice"
        lines.append(Text(f"Dice: {dice}, faces {faces_text(game.dice.faces, game.dice.weights)}; {when}",
                          style="dim"))
    else:
        lines.append(Text(f"Pile {scene.pile_size}, discards {scene.discard_size}; {when}", style="dim"))
    return lines + log_lines(scene.log, len(scene.seats), height - len(lines), width, len(lines))


def hand_line(game, hand) -> Text:
    """'Your hand: 3 7 Sorry': the person's own cards, sorted."""
    line = Text("Your hand: ", style="bold")
    line.append(" ".join(game.card_names[card] for card in sorted(hand)), style="bold")
    return line


def log_lines(log, seats: int, room: int, width: int | None, above: int = 0) -> list:
    """'Last moves:' and the newest entries of `log`: at least `LOG_MIN` (and `seats`) while
    the panel (`above` lines before these) stays within `PANEL_MAX` lines, then as many as
    fit `room` lines; each entry shortened (`fit`, never cut) and wrapped to `width` (None:
    one line each, whole)."""
    if not log:
        return []
    entries = []
    used = 1
    for entry in reversed(log):
        wrapped = wrap(Text(fit(entry, width, cut=False)), width) if width else [Text(entry)]
        least = len(entries) < max(LOG_MIN, seats) and above + used + len(wrapped) <= max(PANEL_MAX, above + room)
        if not least and used + len(wrapped) > room:
            break
        entries.append(wrapped)
        used += len(wrapped)
    return [Text("Last moves:", style="bold")] + [line for entry in reversed(entries) for line in entry]


def board_map(game, width: int = 80):
    """The board's drawing grid for a screen `width` wide: a `sides` board wraps its rows so
    that a panel still fits beside it."""
    return boardmap.build(game.layout, max_cols=max(5, (width - GAP - PANEL_MIN) // CELL - 2))


def render_scene(scene: Scene, width: int = 80, room: int | None = None) -> list:
    """Board and panel side by side (or stacked when narrow), each line at most `width` wide;
    with `room`, the oldest of the last moves are left out until the lines fit in `room`
    (`within`)."""
    return within(lambda shown: beside(render_board(shown, board_map(shown.game, width)),
                                       lambda height, wide: render_panel(shown, height, wide), width), scene, room)


def within(render, scene, room: int | None) -> list:
    """`render(scene)`, or with `room`, `render` of the scene with the fewest oldest entries of
    its last moves left out that makes it at most `room` lines (none left: as it comes). A
    panel taller than the board must not push the board's top off a screen."""
    lines = render(scene)
    log = list(scene.log)
    while room is not None and len(lines) > room and log:
        del log[0]
        lines = render(replace(scene, log=log))
    return lines


def beside(board: list, render_panel, width: int) -> list:
    """The lines `board` with the panel `render_panel(height, width)` to their right (`GAP`
    columns between) when `PANEL_MIN` columns are left for it, else below them
    (`render_panel(0, width)`); the panel's lines are wrapped to the room they have, never
    cut. Every board kind's screen is put together here."""
    board_width = max((line.cell_len for line in board), default=0)
    panel_width = width - board_width - GAP
    if panel_width >= PANEL_MIN:
        panel = wrap_all(render_panel(len(board), panel_width), panel_width)
        out = []
        for i in range(max(len(board), len(panel))):
            line = board[i].copy() if i < len(board) else Text()
            line.pad_right(board_width - line.cell_len)
            if i < len(panel):
                line.append(" " * GAP)
                line.append_text(panel[i])
            out.append(line)
    else:
        out = [line.copy() for line in board] + [Text()] + wrap_all(render_panel(0, width), width)
    for line in out:
        line.truncate(width, overflow="ellipsis")  # a board wider than the screen: nothing else is this long
        line.rstrip()
    return out


# ---- moves and the end ---------------------------------------------------------------------------
def move_label(game, move, hand_play: bool, colour: int | None = None, names=None) -> str:
    """A legal move in words: '[7] R2 track:4 -> track:11, bumps B1 (track:11)' (the card in
    brackets in hand play), each pawn by its name in `names` (`records.pawnnames`). Without
    names, pawns are said by colour ('Red pawn track:4 -> ...'), and with `colour` (the
    player to move) that colour's own pawns are not named: '[7] track:4 -> track:11'."""
    named = hand_play or game.take > 1  # the move is one choice among several cards
    shown = named and move.card is not None and move.kind not in ("discard", "redraw")
    prefix = f"[{game.card_names[move.card]}] " if shown else ""
    if names is not None:
        return prefix + names.describe(move)
    text = describe_move(game, move)
    if colour is not None and move.kind not in ("pass", "discard", "forfeit"):
        text = text.replace(f"{colour_name(game, colour)} pawn ", "")
    return prefix + text


#: The notes under the moves: (a move kind, whether any or all of the moves must be of it, the note).
NOTES = (("pass", any, "(pass: this card may be declined; nothing moves and the turn ends)"),
         ("discard", all, "(no card in your hand can move: discard one and draw a new card)"),
         ("redraw", all, "(no pawn can move: discard and take another card, this turn)"),
         ("action", any, "(an action plays cards of your hand together: all are discarded, as many drawn)"))
#: a dice game's words for the redraw note
DICE_REDRAW = "(no pawn can move with this throw: throw again, this turn)"


def _notes(moves, game=None, width: int = 80) -> list:
    """The notes that apply to `moves`, indented and wrapped to `width`; a dice game's redraw
    note speaks of throws."""
    dice = getattr(game, "dice", None) is not None
    return [line for kind, test, note in NOTES if moves and test(m.kind == kind for m in moves)
            for line in wrap(Text("     " + (DICE_REDRAW if dice and kind == "redraw" else note), style="dim"), width, 6)]


def move_lines(game, moves, hand_play: bool, colour: int | None = None, width: int = 80, label=None) -> list:
    """Per legal move, its numbered lines: numbered from 1, shortened step by step to fit
    `width` columns (`fit` without its last resort) and wrapped under the text when even
    that does not fit, never cut. `label(move)` words a move (default `move_label`)."""
    digits = max(2, len(str(len(moves))))
    out = []
    for i, move in enumerate(moves, 1):
        number = f"{i:>{digits}}. "
        text = label(move) if label is not None else move_label(game, move, hand_play, colour)
        line = Text()
        line.append(number, style="bold")
        line.append(fit(text, width - len(number), cut=False))  # no markup: "[sorry]"
        out.append(wrap(line, width, len(number)))
    return out


def render_moves(game, moves, hand_play: bool, colour: int | None = None, width: int = 80) -> list:
    """The numbered legal moves, as `move_lines` gives them; then a note on passes or
    discards when there are any. `colour`: see `move_label`."""
    return [line for group in move_lines(game, moves, hand_play, colour, width) for line in group] + \
        _notes(moves, game, width)


def render_turn(scene: Scene, moves, hand_play: bool, header: str, page: int = 0,
                width: int = 80, height: int = 24, message: str = "", first: int | None = None) -> TurnScreen:
    """The screen of a person about to choose: the scene, a header line and page `page`
    (0-based, clamped; or, given `first`, the page that begins at move `first`) of the
    numbered moves. The header line is `message` when there is one
    (an answer to the person), else `header` followed by the numbers of the moves on the
    page ('Your moves 7-12 of 18:') when there are several pages; it is cut to `width`.
    Each page holds as many moves a
    page as leave room for a one-line prompt in `height` lines (`PAGE_MIN` at least, for
    tiny terminals). Moves keep their numbers across pages; the moves of the player to move
    (`scene.seats[scene.turn]`) do not repeat that player's colour; a move whose `after:`
    follow-up has no way to be played says so (`scene.unplayed`)."""
    notes = _notes(moves, scene.game, width)
    colour = scene.seats[scene.turn] if scene.turn is not None else None
    words = {id(move): "".join(f" ({label}: no way to play it)" for label in scene.unplayed.get(i, ()))
             for i, move in enumerate(moves)}

    def label(move) -> str:
        return move_label(scene.game, move, hand_play, colour, scene.names) + words[id(move)]
    groups = move_lines(scene.game, moves, hand_play, colour, width, label)
    widest = heading(header, message, len(moves) - 1, 1, len(moves), True, width)  # the longest the heading gets
    least = min(PAGE_MIN, sum(len(group) for group in groups))  # the fewest move lines a page shows
    lines = render_scene(scene, width, height - len(notes) - len(widest) - 1 - least)
    over = len(lines) + len(notes) + len(widest) + 1 + least - height
    if over > 0 and message:  # a board that cannot shrink: the message gives up lines, ending with "..."
        message = shortened(message, width, len(wrap(Text(message), width)) - over)
        widest = heading(header, message, len(moves) - 1, 1, len(moves), True, width)
    room = max(PAGE_MIN, height - len(lines) - len(notes) - len(widest) - 1)
    pages, page = paged([len(group) for group in groups], room, page, first)
    first, count = pages[page]
    head = heading(header, message, first, count, len(moves), len(pages) > 1, width)
    body = [line for group in groups[first:first + count] for line in group]
    if scene.mark_targets:  # the board again, with where the page's moves end (the same size: pages unchanged)
        lines = render_scene(replace(scene, targets=move_targets(scene, moves, first, count)), width,
                             height - len(notes) - len(widest) - 1 - least)
    return TurnScreen(lines + head + body + notes, page, len(pages), first, count, tuple(p[0] for p in pages))


def move_targets(scene: Scene, moves, first: int, count: int) -> dict:
    """{square: label}: the empty track and safety squares where moves `first` to
    `first + count - 1` (numbered from 1) bring a pawn, each labelled with the number of
    the first move of the page that ends there. Squares with a pawn now (a bump, a switch)
    keep showing the pawn."""
    X = scene.game.layout.X
    occupied = {sq for squares in scene.placement for sq in squares if sq < X}
    found: dict = {}
    for i in range(first, first + count):
        after = moves[i].placement
        for before, now in zip(scene.placement, after):
            for sq in set(now) - set(before):
                if sq < X and sq not in occupied:
                    found.setdefault(sq, []).append(i + 1)
    return {sq: str(numbers[0]) for sq, numbers in found.items()}


def unplayed_of(game, state, moves) -> dict:
    """{index of a move in `moves`: the labels of the `after:` consequences it triggers whose
    `then:` effect no pawn can play there (`Game.unplayed`)}, for `Scene.unplayed`."""
    if not getattr(game, "after_then", ()):
        return {}
    return {i: labels for i, move in enumerate(moves) if (labels := [c.label for c in game.unplayed(state, move)])}


def shortened(text: str, width: int, lines: int) -> str:
    """`text` cut at a word so that, with "..." after it, it wraps to at most `lines` lines
    of `width` (one line at least); `text` itself when it fits."""
    lines = max(1, lines)
    if len(wrap(Text(text), width)) <= lines:
        return text
    words = text.split(" ")
    while len(words) > 1 and len(wrap(Text(" ".join(words) + " ..."), width)) > lines:
        words.pop()
    return " ".join(words) + " ..."


def mark_lines(game, marks) -> list:
    """One line per mark kind on the board: 'frozen #: Blue track:20 (by Red)'; Start and
    Home say how many marked pawns are there. [] when no mark is placed."""
    lines = []
    for kind, entries in zip(game.marks, marks):
        if not entries:
            continue
        counted = Counter(entries)  # in the order first placed
        parts = [f"{colour_name(game, c)} {game.layout.name(sq)}{f' x{n}' if n > 1 else ''} (by {colour_name(game, by)})"
                 for (c, sq, by), n in counted.items()]
        lines.append(Text(f"{kind.label} {kind.symbol}: " + ", ".join(parts)))
    return lines


def together_lines(scene: Scene) -> list:
    """One line naming the pawns of every track or safety square that holds several (the
    board shows only how many: "2R", "3+"): 'Together: track:15 R1 R3; track:16 R2 G1'.
    [] when no square does."""
    game, layout = scene.game, scene.game.layout
    labels = colour_labels(game.colours)
    on: dict = {}
    for c, squares in enumerate(scene.placement):
        for sq in squares:
            if sq < layout.X:
                on.setdefault(sq, []).append(c)
    groups = []
    for sq in sorted(sq for sq, colours in on.items() if len(colours) > 1):
        colours = on[sq]
        if scene.names is not None:
            names = [name for c in dict.fromkeys(colours) for name in scene.names.at(c, sq)]
        else:
            names = [f"{labels[c]}x{colours.count(c)}" for c in dict.fromkeys(colours)]
        groups.append(f"{layout.name(sq)} {' '.join(names)}")
    return [Text("Together: " + "; ".join(groups))] if groups else []


def counter_lines(game, state) -> list:
    """One line per declared counter (`counters:`) with every seat's value; [] without.
    `state` is a `State` or a `Scene` (both have `seats` and `counters`)."""
    return [Text(f"{label}: " + ", ".join(f"{colour_name(game, c)} {state.counters[c][i]}" for c in state.seats))
            for i, (_, _, label) in enumerate(game.counters)]


def moves_words(n: int) -> str:
    """'1 move', '1,200 moves': a count of moves as the command line says it."""
    return f"{n:,} move{'' if n == 1 else 's'}"


def stopped_text(max_plies: int) -> str:
    """The end of a game the move limit stopped (track and grid games alike)."""
    return f"No winner: the game was stopped at the --max-plies limit of {moves_words(max_plies)}."


def standing_line(game, state) -> str | None:
    """The points so far of a game stopped unfinished, where the variant scores (None
    otherwise)."""
    standing = game.standing(state) if hasattr(game, "standing") else None
    if not standing:
        return None
    return "Points so far (those only a winner scores are not given): " + \
        ", ".join(f"{colour_name(game, state.seats[seat])} {points}" for seat, points in standing.items())


def render_outcome(game, state, width: int | None = None) -> list:
    """Who won, with the score table where the variant scores. With `width` (a screen) the
    table has no 'Scores:' heading and a score line too long for `width` goes on in
    continuation lines (without, the lines are those of `--auto` output, whatever their
    length)."""
    outcome = game.outcome(state)
    if outcome is None:
        stopped = [Text(f"No winner after {plural(state.plies, 'move')} (stopped).", style="bold")]
        return stopped + ([finished_line(game, state)] if state.finished else [])
    names = and_list(colour_name(game, state.seats[s]) for s in outcome.winning_seats)
    verb = "wins" if len(outcome.winning_seats) == 1 else "win"
    when = f" after {plural(state.plies, 'move')}" if game.places == 1 else \
        f" (finished first); the game ended after {plural(state.plies, 'move')}"
    lines = [Text(f"{names} {verb}{when}.", style="bold")]
    if game.places > 1:  # played on for places: every seat's, the sides in the order they finished
        lines.append(Text("Places: " + places_words(game, state.seats, outcome.places)))
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
        lines += _folded(text, width) if width else [Text(text)]
    return lines


def finished_line(game, state) -> Text:
    """'Finished before the stop: 1st Blue, 2nd Red' of a game played for places that was
    stopped (no winner: the game had not ended)."""
    places = game.places_of(state.seats, state.finished)
    return Text("Finished before the stop: " + places_words(game, state.seats, places, state.finished))


def _folded(text: str, width: int) -> list:
    """A score line broken before its ' + ' parts into lines of at most `width` columns; the
    continuation lines start with '+' under the points (a part longer than a line wraps)."""
    indent = " " * 10
    parts = text.split(" + ")
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " + " + part
        else:
            lines.append(f"{indent} + {part}")
    return [part for line in lines for part in wrap(Text(line), width, len(indent) + 3)]


def turn_text(game, colour: int, move, names=None) -> str:
    """One applied move for the 'last moves' list: 'Blue 11: B2 track:15 <-> R1 track:13',
    pawns by their names in `names` (the names before the move); without names 'Blue 11:
    track:15 <-> Red pawn track:13' (the mover's own colour is not repeated)."""
    card = "-" if move.card is None else game.card_names[move.card]
    name = colour_name(game, colour)
    if names is not None:
        return f"{name} {card}: {names.describe(move)}"
    text = describe_move(game, move).replace(f"{name} pawn ", "")
    return f"{name} {card}: {text}"
