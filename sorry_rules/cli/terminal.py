"""Terminal play with people at the keyboard: the screen, the prompt, hints, save and quit.

`Session` runs one game in which at least one seat is a person: before each of a person's
choices it draws the screen (`screen.render_scene`) and the numbered moves, then reads the
answer: a move number, `?` for help, `h` for a hint (the strongest bot's choice), `b` to
redraw the board, `q` to save and quit. Anything else is answered and asked again. Ctrl-D
and Ctrl-C save and quit too. The game is saved after every move (`savefile.write_save`).

Contract: all output goes to the session's rich `Console`; input comes from `Console.input`.
A person sees only their own hand (the `View` of their seat); in hot-seat hand play the
keyboard is handed over before a hand is shown.
"""

from __future__ import annotations

from collections import deque

from rich.console import Console
from rich.text import Text

from sorry_rules.cli import screen
from sorry_rules.players.registry import STRONGEST, make_player
from sorry_rules.engine.describe import colour_name, describe_move
from sorry_rules.players.runner import play_game
from sorry_rules.records.savefile import write_save
from sorry_rules.cli.seats import HUMAN, bot_of

LOG_LENGTH = 12

HELP = """\
On your turn the board shows the card you drew (or your hand), and the moves it
allows are listed by number. Type a number and press Enter.
  ?  this help           h  a hint: what the strongest computer player would do
  b  show the board again  q  save the game and quit (continue with --resume FILE)
The board: letters are pawns (R for Red, ...); '.' a track square; '>' 'v' '<' '^'
a slide's triangle: land exactly on another colour's triangle and the pawn slides
to the 'o' at the slide's end, bumping every pawn on the way; ':' safety squares;
S and H: Start and Home with the number of pawns there. Your Start is next to the
square your pawns come out on. A move that 'draws again' gives you another card.
When no move is possible the card is forfeited; when no card in your hand can
move you discard one instead."""


class QuitGame(Exception):
    """The person asked to stop (the game is saved)."""


class HumanPlayer:
    """A person at the keyboard (asks through the session)."""

    name = HUMAN

    def __init__(self, session: "Session"):
        self.session = session

    def choose(self, view, moves) -> int:
        return self.session.ask(view, moves)


class Session:
    """One interactive game (see the module docstring)."""

    def __init__(self, game, kinds, saved, save_path, console: Console | None = None, title: str = ""):
        self.game = game
        self.kinds = list(kinds)
        self.saved = saved
        self.save_path = save_path
        self.console = console or Console(highlight=False, emoji=False)
        self.title = title or f"{game.name}, seed {saved.seed}"
        self.log: deque = deque(maxlen=LOG_LENGTH)
        self.humans = [seat for seat, kind in enumerate(self.kinds) if kind == HUMAN]
        self.hot_seat = len(self.humans) > 1
        self.last_asked: int | None = None
        self.hinter = make_player(STRONGEST, saved.seed, "hint")

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
        return [HumanPlayer(self) if kind == HUMAN else make_player(bot_of(kind), seed, seat)
                for seat, kind in enumerate(self.kinds)]

    def note(self, turn, state) -> None:
        """Remember a move for the 'last moves' list (also used while a save is replayed)."""
        self.log.append(screen.turn_text(self.game, state.seats[turn.seat], turn.move))

    def run(self, state):
        """Play from `state` to the end or until the person quits (q, Ctrl-D, Ctrl-C; the
        game is saved after every move); returns the last state."""
        table = ", ".join(f"{colour_name(self.game, c)} ({name})" for c, name in zip(state.seats, self.seat_names()))
        first = "" if state.plies else f" {colour_name(self.game, state.seats[state.turn])} plays first."
        self.echo(Text(f"{self.game.name}, seed {self.saved.seed}: {table}.{first} Type ? for help.", style="bold"))
        self.echo(f"The game is saved after every move in {self.save_path}")
        self.save(state)
        self.state = state
        try:
            state = play_game(self.game, state, self.players(), on_turn=self.on_turn,
                              max_plies=self.saved.max_plies)
        except (QuitGame, KeyboardInterrupt):
            self.echo(f"Game saved to {self.save_path}")
            self.echo(f"Continue it with: sorry-play --resume {self.save_path}")
            return self.state
        self.finish(state)
        return state

    def finish(self, state) -> None:
        self.echo("")
        scene = screen.state_scene(self.game, state, self.title, self.seat_names(), self.log)
        for line in screen.render_scene(scene, self.console.width):
            self.echo(line)
        for line in screen.render_outcome(self.game, state):
            self.echo(line)
        self.echo(f"The whole game is saved in {self.save_path}; watch it again with: sorry-play replay {self.save_path}")

    def on_turn(self, turn, state) -> None:
        game = self.game
        self.note(turn, state)
        self.state = state
        self.saved.choices.append(turn.choice)
        self.save(state)
        if self.kinds[turn.seat] != HUMAN:
            return
        you = not self.hot_seat
        who = "You" if you else colour_name(game, state.seats[turn.seat])
        move = turn.move
        if move.kind == "forfeit":
            if move.card is None:
                self.echo(Text(f"{who} {'have' if you else 'has'} no card to play.", style="bold"))
            else:
                self.echo(Text(f"{who} drew {game.card_names[move.card]}: no pawn can move with it, "
                               "so the card is forfeited.", style="bold"))
        elif turn.options == 1:
            self.echo(f"Only one move was possible: {describe_move(game, move)}")
        if move.draw_again and state.winner is None:
            self.echo(Text(f"{who} {'draw' if you else 'draws'} again.", style="bold"))

    def save(self, state) -> None:
        self.saved.reached(state)
        if self.save_path is not None:
            write_save(self.save_path, self.saved)

    # ---- asking --------------------------------------------------------------------------
    def view_scene(self, view) -> screen.Scene:
        """The screen of a person about to choose: their card or their own hand only."""
        game = self.game
        return screen.Scene(
            game=game, placement=view.placement, seats=view.seats, turn=view.seat, plies=view.plies,
            title=self.title, seat_names=self.seat_names(), card=view.card, hand=view.hand,
            pile_size=view.pile_size, discard_size=len(view.discard), log=list(self.log),
            scores=game.standing(self.state) if game.scoring else None,
        )

    def show(self, view, moves) -> None:
        self.echo("")
        for line in screen.render_scene(self.view_scene(view), self.console.width):
            self.echo(line)
        game = self.game
        who = colour_name(game, view.colour)
        you = "" if self.hot_seat else " (you)"
        what = "your hand" if view.hand is not None else f"card {game.card_names[view.card]}"
        self.echo(Text(f"{who}{you} to play, {what}. Your moves:", style="bold"))
        for line in screen.render_moves(game, moves, view.hand is not None):
            self.echo(line)

    def ask(self, view, moves) -> int:
        if self.hot_seat and view.hand is not None and self.last_asked != view.seat:
            self.read(f"{colour_name(self.game, view.colour)}'s turn: hand the keyboard over and press Enter. ")
        self.last_asked = view.seat
        self.show(view, moves)
        n = len(moves)
        prompt = f"Move 1-{n} (? help, h hint, q quit): "
        while True:
            answer = self.read(prompt).strip().lower()
            if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= n:  # "²".isdigit()
                return int(answer) - 1
            if answer in ("q", "quit", "exit"):
                raise QuitGame
            if answer in ("?", "help"):
                self.echo(HELP)
            elif answer in ("h", "hint"):
                best = self.hinter.choose(view, moves)
                self.echo(Text(f"Hint: {best + 1}. {screen.move_label(self.game, moves[best], view.hand is not None)}", style="bold"))
            elif answer in ("b", "board"):
                self.show(view, moves)
            elif not answer:
                self.echo(f"Type a move number from 1 to {n} (? for help).")
            else:
                self.echo(f"{answer!r} is not a move: type a number from 1 to {n}, ? for help, q to save and quit.")

    def read(self, prompt: str) -> str:
        try:
            return self.console.input(Text(prompt))
        except (EOFError, KeyboardInterrupt):
            self.echo("")
            raise QuitGame from None

    def echo(self, line="") -> None:
        """Print a line. Plain strings are printed as they are: never read as rich markup (so
        whatever a person typed is safe to echo) and never broken (file paths stay whole)."""
        if isinstance(line, str):
            self.console.print(Text(line), soft_wrap=True)
        else:
            self.console.print(line)
