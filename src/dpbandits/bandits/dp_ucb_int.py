"""DP-UCB-INT (Tossou & Dimitrakakis 2016, Algorithm 3): interval-released noisy means.

The input privacy eps' comes from Corollary 3.2 for the target (epsilon, delta) with v = 1.1;
interval f = ceil(1/eps'). Round robin for K f steps, then at the first decision after each
f-th pull of an arm a fresh release  S/n + Lap(n^(v/2-1)) + sqrt(2 ln t / n)  (variant B,
``int_update="frozen"``). Ablations: ``literal`` (variant A: re-noise every step while n mod f == 0)
and ``live_bonus`` (variant C: noisy mean frozen, bonus recomputed every step).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..registry import Algorithm, Param, register, sources
from ._kernels import argmax_ties, bernoulli, record
from .ucb import TIE_BREAK

UPDATES = ("frozen", "literal", "live_bonus")
LOG_BASES = {"ln": math.e, "log10": 10.0, "log2": 2.0}


def input_epsilon(epsilon: float, delta: float, v: float = 1.1, log: str = "ln") -> float:
    """eps' of Corollary 3.2: the input privacy giving (epsilon, delta)-DP overall.

    eps' = sqrt((L + 4 eps)/(8 zeta(v))) - sqrt(L/(8 zeta(v))),  L = log(1/delta) in base ``log``.
    """
    from scipy.special import zeta  # imported here: keeps `import dpbandits` light for simulation jobs

    z = float(zeta(v, 1))
    big_l = math.log(1.0 / delta) / math.log(LOG_BASES[log])
    return math.sqrt((big_l + 4.0 * epsilon) / (8.0 * z)) - math.sqrt(big_l / (8.0 * z))


@njit(cache=True, nogil=True)
def dp_ucb_int_kernel(means, horizon, f, v, checkpoints, rng, random_ties, update):
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    last = np.zeros(k, dtype=np.int64)
    noisy_mean = np.zeros(k)
    index = np.zeros(k)
    out = np.empty(checkpoints.size)
    expo = v / 2.0 - 1.0
    regret = 0.0
    total = 0.0
    c = 0
    for t in range(1, horizon + 1):
        if t <= k * f:
            a = (t - 1) % k
        else:
            lt = 2.0 * math.log(t)
            for i in range(k):
                fresh = n[i] % f == 0 and (update == 1 or n[i] != last[i])
                if fresh:
                    noisy_mean[i] = s[i] / n[i] + rng.laplace(0.0, float(n[i]) ** expo)
                    last[i] = n[i]
                    index[i] = noisy_mean[i] + math.sqrt(lt / n[i])
                elif update == 2:
                    index[i] = noisy_mean[i] + math.sqrt(lt / n[i])
            a = argmax_ties(index, rng, random_ties)
        r = bernoulli(rng, means[a])
        s[a] += r
        n[a] += 1
        total += r
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    return out, n, total


def interval(epsilon: float, params: dict) -> tuple[float, int]:
    """(eps', f) for target ``epsilon`` and the algorithm's parameters."""
    eps_in = input_epsilon(epsilon, params["delta"], params["v"], params["eps_log"])
    return eps_in, math.ceil(1.0 / eps_in)


def run(means, horizon, epsilon, checkpoints, rng, params):
    _, f = interval(epsilon, params)
    return dp_ucb_int_kernel(
        means, horizon, f, params["v"], checkpoints, rng,
        params["tie_break"] == "random", UPDATES.index(params["int_update"]),
    )


register(
    Algorithm(
        name="dp_ucb_int",
        kind="regret",
        label="DP-UCB-INT",
        private=True,
        run=run,
        params={
            "tie_break": TIE_BREAK,
            "delta": Param(math.exp(-10), low=0.0, doc="target delta of (epsilon, delta)-DP"),
            "v": Param(1.1, low=1.0, doc="noise exponent v > 1; Laplace scale n^(v/2-1)"),
            "int_update": Param("frozen", UPDATES, doc="[CHOICE] R5: frozen (B), literal (A), live_bonus (C)"),
            "eps_log": Param("ln", tuple(LOG_BASES), doc="[CHOICE] R8: log base in Corollary 3.2"),
        },
        sources=sources(__file__, "bandits/_kernels.py"),
        doc="Tossou & Dimitrakakis (2016) Algorithm 3; epsilon is the target privacy.",
    )
)
