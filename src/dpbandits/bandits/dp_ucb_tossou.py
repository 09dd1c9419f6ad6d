"""DP-UCB (Tossou & Dimitrakakis 2016, Algorithm 2): UCB index on hybrid-counter sums.

Every arm's hybrid counter receives one item per step (the reward for the pulled arm, 0 for the
others, also during the first K forced pulls, R4), so all counters share tau = t.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..mechanisms import hybrid_noise_insert
from ..registry import Algorithm, register, sources
from ._kernels import argmax_ties, bernoulli, record
from .dp_ucb_bound import HYBRID_SPLIT
from .ucb import TIE_BREAK


@njit(cache=True, nogil=True)
def dp_ucb_tossou_kernel(means, horizon, epsilon, checkpoints, rng, random_ties, split):
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    noise = np.zeros(k)
    nodes = np.zeros((k, 64))
    state = np.zeros((k, 2))
    index = np.empty(k)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            lt = 2.0 * math.log(t)
            for i in range(k):
                index[i] = (s[i] + noise[i]) / n[i] + math.sqrt(lt / n[i])
            a = argmax_ties(index, rng, random_ties)
        r = bernoulli(rng, means[a])
        s[a] += r
        n[a] += 1
        total += r
        for i in range(k):
            noise[i] = hybrid_noise_insert(nodes[i], state[i], t, split / epsilon, split / epsilon, rng)
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params):
    split = 2.0 if params["hybrid_split"] == "half" else 1.0
    return dp_ucb_tossou_kernel(
        means, horizon, epsilon, checkpoints, rng, params["tie_break"] == "random", split
    )


register(
    Algorithm(
        name="dp_ucb_tossou",
        kind="regret",
        label="DP-UCB (hybrid)",
        private=True,
        run=run,
        params={"tie_break": TIE_BREAK, "hybrid_split": HYBRID_SPLIT},
        sources=sources(__file__, "bandits/_kernels.py", "mechanisms.py"),
        doc="Tossou & Dimitrakakis (2016) Algorithm 2.",
    )
)
