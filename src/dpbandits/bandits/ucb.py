"""UCB1 (Auer et al. 2002), the non-private reference: index S/n + sqrt(2 ln t / n)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..registry import Algorithm, Param, register, sources
from ._kernels import argmax_ties, bernoulli, record


@njit(cache=True, nogil=True)
def ucb_kernel(means, horizon, checkpoints, rng, random_ties):
    """One run. Returns (regret[C], pulls[K], reward_sum)."""
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
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
            lt = 2.0 * math.log(t)
            for i in range(k):
                index[i] = s[i] / n[i] + math.sqrt(lt / n[i])
            a = argmax_ties(index, rng, random_ties)
        r = bernoulli(rng, means[a])
        s[a] += r
        n[a] += 1
        total += r
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params):
    return ucb_kernel(means, horizon, checkpoints, rng, params["tie_break"] == "random")


TIE_BREAK = Param("random", ("random", "first"), doc="[CHOICE] uniform random among maximisers, or lowest index")

register(
    Algorithm(
        name="ucb",
        kind="regret",
        label="UCB",
        private=False,
        run=run,
        params={"tie_break": TIE_BREAK},
        sources=sources(__file__, "bandits/_kernels.py"),
        doc="UCB1, Auer, Cesa-Bianchi & Fischer (2002); non-private reference.",
    )
)
