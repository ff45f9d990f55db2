"""What the flat random-game loops tell a tally: the plays of a game, without `Move`s.

A tally is an `on_turn` (`runner.play_game`) that counts and reads no `State`: its attribute
`needs_state` is False and it has the three methods below (`simulation`'s game counter is
one). The flat loops (`players.flatloop`, `players.markloop`, `players.handflat`) call, for
each ply, before the play changes the position, exactly one of:

- `plain_move(seat)`: a move of one pawn that neither bumps nor slides;
- `forfeit(seat)`: a card (or an empty hand) with no play;
- `played(seat, kind, events)`: any other play, with the `kind` and the `events` of the
  `Move` the general loop would build for it (`Move.kind`, `Move.events`).

The grid loop (`players.gridloop`) calls `played` for every ply, after it. So a tally counts
what it would count from the `runner.Turn`s of the general loops, while these loops build no
`Move` (the grid loop: no placement and no state) for it. An `on_turn` without these methods is
not a tally: it gets `runner.Turn`s from the loops that build them.
"""

from __future__ import annotations

from sorry_rules.engine.fastmoves import PASS_CODE
from sorry_rules.engine.flatfilters import candidate_events


def is_tally(on_turn) -> bool:
    """Whether `on_turn` is a tally (see the module docstring)."""
    return (getattr(on_turn, "needs_state", True) is False and callable(getattr(on_turn, "played", None))
            and callable(getattr(on_turn, "plain_move", None)) and callable(getattr(on_turn, "forfeit", None)))


def candidate_play(flat, candidate: tuple, occ: list) -> tuple[str, tuple]:
    """(kind, events) of the `Move` a flat candidate stands for (`flat.move(...)`), `occ` the
    occupancy of the position it was listed for; no `Move` built."""
    if candidate[2] == PASS_CODE:
        return "pass", ()
    return "move", candidate_events(candidate, occ, flat.slides, flat.start)


def _quiet(_seat, _what, _occ=None) -> None:
    """What a loop with no tally calls where it would tell one (`tell(seat, candidate, occ)`
    or `tell(seat, kind)`; fixed arguments: no tuple built for them)."""


def candidate_teller(tally, flat, events=None):
    """`tell(seat, candidate, occ)`, for a loop to call before `seat` plays a flat candidate
    from occupancy `occ`: `tally.plain_move(seat)` for a move of one pawn with no bump and no
    slide (code 0), else `tally.played(seat, kind, events)`; `events(candidate, occ)` gives
    the events (default: `candidate_play`'s). Does nothing when `tally` is None."""
    if tally is None:
        return _quiet
    plain_move, played = tally.plain_move, tally.played
    if events is None:
        def tell(seat: int, candidate: tuple, occ: list) -> None:
            if candidate[2] == 0:
                plain_move(seat)
            else:
                played(seat, *candidate_play(flat, candidate, occ))
        return tell

    def tell_events(seat: int, candidate: tuple, occ: list) -> None:
        if candidate[2] == 0:
            plain_move(seat)
        else:
            played(seat, "pass" if candidate[2] == PASS_CODE else "move", events(candidate, occ))
    return tell_events


def play_teller(tally):
    """`tell(seat, kind)`, for a loop to call before `seat` makes a play that moves no pawn (a
    hand action, a redraw, a discard, a forfeit: its `Move.kind`): `tally.forfeit(seat)` for
    "forfeit", else `tally.played(seat, kind, ())`. Does nothing when `tally` is None."""
    if tally is None:
        return _quiet
    forfeit, played = tally.forfeit, tally.played

    def tell(seat: int, kind: str) -> None:
        if kind == "forfeit":
            forfeit(seat)
        else:
            played(seat, kind, ())
    return tell
