"""Statistics for simulations: exact mergeable tallies, confidence intervals and tests.

Contract: pure functions and plain data; no engine, no I/O, no third-party imports.

- `Moments` keeps n, sum and sum of squares of an integer quantity as Python ints, so merging
  tallies in any order gives exactly the same figures (no floating-point drift).
- `quantile(counts, q)` is exact: the counts map every observed value to how often it was
  seen (bounded by the number of distinct values, not by the number of games). It uses the
  nearest-rank definition: the smallest value v such that at least a fraction q of the
  observations are <= v (so the median is the *lower* median for an even count).
- `wilson` is the Wilson score interval (95% by default); `two_proportion_z` is the pooled
  two-proportion z-test; `welch_t` is Welch's unequal-variances t-test with the
  Welch-Satterthwaite degrees of freedom, p-value from the Student t distribution (computed
  through the regularized incomplete beta function). All p-values are two-sided. `t95(df)`
  is the t quantile of a mean's 95% interval. `holm` adjusts a family of p-values for
  multiple comparisons (Holm's step-down method: the family-wise error rate is kept under any
  dependence between the tests).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


@dataclass
class Moments:
    """Count, sum and sum of squares of an integer quantity (exact)."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float | None:
        """Sample variance (n - 1 in the denominator); None below two observations."""
        return None if self.n < 2 else (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))


def quantile(counts: dict, q: float):
    """Nearest-rank q-quantile of the observations described by `counts` {value: count}."""
    n = sum(counts.values())
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n - 1e-12))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return value
    return max(counts)  # pragma: no cover - unreachable


def histogram(counts: dict, bins: int = 12) -> list[tuple[int, int, int]]:
    """Group exact integer counts into at most `bins` equal-width bins of whole numbers:
    [(low, high, count)] with low <= value <= high, covering min..max of the values."""
    if not counts:
        return []
    low, high = min(counts), max(counts)
    rough = max(1, math.ceil((high - low + 1) / bins))
    width = next((nice for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000) if nice >= rough),
                 rough)
    return [(edge, edge + width - 1, sum(c for v, c in counts.items() if edge <= v <= edge + width - 1))
            for edge in range(low - low % width, high + 1, width)]


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion; None when n is 0."""
    if n <= 0:
        return None
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> tuple[float | None, float | None]:
    """Pooled two-proportion z-test of x1/n1 against x2/n2: (z, two-sided p).
    (None, None) when a side is empty; (0, 1) when both proportions are 0 or both 1."""
    if n1 <= 0 or n2 <= 0:
        return None, None
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (x1 / n1 - x2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))  # the two-sided p-value of a standard normal statistic


def holm(ps: list) -> list:
    """Holm's step-down adjustment of the p-values `ps` (None: no test, kept None): the k-th
    smallest of the m p-values times m - k + 1, never below an earlier one's, at most 1. An
    adjusted p below alpha rejects with a family-wise error rate of at most alpha."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    out: list = [None] * len(ps)
    running, m = 0.0, len(tested)
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def welch_t(a: Moments, b: Moments) -> tuple[float | None, float | None, float | None]:
    """Welch's t-test of mean(a) against mean(b): (t, degrees of freedom, two-sided p).
    Nones when a side has fewer than two observations. Two constant samples give p = 1 if
    their means are equal and p = 0 otherwise."""
    if a.n < 2 or b.n < 2:
        return None, None, None
    va, vb = a.variance / a.n, b.variance / b.n
    diff = a.mean - b.mean
    if va + vb == 0:
        return (0.0, None, 1.0) if diff == 0 else (math.copysign(math.inf, diff), None, 0.0)
    t = diff / math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va * va / (a.n - 1) if va else 0.0) + (vb * vb / (b.n - 1) if vb else 0.0))
    return t, df, student_t_two_sided(t, df)


def student_t_two_sided(t: float, df: float) -> float:
    """Two-sided p-value P(|T| >= |t|) of Student's t with `df` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    x = df / (df + t * t)
    return min(1.0, max(0.0, regularized_beta(x, df / 2, 0.5)))


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (the half-width factor of
    a 95% interval of a mean of df + 1 observations): bisection on `student_t_two_sided`."""
    if df >= 10_000:
        return Z95
    low, high = 0.0, 1.0e4
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if student_t_two_sided(middle, df) > 0.05 else (low, middle)
    return (low + high) / 2


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (continued fraction, Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return result
