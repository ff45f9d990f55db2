"""The computer players by name: `make_player("random", seed, seat)`.

Contract: every bot works for every variant through the engine's public API alone
(`legal_moves`, `card_moves`, `apply`, the `View`), never by knowing cards or colours, and
is deterministic given its seed parts.
"""

from __future__ import annotations

from .errors import UsageError
from .players import RandomPlayer

BOTS = {
    "random": RandomPlayer,
}


def bot_names() -> list[str]:
    return sorted(BOTS)


def make_player(kind: str, *seed_parts: object):
    """A computer player of `kind` with its own seeded stream. Raises UsageError."""
    try:
        factory = BOTS[kind]
    except KeyError:
        raise UsageError(f"unknown computer player {kind!r} (known: {', '.join(bot_names())})") from None
    return factory(*seed_parts)
