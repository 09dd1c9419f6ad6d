"""Helpers of the claims ledger (the claims' verdicts themselves: test_claim_verdicts.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE, Claim
from dpbandits.claims._core import (
    combine,
    critical,
    elimination_time,
    flat_from,
    halfwidth,
    mean_se,
    ordering_verdict,
    ratio,
    satterthwaite,
    threshold_verdict,
)
from dpbandits.claims.sajed2019 import curve_shape, dp_se_guarantee, shape_of
from dpbandits.core.checkpoints import default_checkpoints


def _curve(t, mean, sem_step=0.0, runs=30):
    return pd.DataFrame({"mean": mean, "sem_step": sem_step, "runs": runs}, index=t)


def test_curve_shape_and_flat_from():
    t = default_checkpoints(100_000)
    kinked = _curve(t, 0.2 * np.minimum(t, 30_000) + 0.05 * np.clip(t - 30_000, 0, 30_000))
    shape = curve_shape(kinked, granularity=0.5, t_min=1000)
    assert 1 <= shape["slope changes"] <= 2 and shape["checkpoints"] > 50 and shape["largest share"] >= 0.5
    assert shape["shape"] == "kinked"
    assert flat_from(kinked) == t[np.searchsorted(t, 60_000)]
    smooth = _curve(t, 300 * np.sqrt(t))
    shape = curve_shape(smooth, granularity=0.5, t_min=1000)
    assert shape["fraction"] >= 0.8 and shape["largest share"] < 0.1 and shape["shape"] == "smooth"
    assert flat_from(smooth) is None
    assert curve_shape(_curve(t, 0.1 * t), granularity=0.5, t_min=0)["shape"] == "straight"
    assert shape_of(0, 100, np.nan) == "straight" and shape_of(40, 100, 0.1) == "neither"


def test_curve_shape_uncertain_when_noise_hides_the_changes():
    """The same smooth mean curve, read from runs whose increments scatter: counting only the slope changes beyond
    their t interval it looks kinked, counting every change the noise allows it looks smooth."""
    t = default_checkpoints(100_000)
    mean = 300 * np.sqrt(t)
    noisy = curve_shape(_curve(t, mean, sem_step=0.05 * np.diff(mean, prepend=0.0)), granularity=0.5, t_min=1000)
    assert noisy["slope changes"] < noisy["possible changes"] and noisy["shape"] == "uncertain"
    few = curve_shape(_curve(t, mean, sem_step=1e-3 * np.diff(mean, prepend=0.0), runs=4), 0.5, 1000)
    assert few["shape"] == "smooth"


def test_t_quantiles_and_welch_degrees_of_freedom():
    """Critical values are Student t at the tail of 2 normal s.e.; Welch's df match scipy's two-sample t-test."""
    assert float(critical(np.inf)) == pytest.approx(2.0)
    assert float(critical(3)) == pytest.approx(stats.t.ppf(stats.norm.cdf(2.0), 3)) and float(critical(3)) > 3.3
    assert np.isnan(critical(0)) and float(halfwidth(0.0, 0)) == 0.0  # one run: no interval, except for no noise
    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 1, 4), rng.normal(0, 5, 9)
    sa, sb = a.std(ddof=1) / 2, b.std(ddof=1) / 3
    assert float(satterthwaite([sa, sb], [3, 8])) == pytest.approx(stats.ttest_ind(a, b, equal_var=False).df)
    assert float(satterthwaite([0.0, 0.0], [3, 8])) == np.inf
    # the same 2.5-s.e. difference: beyond the interval with 100 runs, not with 4
    assert threshold_verdict(2.5, 1.0, high=0.0, df=99) == FAILS
    assert threshold_verdict(2.5, 1.0, high=0.0, df=3) == INCONCLUSIVE
    assert ordering_verdict([(np.array([-2.5]), np.array([1.0]), np.array([99.0]))]) == HOLDS
    assert ordering_verdict([(np.array([-2.5]), np.array([1.0]), np.array([3.0]))]) == INCONCLUSIVE
    r, se, df = ratio(10.0, 1.0, 5.0, 0.5, 3, 3)
    assert (r, se) == pytest.approx((2.0, 2.0 * np.hypot(0.1, 0.1))) and df == pytest.approx(6.0)


@pytest.mark.parametrize(
    "pulls, expected",
    [
        ("9000 500 400", 1400.0),  # the kept arm was pulled as often as the last one eliminated
        ("400 9000 500", 1400.0),  # whichever arm is kept
        ("3334 3333 3333", np.nan),  # a round cut by the horizon: still eliminating
        ("10000", np.nan),
    ],
)
def test_elimination_time(pulls, expected):
    assert elimination_time(pulls) == expected or (np.isnan(expected) and np.isnan(elimination_time(pulls)))


def test_verdict_helpers():
    assert combine([HOLDS, HOLDS]) == HOLDS and combine([HOLDS, INCONCLUSIVE]) == INCONCLUSIVE
    assert combine([INCONCLUSIVE, FAILS]) == FAILS and combine([]) == INCONCLUSIVE
    assert threshold_verdict(1.0, 0.05, 0.8, 1.25) == HOLDS
    assert threshold_verdict(1.2, 0.05, 0.8, 1.25) == INCONCLUSIVE
    assert threshold_verdict(1.5, 0.05, 0.8, 1.25) == FAILS
    m, s, df = mean_se([1.0, 2.0, 3.0])
    assert m == 2.0 and s == pytest.approx(1 / np.sqrt(3)) and df == 2
    assert np.isnan(mean_se([1.0])[1])


def test_dp_se_guarantee_at_paper_scale():
    """DP-SE's good-event schedule ends before T = 5e7 except in C4 with K = 10 or 20 (its tiny gaps)."""
    late = {
        f"{name}, K={k}"
        for name in ("C1", "C2", "C3", "C4")
        for k in (3, 5, 10, 20)
        if dp_se_guarantee(f"{name}, K={k}", 0.1, 5e7) >= 5e7
    }
    assert late == {"C4, K=10", "C4, K=20"}


def test_claim_row_has_kind():
    row = Claim("p", "c", "s", "crit", HOLDS, "e", {"x": 1.23456}).row()
    assert row["kind"] == "empirical" and row["numbers"] == "x=1.235"
