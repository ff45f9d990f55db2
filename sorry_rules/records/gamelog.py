"""Game logs: game records (`records.record`) of games played by tests, fuzzers and tools.

A game log is a `Record` without players or move limit (both null): enough to replay the
game exactly. The property tests and fuzzers (tests/randomplay.py) write one for every
failing game, and `from_json` + `replay_log` replay it. Same format, reader and writer as
saved games (`records.files`); this module adds `new_log` and the names the tests use.

Contract: `new_log` records a game of `game` that began at `start` and took `choices`;
`replay_log(log, game)` is `restore`: it rebuilds the final state or raises `SaveFileError`.
"""

from __future__ import annotations

from sorry_rules.records.files import FORMAT, VERSION, from_json, read_record, to_json, write_record
from sorry_rules.records.record import Record, VariantRef
from sorry_rules.records.restore import restore
from sorry_rules.records.storage import state_digest

__all__ = ["FORMAT", "VERSION", "GameLog", "from_json", "new_log", "read_log", "replay_log", "state_digest", "to_json",
           "write_log"]

#: A game log is a game record.
GameLog = Record
read_log = read_record
write_log = write_record


def new_log(game, spec, rules, seed, start, choices, final=None, first: int | None = None) -> Record:
    """A log of a game of `game` (loaded as `load_game(spec, rules)`) that began at `start`
    (`game.new_game(seed, seats=start.seats, first=first)`) and took `choices`; `final`,
    if given, is the state they lead to (its digest is recorded)."""
    log = Record(
        variant=VariantRef(spec=str(spec), rules=[str(r) for r in rules], name=game.name, content_hash=game.content_hash),
        seed=seed, seats=[game.colours[c] for c in start.seats], first=first, choices=[int(c) for c in choices],
        plies=len(choices),
    )
    if final is not None:
        log.reached(final)
    return log


def replay_log(log: Record, game=None, source: str = "game log"):
    """Replay `log`; returns (game, final state). `game` defaults to the log's rules, loaded."""
    return restore(log, source, game=game)
