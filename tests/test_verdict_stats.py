"""The ledger's verdict rules: Holm's step-down, the three outcomes of each family rule, and the range bounds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE
from dpbandits.claims._core import (
    TAIL,
    Family,
    holm,
    ordering_verdict,
    pvalue,
    spread_bounds,
    spread_tests,
    threshold_verdict,
)


def test_holm_hand_worked():
    """m = 5 at alpha 0.05: sorted 0.001 <= 0.01, 0.011 <= 0.0125, 0.02 > 0.0167 stops the steps; 0.04 and 0.03
    stay accepted though each is below 0.05 (Bonferroni would keep only the first; no correction all four)."""
    p = [0.04, 0.011, 0.001, 0.02, 0.03]
    assert holm(p, 0.05).tolist() == [False, True, True, False, False]
    assert holm([0.01, 0.02, 0.03], 0.05).tolist() == [True, True, True]  # 0.01 <= 0.0167, 0.02 <= 0.025, 0.03
    assert holm([np.nan, 0.001], 0.05).tolist() == [False, True] and holm([], 0.05).size == 0


def test_pvalue_is_the_student_t_tail():
    assert pvalue(2.0, 1.0, 3)[0] == pytest.approx(0.0696, abs=1e-4)  # P(t_3 > 2), from a t table
    assert pvalue([1.0, -1.0, 0.0], 0.0, 5).tolist() == [0.0, 1.0, 1.0]  # no noise: the sign decides
    assert pvalue(5.0, np.nan, 5)[0] == 1.0 and pvalue(5.0, 1.0, 0)[0] == 1.0  # one run: no evidence


def _diffs(d, se=1.0, df=np.inf):
    d = np.asarray(d, dtype=float)
    return [(d, np.full(d.shape, se), np.full(d.shape, df))]


@pytest.mark.parametrize(
    "d, verdict",
    [
        ([-3.0] * 20, HOLDS),  # every one beyond 2 s.e. below: no correction needed
        ([-3.0] * 19 + [-1.0], INCONCLUSIVE),  # one not shown
        ([-3.0] * 19 + [2.5], INCONCLUSIVE),  # one up 2.5 s.e. of 20: p = 0.0062 > 0.0228 / 20 under Holm
        ([-3.0] * 19 + [4.0], FAILS),  # p = 3.2e-5 < 0.0228 / 20
    ],
)
def test_ordering_three_outcomes(d, verdict):
    assert ordering_verdict(_diffs(d)) == verdict


def test_ordering_single_comparison_keeps_the_t_tail():
    assert ordering_verdict(_diffs([2.5], df=99)) == FAILS  # alone, 2.5 s.e. > t_99 = 2.03
    assert ordering_verdict(_diffs([2.5], df=3)) == INCONCLUSIVE  # t_3 = 3.31


@pytest.mark.parametrize(
    "values, verdict",
    [
        ([1.0] * 10, HOLDS),
        ([1.0] * 9 + [1.2], INCONCLUSIVE),  # at 1 s.e. of the upper bound 1.25
        ([1.0] * 9 + [1.4], INCONCLUSIVE),  # 3 s.e. above: p = 0.00135 > 0.0228 / 20 (two bounds each)
        ([1.0] * 9 + [1.5], FAILS),  # 5 s.e.
        ([1.0] * 9 + [0.6], FAILS),  # below the lower bound
    ],
)
def test_threshold_three_outcomes(values, verdict):
    assert threshold_verdict(values, 0.05, 0.8, 1.25) == verdict


def test_some_claims_mirror_every_claims():
    """'Some component holds': Holm on the hold p-values, every fail p-value at the tail to fail."""
    assert Family(np.array([1e-4, 0.5]), np.array([0.5, 0.5])).verdict(every=False) == HOLDS
    assert Family(np.array([0.015, 0.5]), np.array([0.5, 0.5])).verdict(every=False) == INCONCLUSIVE  # 0.015 > 0.0114
    assert Family(np.array([0.5, 0.5]), np.array([0.01, 0.02])).verdict(every=False) == FAILS
    assert Family(np.zeros(0), np.zeros(0)).verdict() == INCONCLUSIVE


def test_spread_bounds_from_order_statistics():
    """20 evenly spaced runs 0, 1, ..., 19: the 100-run spread is at least q(1 - a) - q(a), a = 1 - 4^(-1/100);
    X_(18) bounds q(1 - a) from below because P(Bin(20, 1 - a) <= 17) <= TAIL / 2 while P(.. <= 18) is not,
    and X_(3) bounds q(a) from above; no order statistic of 20 runs bounds the extremes of 100 from outside."""
    a = 1 - 4 ** (-1 / 100)
    assert stats.binom.cdf(17, 20, 1 - a) <= TAIL / 2 < stats.binom.cdf(18, 20, 1 - a)
    assert spread_bounds(np.arange(20.0), 100) == (17.0 - 2.0, np.inf)
    x = np.arange(1500.0)
    low, high = spread_bounds(x, 100)
    assert 0 < low < high <= 1499.0


@pytest.mark.parametrize(
    "n, spread, verdict",
    [
        (1500, 100.0, HOLDS),  # enough runs to bound the extremes of 100: upper bound 100 < 664.5
        (100, 100.0, INCONCLUSIVE),  # 100 runs cannot bound the next 100 runs' extremes from above
        (20, 1000.0, FAILS),  # lower bound 1000 * 15 / 19 = 789 > 664.5
        (20, 800.0, INCONCLUSIVE),  # lower bound 632 < 664.5
    ],
)
def test_spread_three_outcomes(n, spread, verdict):
    assert spread_tests(np.linspace(0, spread, n), 664.5, 100).verdict() == verdict


def test_spread_verdict_agrees_with_its_bounds():
    """The fail p-value is at most the tail exactly when the lower bound exceeds c, and likewise for holds."""
    rng = np.random.default_rng(0)
    for n in (10, 50, 300, 2000):
        x = rng.exponential(100.0, n)
        low, high = spread_bounds(x, 100)
        for c in np.linspace(0, 2 * np.ptp(x), 41):
            t = spread_tests(x, c, 100)
            assert (t.fail[0] <= TAIL) == (low > c) and (t.hold[0] <= TAIL) == (high < c)


def test_chen_c1_counts_a_competitors_win_only_beyond_holm_over_the_panels_points():
    """A competitor ahead at one point of 20 by 2.4 s.e. (one-sided p = 0.0082 at 999 df) is within Holm's
    step-down (0.0228 / 20 = 0.00114), so it does not fail C1; ahead by 4 s.e. (p = 3.4e-5) it does."""
    import pandas as pd

    from dpbandits.claims.chen2024 import OUTPERFORM, outperforms

    def gaps(lead_at_last):
        d = [OUTPERFORM + 0.1] * 19 + [-lead_at_last * 0.01]
        idx = pd.MultiIndex.from_tuples([(0, x) for x in range(20)], names=["panel", "x"])
        se, df = [0.01] * 20, [999.0] * 20
        w = [2.0 * 0.01] * 20  # the half-width of the per-point rule (critical value about 2)
        return pd.DataFrame({"d": d, "w": w, "se": se, "df": df}, index=idx)

    assert outperforms(gaps(2.4))[0] == HOLDS  # 19 of 20 points won, the one loss not beyond Holm
    assert outperforms(gaps(4.0))[0] == FAILS
    assert "1 lost" in outperforms(gaps(4.0))[1]["panel 0"]
