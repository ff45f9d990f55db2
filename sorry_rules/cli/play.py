"""The play front end: start, resume and print games in the terminal.

Two ways to run a game, chosen by who sits at the table:
* computer players only (`--auto`, or every seat a bot): the game is printed turn by turn,
  one line per move. The output depends only on the variant, the seed and the seat kinds, so
  the same command prints the same game byte for byte.
* one or more people: `terminal.Session` draws the board and asks for each choice. A person
  needs a terminal; without one the command fails with a message suggesting `--auto`.

Games with people are saved after every move (default: `savefile.claim_default`, a new
file named by the variant, its house rules and the seed, or `--save FILE`); computer-only
games are saved only with `--save`, at least every half second and at the end or when
stopped (`cli.autosave`). A save never replaces another game's file (`--save` of
an existing file is refused; `--resume FILE` goes on saving to FILE). `--resume FILE` continues a
saved game exactly where it stopped, and `sorry-play replay FILE` shows one (`replay_command`).
A game that reaches `--max-plies` moves without a winner is stopped, and the end says so.
Grid games go the same way (seats, saves, resume, replay); what differs is handed to
`cli.gridplay` (the printed moves, the session) and `cli.gridscreen` (the screens).

Contract: only this module, `terminal` and `cli` print.
"""

from __future__ import annotations

import os
import secrets
import sys

import click
from rich.console import Console

from sorry_rules.base.errors import SaveFileError, SorryRulesError, UsageError
from sorry_rules.base.limits import DEFAULT_MAX_PLIES
from sorry_rules.cli import gridplay, gridscreen, screen
from sorry_rules.cli.autosave import play_saved
from sorry_rules.cli.errors import every_problem
from sorry_rules.cli.seats import HUMAN, bot_of, check_player_count, seat_kinds
from sorry_rules.cli.terminal import LOG_LENGTH, Session
from sorry_rules.compiler.build import load_game
from sorry_rules.engine.board import GRID
from sorry_rules.engine.describe import colour_name, describe_move, kept_turn_words, seated_teams
from sorry_rules.players.registry import THINKING, make_player
from sorry_rules.records.files import read_record
from sorry_rules.records.restore import restore, start_state
from sorry_rules.records.savefile import KeptSave, claim, claim_default, new_save, resume_command, rules_text
from sorry_rules.records.storage import game_over

#: the exit status of a game stopped by Ctrl-C (as `simulate`'s)
INTERRUPTED_EXIT = 130


def _teams_text(game, state) -> str:
    """'Red + Yellow against Blue + Green' when some seated colours play as a team, else ''."""
    teams = seated_teams(game, state.seats)
    if all(len(team) == 1 for team in teams):
        return ""
    return " against ".join(" + ".join(colour_name(game, c) for c in team) for team in teams)


def _look(game):
    """What draws the screens of `game`'s board kind (see `terminal.Session.look`)."""
    return gridscreen if game.board_kind == GRID else screen


def print_turn(game, turn, state) -> None:
    if game.board_kind == GRID:
        click.echo(gridplay.turn_line(game, turn, state))
        return
    player = colour_name(game, state.seats[turn.seat])
    card = "-" if turn.card is None else game.card_names[turn.card]
    kept = kept_turn_words(game, turn.move, turn.seat, state, turn.finishes, turn.lost_to, turn.due, turn.others)
    width = max(8, *(len(colour_name(game, c)) for c in range(len(game.colours))))  # long colour names keep the columns
    click.echo(f"{turn.ply:5}  {player:{width}} {card:>6}  {describe_move(game, turn.move)}{kept}")


def print_outcome(game, state, max_plies: int | None = None) -> None:
    """Who won (and the scores); for a game without a winner, that it was stopped at the
    move limit `max_plies` (and, where the variant scores, the points so far)."""
    if not game_over(state) and max_plies is not None:
        click.echo(screen.stopped_text(max_plies))
        if getattr(state, "finished", ()):  # played for places: who finished before the stop (no one won)
            click.echo(screen.finished_line(game, state).plain)
        standing = screen.standing_line(game, state)
        if standing:
            click.echo(standing)
        return
    for line in _look(game).render_outcome(game, state):
        click.echo(line.plain)


def _new_game(game, variant, rules, seed, players, auto, max_plies, seat_specs, humans, bot):
    check_player_count(game, players)
    if seed is None:
        seed = secrets.randbelow(10**9)
    state = game.new_game(seed, players=players)
    default_bot = bot or ("random" if auto else "greedy")  # grid games too: the bots dispatch on the board kind
    kinds = seat_kinds(game.colours, state.seats, seat_specs, humans, auto, default_bot)
    return game, state, new_save(game, variant, rules, seed, state, kinds, max_plies)


def _resumed(resume, given: dict, max_plies: int | None = None):
    """(game, state, record, turns) of the save `resume`; `max_plies`: the limit given with it
    (a record that does not say its own takes it)."""
    clashing = [name for name, value in given.items() if value]
    if clashing:
        raise UsageError(f"--resume continues a saved game with its own seats and seed; leave out {', '.join(clashing)}")
    saved = read_record(resume)
    if saved.max_plies is None and saved.kinds is not None and max_plies is not None:
        saved.max_plies = max_plies
    why = not_resumable(saved)
    if why is not None:
        how = f"resume it with: {resume_command(saved, resume)} --max-plies N" if saved.kinds is not None else \
            f"watch it with: {resume_command(saved, resume, ('replay',))}"
        raise SaveFileError(f"{resume}: {why}, so it cannot be resumed as it is; {how}")
    turns = []
    game, state = restore(saved, source=resume, on_turn=lambda turn, after: turns.append((turn, after)))
    return game, state, saved, turns


def not_resumable(saved) -> str | None:
    """Why game record `saved` cannot be resumed (who plays each seat or its move limit is
    not recorded), or None."""
    if saved.kinds is None:
        return "this game record (a game log) does not say who plays each seat"
    if saved.max_plies is None:
        return "this game record does not say its move limit (max_plies)"
    return None


def play_command(variant="standard", rules=(), seed=None, players=None, auto=False, max_plies=DEFAULT_MAX_PLIES,
                 seat_specs=(), humans=None, bot=None, resume=None, save=None, wait=True, think=None,
                 variant_given=False) -> None:
    """`sorry-play [options]`: a new game, or `--resume FILE`; see the module docstring. `think`:
    the seconds a searching computer player may take over a move (None: its playout budget);
    `variant_given`: --variant was given (a resumed game has its own)."""
    if save is not None and not str(save).strip():
        raise UsageError("--save needs a file name, e.g. --save game.json")
    if resume is not None:
        game, state, saved, earlier = _resumed(resume, {
            "--variant": variant_given, "--seed": seed is not None, "--players": players is not None,
            "--seat": bool(seat_specs), "--humans": humans is not None, "--bot": bot is not None, "--rule": bool(rules)},
            max_plies)
        if auto and HUMAN in saved.kinds:
            raise UsageError("this saved game has people at the table; resume it without --auto")
        if max_plies is not None and max_plies != saved.max_plies and not game_over(state):  # a new limit to play on
            if max_plies <= state.plies:
                raise UsageError(f"--max-plies {max_plies:,}: the saved game has {state.plies:,} moves already; "
                                 "give a higher limit to play on")
            saved.max_plies = max_plies
        elif not game_over(state) and state.plies >= saved.max_plies:  # stopped at its limit: shown as it ended
            click.echo(f"That game stopped at its limit of {screen.moves_words(saved.max_plies)}; play on with: "
                       f"{resume_command(saved, resume)} --max-plies N (N above {state.plies:,})")
            print_outcome(game, state, saved.max_plies)
            return
        save_path = resume if save is None or _same_file(save, resume) else claim(save, saved)
    else:
        with every_problem(variant, rules):
            game = load_game(variant, rules)
        game, state, saved = _new_game(game, variant, rules, seed, players, auto, max_plies, seat_specs, humans, bot)
        earlier = []
        people = HUMAN in saved.kinds
        if people and not sys.stdin.isatty():
            raise UsageError("no terminal to play on: use --auto for a game between computer players "
                             "(or --seat COLOUR=bot:NAME for every seat)")
        save_path = claim(save, saved) if save is not None else claim_default(saved, rules) if people else None
    if HUMAN not in saved.kinds:
        if think is not None and not any(bot_of(kind) in THINKING for kind in saved.kinds):
            click.echo(f"warning: --think changes nothing here: it is the thinking time of the {', '.join(sorted(THINKING))} "
                       "players, and no seat has one", err=True)
        if resume is not None and game_over(state):
            _show_finished(game, state, resume, saved)
            return
        auto_game = gridplay.grid_auto_game if game.board_kind == GRID else _auto_game
        kept = KeptSave(save_path) if save_path is not None else None
        try:
            auto_game(game, state, saved, kept, resumed=resume is not None, think=think)
        except KeyboardInterrupt:  # Ctrl-C: say what is kept, exit 130 (not click's "Aborted!")
            where = f"; every move shown is saved in {kept.path}: continue with {resume_command(saved, kept.path)}" \
                if kept is not None else " (not saved: --save FILE keeps a game to continue it)"
            start = "\n" if sys.stdout.isatty() else ""  # on a terminal the ^C may stand in a move's line
            click.echo(f"{start}Stopped{where}", err=True)
            sys.exit(INTERRUPTED_EXIT)
        return
    if not sys.stdin.isatty():  # a new game with people is refused before its save is claimed
        raise UsageError("no terminal to play on: this saved game has people at the table; resume it in a "
                         f"terminal (watch it with: sorry-play replay {resume})")
    if game_over(state):
        _show_finished(game, state, resume, saved)
        return
    _people_game(game, state, saved, save_path, earlier, start_state(game, saved, resume) if earlier else state,
                 wait, think)


def _people_game(game, state, saved, save_path, earlier, first, wait, think) -> None:
    """Play `state` on the terminal with people at the table, the moves `earlier` (a resumed
    game's, from the state `first`) noted first; Ctrl-C or SIGTERM saves as q does (the
    session says where) and exits 130."""
    session_of = gridplay.GridSession if game.board_kind == GRID else Session
    title = f"{rules_text(saved.variant)}, seed {saved.seed}"
    session = session_of(game, saved.kinds, saved, save_path, title=title, wait=wait, think=think)
    explained = _explained_of(game, saved)
    session.stuck_words = _stuck_words(explained)
    session.win_words = _win_words(explained)
    session.start(first)
    for k, (turn, after) in enumerate(earlier):  # the pawn names, and the last moves on the screen
        session.note(turn, after, logged=k >= len(earlier) - LOG_LENGTH)
    try:
        session.run(state)
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED_EXIT)


def _explained_of(game, saved):
    """`() -> Explained | None`: the rules of `game` in words (`authoring.explain`), read once,
    when first asked for, from the files the game was loaded from; None when they cannot be
    read or are no longer the game's (the game goes on without the words)."""
    kept: list = []

    def explained():
        from sorry_rules.authoring.explain import load_explained  # lazy: the rule-file model only when asked

        if not kept:
            try:
                found = load_explained(saved.variant.spec, tuple(saved.variant.rules))
            except SorryRulesError:
                found = None
            kept.append(found if found is not None and found.game.content_hash == game.content_hash else None)
        return kept[0]
    return explained


def _stuck_words(explained):
    """`(state, cards) -> [line, ...]`: why no pawn can move (`authoring.why.stuck_reasons`);
    [] when the rules cannot be read (`_explained_of`)."""

    def words(state, cards) -> list:
        from sorry_rules.authoring.why import stuck_reasons  # lazy: only at a forfeit

        rules = explained()
        if rules is None:
            return []
        try:
            return stuck_reasons(rules.game, rules.rules, state, cards)
        except SorryRulesError:
            return []
    return words


def _win_words(explained):
    """`() -> str`: how a game is won, in words (`authoring.explain.win_sentence`); '' when
    the rules cannot be read."""

    def words() -> str:
        from sorry_rules.authoring.explain import win_sentence  # lazy: only when asked

        rules = explained()
        return "" if rules is None else win_sentence(rules)
    return words


def _same_file(a, b) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _auto_game(game, state, saved, kept, resumed: bool, think: float | None = None) -> None:
    players = [make_player(bot_of(kind), saved.seed, seat, think=think) for seat, kind in enumerate(saved.kinds)]
    named = rules_text(saved.variant)  # the house rules too, as on the play screen
    if resumed:
        click.echo(f"{named}: resuming at move {state.plies + 1}, seed {saved.seed}.")
    else:
        seats = ", ".join(colour_name(game, c) for c in state.seats)
        click.echo(f"{named}: {len(state.seats)} players ({seats}), seed {saved.seed}; "
                   f"{colour_name(game, state.seats[state.turn])} plays first.")
        teams = _teams_text(game, state)
        if teams:
            click.echo(f"Teams: {teams}.")

    state = play_saved(game, state, players, saved, kept, lambda turn, after: print_turn(game, turn, after))
    print_outcome(game, state, saved.max_plies)


def _show_finished(game, state, path, saved) -> None:
    click.echo("That game is over.")
    print_outcome(game, state)
    click.echo(f"Watch it again with: {resume_command(saved, path, ('replay',))}")


def _closed_pipe() -> None:
    """Output read no further (`| head`): what is left is not written, and the command ends
    with status 0 (`cli.errors.friendly`)."""
    raise BrokenPipeError


def replay_command(file, boards: bool = False, step: bool = False) -> None:
    """`sorry-play replay FILE`: the checked replay of a game record, turn by turn (see
    `cli.replay`)."""
    saved = read_record(file)
    moves: list = []
    game, final = restore(saved, source=file, on_turn=lambda turn, after: moves.append((turn, after)))
    opening = start_state(game, saved, file)
    console = Console(highlight=False, emoji=False)
    console.on_broken_pipe = _closed_pipe  # `| head`: end quietly, as every command does (rich's own exits 1)
    step = step and sys.stdin.isatty()
    kinds = saved.kinds or ["?"] * len(final.seats)
    names = tuple(bot_of(kind) or ("person" if kind == HUMAN else kind) for kind in kinds)
    who = ", ".join(f"{colour_name(game, c)} ({name})" for c, name in zip(final.seats, names))
    click.echo(f"{rules_text(saved.variant)}: {len(final.seats)} players: {who}; seed {saved.seed}; "
               f"{colour_name(game, final.seats[opening.turn])} plays first.")
    log: list = []

    look = _look(game)
    title = f"{rules_text(saved.variant)}, seed {saved.seed}"
    pawns = look.start_names(game, opening)

    def draw(at) -> None:
        scene = look.state_scene(game, at, title, names, log[-LOG_LENGTH:], pawns)
        for line in look.render_scene(scene, console.width):
            console.print(line)

    for k, (turn, after) in enumerate(moves):
        log.append(look.turn_text(game, after.seats[turn.seat], turn.move, pawns) +
                   kept_turn_words(game, turn.move, turn.seat, after, turn.finishes, turn.lost_to,
                                   turn.due, turn.others))
        if pawns is not None:
            pawns = pawns.after(turn.move, after.placement, after.marks)
        print_turn(game, turn, after)
        if boards:
            draw(after)
        if step and k + 1 < len(moves) and not _step_on():
            click.echo(f"Stopped after move {turn.ply}; the game has {len(moves)} moves.")
            return
    if not boards:
        draw(final)
    click.echo(_replay_end(game, final, saved, file))


STEP_PROMPT = "Enter: next move, q: stop, ?: help "
STEP_HELP = ("replay --step shows one move at a time: Enter shows the next one, q stops here. "
             "--boards draws the board after every move.")


def _step_on() -> bool:
    """Ask whether to show the next move (`replay --step`): Enter goes on, q (or Ctrl-D)
    stops, ? explains and asks again; any other text is said and asked again (a typo is no
    Enter)."""
    while True:
        try:
            typed = click.prompt(STEP_PROMPT, default="", show_default=False, prompt_suffix="").strip()
        except (click.exceptions.Abort, EOFError):
            click.echo("")
            return False
        answer = typed.lower()
        if answer in ("q", "quit", "exit"):
            return False
        if not answer:
            return True
        if answer in ("?", "help"):
            click.echo(STEP_HELP)
        else:
            click.echo(f"{typed!r}: press Enter for the next move, q to stop or ? for help")


def _replay_end(game, final, saved, file) -> str:
    if game_over(final):
        return "\n".join(line.plain for line in _look(game).render_outcome(game, final))
    if saved.max_plies is not None and final.plies >= saved.max_plies:
        return screen.stopped_text(saved.max_plies)
    if not_resumable(saved) is not None:
        return f"Recorded after {final.plies} moves; the game was not finished."
    return f"Saved after {final.plies} moves; the game goes on (continue it with {resume_command(saved, file)})."
