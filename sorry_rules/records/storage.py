"""State digests and the end of a game, for the records of games.

Contract: `state_digest` is a stable fingerprint of every field of an engine State.
`game_over` says whether a state of any board kind has ended. (Record files are written
atomically by `base.safeio.replace_file` and `create_file`.)
"""

from __future__ import annotations

import hashlib
import json


def state_digest(state) -> str:
    """SHA-256 of a State's fields as JSON (tuples as lists): the same on every machine. The
    fields after the tenth (counters, pending extra cards, cards drawn with `turn.take`, redraws
    used) count only when set, so a digest of a game that uses none of them is unchanged."""

    def plain(value):
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    fields = tuple(state)
    while len(fields) > 12 and not fields[-1]:
        fields = fields[:-1]  # later fields (the turn policies' drawn cards and redraws) count only when set
    if len(fields) > 10 and not any(fields[10:]):
        fields = fields[:10]  # counters and bonus are left out when unused: older digests stay valid
    return hashlib.sha256(json.dumps(plain(fields), separators=(",", ":")).encode()).hexdigest()


def game_over(state) -> bool:
    """Whether the game of `state` has ended: a winner, or (grid games) ended without one."""
    return state.winner is not None or bool(getattr(state, "over", False))
