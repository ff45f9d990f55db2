"""Game logs: a finished (or unfinished) game as JSON, enough to replay it exactly.

Format (JSON object, `version` 1):
  {"format": "sorry-rules-game-log", "version": 1,
   "variant": {"spec": "standard", "rules": ["house/x.yaml"], "name": "standard",
               "content_hash": "<sha256 of the merged rule data>"},
   "seed": 42, "seats": ["red", "yellow"], "first": null,
   "choices": [0, 2, 1, ...], "plies": 123, "final": "<sha256 of the final State>"}
`spec` and `rules` are what `load_game` was given; `content_hash` pins the rules' content,
so a log never replays against changed rules. `seats` are colour names in turn order.
`first` is null when the seed chose the first player, else the seat given explicitly.
`choices` holds one index into `legal_moves` per applied move (runner.GameRecord.choices).
`final` is `state_digest` of the state the choices lead to (null: not recorded).

Contract: `to_json(log)` and `from_json(text)` round-trip exactly; `from_json` and
`read_log` raise `SaveFileError` with a clear message for anything else than a log of this
format and version (truncated, foreign, edited). `replay_log` rebuilds the final state and
raises `SaveFileError` when the rules changed or the choices do not fit or do not reach the
recorded final state. `write_log` writes atomically (a temporary file, then a rename).

This module is deliberately minimal and separate from any terminal save format, so the two
can be unified later.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from sorry_rules.base.errors import RuleFileError, SaveFileError, UsageError
from sorry_rules.records.storage import state_digest, write_atomically  # noqa: F401  (state_digest is part of this API)

FORMAT = "sorry-rules-game-log"
VERSION = 1
MAX_LOG_BYTES = 8_000_000
MAX_CHOICES = 1_000_000


@dataclass(frozen=True)
class GameLog:
    spec: str                 # the variant as given to load_game (bundled name or path)
    rules: tuple              # overlays as given to load_game
    name: str                 # the variant's name (for people)
    content_hash: str         # LoadedVariant.content_hash / Game.content_hash
    seed: int | str
    seats: tuple              # colour names in turn order
    first: int | None         # None: the seed chose the first seat
    choices: tuple            # one legal-move index per applied move
    final: str | None = None  # state_digest of the final state


def new_log(game, spec, rules, seed, start, choices, final=None, first: int | None = None) -> GameLog:
    """A log of a game of `game` (loaded as `load_game(spec, rules)`) that began at `start`
    (`game.new_game(seed, seats=start.seats, first=first)`) and took `choices`."""
    return GameLog(
        spec=str(spec), rules=tuple(str(r) for r in rules), name=game.name, content_hash=game.content_hash,
        seed=seed, seats=tuple(game.colours[c] for c in start.seats), first=first,
        choices=tuple(int(c) for c in choices), final=None if final is None else state_digest(final),
    )


def to_json(log: GameLog) -> str:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "variant": {"spec": log.spec, "rules": list(log.rules), "name": log.name, "content_hash": log.content_hash},
        "seed": log.seed,
        "seats": list(log.seats),
        "first": log.first,
        "choices": list(log.choices),
        "plies": len(log.choices),
        "final": log.final,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def from_json(text: str | bytes, where: str = "game log") -> GameLog:
    """Parse and check a log. Raises SaveFileError naming what is wrong."""
    if isinstance(text, bytes):
        if len(text) > MAX_LOG_BYTES:
            raise SaveFileError(f"{where}: larger than {MAX_LOG_BYTES} bytes; not a game log")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError(f"{where}: not UTF-8 text; not a game log") from None
    if len(text) > MAX_LOG_BYTES:
        raise SaveFileError(f"{where}: larger than {MAX_LOG_BYTES} bytes; not a game log")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: also numbers longer than int() accepts
        detail = f"line {error.lineno}, column {error.colno}: {error.msg}" if isinstance(error, json.JSONDecodeError) \
            else "nested too deep" if isinstance(error, RecursionError) else "a number is too long"
        raise SaveFileError(f"{where}: damaged or truncated ({detail})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError(f"{where}: not a sorry-rules game log (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version != VERSION:
        raise SaveFileError(f"{where}: game log version {version!r}; this sorry-rules reads version {VERSION}")
    known = {"format", "version", "variant", "seed", "seats", "first", "choices", "plies", "final"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SaveFileError(f"{where}: unknown field(s) {', '.join(map(str, unknown))}")

    def need(ok: bool, field: str, expected: str) -> None:
        if not ok:
            raise SaveFileError(f"{where}: {field}: expected {expected}")

    variant = data.get("variant")
    need(isinstance(variant, dict) and set(variant) == {"spec", "rules", "name", "content_hash"}, "variant",
         "an object with spec, rules, name and content_hash")
    need(isinstance(variant["spec"], str) and variant["spec"] != "", "variant.spec", "a rule file name")
    need(isinstance(variant["rules"], list) and all(isinstance(r, str) for r in variant["rules"]), "variant.rules", "a list of rule file names")
    need(isinstance(variant["name"], str), "variant.name", "text")
    need(isinstance(variant["content_hash"], str) and len(variant["content_hash"]) == 64, "variant.content_hash", "a sha256 hex digest")
    seed = data.get("seed")
    need((isinstance(seed, int) and not isinstance(seed, bool)) or isinstance(seed, str), "seed", "an integer or text")
    seats = data.get("seats")
    need(isinstance(seats, list) and len(seats) >= 1 and all(isinstance(s, str) for s in seats), "seats", "a list of colour names")
    first = data.get("first")
    need(first is None or (isinstance(first, int) and not isinstance(first, bool) and 0 <= first < len(seats)), "first",
         "null or a seat number")
    choices = data.get("choices")
    need(isinstance(choices, list) and len(choices) <= MAX_CHOICES, "choices", f"a list of at most {MAX_CHOICES} move numbers")
    need(all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in choices), "choices", "move numbers (integers >= 0)")
    need(data.get("plies") == len(choices), "plies", f"the number of choices ({len(choices)}); the log is damaged")
    final = data.get("final")
    need(final is None or (isinstance(final, str) and len(final) == 64), "final", "null or a sha256 hex digest")
    return GameLog(variant["spec"], tuple(variant["rules"]), variant["name"], variant["content_hash"], seed,
                   tuple(seats), first, tuple(choices), final)


def write_log(path: str | os.PathLike, log: GameLog) -> None:
    """Write `log` to `path` atomically: a reader sees the old file or the whole new one."""
    try:
        write_atomically(path, to_json(log))
    except OSError as error:
        raise SaveFileError(f"cannot write game log {path}: {error.strerror or error}") from None


def read_log(path: str | os.PathLike) -> GameLog:
    """Read a log file. Raises SaveFileError (unreadable, damaged, foreign, other version)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_LOG_BYTES + 1)
    except OSError as error:
        raise SaveFileError(f"cannot read game log {path}: {error.strerror or error}") from None
    return from_json(raw, str(path))


def replay_log(log: GameLog, game=None):
    """Replay `log`; returns (game, final state). `game` defaults to `load_game(spec, rules)`.

    Raises SaveFileError when the rules' content changed since the log was written, a seat
    is not a colour of the variant, a choice is not a legal move, choices remain after the
    game ended, or the final state differs from the recorded one."""
    from sorry_rules.compiler.build import load_game
    from sorry_rules.base.errors import IllegalMoveError
    from sorry_rules.players.runner import replay

    if game is None:
        try:
            game = load_game(log.spec, log.rules)
        except (RuleFileError, UsageError) as error:  # UsageError: its rule file is gone
            raise SaveFileError(f"the log's rules do not load:\n{error}") from None
    if game.content_hash != log.content_hash:
        raise SaveFileError(f"the log was written for other rules than {log.spec!r} has now (content hash differs)")
    try:
        seats = tuple(game.colours.index(name) for name in log.seats)
    except ValueError:
        raise SaveFileError(f"seats {list(log.seats)} are not colours of {game.name}") from None
    if len(set(seats)) != len(seats):
        raise SaveFileError("a colour is seated twice")
    if not game.players_min <= len(seats) <= game.players_max:
        raise SaveFileError(f"{len(seats)} seats, but {game.name} is for {game.player_counts()} players")
    try:
        start = game.new_game(log.seed, seats=seats, first=log.first)
        final = replay(game, start, log.choices, max_plies=len(log.choices) + 1)
    except (ValueError, IllegalMoveError) as error:
        raise SaveFileError(f"the log's choices do not fit the game: {error}") from None
    if final.plies != len(log.choices):
        raise SaveFileError(f"the game ended after {final.plies} moves but the log has {len(log.choices)} choices")
    if log.final is not None and state_digest(final) != log.final:
        raise SaveFileError("the choices do not lead to the recorded final state (edited log?)")
    return game, final
