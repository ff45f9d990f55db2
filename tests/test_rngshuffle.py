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


def test_first_draws_are_below_at_s_first_numbers():
    """`first_draws(bases, i)[k] % n` is `below_at(bases[k], i + k, n)` whenever the number
    is below 2**64 - n, whatever n (the numbers are computed side by side)."""
    from sorry_rules.engine.rng import below_at, first_draws

    assert first_draws([], 5) == []
    for count in (1, 2, 7, 16, 32, 33):
        for trial in range(6):
            bases = [seed_state("first draws", count, trial, k) for k in range(count)]
            first = trial * 1_000_003
            draws = first_draws(bases, first)
            assert len(draws) == count
            for k, (base, value) in enumerate(zip(bases, draws)):
                for n in (2, 3, 40, 255, 256, 1000, 2**20 + 7):
                    assert value < 2**64 - n
                    assert value % n == below_at(base, first + k, n)
