"""The board's destination tables (layout.forward / layout.backward) equal one-step-at-a-time
walks (R13, R31, R33, R30, A12) on any board shape, also for long moves."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sorry_rules.engine.layout import Layout


def walk_forward(layout, c, sq, steps):
    """One step at a time (the definition the tables must match)."""
    if sq >= layout.X or steps <= 0 or layout.colour_of_square(sq) not in (None, c):
        return -1
    for _ in range(steps):
        if sq == layout.home[c]:
            return sq if layout.overshoot_stops else -1
        sq = layout.step_forward(c, sq)
    return sq


def walk_backward(layout, c, sq, steps):
    if sq >= layout.X or layout.colour_of_square(sq) not in (None, c):
        return -1
    for _ in range(steps):
        sq = layout.step_backward(c, sq)
    return sq


def check(layout, steps):
    forward, backward = layout.forward(steps), layout.backward(steps)
    for c in range(layout.C):
        for sq in range(layout.size):
            assert forward[c][sq] == walk_forward(layout, c, sq, steps), (c, sq, steps)
            assert backward[c][sq] == walk_backward(layout, c, sq, steps), (c, sq, steps)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_tables_equal_step_by_step_walks(data):
    colours = data.draw(st.integers(2, 5))
    side = data.draw(st.integers(3, 12))
    layout = Layout([f"c{i}" for i in range(colours)], side, data.draw(st.integers(0, side - 1)),
                    data.draw(st.integers(0, side - 1)), data.draw(st.integers(0, 6)), [], data.draw(st.booleans()))
    for steps in {0, 1, 2, 3, data.draw(st.integers(1, layout.T + layout.L + 3))}:
        check(layout, steps)


def test_standard_board_every_distance():
    """The standard board (RULES section 1), for every move length up to a lap and a half."""
    for stops in (False, True):
        layout = Layout(["red", "blue", "yellow", "green"], 15, 4, 2, 5, [(1, 4), (9, 13)], stops)
        for steps in range(0, 95):
            check(layout, steps)
        # R33 worked example: from the start exit, Home is 64 forward steps away
        assert layout.forward(64)[0][4] == layout.home[0]
        assert layout.forward(65)[0][4] == (layout.home[0] if stops else -1)
