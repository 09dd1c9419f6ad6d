"""numba building blocks shared by the regret kernels (one run per call)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def bernoulli(rng, p):
    """One Bernoulli(p) reward in {0., 1.} from one uniform."""
    return 1.0 if rng.random() < p else 0.0


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def fill_linear(out, checkpoints, c, t0, regret0, t1, rate):
    """Fill checkpoints in (t0, t1] of a segment whose regret grows by ``rate`` per step.

    Used by collapsed kernels (epochs pulled round-robin or by one arm). Returns the next slot.
    """
    while c < checkpoints.size and checkpoints[c] <= t1:
        out[c] = regret0 + rate * (checkpoints[c] - t0)
        c += 1
    return c

@njit(cache=True, nogil=True)
def fill_round_robin(out, checkpoints, c, t0, regret0, arms, m, gap, t1):
    """Fill checkpoints in (t0, t1] of pulls cycling over ``arms[:m]`` in order, starting at a round start.

    At t = t0 + q m + s (0 <= s < m) the regret is regret0 + q sum(gap[arms[:m]]) + sum_{j<s} gap[arms[j]].
    Returns the next checkpoint slot.
    """
    rate = 0.0
    for j in range(m):
        rate += gap[arms[j]]
    while c < checkpoints.size and checkpoints[c] <= t1:
        q, s = divmod(checkpoints[c] - t0, m)
        v = regret0 + q * rate
        for j in range(s):
            v += gap[arms[j]]
        out[c] = v
        c += 1
    return c


def resolve_beta(beta: float | None, horizon: int) -> float:
    """beta, with None meaning 1/T (the thesis experiments, Th:891)."""
    return 1.0 / horizon if beta is None else beta


def gaps(means: np.ndarray) -> np.ndarray:
    """float64[K] of mu* - mu_a."""
    return means.max() - means
