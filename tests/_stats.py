"""Two-sample tests with fixed thresholds, shared by the equivalence tests."""

import numpy as np
from scipy import stats

ALPHA = 1e-3  # false-alarm rate of each distributional equivalence test


def same_distribution(x, y, alpha=ALPHA):
    """Two-sample Kolmogorov-Smirnov (continuous-ish) test: True if not rejected at ``alpha``."""
    return stats.ks_2samp(np.asarray(x), np.asarray(y)).pvalue > alpha


def same_counts(a, b, alpha=ALPHA):
    """Per-arm two-sample KS tests of per-run pull counts (rows = runs), Bonferroni over arms.

    Runs are the independent units: pooling pulls across runs would ignore their correlation.
    KS is conservative for discrete data, so the false-alarm rate stays below ``alpha``.
    """
    a, b = np.asarray(a), np.asarray(b)
    k = a.shape[1]
    return all(stats.ks_2samp(a[:, i], b[:, i]).pvalue > alpha / k for i in range(k))


def same_paths(a, b, alpha=ALPHA):
    """Per-checkpoint two-sample KS tests of regret paths (rows = runs, columns = checkpoints), Bonferroni over
    checkpoints: True if none rejects. The path sees *when* decisions happen, which the final value may not."""
    a, b = np.asarray(a), np.asarray(b)
    c = a.shape[1]
    return all(same_distribution(a[:, j], b[:, j], alpha / c) for j in range(c))


def same_spread(x, y, alpha=ALPHA):
    """Brown-Forsythe test (Levene's, centred at the median) of equal spread of two samples: True if not rejected at
    ``alpha``. KS has little power against a change of scale alone; this test is built for it."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.std() == 0 and y.std() == 0:
        return bool(np.median(x) == np.median(y))
    return stats.levene(x, y, center="median").pvalue > alpha
