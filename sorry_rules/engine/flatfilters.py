"""The game's filters (`engine.moverules`) judged on flat candidates (`engine.flatstate`).

A filter whose condition reads only facts of the move, counters and numbers has a test on
the move's events alone (`MoveFilter.on_events`, decided by the compiler). A flat candidate
knows its events: `candidate_events` builds exactly the events of the `Move` it stands for
(`FlatMoves.move`), from the candidate and the occupancy of the position it was listed
for. So `FlatFilters(filters, flat)(card, p, candidates, counters, occ)` keeps exactly the
candidates whose `Move`s `moverules.filter_moves` keeps, in the same order.

A candidate whose code never has an event of a kind the condition reads (`CODE_KINDS`: a
plain step has no bump, a switch no step) gets the condition's value on no events, worked
out once per filter, colour and counters; only the others have their events built.

Contract: `covers(filters)` says whether every filter has its test on events; call
`FlatFilters` only then. Nothing here changes what it is given.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH
from sorry_rules.engine.flatstate import split_chain

_STEP = frozenset(STEP_KINDS)

#: candidate code -> the event kinds a candidate of that code may have (code 1, the
#: interpreter's outcome, may have any: it is not listed)
CODE_KINDS = {
    0: _STEP, 2: _STEP | {BUMP}, 3: frozenset({SWITCH}), 4: _STEP, 5: frozenset(), 6: _STEP | {BUMP},
    7: _STEP | {BUMP, SLIDE}, 8: _STEP | {BUMP}, 9: _STEP | {BUMP, SLIDE}, 10: _STEP | {BUMP, SLIDE},
    11: frozenset({SWITCH, BUMP, SLIDE}),
}


def covers(filters) -> bool:
    """Whether every filter of `filters` can be judged on flat candidates."""
    return all(f.on_events is not None for f in filters)


def candidate_events(candidate: tuple, occ: list, slides, start: tuple) -> tuple:
    """The events of the `Move` that `candidate` stands for (`FlatMoves.move(...).events`),
    `occ` the occupancy of the position it was listed for, `slides` the `flatstate.Slides`
    and `start` the Start squares of the flat flavour."""
    code = candidate[2]
    if code == 0:
        _, _, _, c, frm, to, step = candidate
        return ((step, c, frm, to),)
    if code == 6:
        _, _, _, c, frm, to, step, o, _ = candidate
        return ((step, c, frm, to), (BUMP, o, to))
    if code == 4 or code == 8:
        c1, sq1, to1, c2, sq2, to2 = candidate[3:9]
        parts = (("split", c1, sq1, to1), ("split", c2, sq2, to2))
        return parts + ((BUMP, candidate[9], to2),) if code == 8 else parts
    if code == 7 or code == 9:
        return _slid_events(candidate)
    if code == 2:
        _, _, _, c, begin, sq, o, _ = candidate
        return (("sorry", c, begin, sq), (BUMP, o, sq))
    if code == 3:
        return ((SWITCH,) + candidate[3:7],)
    if code == 10:
        return split_chain(candidate, start)[1]
    if code == 11:
        _, _, _, c, mine, o, sq = candidate
        return slides.switch(c, mine, o, sq, occ, 0)[2]
    if code == 1:
        return candidate[4]
    if code == 12:  # a split along routes: its events
        return candidate[3]
    return ()  # a pass


def _slid_events(candidate: tuple) -> tuple:
    """The events of a candidate that takes a slide (code 7, or 9 after a split's first part)."""
    if candidate[2] == 7:
        _, _, _, c, frm, to, step, end, bumps = candidate
        events = [(step, c, frm, to)]
    else:
        _, _, _, c1, sq1, to1, c, frm, to, end, bumps = candidate
        events = [("split", c1, sq1, to1), ("split", c, frm, to)]
    events += [(BUMP, o, sq) for o, sq in bumps]
    events.append((SLIDE, c, to, end))
    return tuple(events)


class FlatFilters:
    """`moverules.filter_moves` over the flat candidates of one card (see the module docstring)."""

    __slots__ = ("filters", "slides", "start", "plain_values")

    def __init__(self, filters, flat):
        self.filters = tuple((f.cards, f.prefer, f.on_events,
                              frozenset(code for code, kinds in CODE_KINDS.items() if not kinds & f.reads))
                             for f in filters)
        self.slides, self.start = flat.slides, flat.start
        self.plain_values: dict = {}  # (filter index, colour, counters) -> the test on no events

    def __call__(self, card: int, p: int, candidates: list, counters: tuple, occ: list) -> list:
        """The candidates of `card` for colour p (`FlatMoves.table[card][p]` on the position of
        `occ`) that the filters keep, in order, `counters` the counters before the move."""
        for index, (cards, prefer, test, plain) in enumerate(self.filters):
            if not candidates:
                break
            if cards is not None and card not in cards:
                continue
            kept = []
            value = None
            for candidate in candidates:
                if candidate[2] in plain:
                    if value is None:
                        value = self._plain_value(index, test, p, counters)
                    if value:
                        kept.append(candidate)
                elif test(p, candidate_events(candidate, occ, self.slides, self.start), counters):
                    kept.append(candidate)
            if kept or not prefer:
                candidates = kept
        return candidates

    def _plain_value(self, index: int, test, p: int, counters: tuple) -> bool:
        """The test of filter `index` on a move with no events it reads, remembered."""
        key = (index, p, counters)
        value = self.plain_values.get(key)
        if value is None:
            if len(self.plain_values) >= 4096:
                self.plain_values.clear()
            value = self.plain_values[key] = bool(test(p, (), counters))
        return value
