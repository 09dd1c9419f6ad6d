"""DP-UCB-BOUND (Tossou & Dimitrakakis 2016, Algorithm 1): one hybrid counter per arm.

Index (resolution R1): y_a/n_a + sqrt(2 ln t / n_a) + nu_a/n_a, with
nu_a = (4 sqrt(8)/eps) ln t (1 + log2 max(n'_a, 1)), n'_a = n_a - 2^floor(log2 n_a)  (R2, R3).
Only the pulled arm's counter advances.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..mechanisms import hybrid_noise_insert
from ..registry import Algorithm, Param, register, sources
from ._kernels import argmax_ties, bernoulli, record
from .ucb import TIE_BREAK

NU_FORMS = ("paper_nprime", "tr_ln_n", "log2_n")
HYBRID_SPLIT = Param("half", ("half", "none"), doc="[CHOICE] eps/2 to each part of the hybrid counter (R12)")


@njit(cache=True, inline="always")
def nu_factor(n, t, nu_form):
    """nu_a * eps for pull count n at step t (nu_form: 0 paper_nprime, 1 tr_ln_n, 2 log2_n)."""
    if nu_form == 0:
        top = 1
        while top * 2 <= n:
            top *= 2
        nprime = n - top
        return 4.0 * math.sqrt(8.0) * math.log(t) * (1.0 + math.log2(max(nprime, 1)))
    if nu_form == 1:
        return math.sqrt(8.0) * math.log(4.0 * float(t) ** 4) * (math.log(n) + 1.0)
    return 4.0 * math.sqrt(8.0) * math.log(t) * (1.0 + math.log2(n))


@njit(cache=True, nogil=True)
def dp_ucb_bound_kernel(means, horizon, epsilon, checkpoints, rng, random_ties, split, bound_sqrt, nu_form):
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
            lt = math.log(t)
            for i in range(k):
                v = (s[i] + noise[i]) / n[i] + nu_factor(n[i], t, nu_form) / (epsilon * n[i])
                if bound_sqrt:
                    v += math.sqrt(2.0 * lt / n[i])
                index[i] = v
            a = argmax_ties(index, rng, random_ties)
        r = bernoulli(rng, means[a])
        s[a] += r
        n[a] += 1
        total += r
        noise[a] = hybrid_noise_insert(nodes[a], state[a], n[a], split / epsilon, split / epsilon, rng)
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params):
    return dp_ucb_bound_kernel(
        means, horizon, epsilon, checkpoints, rng,
        params["tie_break"] == "random",
        2.0 if params["hybrid_split"] == "half" else 1.0,
        params["bound_sqrt"],
        NU_FORMS.index(params["nu_form"]),
    )


register(
    Algorithm(
        name="dp_ucb_bound",
        kind="regret",
        label="DP-UCB-BOUND",
        private=True,
        run=run,
        params={
            "tie_break": TIE_BREAK,
            "hybrid_split": HYBRID_SPLIT,
            "bound_sqrt": Param(True, doc="[CHOICE] R1: include sqrt(2 ln t/n) in the index"),
            "nu_form": Param("paper_nprime", NU_FORMS, doc="[CHOICE/RECON] R2-R3: form of nu_a"),
        },
        sources=sources(__file__, "bandits/_kernels.py", "mechanisms.py"),
        doc="Tossou & Dimitrakakis (2016) Algorithm 1.",
    )
)
