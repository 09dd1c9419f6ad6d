"""Private-UCB (Mishra & Thakurta 2015) as reconstructed for Tossou & Dimitrakakis 2016 [RECON].

One binary-tree counter per arm (D = floor(log2 T) + 1 levels, node noise Lap(D / eps_tree),
eps_tree = eps/K by default), advancing on the arm's pulls; failure probability gamma_t = t^-4:
index = y/n + sqrt(2 ln t / n) + c_t / n,  c_t = K (ln T)^2 (ln(K T ln T) + 4 ln t) / eps.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..mechanisms import tree_bits, tree_noise_insert
from ..registry import Algorithm, Param, register, sources
from ._kernels import argmax_ties, bernoulli, record
from .ucb import TIE_BREAK


@njit(cache=True, nogil=True)
def private_ucb_kernel(means, horizon, epsilon, node_scale, checkpoints, rng, random_ties, hoeffding):
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    noise = np.zeros(k)
    nodes = np.zeros((k, 64))
    index = np.empty(k)
    out = np.empty(checkpoints.size)
    ln_big_t = math.log(horizon)
    c0 = k * ln_big_t**2 / epsilon
    base = math.log(k * horizon * ln_big_t)
    regret = 0.0
    total = 0.0
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            lt = math.log(t)
            ct = c0 * (base + 4.0 * lt)
            for i in range(k):
                if hoeffding:
                    width = math.sqrt((math.log(2.0) + 4.0 * lt) / (2.0 * n[i]))
                else:
                    width = math.sqrt(2.0 * lt / n[i])
                index[i] = (s[i] + noise[i]) / n[i] + width + ct / n[i]
            a = argmax_ties(index, rng, random_ties)
        r = bernoulli(rng, means[a])
        s[a] += r
        n[a] += 1
        total += r
        noise[a] = tree_noise_insert(nodes[a], noise[a], n[a], node_scale, rng)
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    return out, n, total


def node_scale(k: int, horizon: int, epsilon: float, tree_eps: str) -> float:
    """Laplace scale D / eps_tree of each tree node."""
    eps_tree = epsilon / k if tree_eps == "eps/K" else epsilon
    return tree_bits(horizon) / eps_tree


def run(means, horizon, epsilon, checkpoints, rng, params):
    scale = node_scale(means.size, horizon, epsilon, params["tree_eps"])
    return private_ucb_kernel(
        means, horizon, epsilon, scale, checkpoints, rng,
        params["tie_break"] == "random", params["sqrt_term"] == "hoeffding",
    )


register(
    Algorithm(
        name="private_ucb",
        kind="regret",
        label="Private-UCB",
        private=True,
        run=run,
        params={
            "tie_break": TIE_BREAK,
            "tree_eps": Param("eps/K", ("eps/K", "eps"), doc="[RECON] privacy of each arm's tree"),
            "sqrt_term": Param("ucb", ("ucb", "hoeffding"), doc="[RECON] sqrt(2 ln t/n) or sqrt(ln(2/gamma)/(2n))"),
        },
        sources=sources(__file__, "bandits/_kernels.py", "mechanisms.py"),
        needs_horizon=True,
        doc="Mishra & Thakurta (2015), reconstructed as in Tossou & Dimitrakakis (2016) [RECON].",
    )
)
