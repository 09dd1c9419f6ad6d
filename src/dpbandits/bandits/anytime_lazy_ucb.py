"""Anytime-Lazy-UCB (Hu, Huang, Mehta & Hegde, arXiv 2102.07929 v3, Algorithm 1).

Rounds 1..K pull each arm once; then at round t pull argmax_j of
    mu~_j + sqrt(3 ln t / O_j) + 3 ln t / (epsilon O_j),
where mu~_j is the private mean of arm j's last closed lazy epoch of O_j = 2^r_j pulls
(see :mod:`._lazy`). Anytime: the horizon is never read. Decisions are made every round;
rewards are drawn per epoch as one Binomial (exact, spec §7).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..registry import Algorithm, register, sources
from ._kernels import argmax_ties, record
from ._lazy import argmax_count, lazy_close, lazy_count, lazy_state, open_epoch_rewards
from .ucb import TIE_BREAK


@njit(cache=True, nogil=True)
def anytime_lazy_ucb_kernel(means, horizon, epsilon, checkpoints, rng, random_ties):
    """One run. Returns (regret[C], pulls[K], reward_sum, obs[K], mu[K]): final O_j and private means."""
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
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            lt = math.log(t)
            slt = math.sqrt(lt)
            for i in range(k):
                index[i] = mu[i] + hoeff[i] * slt + lap[i] * lt
            a, ties = argmax_count(index)
            if ties > 1 and random_ties:
                a = argmax_ties(index, rng, True)
        if lazy_count(a, cur, size):
            total += lazy_close(a, means, epsilon, rng, cur, size, obs, mu)
            hoeff[a] = math.sqrt(3.0 / obs[a])
            lap[a] = 3.0 / (epsilon * obs[a])
        n[a] += 1
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    total += open_epoch_rewards(means, rng, cur)
    return out, n, total, obs, mu


def run(means, horizon, epsilon, checkpoints, rng, params):
    out, n, total, _, _ = anytime_lazy_ucb_kernel(
        means, horizon, epsilon, checkpoints, rng, params["tie_break"] == "random"
    )
    return out, n, total


register(
    Algorithm(
        name="anytime_lazy_ucb",
        kind="regret",
        label="Anytime-Lazy-UCB",
        private=True,
        run=run,
        params={"tie_break": TIE_BREAK},
        sources=sources(__file__, "bandits/_lazy.py", "bandits/_kernels.py"),
        cost_ns=55,
        doc="Hu, Huang, Mehta & Hegde (arXiv 2102.07929 v3) Algorithm 1; epsilon-DP, anytime.",
    )
)
