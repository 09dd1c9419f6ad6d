"""Lazy, forgetful per-arm doubling epochs of Hu & Hegde (Alg. 1 lines 5-8 = Alg. 3 lines 6-9).

Arm j's pulls are cut into epochs of sizes 1 (the initial pull), 2, 4, 8, ... When an epoch of
2^(r+1) pulls completes, the arm's private mean becomes (epoch reward sum + Lap(1/epsilon)) / 2^(r+1)
computed from that epoch alone, O_j = 2^(r+1), and the epoch's data are discarded.

The decisions read only (private mean, O_j, t) and the pull counts, never a reward inside an open
epoch, so each epoch's reward sum is drawn as one Binomial(2^(r+1), mu_j) when the epoch closes:
exactly the law of the sum of the per-pull Bernoulli rewards (under another law, the sum of the
epoch's draws: :mod:`._laws`).

Per-round helpers take no generator argument: passing a numpy Generator into an njit function
costs ~35 ns per call (reference counting), so the generator is only handed to ``lazy_close``
(once per epoch) and to ``_generator.pick_tie`` (only when several maximisers exist).

State, all float64/int64 arrays of length K, created by :func:`lazy_state`:
``cur`` pulls in the open epoch (N_j), ``size`` size of the open epoch (2^(r_j+1)),
``obs`` O_j (0 before the initial pull), ``mu`` private mean of the last closed epoch.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import helper, kernel
from ..mechanisms.ledger import LAPLACE, next_draw, note
from ._laws import reward_sum


@kernel
def lazy_state(k):
    """(cur int64[K], size int64[K], obs float64[K], mu float64[K]) before the first pull (r = -1)."""
    return np.zeros(k, dtype=np.int64), np.ones(k, dtype=np.int64), np.zeros(k), np.zeros(k)


@helper
def lazy_count(a, cur, size):
    """Count one pull of arm ``a``; True if it completes the arm's open epoch (then call lazy_close)."""
    cur[a] += 1
    return cur[a] == size[a]


@kernel
def lazy_close(a, means, epsilon, rng, cur, size, obs, mu, law=0, book=None):
    """Close arm ``a``'s complete epoch and return its reward sum Phi.

    Draws Phi, the sum of size[a] rewards (``_laws.reward_sum``: one Binomial(size[a], means[a]) under law
    0), then one Lap(1/epsilon) on the sum; sets
    obs[a] = size[a], mu[a] = (Phi + noise) / obs[a], doubles size[a] and empties the epoch.
    With a release ``book`` (:mod:`dpbandits.mechanisms.ledger`) the release is noted: the epoch of m = size[a]
    pulls follows the closed ones of 1, 2, ..., m/2 pulls, so it holds the arm's entries m..2m-1 (weight 1).
    """
    m = size[a]
    phi = reward_sum(rng, law, m, means[a])
    obs[a] = m
    scale = 1.0 / epsilon
    noise = rng.laplace(0.0, scale)
    mu[a] = (phi + noise) / m
    if book is not None:
        note(book, LAPLACE, a, m, 2 * m - 1, 1.0, scale, next_draw(book), noise)
    size[a] = 2 * m
    cur[a] = 0
    return phi


@kernel
def open_epoch_rewards(means, rng, cur, law=0):
    """Reward sum of the epochs still open at the horizon: the sums of cur[j] rewards of each arm j."""
    total = 0.0
    for j in range(means.size):
        if cur[j] > 0:
            total += reward_sum(rng, law, cur[j], means[j])
    return total
