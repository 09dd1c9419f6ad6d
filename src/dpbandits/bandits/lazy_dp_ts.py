"""Lazy-DP-TS (Hu & Hegde, UAI 2022; arXiv 2102.07929 v3, Algorithm 3).

Rounds 1..K pull each arm once; then at round t draw, independently for every arm,
    theta_j ~ Beta(m_j O_j + 1, (1 - m_j) O_j + 1),  m_j = Clip01(mu~_j + 3 log(t) / (epsilon O_j)),
and pull argmax_j theta_j; mu~_j and O_j = 2^r_j come from arm j's last closed lazy epoch
(see :mod:`._lazy`). Anytime. Rewards are drawn per epoch as one Binomial (exact, spec §7).

Sampling: for m_j strictly inside (0, 1) numpy's Beta sampler; at the clip the Beta has a closed
form, Beta(O+1, 1) = exp(-E/(O+1)) and Beta(1, O+1) = 1 - exp(-E/(O+1)) with E ~ Exp(1), which is
the same law at a fraction of the cost.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..registry import Algorithm, Param, register, sources
from ._kernels import argmax_ties, record
from ._lazy import argmax_count, lazy_close, lazy_count, lazy_state, open_epoch_rewards
from .ucb import TIE_BREAK

#: log(t) of Algorithm 3 in each base, as a multiple of ln(t).
LOG_SCALES = {"ln": 1.0, "log2": 1.0 / math.log(2.0), "log10": 1.0 / math.log(10.0)}


@njit(cache=True, inline="always")
def beta_at_clip(e, o, top):
    """Beta(o+1, 1) if ``top`` else Beta(1, o+1), from one E ~ Exp(1): exp(-E/(o+1)) or 1 - exp(-E/(o+1))."""
    if top:
        return math.exp(-e / (o + 1.0))
    return -math.expm1(-e / (o + 1.0))


@njit(cache=True, nogil=True)
def lazy_dp_ts_kernel(means, horizon, epsilon, log_scale, checkpoints, rng, random_ties):
    """One run. Returns (regret[C], pulls[K], reward_sum, obs[K], mu[K]): final O_j and private means."""
    k = means.size
    gap = means.max() - means
    cur, size, obs, mu = lazy_state(k)
    n = np.zeros(k, dtype=np.int64)
    theta = np.empty(k)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            shift = 3.0 * log_scale * math.log(t) / epsilon
            for i in range(k):  # theta_i ~ Beta(m o + 1, (1 - m) o + 1), m = Clip01(mu_i + shift / o)
                o = obs[i]
                m = mu[i] + shift / o
                if m >= 1.0 or m <= 0.0:
                    theta[i] = beta_at_clip(rng.standard_exponential(), o, m >= 1.0)
                else:
                    theta[i] = rng.beta(m * o + 1.0, (1.0 - m) * o + 1.0)
            a, ties = argmax_count(theta)
            if ties > 1 and random_ties:
                a = argmax_ties(theta, rng, True)
        if lazy_count(a, cur, size):
            total += lazy_close(a, means, epsilon, rng, cur, size, obs, mu)
        n[a] += 1
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    total += open_epoch_rewards(means, rng, cur)
    return out, n, total, obs, mu


def run(means, horizon, epsilon, checkpoints, rng, params):
    out, n, total, _, _ = lazy_dp_ts_kernel(
        means, horizon, epsilon, LOG_SCALES[params["bonus_log"]], checkpoints, rng,
        params["tie_break"] == "random",
    )
    return out, n, total


register(
    Algorithm(
        name="lazy_dp_ts",
        kind="regret",
        label="Lazy-DP-TS",
        private=True,
        run=run,
        params={
            "tie_break": TIE_BREAK,
            "bonus_log": Param(
                "ln", tuple(LOG_SCALES), doc="[CHOICE] base of log(t) in the shift 3 log(t)/(eps O) (§8 #1)"
            ),
        },
        sources=sources(__file__, "bandits/_lazy.py", "bandits/_kernels.py"),
        cost_ns=1500,
        doc="Hu & Hegde (UAI 2022) Lazy-DP-TS, Algorithm 3 of arXiv 2102.07929 v3; epsilon-DP, anytime.",
    )
)
