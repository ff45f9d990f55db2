"""The computer players by name: `make_player("random", seed, seat)`.

Contract: every bot works for every variant through the engine's public API alone
(`legal_moves`, `table`, `apply`, `position`, the `View`), never by knowing cards or
colours, sees only its `View` (never other hands or the order of the pile), and is
deterministic given its seed parts (and, for `search`, its playout budget). A bot's choice
depends only on its seed parts, the view and the moves (not on earlier calls), so a saved
game resumes with the same choices. A thinking time (`think`) makes the searching bots stop
when it is up: their choices then depend on the machine's speed.

Levels name a player and its budget: `easy` is the greedy player, `medium` the search
player with a small budget (`MEDIUM`), `hard` the search player with its default budget.
"""

from __future__ import annotations

from functools import partial

from sorry_rules.base.errors import UsageError
from sorry_rules.players.expert import ExpertPlayer
from sorry_rules.players.greedy import GreedyPlayer
from sorry_rules.players.protocol import RandomPlayer
from sorry_rules.players.search import SearchPlayer

#: the search budget of the `medium` level
MEDIUM = {"playouts": 48, "horizon": 4, "caution": 1.0}

BOTS = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "search": SearchPlayer,
    "easy": GreedyPlayer,
    "medium": partial(SearchPlayer, **MEDIUM),
    "hard": SearchPlayer,
}

#: The bots that take a thinking time (`seconds`).
THINKING = frozenset({"expert", "search", "medium", "hard"})

#: The strongest bot: it gives the hints in terminal play.
STRONGEST = "hard"


def bot_names() -> list[str]:
    return sorted(BOTS)


def make_player(kind: str, *seed_parts: object, think: float | None = None, **options):
    """A computer player of `kind` with its own seeded stream; `think`: seconds a decision
    of a searching bot may take (ignored by the others). Raises UsageError."""
    try:
        factory = BOTS[kind]
    except KeyError:
        raise UsageError(f"unknown computer player {kind!r} (known: {', '.join(bot_names())})") from None
    if think is not None and kind in THINKING:
        options["seconds"] = think
    return factory(*seed_parts, **options)
