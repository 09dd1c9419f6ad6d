"""Confidence bounds of the audit: one-sided Clopper-Pearson bounds and the lower bound of a log ratio."""

from __future__ import annotations

import numpy as np
from scipy.stats import beta as beta_dist


def clopper_pearson(k, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds (lower, upper) for k successes out of n, each at ``level``.

    P(p < lower) <= level and P(p > upper) <= level; arrays broadcast over ``k``.
    """
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, beta_dist.ppf(level, np.maximum(k, 1), n - k + 1), 0.0)
        hi = np.where(k < n, beta_dist.ppf(1 - level, k + 1, np.maximum(n - k, 1)), 1.0)
    return lo, hi


def log_ratio_lower(k1, n1: int, k2, n2: int, level: float, delta: float = 0.0) -> np.ndarray:
    """Lower confidence bound of log((p1 - delta) / p2) from counts; -inf where p1's bound <= delta."""
    lo, _ = clopper_pearson(k1, n1, level)
    _, hi = clopper_pearson(k2, n2, level)
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(lo - delta, 0.0)) - np.log(hi)


def smoothed_log_ratio(k1, n1, k2, n2):
    return np.log((np.asarray(k1) + 0.5) / (n1 + 1)) - np.log((np.asarray(k2) + 0.5) / (n2 + 1))
