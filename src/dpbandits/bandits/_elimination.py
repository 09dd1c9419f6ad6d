"""The shared parts of the successive-elimination kernels (DP-SE: Sajed & Sheffet 2019, Algorithm 3; DP-SE 2:
Sajed's thesis, Algorithm 10): a run's buffers, the elimination after a release of noisy means, and the
exploitation of the last arm."""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from ._laws import reward_sum


@kernel
def run_buffers(means, checkpoints):
    """(gap float64[K], arms int64[K] (the viable arms, ascending, in arms[:m]; m = K at the start), sums float64[K],
    noisy float64[K], pulls int64[K], out float64[C]) of a run."""
    k = means.size
    out = np.empty(checkpoints.size)
    return means.max() - means, np.arange(k), np.zeros(k), np.zeros(k), np.zeros(k, dtype=np.int64), out


@kernel
def eliminate(arms, m, noisy, top, threshold):
    """Keep in arms[:m], in order, the arms a with ``not top - noisy[a] > threshold``; return how many stay.

    arms: int64[K] viable arms in arms[:m]; noisy: float64[K] released means; top: their maximum.
    """
    kept = 0
    for j in range(m):
        a = arms[j]
        if not top - noisy[a] > threshold:
            arms[kept] = a
            kept += 1
    return kept


@kernel
def exploit(a, n, means, pulls, rng, law):
    """Pull arm ``a`` ``n`` more times (pulls: int64[K]); return the rewards' sum, drawn from ``rng`` under reward
    law ``law`` (``_laws``)."""
    x = reward_sum(rng, law, n, means[a])
    pulls[a] += n
    return x
