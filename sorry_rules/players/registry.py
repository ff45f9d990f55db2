"""The computer players by name: `make_player("random", seed, seat)`.

Contract: every bot works for every variant through the engine's public API alone
(`legal_moves`, `card_moves`, `apply`, `position`, the `View`), never by knowing cards or
colours, sees only its `View` (never other hands or the order of the pile), and is
deterministic given its seed parts. A bot's choice depends only on its seed parts, the view
and the moves (not on earlier calls), so a saved game resumes with the same choices.
"""

from __future__ import annotations

from sorry_rules.base.errors import UsageError
from sorry_rules.players.expert import ExpertPlayer
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.protocol import RandomPlayer

BOTS = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
}

#: The strongest bot: it gives the hints in terminal play.
STRONGEST = "expert"


def bot_names() -> list[str]:
    return sorted(BOTS)


def make_player(kind: str, *seed_parts: object, **options):
    """A computer player of `kind` with its own seeded stream. Raises UsageError."""
    try:
        factory = BOTS[kind]
    except KeyError:
        raise UsageError(f"unknown computer player {kind!r} (known: {', '.join(bot_names())})") from None
    return factory(*seed_parts, **options)
