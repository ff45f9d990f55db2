"""Terminal play with people at the keyboard: the screen, the prompt, hints, save and quit.

`Session` runs one game in which at least one seat is a person: before each of a person's
choices it draws the screen (`screen.render_turn`: the board, the panel and one page of the
numbered moves), then reads the answer: a move number (or, where the board kind has them,
a move's name: `named_move`), `n`/`p` for the next or previous page
of moves, `?` for help, `h` for a hint (the strongest bot's choice), `b` to redraw the
board, `q` to save and quit. Anything else is answered and asked again. Ctrl-D and Ctrl-C
save and quit too. The game is saved after every move (`savefile.KeptSave`).

A move made for a person without asking (a forfeit, the only possible move, a pass) is shown
on a screen of its own, the board after it and what happened, and waits for Enter (`pause`;
`q` quits there too); with `wait=False` (`--no-wait`) it is played at once and summed up in
the heading of the person's next screen. Pawns are named (`look.start_names`, carried along
every move by `note`) on the board, in the moves and in the last moves.

On a real terminal the game runs on the terminal's alternate screen and every screen is
drawn in place (cleared and drawn again, answers and notices in its heading, wrapped, never
cut), so the board never scrolls away; each screen with its prompt fits the terminal (80x24
and up).
When the output is not a terminal the screens are printed one after the other, with no
escape codes, and answers are printed below them.

On a terminal an answer is typed with line editing where Python has `readline` (arrow keys,
the answers given before with the up arrow); readline is then given the prompt, so redrawing
a line keeps it (a prompt wider than the terminal is wrapped at words, as rich wraps it).

Contract: all output goes to the session's rich `Console`; input comes from `Console.input`,
or `input()` with line editing on a terminal.
A person sees only their own hand (the `View` of their seat); in hot-seat hand play the
keyboard is handed over (on a clear screen) before a hand is shown.
"""

from __future__ import annotations

import sys
from collections import deque
from contextlib import contextmanager

from rich.console import Console
from rich.text import Text

from sorry_rules.base.words import plural
from sorry_rules.cli import screen
from sorry_rules.cli.lines import wrap
from sorry_rules.cli.paging import ELLIPSIS
from sorry_rules.players.registry import STRONGEST, make_player
from sorry_rules.engine.describe import colour_name, describe_move, kept_turn_words
from sorry_rules.players.runner import play_game
from sorry_rules.records.savefile import KeptSave, resume_command
from sorry_rules.records.storage import game_over
from sorry_rules.cli.seats import HUMAN, bot_of

LOG_LENGTH = 12

SAVED_IN = "This game is saved after every move in:"
BACK = "Press Enter to go back to the game. "
MORE = "Press Enter for more of the help. "
SCREEN = "80x24"  # the terminal every screen is made to fit (README)
PAUSE = "Press Enter to go on (? help, q save and quit): "
MESSAGE_LINES = 3     # heading lines at most for the notices kept for a person's next screen
ANSWER_SHOWN = 8      # characters of a wrong answer repeated back


def _as_typed(typed: str) -> str:
    """A person's answer repeated in quotes as typed, its first `ANSWER_SHOWN` characters."""
    return repr(typed if len(typed) <= ANSWER_SHOWN else typed[:ANSWER_SHOWN] + ELLIPSIS)


def _readline_loaded() -> bool:
    """Whether `input()` edits lines: readline imported (not every Python has it)."""
    try:
        import readline  # noqa: F401  # lazy: only a person's terminal edits lines; importing it is what enables it
    except ImportError:
        return False
    return True


class QuitGame(Exception):
    """The person asked to stop (the game is saved): by q or Ctrl-D, or, `interrupted`, by
    Ctrl-C or a signal taken as one (`cli.launch`), which ends the program with status 130."""

    def __init__(self, interrupted: bool = False):
        super().__init__()
        self.interrupted = interrupted


class HumanPlayer:
    """A person at the keyboard (asks through the session)."""

    name = HUMAN

    def __init__(self, session: "Session"):
        self.session = session

    def choose(self, view, moves) -> int:
        return self.session.ask(view, moves)


class Session:
    """One interactive game (see the module docstring)."""

    # Defaults for a Session made without __init__ (tests drive the prompt loop alone):
    # printed line by line, one page, nothing to tell.
    in_place = False
    page = 0
    pages = 1
    first = None   # the first move of the page shown (None: page 0), kept while the room for moves changes
    starts = (0,)  # the first move of every page
    message = ""
    hint_line = ""   # the hint of the choice being asked, kept above its moves while they are paged
    turn_message = ""  # what was played for the person since their last choice, kept while they page (`summary`)
    prompt_note = ""  # said once before the next prompt
    notices: tuple = ()
    turns_told: tuple = ()  # the notices of turns played for people since the last choice (`tell`: a list)
    asked = 0
    resumed = False
    names = None
    wait = True
    think = None
    #: `(state, cards) -> [line, ...]`: why no pawn can move with `cards` in `state` (a
    #: forfeit's words), or None when the session cannot say
    stuck_words = None
    #: `() -> str`: how the game is won, in words ('' when the session cannot say)
    win_words = None
    state = None  # the state after the last move followed (`run`, `on_turn`)

    #: what draws the screens: `cli.screen` (track boards) or a module with the same functions
    #: (`cli.gridscreen`); its `help_text(game)` is the help
    look = screen
    #: the computer player whose choice `h` shows
    hint_bot = STRONGEST

    def __init__(self, game, kinds, saved, save_path, console: Console | None = None, title: str = "",
                 wait: bool = True, think: float | None = None):
        self.game = game
        self.kinds = list(kinds)
        self.saved = saved
        self.kept = KeptSave(save_path) if save_path is not None else None
        self.console = console or Console(highlight=False, emoji=False)
        self.title = title or f"{game.name}, seed {saved.seed}"
        self.wait = wait  # show each forced move and forfeit of a person and wait for Enter
        self.log: deque = deque(maxlen=LOG_LENGTH)
        self.humans = [seat for seat, kind in enumerate(self.kinds) if kind == HUMAN]
        self.hot_seat = len(self.humans) > 1
        self.last_asked: int | None = None
        self.think = think  # a searching bot's seconds a move (None: its playout budget)
        self.hinter = make_player(self.hint_bot, saved.seed, "hint", think=think)
        self.in_place = self.console.is_terminal
        self.line_editing = self.in_place and sys.stdin.isatty() and _readline_loaded()
        self.notices = []
        self.turns_told = []
        self.asked = 0         # the choices asked of people so far in this session
        self.resumed = False   # whether this session began from a saved game's later state
        self.names = None      # the pawn names of the current state (`start`, then `note` after every move)

    # ---- names -------------------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        kind = self.kinds[seat]
        if kind == HUMAN:
            return "you" if not self.hot_seat else f"player {self.humans.index(seat) + 1}"
        return bot_of(kind)

    def seat_names(self) -> tuple:
        return tuple(self.seat_name(seat) for seat in range(len(self.kinds)))

    # ---- players and the loop ------------------------------------------------------------
    def players(self):
        seed = self.saved.seed
        return [HumanPlayer(self) if kind == HUMAN else make_player(bot_of(kind), seed, seat, think=self.think)
                for seat, kind in enumerate(self.kinds)]

    def start(self, state) -> None:
        """Name the pawns of `state`, the first state of the game (`look.start_names`)."""
        self.names = self.look.start_names(self.game, state)

    def note(self, turn, state, logged: bool = True) -> None:
        """Follow a move (also while a save is replayed): its words in the 'last moves' list
        (when `logged`), the pawn names carried to `state`, the state after it."""
        if logged:
            colour = state.seats[turn.seat]
            text = self.look.turn_text(self.game, colour, turn.move, self.names)
            if state.seats.count(colour) > 1:  # a colour several players hold (a grid side): which of them
                name = colour_name(self.game, colour)
                text = text.replace(name, f"{name} (player {turn.seat + 1})", 1)
            self.log.append(text + kept_turn_words(self.game, turn.move, turn.seat, state, turn.finishes, turn.lost_to,
                                                   turn.due, turn.others))
        if self.names is not None:
            self.names = self.names.after(turn.move, state.placement, state.marks)

    def run(self, state):
        """Play from `state` to the end or until the person quits (q, Ctrl-D, Ctrl-C; the
        game is saved after every move); returns the last state. A Ctrl-C (or a signal taken
        as one) is raised again as KeyboardInterrupt once the save is said."""
        table = ", ".join(f"{colour_name(self.game, c)} ({name})" for c, name in zip(state.seats, self.seat_names()))
        first = "" if state.plies else f" {colour_name(self.game, state.seats[state.turn])} plays first."
        self.echo(Text(f"{self.title}: {table}.{first} Type ? for help.", style="bold"))  # the title names the house rules
        self.echo(f"The game is saved after every move in {self.save_path}")
        self.save(state)
        self.state = state
        self.resumed = state.plies > 0
        if self.in_place:
            self.notices.append("Type ? for help.")
        try:
            with self.full_screen():
                state = play_game(self.game, state, self.players(), on_turn=self.on_turn,
                                  max_plies=self.saved.max_plies)
        except (QuitGame, KeyboardInterrupt) as stop:
            self.echo(f"Game saved to {self.save_path}")
            self.echo(f"Continue it with: {resume_command(self.saved, self.save_path)}")
            if isinstance(stop, KeyboardInterrupt) or stop.interrupted:
                raise KeyboardInterrupt from None  # the command's status: stopped (130), not finished
            return self.state
        self.finish(state)
        return state

    @contextmanager
    def full_screen(self):
        """On a terminal: the game's screens on the alternate screen, the terminal's own
        screen back afterwards whatever happens (the end of the game is printed there)."""
        entered = self.in_place and self.console.set_alt_screen(True)
        try:
            yield
        finally:
            if entered:
                self.console.set_alt_screen(False)

    def finish(self, state) -> None:
        if not self.in_place:
            self.echo("")
        width = self.console.width
        scene = self.look.state_scene(self.game, state, self.title, self.seat_names(), self.log, self.names)
        if not game_over(state):  # stopped at the move limit: no next move to mark ("40 moves played")
            scene.turn = None
        for line in [*self.look.render_scene(scene, width), *self.look.render_outcome(self.game, state, width)]:
            self.echo(line)
        if state.winner is not None and not self.hot_seat and self.humans:  # the one person: won, with a partner, or not
            yours = state.seats[self.humans[0]] in self.game.team_of[state.seats[state.winner]]
            self.echo(Text("You win!" if yours else "You lose.", style="bold"))
        won = self.win_words() if self.win_words is not None and state.winner is not None else ""
        for line in wrap(f"To win: {won}", self.text_width(), 2) if won else ():
            self.echo(line)
        if not game_over(state):  # stopped at the move limit: the points so far, and how to play on
            standing = screen.standing_line(self.game, state)
            if standing:
                self.echo(standing)
            self.echo(f"The game so far is saved in {self.save_path}")
            self.echo(f"Play on with: {resume_command(self.saved, self.save_path)} --max-plies N (N above "
                      f"{state.plies:,})")
            return
        self.echo(f"The whole game is saved in {self.save_path}")
        self.echo(f"Watch it again with: {resume_command(self.saved, self.save_path, ('replay',))}")

    def on_turn(self, turn, state) -> None:
        before, previous = self.names, self.state
        self.note(turn, state)
        self.state = state
        self.saved.choices.append(turn.choice)
        self.save(state)
        if self.kinds[turn.seat] == HUMAN:
            told = self.tell_move(turn, state, before) + self.why_forfeit(turn, previous)
            if told and turn.options == 1 and self.wait:
                self.pause(state, told, turn.seat)
            elif told:
                self.tell(" ".join(told), "bold", turn=True)  # one notice a turn: its card, its move or why, again

    def who(self, seat_colour: int) -> tuple[str, bool]:
        """('You', True) for the one person at the table, else (the colour's name, False)."""
        return ("You", True) if not self.hot_seat else (colour_name(self.game, seat_colour), False)

    def tell_move(self, turn, state, names=None) -> list:
        """What a person should know about the move just made for them, in sentences: the
        card forfeited, the only possible move (pawns by their `names` before the move),
        drawing again. [] when there is nothing to tell (a move they chose)."""
        game = self.game
        who, you = self.who(state.seats[turn.seat])
        move = turn.move
        told = []
        label = ""
        card = None if move.card is None else game.card_names[move.card]
        dice = getattr(game, "dice", None) is not None
        drew = "threw" if dice else "drew"
        if move.kind == "forfeit":
            if move.card is None:
                told.append(f"{who} {'have' if you else 'has'} no card to play.")
            elif game.take > 1:
                told.append(f"{who} drew cards none of which can move a pawn: all are discarded.")
            else:
                lost = "the throw is lost" if dice else "the card is forfeited"
                told.append(f"{who} {drew} {card}: no move is allowed with it, so {lost}.")
        elif move.kind == "redraw" and turn.options == 1:
            told.append(f"{who}: {describe_move(game, move)}")
        elif turn.options == 1:
            label = self.look.move_label(game, move, game.hand_play, state.seats[turn.seat], names)
            others = [game.card_names[c] for c in turn.others]
            if game.hand_play and you:  # what it was chosen from: the hand, told to its one person only
                held = ", ".join(([card] if card is not None else []) + others)
                whose = f" with your hand ({held})" if held else ""
                told.append(f"Only one move was possible{whose}, so it was played: {label}.")
            elif game.hand_play:  # several people at the keyboard: whose turn it was, never their hand
                told.append(f"{who}: only one move was possible, so it was played: {label}.")
            else:
                drawn = f"{card} and {', '.join(others)}" if others else card
                only = f"{who} {drew} {drawn}; only" if card is not None else "Only"
                told.append(f"{only} one move was possible, so it was played: {label}.")
                if others:
                    told.append(f"The other card{'s' if len(others) > 1 else ''} drawn ({', '.join(others)}) "
                                f"{'are' if len(others) > 1 else 'is'} discarded.")
        if move.draw_again and not game_over(state) and "again" not in label:  # else the move's words say it
            verb = "throw" if dice else "play" if game.hand_play else "draw"
            told.append(f"{who} {verb if you else verb + 's'} again.")
        return told

    def why_forfeit(self, turn, previous) -> list:
        """Why the person's card (or throw) was lost in `previous` (the state before it), one
        sentence; [] for any other move, or when `stuck_words` cannot say."""
        move = turn.move
        if move.kind != "forfeit" or move.card is None or self.stuck_words is None or previous is None:
            return []
        lines = self.stuck_words(previous, (move.card, *move.cards))
        return [f"Why: {'; '.join(lines)}."] if lines else []

    def pause(self, state, told: list, seat: int | None = None) -> None:
        """Show a move made for a person (forced, or a forfeit) on the board after it, with
        `told`, and wait for Enter (q quits, ? shows the help first; anything else typed is
        said to choose nothing here, and Enter is waited for again). The turn marker stays
        on `seat`, whose move is told, until Enter (the next player's turn begins then)."""
        width = self.console.width
        shown = state if seat is None or state.winner is not None else state._replace(turn=seat)
        scene = self.look.state_scene(self.game, shown, self.title, self.seat_names(), self.log, self.names)
        said = [line for text in told for line in wrap(Text(text, style="bold"), width)]
        note = ""
        while True:
            self.clear()
            for line in self.look.render_scene(scene, width, self.console.height - len(said) - 1):
                self.echo(line)
            for line in said:
                self.echo(line)
            typed = self.read(note + PAUSE).strip()
            answer = typed.lower()
            if answer in ("q", "quit", "exit"):
                raise QuitGame
            if not answer:
                return
            if answer in ("?", "help"):
                self.help_screen()
                note = ""
            elif answer in ("b", "board"):  # as at a choice: the screen drawn again
                note = ""
            else:
                note = f"{_as_typed(typed)}: nothing to choose here. "

    def summary(self, notices: list) -> str:
        """The notices kept since the person's last choice, for the heading of their next
        screen: all of them when they fit `MESSAGE_LINES` lines, else how many turns were
        played for them and the last one's notice whole (its card, and why it was lost; the
        moves themselves are in 'Last moves')."""
        text = " ".join(notices)
        if not notices or len(wrap(text, self.console.width)) <= MESSAGE_LINES:
            return text
        turns = self.turns_told
        if not turns:
            return text
        if self.asked:
            since = "since the last choice" if self.hot_seat else "for you since your last choice"  # several people
        else:
            since = f"{'' if self.hot_seat else 'for you '}since the game {'resumed' if self.resumed else 'began'}"
        return (f"{plural(len(turns), 'turn')} {'was' if len(turns) == 1 else 'were'} played {since} (forfeits and "
                f"forced moves, in Last moves); the last: {turns[-1]}")

    def tell(self, text: str, style: str = "", turn: bool = False) -> None:
        """A notice between two screens: printed, or on a terminal kept for the header line
        of the next screen (which would clear it at once); `turn`: it tells a turn played
        for a person (`summary` counts those)."""
        if self.in_place:
            self.notices.append(text)
            if turn:
                self.turns_told.append(text)
        else:
            self.echo(Text(text, style=style))

    @property
    def save_path(self):
        """The file the game is saved in (None: not saved)."""
        return self.kept.path if self.kept is not None else None

    def save(self, state) -> None:
        self.saved.reached(state)
        if self.kept is not None:
            moved = self.kept.write(self.saved)
            if moved:
                self.tell(moved, "bold")

    # ---- asking --------------------------------------------------------------------------
    def view_scene(self, view) -> screen.Scene:
        """The screen of a person about to choose: their card or their own hand only."""
        game = self.game
        return screen.Scene(
            game=game, placement=view.placement, seats=view.seats, turn=view.seat, plies=view.plies,
            title=self.title, seat_names=self.seat_names(), card=view.card, hand=view.hand,
            pile_size=view.pile_size, discard_size=len(view.discard), log=list(self.log),
            scores=game.standing(self.state) if game.scoring else None, counters=self.state.counters,
            marks=self.state.marks, drawn=view.drawn, redraws=view.redraws, names=self.names,
            finished=view.finished, redraw_open=screen.redraw_open(game, self.state),
        )

    def show(self, view, moves) -> None:
        """Draw the screen (in place on a terminal) with the page of the moves that begins at
        `self.first` (None: the first page) and `self.message`, if any, in the header line;
        the message is shown once, and the hint of this choice where there is no message (so
        the pages keep their moves while the person pages through them with the hint shown)."""
        game = self.game
        who = self.mover_name(view) if self.hot_seat else colour_name(game, view.colour)
        you = "" if self.hot_seat else " (you)"
        if view.hand is not None:
            what = "your hand"
        elif view.drawn:
            what = "cards " + ", ".join(game.card_names[c] for c in (view.card,) + view.drawn)
        else:
            what = f"{game.source_noun} {game.card_names[view.card]}"
        width, height = self.console.size
        header = f"{who}{you} to play, {what}. Your moves"
        scene = self.view_scene(view)
        scene.unplayed = screen.unplayed_of(game, self.state, moves)  # a bonus no pawn can move, said on its move
        if hasattr(scene, "mark_targets"):
            scene.mark_targets = self.in_place  # where the page's moves end, highlighted (a terminal's styles)
        turn = self.look.render_turn(scene, moves, view.hand is not None, header,
                                     self.page, width, height, self.message or self.hint_line or self.turn_message,
                                     first=self.first)
        self.page, self.pages, self.message = turn.page, turn.pages, ""
        self.first, self.starts = turn.first, turn.starts
        self.clear()
        for line in turn.lines:
            self.echo(line)
        if self.in_place and (len(turn.lines) + 1 > height or max((line.cell_len for line in turn.lines), default=0) > width):
            self.prompt_note = f"The screen needs {SCREEN} ({width}x{height} now). "  # the board's top is scrolled off

    def prompt(self, n: int) -> str:
        note, self.prompt_note = self.prompt_note, ""
        if self.pages > 1:
            return f"{note}Move 1-{n}, page {self.page + 1}/{self.pages} (n/p page, ? help, h hint, q quit): "
        return f"{note}Move 1-{n} (? help, h hint, q quit): "

    def turn_page(self, view, moves, forward: bool) -> None:
        """The next page (`forward`) or the previous one, round from one end to the other
        (said in the prompt); where every move is on one page, that said."""
        if self.pages == 1 and not self.in_place:
            self.echo("All the moves are on this page.")
            return
        wrapped = self.pages > 1 and self.page == (self.pages - 1 if forward else 0)
        if self.pages > 1:
            self.first = self.starts[(self.page + (1 if forward else -1)) % self.pages]
        self.show(view, moves)  # the heading may have changed, and the pages with it: said as they are now
        if self.pages == 1:  # in the prompt: a line above would take room from the moves
            self.prompt_note = "All the moves are on this page. "
        elif wrapped and self.page == (0 if forward else self.pages - 1):
            self.prompt_note = "First page again. " if forward else "Last page. "

    def mover_name(self, view) -> str:
        """The colour to move, and which person when several play it (a grid side): "Blue
        (player 3)"."""
        who = colour_name(self.game, view.colour)
        if list(self.state.seats).count(view.colour) > 1:
            who += f" (player {view.seat + 1})"
        return who

    def ask(self, view, moves) -> int:
        if self.hot_seat and view.hand is not None and self.last_asked != view.seat:
            self.clear()
            answer = self.read(f"{self.mover_name(view)}'s turn: hand the keyboard over and press Enter "
                               "(q: save and quit). ")
            if answer.strip().lower() in ("q", "quit", "exit"):
                raise QuitGame
        self.last_asked = view.seat
        self.turn_message = self.summary(self.notices)
        self.page, self.first, self.message, self.notices = 0, None, "", []
        self.turns_told = []
        self.asked += 1
        self.hint_line = ""
        self.show(view, moves)
        n = len(moves)
        while True:
            typed = self.read(self.prompt(n)).strip()
            answer = typed.lower()
            if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= n:  # "²".isdigit()
                return int(answer) - 1
            if answer in ("q", "quit", "exit"):
                raise QuitGame
            if answer in ("?", "help"):
                self.help(view, moves)
            elif answer in ("n", "next", "p", "prev", "previous"):
                self.turn_page(view, moves, answer.startswith("n"))
            elif answer in ("h", "hint"):
                self.show_hint(view, moves)
            elif answer in ("b", "board"):
                self.show(view, moves)
            elif not answer:
                self.say(view, moves, f"Type a move number from 1 to {n} (? for help).")
            elif (named := self.named_move(answer, moves)) is not None:
                if isinstance(named, int):
                    return named
                self.say(view, moves, named)
            else:
                keys = "n, p, h, ? or q" if self.pages > 1 else "h, ? or q"  # the keys the prompt names
                self.say(view, moves, f"{_as_typed(typed)} is not a move: type {self.answer_words(n)}, or {keys} (? for help).")

    def show_hint(self, view, moves) -> None:
        """`hint` in the header line on a terminal, the page shown the one that holds the move
        it names, begun where that page began when the move still fits on it with the hint
        above (else begun at the move); else printed in lines that fit."""
        best, hint = self.hint(view, moves)
        if self.in_place:
            if self.pages > 1:
                self.first = max((start for start in self.starts if start <= best), default=0)
            self.hint_line = hint
            self.show(view, moves)
            following = [start for start in self.starts if start > self.first]
            if self.pages > 1 and not self.first <= best < (following[0] if following else len(moves)):
                self.first = best
                self.show(view, moves)
        else:
            for line in wrap(hint, self.console.width or 80):
                self.echo(line)

    def hint(self, view, moves) -> tuple[int, str]:
        """(the strongest bot's choice, the hint line: that move and, when it can say, why)."""
        advise = getattr(self.hinter, "advise", None)
        best, why = advise(view, moves) if advise is not None else (self.hinter.choose(view, moves), "")
        label = self.look.move_label(self.game, moves[best], view.hand is not None, view.colour, self.names)
        return best, f"Hint: {best + 1}. {label}" + (f" ({why})" if why else "")

    def answer_words(self, n: int) -> str:
        """What a person may type to choose among `n` moves, in words."""
        return f"a number from 1 to {n}"

    def named_move(self, answer: str, moves) -> int | str | None:
        """A move chosen by name instead of number: its index, or what to tell the person
        when the name fits no move or several; None when `answer` is no name (the board
        kind's session decides; track games take numbers only)."""
        return None

    def say(self, view, moves, text: str) -> None:
        """Answer the person: on a terminal in the header line of the screen drawn again,
        else printed below the screen."""
        if self.in_place:
            self.message = text
            self.show(view, moves)
        else:
            self.echo(text)

    def help(self, view, moves) -> None:
        """The help; on a terminal on a screen of its own until Enter is pressed."""
        self.help_screen()
        if self.in_place:
            self.show(view, moves)

    def help_screen(self) -> None:
        """The help text of this game (`look.help_text`), how it is won and where it is saved;
        on a terminal on screens of its own, as many as it needs (Enter between them), until
        Enter is pressed."""
        text = self.look.help_text(self.game)
        won = self.win_words() if self.win_words is not None else ""
        if won:
            text = f"To win: {won}\n{text}"
        width = self.text_width()
        lines = [part for line in text.split("\n") for part in wrap(line, width, len(line) - len(line.lstrip()) + 2)]
        lines += [SAVED_IN, str(self.save_path)]
        if not self.in_place:
            for line in lines:
                self.echo(line)
            return
        room = max(2, self.console.size.height - 1)  # a screen less its prompt
        while True:
            self.clear()
            shown, lines = lines[:room], lines[room:]
            for line in shown:
                self.echo(line)
            if not lines:
                break
            self.read(MORE)
        self.read(BACK)

    def text_width(self) -> int:
        """The width lines are wrapped to (at words, never mid-word), narrow terminals too."""
        return max(20, self.console.size.width - 1)

    def clear(self) -> None:
        """Start a new screen: cleared on a terminal, after an empty line otherwise."""
        if self.in_place:
            self.console.clear()
        else:
            self.echo("")

    def read(self, prompt: str) -> str:
        try:
            if self.line_editing:
                *above, last = wrap(prompt, self.text_width(), 0)
                for line in above:
                    self.echo(line)
                return input(last.plain.rstrip() + prompt[len(prompt.rstrip()):])  # a wrapped prompt keeps its last space
            return self.console.input(Text(prompt))
        except EOFError:
            self.echo("")
            raise QuitGame from None
        except KeyboardInterrupt:
            self.echo("")
            raise QuitGame(interrupted=True) from None

    def echo(self, line="") -> None:
        """Print a line. Plain strings are printed as they are: never read as rich markup (so
        whatever a person typed is safe to echo) and never broken (file paths stay whole)."""
        if isinstance(line, str):
            self.console.print(Text(line), soft_wrap=True)
        else:
            self.console.print(line)
