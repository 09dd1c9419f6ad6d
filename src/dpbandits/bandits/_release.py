"""The epoch release of the successive-elimination kernels (DP-SE, DP-SE 2): Laplace noise on the means.

One function, so that the noise draw of both kernels is a unit the tests can sample directly (a halved
scale here is caught by ``tests/test_dp_se.py``, where the kernels' regret barely moves).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel


@kernel
def noisy_means(sums, n, arms, m, scale, rng, noisy):
    """noisy[a] = sums[a] / n + Lap(scale) for the viable arms a = arms[0], ..., arms[m-1], drawn in that
    order; returns the largest of them. sums: float64[K] reward sums of n pulls each; noisy: float64[K]."""
    top = -np.inf
    for j in range(m):
        a = arms[j]
        noisy[a] = sums[a] / n + rng.laplace(0.0, scale)
        top = max(top, noisy[a])
    return top
