"""Helpers of the claims ledger (the claims' verdicts themselves: test_claim_verdicts.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpbandits.checkpoints import default_checkpoints
from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE, Claim
from dpbandits.claims._core import combine, elimination_time, flat_from, mean_se, slope_changes, threshold_verdict
from dpbandits.claims.sajed2019 import dp_se_guarantee, shape_of


def test_slope_changes_and_flat_from():
    t = default_checkpoints(100_000)
    kinked = pd.DataFrame({"mean": 0.2 * np.minimum(t, 30_000) + 0.05 * np.clip(t - 30_000, 0, 30_000)}, index=t)
    n, of, share = slope_changes(kinked, granularity=0.5, t_min=1000)
    assert 1 <= n <= 2 and of > 50 and share >= 0.5
    assert shape_of(n, of, share) == "kinked"
    assert flat_from(kinked) == t[np.searchsorted(t, 60_000)]
    smooth = pd.DataFrame({"mean": 300 * np.sqrt(t)}, index=t)
    n, of, share = slope_changes(smooth, granularity=0.5, t_min=1000)
    assert n >= 0.8 * of and share < 0.1
    assert shape_of(n, of, share) == "smooth"
    assert flat_from(smooth) is None
    line = pd.DataFrame({"mean": 0.1 * t}, index=t)
    assert slope_changes(line, granularity=0.5)[0] == 0 and shape_of(0, 100, np.nan) == "straight"
    assert shape_of(40, 100, 0.1) == "neither"


@pytest.mark.parametrize("pulls, expected", [
    ("9000 500 400", 1400.0),  # the kept arm was pulled as often as the last one eliminated
    ("400 9000 500", 1400.0),  # whichever arm is kept
    ("3334 3333 3333", np.nan),  # a round cut by the horizon: still eliminating
    ("10000", np.nan),
])
def test_elimination_time(pulls, expected):
    assert elimination_time(pulls) == expected or (np.isnan(expected) and np.isnan(elimination_time(pulls)))


def test_verdict_helpers():
    assert combine([HOLDS, HOLDS]) == HOLDS and combine([HOLDS, INCONCLUSIVE]) == INCONCLUSIVE
    assert combine([INCONCLUSIVE, FAILS]) == FAILS and combine([]) == INCONCLUSIVE
    assert threshold_verdict(1.0, 0.05, 0.8, 1.25) == HOLDS
    assert threshold_verdict(1.2, 0.05, 0.8, 1.25) == INCONCLUSIVE
    assert threshold_verdict(1.5, 0.05, 0.8, 1.25) == FAILS
    m, s = mean_se([1.0, 2.0, 3.0])
    assert m == 2.0 and s == pytest.approx(1 / np.sqrt(3))
    assert np.isnan(mean_se([1.0])[1])


def test_dp_se_guarantee_at_paper_scale():
    """DP-SE's good-event schedule ends before T = 5e7 except in C4 with K = 10 or 20 (its tiny gaps)."""
    late = {f"{name}, K={k}" for name in ("C1", "C2", "C3", "C4") for k in (3, 5, 10, 20)
            if dp_se_guarantee(f"{name}, K={k}", 0.1, 5e7) >= 5e7}
    assert late == {"C4, K=10", "C4, K=20"}


def test_claim_row_has_kind():
    row = Claim("p", "c", "s", "crit", HOLDS, "e", {"x": 1.23456}).row()
    assert row["kind"] == "empirical" and row["numbers"] == "x=1.235"
