"""Lazy-DP-TS (Hu & Hegde, UAI 2022; arXiv 2102.07929 v3, Algorithm 3).

Rounds 1..K pull each arm once; then at round t draw, independently for every arm,
    theta_j ~ Beta(m_j O_j + 1, (1 - m_j) O_j + 1),  m_j = Clip01(mu~_j + 3 log(t) / (epsilon O_j)),
and pull argmax_j theta_j; mu~_j and O_j = 2^r_j come from arm j's last closed lazy epoch
(see :mod:`._lazy`). Anytime. Rewards are drawn per epoch as one Binomial (exact).

Sampling: the theta draws come from the run's second stream, an inline PCG64 pool on
``rng.bit_generator.jumped()`` (:func:`theta_stream`; a jumped stream does not overlap the run's),
by :func:`._gamma.beta`: numpy's ``Generator.beta`` word for word, except where a parameter is
exactly 1 (the clip): Beta(O+1, 1) = exp(-E/(O+1)) and Beta(1, O+1) = 1 - exp(-E/(O+1)) from one
E ~ Exp(1), the same law at a fraction of the cost. The run's Generator ``rng`` draws the rest
(epoch closes, tie picks), so a run's result depends only on its generator.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Contract, Param, Setting, register
from ._gamma import beta
from ._generator import argmax_count, pick_tie
from ._laws import law_args, recorded
from ._lazy import lazy_close, lazy_count, lazy_state, open_epoch_rewards
from ._params import TIE_BREAK
from ._pcg64 import POOL_INDEX, new_streams
from ._regret import record

#: log(t) of Algorithm 3 in each base, as a multiple of ln(t).
LOG_SCALES = {"ln": 1.0, "log2": 1.0 / math.log(2.0), "log10": 1.0 / math.log(10.0)}
#: Reading axis of the shift's logarithm (docs/reconstructions.md, "Lazy-DP-TS's shift").
BONUS_LOG_READINGS = {
    "ln": "Algorithm 1 writes the same Laplace bonus as 3 ln(t)/(eps O_j), and the proofs use natural logs "
    "(Fact 16's Laplace tail at delta = t^-3 gives 3 ln t)",
    "log2": "Algorithm 3 writes a bare '3 log(t)/(eps O_j)', read in base 2",
    "log10": "Algorithm 3 writes a bare '3 log(t)/(eps O_j)', read as the common logarithm",
}


def theta_stream(rng):
    """uint64[STREAM]: the pool stream of a run's theta draws, on ``rng.bit_generator.jumped()`` (rng unchanged)."""
    return new_streams([np.random.Generator(rng.bit_generator.jumped())])[0]


@kernel(numpy_errors=True)
def lazy_dp_ts_kernel(means, horizon, epsilon, log_scale, checkpoints, rng, sb, random_ties, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum, obs[K], mu[K]): final O_j and private means.

    theta draws from stream ``sb`` (:func:`theta_stream`, advanced), epoch closes (rewards of law ``law``,
    ``_laws``) and tie picks from ``rng``. ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`) that
    records each epoch's release, or None (compiled away).
    """
    k = means.size
    gap = means.max() - means
    cur, size, obs, mu = lazy_state(k)
    n = np.zeros(k, dtype=np.int64)
    theta = np.empty(k)
    inv = np.zeros(k)  # 1/O_j, exact (O_j is a power of two)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    c = 0
    i = np.int64(sb[POOL_INDEX])
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            shift = 3.0 * log_scale * math.log(t) / epsilon
            for j in range(k):  # theta_j ~ Beta(m o + 1, (1 - m) o + 1), m = Clip01(mu_j + shift / o)
                o = obs[j]
                m = mu[j] + shift * inv[j]
                if m >= 1.0:
                    theta[j], i = beta(sb, i, o + 1.0, 1.0, True)
                elif m <= 0.0:
                    theta[j], i = beta(sb, i, 1.0, o + 1.0, True)
                else:
                    theta[j], i = beta(sb, i, m * o + 1.0, (1.0 - m) * o + 1.0, True)
            a, ties = argmax_count(theta)
            if ties > 1 and random_ties:
                a = pick_tie(theta, a, ties, rng)
        if lazy_count(a, cur, size):
            total += lazy_close(a, means, epsilon, rng, cur, size, obs, mu, law, book)
            inv[a] = 1.0 / obs[a]
        n[a] += 1
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    sb[POOL_INDEX] = i
    total += open_epoch_rewards(means, rng, cur, law)
    return out, n, total, obs, mu


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of Lazy-DP-TS under reward law ``rewards``; see :func:`lazy_dp_ts_kernel`."""
    out, n, total, _, _ = lazy_dp_ts_kernel(
        means,
        horizon,
        epsilon,
        LOG_SCALES[params["bonus_log"]],
        checkpoints,
        rng,
        theta_stream(rng),
        params["tie_break"] == "random",
        *law_args(rewards, book),
    )
    return out, n, total


# m_j = Clip01(mu~_j + 3 ln t/(eps O_j)) (Hu & Hegde 2022, Algorithm 2)
AUDIT = Audit(
    note="for eps < 3.3 (3 ln 3): the optimistic shift clips the private mean to 1 at the audit horizon, so the "
    "actions do not depend on the rewards",
    control="at larger eps the Beta draws bound the loss of the under-noised variant too: the control cannot be "
    "flagged",
)


register(
    Algorithm(
        name="lazy_dp_ts",
        kind="regret",
        label="Lazy-DP-TS",
        private=True,
        reference="dpbandits.reference.hu:LazyDPTS",
        audit=AUDIT,
        # ten arms: the noisy releases of the first epochs decide which arm leads; the power to see a halved
        # noise is narrow in the bonus scale 3 log t / eps (the bonus_log readings move it), hence the runs
        contract=Contract(
            bernoulli=Setting((1.0, 0.1) + (0.0,) * 8, 300, 4.0),
            deterministic=Setting((1.0,) + (0.0,) * 9, 300, 4.0),
            runs=1500,
            fast_runs=7500,
        ),
        run=run,
        releases=recorded(run),
        params={
            "tie_break": TIE_BREAK,
            "bonus_log": Param(
                "ln",
                tuple(LOG_SCALES),
                readings=BONUS_LOG_READINGS,
                doc="[CHOICE] base of log(t) in the shift 3 log(t)/(eps O) of Algorithm 3",
            ),
        },
        laws=LAWS,
        cost_ns=600,
        doc="Hu & Hegde (UAI 2022) Lazy-DP-TS, Algorithm 3 of arXiv 2102.07929 v3; epsilon-DP, anytime.",
    )
)
