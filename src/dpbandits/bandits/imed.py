"""IMED, Indexed Minimum Empirical Divergence (Honda & Takemura, JMLR 2015, "Non-asymptotic analysis of a new
bandit algorithm for semi-bounded rewards"), in its Bernoulli form; the non-private limit of DP-IMED.

Rounds 1..K pull each arm once; at round t > K, with mu_a = S_a / n_a the empirical mean of arm a's n_a rewards
and mu* = max_b mu_b, pull
    argmin_a I_a,  I_a = n_a kl(mu_a, mu*) + ln n_a   (nats; the empirical best arm has I = ln n),
where for Bernoulli rewards the minimum empirical divergence D_inf(F_a, mu*) is kl(mu_a, mu*)
(:func:`dpbandits.mechanisms.klucb.kl_bernoulli`, whose arguments are clamped into [1e-15, 1 - 1e-15], so an arm
behind a best mean of 1 has a large finite I). Anytime. Any reward law on [0, 1] (the index reads only S_a, n_a).

Fast kernel, exact: the index scratch holds -I_a (the argmax of -I, ties alike, is IMED's argmin); ln n_a is
kept per arm and recomputed when the arm is pulled, every kl at every step. Rewards and tie picks come from
``rng`` in the twin's order, so a run reproduces the twin's run on the same generator draw for draw (Bernoulli
and Beta rewards).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, register
from ..mechanisms.klucb import kl_bernoulli
from ._generator import argmax_ties
from ._laws import law_args, reward
from ._params import TIE_BREAK
from ._regret import record


@kernel
def imed_kernel(means, horizon, checkpoints, rng, random_ties, law=0):
    """One run: (regret[C] at ``checkpoints``, pulls int64[K], reward sum); rewards of law ``law`` (``_laws``)."""
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    mu = np.zeros(k)
    log_n = np.zeros(k)
    minus = np.empty(k)  # -I_a
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    ci = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            best = mu.max()
            for b in range(k):
                minus[b] = -(n[b] * kl_bernoulli(mu[b], best) + log_n[b])
            a = argmax_ties(minus, rng, random_ties)
        r = reward(rng, law, means[a])
        s[a] += r
        n[a] += 1
        mu[a] = s[a] / n[a]
        log_n[a] = math.log(n[a])
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
    """One run of IMED under reward law ``rewards`` (``epsilon`` is ignored); see :func:`imed_kernel`."""
    return imed_kernel(means, horizon, checkpoints, rng, params["tie_break"] == "random", *law_args(rewards))


register(
    Algorithm(
        name="imed",
        kind="regret",
        label="IMED",
        private=False,
        reference="dpbandits.reference.field:IMED",
        run=run,
        params={"tie_break": TIE_BREAK},
        laws=LAWS,
        cost_ns=290,  # dpbandits bench, K = 20, load 2 on 2 cores: 287 ns (K = 5: 110 ns)
        doc="IMED, Honda & Takemura (2015), Bernoulli form; non-private reference. Anytime.",
    )
)
