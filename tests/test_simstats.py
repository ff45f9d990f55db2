"""The statistics behind `sorry-play simulate` and `compare`, checked against values worked
out by hand or taken from standard statistical tables (not from this code's output)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from sorry_rules.simulation.simstats import (Moments, histogram, holm, quantile, regularized_beta, student_t_two_sided,
                                  two_proportion_z, welch_t, wilson)


def test_wilson_interval_matches_the_formula_worked_by_hand():
    # 50/100: centre 0.5, half-width 1.96*sqrt(0.0025 + 1.96^2/40000)/(1 + 1.96^2/100) = 0.09617
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-4) and high == pytest.approx(0.59617, abs=1e-4)
    # 0/10: the interval starts at 0 and reaches z^2/(n+z^2) = 3.8415/13.8415
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] == pytest.approx(1 - 3.8415 / 13.8415, abs=1e-4)
    assert wilson(0, 0) is None


def test_two_proportion_z_test_worked_by_hand():
    # 60/100 vs 40/100: pooled p 0.5, se sqrt(0.25 * 0.02) = 0.070711, z = 2.8284
    z, p = two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(2.8284, abs=1e-4)
    assert p == pytest.approx(math.erfc(2.8284 / math.sqrt(2)), abs=1e-5)
    assert p == pytest.approx(0.004678, abs=1e-5)
    assert two_proportion_z(0, 50, 0, 70) == (0.0, 1.0)
    assert two_proportion_z(1, 0, 1, 5) == (None, None)


@pytest.mark.parametrize("t, df, p", [
    (2.228139, 10, 0.05),    # t table: 97.5% quantile, 10 degrees of freedom
    (2.570582, 5, 0.05),
    (2.845340, 20, 0.01),    # 99.5% quantile, 20 df
    (12.706205, 1, 0.05),
    (1.959964, 1e9, 0.05),   # the normal limit
    (0.0, 7, 1.0),
])
def test_student_t_two_sided_p_values_match_tables(t, df, p):
    assert student_t_two_sided(t, df) == pytest.approx(p, rel=1e-5, abs=1e-9)
    assert student_t_two_sided(-t, df) == pytest.approx(p, rel=1e-5, abs=1e-9)


def test_regularized_beta_known_values():
    assert regularized_beta(0.5, 1, 1) == pytest.approx(0.5)
    assert regularized_beta(0.3, 2, 1) == pytest.approx(0.09)        # I_x(2,1) = x^2
    assert regularized_beta(0.3, 1, 3) == pytest.approx(1 - 0.7 ** 3)  # I_x(1,b) = 1-(1-x)^b


def _moments(values):
    m = Moments()
    for v in values:
        m.add(v)
    return m


def test_welch_t_statistic_and_degrees_of_freedom_worked_by_hand():
    a, b = _moments([1, 2, 3, 4, 5]), _moments([2, 4, 6, 8, 10])
    # means 3 and 6, variances 2.5 and 10: se = sqrt(0.5 + 2), df = 2.5^2 / (0.5^2/4 + 2^2/4)
    t, df, p = welch_t(a, b)
    assert t == pytest.approx(-3 / math.sqrt(2.5))
    assert df == pytest.approx(6.25 / (0.0625 + 1.0))
    assert p == pytest.approx(student_t_two_sided(t, df))
    assert 0.1 < p < 0.12
    assert welch_t(_moments([4, 4]), _moments([4, 4, 4]))[2] == 1.0
    assert welch_t(_moments([4, 4]), _moments([5, 5]))[2] == 0.0
    assert welch_t(_moments([4]), _moments([5, 5])) == (None, None, None)


def test_moments_are_exact_and_merge_in_any_order():
    rng = random.Random(3)
    values = [rng.randrange(50, 900) for _ in range(500)]
    whole = _moments(values)
    parts = [_moments(values[i:i + 37]) for i in range(0, len(values), 37)]
    for order in (parts, parts[::-1]):
        merged = Moments()
        for part in order:
            merged.merge(part)
        assert merged == whole
    assert whole.mean == pytest.approx(statistics.fmean(values))
    assert whole.variance == pytest.approx(statistics.variance(values))


def test_quantiles_from_counts_are_exact_nearest_rank():
    rng = random.Random(5)
    for n in (1, 2, 9, 10, 101, 400):
        values = [rng.randrange(20, 60) for _ in range(n)]
        counts = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        ordered = sorted(values)
        assert quantile(counts, 0.5) == statistics.median_low(values)
        assert quantile(counts, 0.9) == ordered[math.ceil(0.9 * n) - 1]
        assert quantile(counts, 1.0) == ordered[-1]
    assert quantile({}, 0.5) is None


def test_histogram_bins_cover_every_count_once():
    counts = {37: 2, 45: 1, 99: 5, 250: 1, 251: 3}
    bins = histogram(counts, bins=12)
    assert len(bins) <= 12
    assert sum(c for _, _, c in bins) == sum(counts.values())
    assert bins[0][0] <= 37 and bins[-1][1] >= 251
    for (lo, hi, _), (next_lo, _, _) in zip(bins, bins[1:]):
        assert next_lo == hi + 1
    for value, count in counts.items():
        assert sum(c for lo, hi, c in bins if lo <= value <= hi) >= count


def test_the_interval_of_a_mean_uses_students_t():
    """The 95% interval of a mean of n games has half-width t(0.975, n - 1) * sd / sqrt(n): with
    few games far wider than the normal 1.96 (published quantiles: 12.706, 4.303, 2.228, 2.042)."""
    from sorry_rules.simulation.simstats import t95

    for df, published in ((1, 12.706), (2, 4.303), (10, 2.228), (30, 2.042), (120, 1.980)):
        assert abs(t95(df) - published) < 5e-4, df
    assert abs(t95(100_000) - 1.95996) < 1e-4


def test_the_interval_of_a_mean_stops_at_the_lowest_value():
    """A mean of counts that are mostly 0 (doubles in a row) has a 95% interval from 0 up,
    not below 0 (no count is negative), merged too."""
    from sorry_rules.simulation.simreport import _with_interval

    a, b = Moments(), Moments()
    for value in (0, 0, 0, 0, 0, 0, 0, 1):
        a.add(value)
    b.merge(a)
    assert _with_interval(b)["ci95"][0] == 0 and _with_interval(b)["ci95"][1] > b.mean


def test_a_difference_of_rates_rounds_its_halves_alike_both_ways():
    """35.0% -> 38.75% and 35.0% -> 31.25% are +3.75 and -3.75 points: shown +3.8 and -3.8
    (float noise made them +3.8 and -3.7)."""
    from sorry_rules.simulation.simreport import _fmt_value

    rate = {"kind": "rate"}
    assert _fmt_value(rate, 31 / 80 - 28 / 80, "+", " pt") == "+3.8 pt"
    assert _fmt_value(rate, 25 / 80 - 28 / 80, "+", " pt") == "-3.8 pt"
    assert _fmt_value(rate, 31 / 80) == "38.8%" and _fmt_value({"kind": "mean"}, 2.345) == "2.35"


def test_win_rate_names_longer_than_the_column_keep_the_figures_in_line():
    """A partnership's side lines ("side red + yellow (seats 1, 3)") are wider than the seats':
    every figure of the win-rate block starts in one column."""
    from click.testing import CliRunner

    from sorry_rules.cli.app import main

    result = CliRunner().invoke(main, ["simulate", "--variant", "partnership", "--games", "4", "--no-progress"])
    assert result.exit_code == 0, result.output
    block = result.stdout.split("\n\n")[1].splitlines()
    assert block[0].startswith("Win rate") and any("side red + yellow" in line for line in block)
    assert len({line.index("%") for line in block[1:]}) == 1, block


def test_the_interval_of_a_mean_is_not_cut_at_the_values_seen():
    """Three winners' scores 34, 96, 34: the t-interval (mean 54.67 -/+ 4.303 * 35.80 / sqrt 3)
    reaches past every game, and stays so (cut there, it would hold the mean far less often
    than 95%), merged too."""
    from sorry_rules.simulation.simreport import _with_interval

    a, b = Moments(), Moments()
    for value in (34, 96, 34):
        a.add(value)
    b.merge(a)
    low, high = _with_interval(b, -math.inf)["ci95"]
    assert low < 34 and high > 96 and abs((low + high) / 2 - b.mean) < 1e-9


def test_holm_adjusts_p_values_step_down_as_worked_by_hand():
    """Holm's method: sorted p-values times (m - rank), made monotone and cut at 1; Nones
    are not tested and stay None."""
    ps = [0.01, 0.04, None, 0.03, 0.005, 0.5]
    # sorted: 0.005*5 = 0.025, 0.01*4 = 0.04, 0.03*3 = 0.09, 0.04*2 = 0.08 -> 0.09 (monotone), 0.5*1 = 0.5
    assert holm(ps) == pytest.approx([0.04, 0.09, None, 0.09, 0.025, 0.5])
    assert holm([0.9, 0.8]) == [1.0, 1.0] and holm([]) == [] and holm([None]) == [None]


def test_holm_keeps_the_family_wise_error_rate_where_raw_tests_do_not():
    """Under the null (uniform p-values), 10 tests at 0.05 give at least one raw star in
    about 40% of reports; after Holm's adjustment at most 5%."""
    rng = random.Random(7)
    runs, raw, adjusted = 4000, 0, 0
    for _ in range(runs):
        ps = [rng.random() for _ in range(10)]
        raw += any(p < 0.05 for p in ps)
        adjusted += any(p < 0.05 for p in holm(ps))
    assert raw / runs > 0.35 and adjusted / runs <= 0.06
