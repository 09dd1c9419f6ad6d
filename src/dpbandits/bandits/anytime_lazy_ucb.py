"""Anytime-Lazy-UCB (Hu, Huang, Mehta & Hegde, arXiv 2102.07929 v3, Algorithm 1).

Rounds 1..K pull each arm once; then at round t pull argmax_j of
    mu~_j + sqrt(3 ln t / O_j) + 3 ln t / (epsilon O_j),
where mu~_j is the private mean of arm j's last closed lazy epoch of O_j = 2^r_j pulls
(see :mod:`._lazy`). Anytime: the horizon is never read. Rewards are drawn per epoch as one
Binomial (exact).

Between two epoch closes every index is a fixed function a_j + b_j s + c_j s^2 of s = sqrt(ln t),
so the times at which two indices cross can be bounded analytically. After a round whose maximiser is
unique, the kernel certifies how many more rounds that arm stays the unique maximiser of the
*rounded* indices (:func:`certified`: each difference stays above a bound on the rounding error,
checked where a quadratic can be smallest) and pulls it for all of them at once. The decisions,
pulls, draws and releases are those of the per-round loop (``collapse=False``), bit for bit; only
the regret sum is accumulated by multiplication instead of one addition per round.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Contract, Setting, register
from ._generator import argmax_count, pick_tie
from ._laws import law_args, recorded
from ._lazy import lazy_close, lazy_count, lazy_state, open_epoch_rewards
from ._params import TIE_BREAK
from ._regret import fill_linear

SLACK = 1e-12  # certified lead, relative to the index terms; the rounding error is below 1e-14


@kernel
def certified(a, s1, s2, mu, hoeff, lap):
    """True if arm ``a``'s rounded index beats every other arm's at every s in [s1, s2].

    index_j(s) = mu_j + hoeff_j s + lap_j s^2. For each j the lead minus SLACK times the terms'
    magnitudes is a quadratic G(s); it is positive on [s1, s2] if it is at both ends and, when G
    is convex, at its vertex.
    """
    for j in range(mu.size):
        if j == a:
            continue
        g0 = (mu[a] - mu[j]) - SLACK * (abs(mu[a]) + abs(mu[j]))
        g1 = (hoeff[a] - hoeff[j]) - SLACK * (hoeff[a] + hoeff[j])
        g2 = (lap[a] - lap[j]) - SLACK * (lap[a] + lap[j])
        if g0 + s1 * (g1 + s1 * g2) <= 0.0 or g0 + s2 * (g1 + s2 * g2) <= 0.0:
            return False
        if g2 > 0.0:
            v = -g1 / (2.0 * g2)
            if s1 < v < s2 and g0 + v * (g1 + v * g2) <= 0.0:
                return False
    return True


@kernel
def run_length(a, t, most, mu, hoeff, lap):
    """Rounds t, t+1, ..., t+m-1 (1 <= m <= most) in which arm ``a``, the unique maximiser at round t,
    is certified to stay the unique maximiser: the whole ``most`` if possible, else found by bisection."""
    if most <= 1:
        return most
    s1 = math.sqrt(math.log(t + 1))
    if certified(a, s1, math.sqrt(math.log(t + most - 1)), mu, hoeff, lap):
        return most
    if not certified(a, s1, s1, mu, hoeff, lap):
        return 1
    lo, hi = 2, most  # rounds t .. t+lo-1 certified, t .. t+hi-1 not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if certified(a, s1, math.sqrt(math.log(t + mid - 1)), mu, hoeff, lap):
            lo = mid
        else:
            hi = mid
    return lo


@kernel
def anytime_lazy_ucb_kernel(means, horizon, epsilon, checkpoints, rng, random_ties, collapse=True, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum, obs[K], mu[K]): final O_j and private means.

    ``collapse=False`` decides round by round (the same result; kept for the equivalence test); ``law``: reward
    law code (``_laws``; the epochs read only their reward sums, so the run lengths hold under every law);
    ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`) that records each epoch's release, or None.
    """
    k = means.size
    gap = means.max() - means
    cur, size, obs, mu = lazy_state(k)
    hoeff = np.zeros(k)  # sqrt(3 / O_j)
    lap = np.zeros(k)  # 3 / (epsilon O_j)
    n = np.zeros(k, dtype=np.int64)
    index = np.empty(k)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    c = 0
    t = 1
    while t <= horizon:
        m = 1
        if t <= k:
            a = t - 1
        else:
            lt = math.log(t)
            slt = math.sqrt(lt)
            for i in range(k):
                index[i] = mu[i] + hoeff[i] * slt + lap[i] * lt
            a, ties = argmax_count(index)
            if ties > 1 and random_ties:
                a = pick_tie(index, a, ties, rng)
            elif ties == 1 and collapse:
                m = run_length(a, t, min(size[a] - cur[a], horizon - t + 1), mu, hoeff, lap)
        cur[a] += m - 1  # rounds t .. t+m-2 cannot complete the epoch (m <= its remaining pulls)
        if lazy_count(a, cur, size):
            total += lazy_close(a, means, epsilon, rng, cur, size, obs, mu, law, book)
            hoeff[a] = math.sqrt(3.0 / obs[a])
            lap[a] = 3.0 / (epsilon * obs[a])
        n[a] += m
        c = fill_linear(out, checkpoints, c, t - 1, regret, t + m - 1, gap[a])
        regret += m * gap[a]
        t += m
    total += open_epoch_rewards(means, rng, cur, law)
    return out, n, total, obs, mu


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of Anytime-Lazy-UCB under reward law ``rewards``; see :func:`anytime_lazy_ucb_kernel`."""
    out, n, total, _, _ = anytime_lazy_ucb_kernel(
        means, horizon, epsilon, checkpoints, rng, params["tie_break"] == "random", True, *law_args(rewards, book)
    )
    return out, n, total


register(
    Algorithm(
        name="anytime_lazy_ucb",
        kind="regret",
        label="Anytime-Lazy-UCB",
        private=True,
        reference="dpbandits.reference.hu:AnytimeLazyUCB",
        collapsed=True,
        run=run,
        releases=recorded(run),
        params={"tie_break": TIE_BREAK},
        # ten arms: the noisy first releases decide which arm leads (bonuses dwarf the noise otherwise)
        contract=Contract(
            bernoulli=Setting((0.9,) + (0.1,) * 9, 1000, 1.0), deterministic=Setting((1.0,) + (0.0,) * 9, 1000, 1.0)
        ),
        laws=LAWS,
        cost_ns=1,
        doc="Hu, Huang, Mehta & Hegde (arXiv 2102.07929 v3) Algorithm 1; epsilon-DP, anytime.",
    )
)
