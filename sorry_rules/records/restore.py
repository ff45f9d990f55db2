"""Rebuild a recorded game: load its rules, check they are the recorded ones, replay the
choices from the seed and check where they lead.

Contract: `restore` returns `(game, state)` exactly as the game stood when it was recorded,
or raises `SaveFileError` (its message starts with `source`) when the rules do not load or
changed since (content hash), the seats do not fit the variant, a choice is not a legal
move, choices remain after the game ended or stopped, or the choices do not reach the
recorded state (digest, finished). A record resumes exactly or not at all.
"""

from __future__ import annotations

import os
from pathlib import Path

from sorry_rules.base.errors import SaveFileError, SorryRulesError
from sorry_rules.base.words import plural
from sorry_rules.compiler.build import load_game
from sorry_rules.engine.board import GRID
from sorry_rules.players.runner import replay
from sorry_rules.records.record import Record
from sorry_rules.records.storage import game_over, state_digest
from sorry_rules.rules.locate import outside_roots, resolve, rule_roots


def load_recorded_game(record: Record, source: str = "game record"):
    """The game of `record`'s rules, checked against the recorded content hash. The rules
    named in the record are read only when they are bundled names or files inside the trees
    rule files are read from (`rules.locate.rule_roots`: the working directory's, the record
    file's folder's, and the allowed ones), never elsewhere: the record is no file the user
    chose, and its checksum proves nothing. Rules found beside the record instead of where it
    names them (a save moved or shared with its rule files) are named in `record` from then
    on (absolute paths), so that its next save and the command that resumes it name them."""
    recorded = (record.variant.spec, *record.variant.rules)
    tried = tuple(_beside(spec, source) for spec in recorded)
    # a save moved or shared with its rule files: those beside it, even where the recorded ones
    # are still there but cannot be read or have changed (the content hash decides)
    shared = tuple(_beside(spec, source, always=True) for spec in recorded)
    try:
        return _recorded_game(record, tried, source)
    except SaveFileError:
        if shared == tried:
            raise
        try:
            game = _recorded_game(record, shared, source)
        except SorryRulesError:
            pass
        else:
            named = [spec if spec == was else os.path.abspath(spec) for spec, was in zip(shared, recorded)]
            record.variant = record.variant.model_copy(update={"spec": named[0], "rules": named[1:]})
            return game
        raise


def _recorded_game(record: Record, specs: tuple, source: str):
    """The game of the rule files `specs` (the variant, then its overlays), checked to be
    readable from where the record is and to be the recorded rules."""
    spec, rules = specs[0], specs[1:]
    _check_places(spec, rules, source)
    try:
        game = load_game(spec, rules)
    except SorryRulesError as error:
        named = ", ".join(repr(str(s)) for s in (spec, *rules))
        raise SaveFileError(f"{source}: the game's rules ({named}) do not load now:\n{error}") from None
    _check_rules(game, record, source)
    return game


def _beside(spec, source: str, always: bool = False):
    """`spec` as recorded, or, when it names a rule file that is no longer there (`always`:
    there or not), the file of the same name beside the record `source` if there is one (a
    save moved or shared together with its rule files; the content hash still decides
    whether they are the recorded rules)."""
    if not str(spec).endswith((".yaml", ".yml")) or (not always and resolve(str(spec)) is not None):
        return spec
    moved = Path(source).parent / Path(str(spec)).name
    return str(moved) if moved.is_file() else spec


def _check_places(spec, rules, source: str) -> None:
    roots = rule_roots([source])
    for spec in (spec, *rules):
        path = resolve(str(spec))
        if path is None and str(spec).endswith((".yaml", ".yml")):
            raise SaveFileError(f"{source}: the game's rule file {str(spec)!r} is gone: it is neither there nor beside "
                                f"the record ({Path(str(spec)).name}); put it back in one of the two places")
        if path is not None and outside_roots(path, roots):
            raise SaveFileError(f"{source}: the game's rule file {str(spec)!r} is not read: it lies outside the working "
                                "directory's tree and the record's folder (widen them with --rules-root DIR)")


def _check_rules(game, record: Record, source: str) -> None:
    if game.content_hash != record.variant.content_hash:
        files = [str(spec) for spec in (record.variant.spec, *record.variant.rules)]
        named = f"the rule file {files[0]!r}" if len(files) == 1 else \
            f"one of the rule files {', '.join(map(repr, files))} (the variant and its overlays)"
        raise SaveFileError(f"{source}: {named} has changed since the game was saved (content hash differs); these "
                            "are other rules, and the game cannot be replayed with them: put the rule files as they "
                            f"were beside the record ({Path(source).parent}) to resume it")


def start_state(game, record: Record, source: str = "game record"):
    """The state the recorded game began from (same seed, seats and first seat)."""
    colours = [name.lower() for name in game.colours]
    try:
        seats = tuple(colours.index(name.lower()) for name in record.seats)
    except ValueError:
        raise SaveFileError(f"{source}: seats {list(record.seats)} are not colours of {game.name}") from None
    if not game.players_min <= len(seats) <= game.players_max:
        raise SaveFileError(f"{source}: {len(seats)} seats, but {game.name} is for "
                            f"{game.player_counts()} players")
    if game.board_kind == GRID:  # a grid side's colour sits at several seats, as the seating says
        try:
            seating = game.seats_for(len(seats))
        except SorryRulesError as error:
            raise SaveFileError(f"{source}: {error}") from None
        if seats != seating:
            raise SaveFileError(f"{source}: seats {list(record.seats)} are not the seating of {game.name} "
                                f"for {len(seats)} players")
    elif len(set(seats)) != len(seats):
        raise SaveFileError(f"{source}: a colour is seated twice")
    try:
        return game.new_game(record.seed, seats=seats, first=record.first)
    except SorryRulesError as error:
        raise SaveFileError(f"{source}: {error}") from None


def restore(record: Record, source: str = "game record", on_turn=None, game=None):
    """Rebuild `(game, state)` from `record`: load its rules (or check `game` against them),
    replay the choices from the seed (reporting each move to `on_turn(turn, state)` if given)
    and check the recorded state. Raises SaveFileError."""
    if game is None:
        game = load_recorded_game(record, source)
    else:
        _check_rules(game, record, source)
    start = start_state(game, record, source)
    choices = record.choices
    limit = record.max_plies if record.max_plies is not None else len(choices) + 1
    try:
        state = replay(game, start, choices, on_turn=on_turn, max_plies=limit)
    except (ValueError, SorryRulesError) as error:
        raise SaveFileError(f"{source}: the recorded moves do not fit the game: {error}") from None
    if state.plies != len(choices):
        how = "ended" if game_over(state) else "stopped at its move limit"
        raise SaveFileError(f"{source}: the game {how} after {plural(state.plies, 'move')} "
                            f"but the record has {plural(len(choices), 'choice')}")
    if (record.state_digest is not None and state_digest(state) != record.state_digest) or \
            (record.finished is not None and record.finished != game_over(state)):
        raise SaveFileError(f"{source}: the recorded moves do not lead to the recorded final state (edited or damaged file)")
    return game, state
