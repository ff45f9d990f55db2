"""`rng.shuffled` computes a long shuffle's numbers side by side (`rng._outputs`): the same
numbers as one `below` per swap, with the one-by-one path taken when a number is rejected."""

from __future__ import annotations

from sorry_rules.engine import rng
from sorry_rules.engine.rng import below, seed_state, shuffled


def _reference(state: int, items) -> tuple:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


def test_side_by_side_shuffles_give_the_same_numbers():
    for size in [*range(0, 70), 255, 256, 257, 300, 1000]:
        for trial in range(5):
            state = seed_state("side by side", size, trial)
            assert shuffled(state, range(size)) == _reference(state, range(size))
    assert shuffled(2**64 + 5, range(45)) == _reference(5, range(45))  # the state is taken mod 2**64


def test_a_rejected_number_takes_the_swaps_one_by_one(monkeypatch):
    """Rejection is a chance in 2**58 per swap: forced here by claiming a low bound."""
    lanes = rng._lanes
    monkeypatch.setattr(rng, "_lanes", lambda count: (*lanes(count)[:3], 1 << 62))
    for size in (13, 45, 100):
        for trial in range(10):
            state = seed_state("rejected", size, trial)
            assert shuffled(state, range(size)) == _reference(state, range(size))
