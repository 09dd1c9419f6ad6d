"""LDP-UCB-L of Ren, Zhou, Liu & Shroff (2020, arXiv 2007.03121): UCB on locally privatised rewards.

Every reward X in [0, 1] leaves its user as X + Lap(1/epsilon) (the Laplace mechanism of the local model;
the learner never sees X). At round t (1-based) the learner pulls the first arm with n_a <= c ln(t + 1)
(forced exploration, ``explore_c``), else argmax_a of
    s_a / n_a + sqrt(2 ln t / n_a) + sqrt(32 ln t / (epsilon^2 n_a)),
s_a the sum of the arm's privatised rewards: the noisy empirical mean, a Hoeffding width for the [0, 1]
reward and a width for the mean of the Laplace noise (constants as in the authors' public code,
paraphrased; docs/reconstructions.md, "LDP-UCB-L"). Anytime.

No collapse: each pull adds its own Laplace draw and the index moves with ln t, so the kernel steps pull by
pull (exact), reward deciders and standard Laplace draws in blocks from the run's inline PCG64 stream
(``_draws.fill_draws``), tie picks only when ties occur. The same loop runs on given draws (replay).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import helper, kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Contract, Param, Setting, register
from ..mechanisms.ledger import LAPLACE, note
from ._argmax import count_max, first_max, padded_index, resolve_tie
from ._draws import fill_draws, fill_laplace
from ._laws import BERNOULLI, stream_reward
from ._params import TIE_BREAK
from ._regret import record
from ._tossou import BLOCK, entry_points, run_buffers

#: Reading axis of the forced exploration (docs/reconstructions.md, "LDP-UCB-L").
EXPLORE_C_READINGS = {
    4.0: "the authors' public code for the paper pulls an arm while its count is <= 4 ln(t + 1) (paraphrased)",
    0.0: "a plain UCB rule: each arm once, then the index alone, as the index-only description of LDP-UCB-L reads",
}


@helper
def reward(u, mean):
    """The Bernoulli reward of one pull from its decider ``u`` (other laws: :func:`._laws.stream_reward`)."""
    return 1.0 if u < mean else 0.0


@kernel(numpy_errors=True)
def ldp_ucb_kernel(means, horizon, checkpoints, params, draws, law=0, book=None):
    """One run (``_tossou``'s calling convention; ``params`` from :func:`_args`, ``lap_scale`` the local Laplace
    scale 1/epsilon). Returns (regret[C], pulls[K], reward_sum) (the true rewards' sum).

    On replay step t's standard Laplace draw is eta[t-1]; under reward law ``law`` != 0 each pull draws its
    reward from the stream and the block holds Laplace draws only. ``book``: a release book that records each
    privatised reward (entry n_a + 1 of arm a, draw t - 1), or None (compiled away).
    """
    epsilon, lap_scale, explore_c, random_ties = params
    sb, u, eta, picks, replay = draws
    k = means.size
    gap, crit, _, out = run_buffers(means, checkpoints)
    v, zero = padded_index(k)  # index values (padding arms at -inf) and zero slopes for _argmax
    kp = v.size
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    priv = 32.0 / (epsilon * epsilon)
    regret = 0.0
    total = 0.0
    ci = 0
    pc = 0
    j = BLOCK
    for t in range(1, horizon + 1):
        if j == BLOCK:
            if not replay and law == BERNOULLI:
                fill_draws(sb, crit, 1.0, u, eta)
            elif not replay:
                fill_laplace(sb, 1.0, eta)
            j = 0
        a = np.uintp(k)  # unsigned, as _argmax's arm indices
        level = explore_c * math.log(t + 1)
        for i in range(k):
            if n[i] <= level:
                a = np.uintp(i)
                break
        if a == k:
            lt = math.log(t)
            for i in range(k):
                v[i] = s[i] / n[i] + math.sqrt(2.0 * lt / n[i]) + math.sqrt(priv * lt / n[i])
            best, a = first_max(v, zero, 0.0, kp, False)
            if random_ties:
                m = count_max(v, zero, 0.0, kp, best, False)
                if m > 1:
                    a, pc = resolve_tie(v, zero, 0.0, kp, best, m, sb, picks, pc, replay)
        q = t - 1 if replay else j
        x = reward(u[q], means[a]) if law == BERNOULLI else stream_reward(sb, law, means[a])
        z = lap_scale * eta[q]
        s[a] += x + z
        n[a] += 1
        if book is not None:
            note(book, LAPLACE, a, n[a], n[a], 1.0, lap_scale, t - 1, z)
        total += x
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
        j += 1
    return out, n, total


def _args(means, horizon, epsilon, params):
    """The kernel's (epsilon, lap_scale, explore_c, random_ties)."""
    return epsilon, 1.0 / epsilon, params["explore_c"], params["tie_break"] == "random"


run, ldp_ucb_on_draws, releases = entry_points(ldp_ucb_kernel, _args)


register(
    Algorithm(
        name="ldp_ucb",
        kind="regret",
        label="LDP-UCB-L",
        private=True,
        reference="dpbandits.reference.after:LDPUCB",
        run=run,
        replay=ldp_ucb_on_draws,
        releases=releases,
        privacy="local",
        laws=LAWS,
        # forced exploration reads no reward (it only delays the first data-dependent choice past the audit's
        # short horizon): audited without it
        audit=Audit(params={"explore_c": 0.0}),
        contract=Contract(
            bernoulli=Setting((0.7, 0.5, 0.45), 400, 1.0),
            deterministic=Setting((1.0, 0.0, 0.0), 300, 1.0),
            runs=600,
            fast_runs=3000,
        ),
        params={
            "tie_break": TIE_BREAK,
            "explore_c": Param(
                4.0,
                (4.0, 0.0),
                readings=EXPLORE_C_READINGS,
                doc="[RECON] forced exploration while n_a <= explore_c ln(t + 1) (the authors' code: 4), or none (0)",
            ),
        },
        cost_ns=150,  # bench, K = 20: 291 ns per pull under load (UCB 28 in the same run, 7 idle)
        doc="Ren, Zhou, Liu & Shroff (2020) LDP-UCB-L, epsilon-local-DP (Laplace mechanism on each reward). Anytime.",
    )
)
