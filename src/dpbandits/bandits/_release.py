"""The epoch release of the successive-elimination kernels (DP-SE, DP-SE 2): Laplace noise on the means.

One function, so that the noise draw of both kernels is a unit the tests can sample directly (a halved
scale here is caught by ``tests/test_dp_se.py``, where the kernels' regret barely moves).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from ..mechanisms.ledger import LAPLACE, next_draw, note


@kernel
def noisy_means(sums, n, arms, m, scale, rng, noisy, book=None, pulls=None):
    """noisy[a] = sums[a] / n + Lap(scale) for the viable arms a = arms[0], ..., arms[m-1], drawn in that
    order; returns the largest of them. sums: float64[K] reward sums of n pulls each; noisy: float64[K].
    With a release ``book`` (:mod:`dpbandits.mechanisms.ledger`), each release is noted as reading the arm's last
    n entries (``pulls``: int64[K] its pulls so far)."""
    top = -np.inf
    for j in range(m):
        a = arms[j]
        noise = rng.laplace(0.0, scale)
        noisy[a] = sums[a] / n + noise
        if book is not None:
            note(book, LAPLACE, a, pulls[a] - n + 1, pulls[a], 1.0 / n, scale, next_draw(book), noise)
        top = max(top, noisy[a])
    return top
