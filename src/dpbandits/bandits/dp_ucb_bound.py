"""DP-UCB-BOUND (Tossou & Dimitrakakis 2016, Algorithm 1): one hybrid counter per arm.

Index: y_a/n_a + sqrt(2 ln t / n_a) + nu_a/n_a (Algorithm 1 prints no sqrt term; ``bound_sqrt``), with
nu_a = (4 sqrt(8)/eps) ln t (1 + log2 max(n'_a, 1)), n'_a = n_a - 2^floor(log2 n_a) (Algorithm 1; at a
power of two n'_a = 0 and log2 0 is read as 0; other forms: ``nu_form``, docs/reconstructions.md).
Only the pulled arm's counter advances.

Fast kernel (exact re-organisation): index_i = A_i + h(t) B_i + sqrt(2 ln t) d_i where only the
pulled arm's A = y/n, B = nu/(n h(t)) and d = n^-1/2 change, h(t) = ln t (ln(4 t^4) for
``tr_ln_n``); the hybrid counter's noise process in O(1) per insertion (``_counters.hybrid_noise_step``);
reward deciders and standard Laplace noise in blocks from the run's inline PCG64 stream; tie picks
only when ties occur. :func:`dp_ucb_bound_on_draws` runs the same loop on given draws.
"""

from __future__ import annotations

import math

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros

from ..core.jit import helper, kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Bound, Contract, Param, Setting, register
from ._argmax import best_arm3, padded_index, resolve_tie
from ._counters import hybrid_noise_step
from ._laws import BERNOULLI, stream_reward
from ._params import HYBRID_SPLIT, TIE_BREAK, hybrid_split
from ._regret import record
from ._tossou import BLOCK, entry_points, log_block, refill_laplace, run_buffers

NU_FORMS = ("paper_nprime", "tr_ln_n", "log2_n", "tr_ln_n_reset")
#: Reading axes of Algorithm 1's index (docs/reconstructions.md, Tossou & Dimitrakakis).
NU_FORM_READINGS = {
    "paper_nprime": "Algorithm 1: nu_a = (4 sqrt(8)/eps) log t (log2 n'_a + 1), n'_a = n_a less its largest power of 2",
    "tr_ln_n": "bound (2.2), (sqrt(8)/eps) log(2/gamma)(log n + 1), taken literally with natural logs, n the pull "
    "count and 2/gamma = 4 t^4",
    "log2_n": "Algorithm 1's constant with bound (2.2)'s n, the number of items in the counter, in place of n'",
    "tr_ln_n_reset": "tr_ln_n with the (ln n + 1) factor set to 1 when n is a power of two (the hybrid counter's "
    "binary part is empty then), as the public keirp/private-bandits code computes nu",
}
BOUND_SQRT_READINGS = {
    True: "DP-UCB is 'Algorithm 1 with nu_a = 0' (Algorithm 2) and 'uses the same index as standard UCB' "
    "(Section 3); Theorem 3.2 keeps UCB's 8 log t/(lambda0^2 Delta) term",
    False: "Algorithm 1 pulls argmax_a s_a(t)/n_a + nu_a/n_a, with no sqrt(2 log t/n_a) term",
}


@helper
def nu_slope(n, nu_form):
    """nu_a * eps / h(t) for pull count n >= 1 (nu_form: index in ``NU_FORMS``); see :func:`h_of`."""
    if nu_form == 0:
        nprime = n - (1 << (63 - leading_zeros(n)))
        return 4.0 * math.sqrt(8.0) * (1.0 + math.log2(max(nprime, 1)))
    if nu_form == 1:
        return math.sqrt(8.0) * (math.log(n) + 1.0)
    if nu_form == 3:
        return math.sqrt(8.0) * (1.0 if n & (n - 1) == 0 else math.log(n) + 1.0)
    return 4.0 * math.sqrt(8.0) * (1.0 + math.log2(n))


@helper
def h_of(lt, nu_form):
    """The t-dependent factor of nu: ln t, or ln(4 t^4) = ln 4 + 4 ln t for ``tr_ln_n`` and ``tr_ln_n_reset``."""
    return math.log(4.0) + 4.0 * lt if nu_form == 1 or nu_form == 3 else lt


@kernel(numpy_errors=True)
def dp_ucb_bound_kernel(means, horizon, checkpoints, params, draws, law=0, book=None):
    """One run (``_tossou``'s calling convention; ``params`` from :func:`_args`). Returns (regret[C], pulls[K],
    reward_sum); the counters' standard Laplace draws are eta in order. ``book``: a release book that records
    each counter draw (``_counters.hybrid_noise_step``), or None (compiled away)."""
    epsilon, random_ties, split, bound_sqrt, nu_form = params
    sb, u, eta, picks, replay = draws
    k = means.size
    gap, crit, lt, out = run_buffers(means, checkpoints)
    scale = split / epsilon  # log_scale = node_scale of every hybrid counter
    pa, pb = padded_index(k)  # A_i = y_i / n_i (pa) and B_i (pb)
    pd = np.zeros(pa.size)  # d_i = n_i^-1/2
    v = np.empty(pa.size)
    zero = np.zeros(pa.size)
    kp = pa.size
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    nxt = np.empty((k, 3))  # 1/n, B and n^-1/2 of each arm's next pull, prepared off the critical path
    for i in range(k):
        nxt[i, 0], nxt[i, 1], nxt[i, 2] = 1.0, nu_slope(1, nu_form) / epsilon, 1.0
    levels = np.zeros((k, 65))
    state = np.zeros((k, 2))
    marks = np.zeros((k, 66), dtype=np.int64)  # the counters' ledger bookkeeping (read only with a book)
    regret = 0.0
    total = 0.0
    ci = 0
    pc = 0
    ec = eta.size if not replay else 0
    j = BLOCK
    for t in range(1, horizon + 1):
        if j == BLOCK:
            log_block(lt, t, sb, crit, u, replay, law)
            j = 0
        if t <= k:
            a = np.uintp(t - 1)
        else:
            h = h_of(lt[j], nu_form)
            g = math.sqrt(2.0 * lt[j]) if bound_sqrt else 0.0
            best, a, m = best_arm3(pa, pb, pd, h, g, kp, random_ties, v)
            if m > 1:
                a, pc = resolve_tie(v, zero, 0.0, kp, best, m, sb, picks, pc, replay)
        if law == BERNOULLI:
            r = 1.0 if (u[t - 1] if replay else u[j]) < means[a] else 0.0
        else:  # another law: the reward itself, from the stream
            r = stream_reward(sb, law, means[a])
        if ec == eta.size:
            ec = refill_laplace(sb, eta, replay)
        na = n[a] + 1
        n[a] = na
        sa = s[a] + r
        s[a] = sa
        noise = hybrid_noise_step(levels[a], state[a], na, eta[ec], scale, scale, book, a, marks, na)
        ec += 1
        pa[a] = (sa + noise) * nxt[a, 0]
        pb[a] = nxt[a, 1]
        pd[a] = nxt[a, 2]
        nxt[a, 0] = 1.0 / (na + 1)
        nxt[a, 1] = nu_slope(na + 1, nu_form) / (epsilon * (na + 1))
        nxt[a, 2] = 1.0 / math.sqrt(na + 1)
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
        j += 1
    return out, n, total


def _args(means, horizon, epsilon, params):
    """The kernel's (epsilon, random_ties, split, bound_sqrt, nu_form)."""
    return (
        epsilon,
        params["tie_break"] == "random",
        hybrid_split(params),
        params["bound_sqrt"],
        NU_FORMS.index(params["nu_form"]),
    )


run, dp_ucb_bound_on_draws, releases = entry_points(dp_ucb_bound_kernel, _args)


register(
    Algorithm(
        name="dp_ucb_bound",
        kind="regret",
        label="DP-UCB-BOUND",
        private=True,
        reference="dpbandits.reference.tossou:DPUCBBound",
        bound=Bound("Thm 3.2", "dpbandits.drawing.theory:dp_ucb_bound_thm32"),
        run=run,
        replay=dp_ucb_bound_on_draws,
        releases=releases,
        contract=Contract(
            bernoulli=Setting((0.7, 0.5, 0.45), 400, 0.5),
            deterministic=Setting((1.0, 0.0, 0.0, 0.0, 0.0), 300, 16.0),
            runs=600,
            fast_runs=3000,
        ),
        params={
            "tie_break": TIE_BREAK,
            "hybrid_split": HYBRID_SPLIT,
            "bound_sqrt": Param(
                True, readings=BOUND_SQRT_READINGS, doc="[CHOICE] include UCB's sqrt(2 ln t/n) in Algorithm 1's index"
            ),
            "nu_form": Param(
                "paper_nprime",
                NU_FORMS,
                readings=NU_FORM_READINGS,
                doc="[CHOICE/RECON] form of nu_a: Algorithm 1's (log2 of n' read as 0 at n' = 0), "
                "or bound (2.2) with ln n or log2 n",
            ),
        },
        laws=LAWS,
        cost_ns=80,
        doc="Tossou & Dimitrakakis (2016) Algorithm 1.",
    )
)
