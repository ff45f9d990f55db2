"""A small deterministic random number generator (SplitMix64) whose whole state is one int.

Contract: the same seed gives the same numbers on every machine and Python version (no
dependence on `random`'s algorithms), and the state is a plain int kept inside the game
state, so a seed plus the players' choices replays a game exactly.
"""

from __future__ import annotations

import functools
import hashlib
import sys

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_SMALL = 256
#: _LIMITS[n]: the rejection bound of `below(state, n)` (the largest multiple of n up to 2**64)
_LIMITS = (0,) + tuple((1 << 64) - ((1 << 64) % n) for n in range(1, _SMALL))


def seed_state(*parts: object) -> int:
    """An RNG state derived from any seed parts (e.g. `seed_state(7)`, `seed_state(7, "bot", 2)`)."""
    text = "sorry-rules:" + ":".join(map(str, parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def stream_at(base: int, index: int) -> int:
    """The state of sub-stream `index` of a base state (SplitMix64 spacing): cheap, and
    independent of every other index, so choice k needs no choices before it."""
    return next_u64((base + index * _GAMMA) & _MASK)[1]


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return (new state, 64 random bits)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in [0, n) without modulo bias; returns (new state, value)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def below_at(base: int, index: int, n: int) -> int:
    """`below(stream_at(base, index), n)[1]` in one call (the random player's choice k among
    n): the same arithmetic, unrolled for the random-game loops."""
    state = (((base + index * _GAMMA) & _MASK) + _GAMMA) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    state = z ^ (z >> 31)
    limit = _LIMITS[n] if 0 < n < _SMALL else (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n


@functools.lru_cache(maxsize=64)
def _swaps(size: int) -> tuple:
    """(i, i + 1, the rejection bound of `below(state, i + 1)`) of each swap of a shuffle of `size` items."""
    return tuple((i, i + 1, _LIMITS[i + 1] if i + 1 < _SMALL else (1 << 64) - ((1 << 64) % (i + 1)))
                 for i in range(size - 1, 0, -1))


#: from this many swaps on, `shuffled` computes their numbers side by side (`_outputs`)
_SIDE_BY_SIDE = 12


@functools.lru_cache(maxsize=64)
def _lanes(count: int) -> tuple:
    """(ones, ladder, mask) for `_outputs`: 1, k * _GAMMA mod 2**64 (k = 1..count) and
    2**64 - 1 in the low half of lane k - 1 (128 bits each), and the lowest rejection bound
    of a shuffle with `count` swaps."""
    ones = sum(1 << (128 * k) for k in range(count))
    ladder = sum((((k + 1) * _GAMMA) & _MASK) << (128 * k) for k in range(count))
    return ones, ladder, _MASK * ones, min(limit for _, _, limit in _swaps(count + 1))


def _outputs(state: int, count: int) -> tuple[list, int]:
    """The outputs of the next `count` states from `state` (what `next_u64` gives, `count`
    times) and the lowest rejection bound of a shuffle with `count` swaps: the same
    arithmetic in 128-bit lanes of one int (a lane's product stays in its lane; the mask
    takes each lane mod 2**64), read back as native 64-bit words."""
    ones, ladder, mask, lowest = _lanes(count)
    z = _mix_lanes(((state & _MASK) * ones + ladder) & mask, mask)
    return memoryview(z.to_bytes(16 * count, sys.byteorder)).cast("Q")[::2].tolist(), lowest


def _mix_lanes(z: int, mask: int) -> int:
    """`next_u64`'s output of the state in each 128-bit lane of z (`_outputs`)."""
    z = (((z ^ (z >> 30)) & mask) * 0xBF58476D1CE4E5B9) & mask
    z = (((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB) & mask
    return (z ^ (z >> 31)) & mask


def shuffled(state: int, items) -> tuple[int, tuple]:
    """Fisher-Yates shuffle of `items`; returns (new state, shuffled tuple). Swap i takes
    `below(state, i + 1)`, unrolled here (the same numbers, without a call per swap; the
    bounds per size from `_swaps`). A long shuffle computes its numbers side by side
    (`_outputs`) and uses them when none is rejected (a bound is within `size` of 2**64:
    rejection is a chance in 2**58 per swap), else runs the swaps one by one."""
    out = list(items)
    swaps = _swaps(len(out))
    if len(swaps) >= _SIDE_BY_SIDE:
        values, lowest = _outputs(state, len(swaps))
        if max(values) < lowest:  # every swap takes the next number
            for value, (i, n, _) in zip(values, swaps):
                j = value % n
                out[i], out[j] = out[j], out[i]
            return (state + len(swaps) * _GAMMA) & _MASK, tuple(out)
    for i, n, limit in swaps:
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        value = z ^ (z >> 31)
        while value >= limit:  # rejected (never for a bound near 2**64): the next number
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            value = z ^ (z >> 31)
        j = value % n
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


class Random:
    """A mutable wrapper for players (bots) that need a stream of choices."""

    def __init__(self, *seed_parts: object):
        self.state = seed_state(*seed_parts)

    def below(self, n: int) -> int:
        self.state, value = below(self.state, n)
        return value

    def choice(self, items):
        return items[self.below(len(items))]
