"""numba building blocks shared by the regret kernels (one run per call)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def bernoulli(rng, p):
    """One Bernoulli(p) reward in {0., 1.} from one uniform."""
    return 1.0 if rng.random() < p else 0.0


@njit(cache=True)
def argmax_ties(values, rng, random_ties):
    """Index of the maximum; ties broken uniformly at random if ``random_ties`` else lowest index.

    Draws ``rng.integers(0, m)`` only when m > 1 maximisers exist.
    """
    best = values[0]
    count = 1
    arg = 0
    for i in range(1, values.size):
        v = values[i]
        if v > best:
            best = v
            count = 1
            arg = i
        elif v == best:
            count += 1
    if count == 1 or not random_ties:
        return arg
    pick = rng.integers(0, count)
    for i in range(values.size):
        if values[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return arg


@njit(cache=True, inline="always")
def record(out, checkpoints, c, t, regret):
    """Store ``regret`` at every checkpoint equal to step ``t``; return the next checkpoint slot."""
    while c < checkpoints.size and checkpoints[c] == t:
        out[c] = regret
        c += 1
    return c


@njit(cache=True)
def fill_linear(out, checkpoints, c, t0, regret0, t1, rate):
    """Fill checkpoints in (t0, t1] of a segment whose regret grows by ``rate`` per step.

    Used by collapsed kernels (epochs pulled round-robin or by one arm). Returns the next slot.
    """
    while c < checkpoints.size and checkpoints[c] <= t1:
        out[c] = regret0 + rate * (checkpoints[c] - t0)
        c += 1
    return c


def gaps(means: np.ndarray) -> np.ndarray:
    """float64[K] of mu* - mu_a."""
    return means.max() - means
