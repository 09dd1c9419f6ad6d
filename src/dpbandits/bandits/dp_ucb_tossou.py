"""DP-UCB (Tossou & Dimitrakakis 2016, Algorithm 2): UCB index on hybrid-counter sums.

Every arm's hybrid counter receives one item per step (the reward for the pulled arm, 0 for the
others: Algorithm 2's "When arm a_t = a is played, insert 0 to all hybrid mechanisms corresponding to
arm a' != a", applied to the first K forced pulls too), so all counters share tau = t.

Fast kernel (exact re-organisation): the K counters' noise processes advance together in O(1) each
per step (``_counters.hybrid_noise_step``, one standard Laplace draw per counter and step, drawn in
blocks from the run's inline PCG64 stream); index_i = (S_i + noise_i)/n_i + sqrt(2 ln t) n_i^-1/2
with 1/n_i and n_i^-1/2 updated for the pulled arm only; tie picks only when ties occur.
:func:`dp_ucb_tossou_on_draws` runs the same loop on given draws.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Bound, Contract, Setting, register
from ._argmax import best_arm3, padded_index, resolve_tie
from ._counters import hybrid_noise_step
from ._draws import fill_sqrt_log, fill_uniforms
from ._laws import BERNOULLI, stream_reward
from ._params import HYBRID_SPLIT, TIE_BREAK, hybrid_split
from ._regret import record
from ._tossou import BLOCK, entry_points, refill_laplace, run_buffers


@kernel(numpy_errors=True)
def dp_ucb_tossou_kernel(means, horizon, checkpoints, params, draws, law=0, book=None):
    """One run (``_tossou``'s calling convention; ``params`` from :func:`_args`; ``eta`` holds K * ``BLOCK``
    draws). Returns (regret[C], pulls[K], reward_sum); the counters' standard Laplace draws are eta in order, arm
    by arm within a step; ``g`` holds a block's sqrt(2 ln t) in place of ln t. ``book``: a release book that
    records each counter draw (``_counters.hybrid_noise_step``; counter i reads arm i's rewards), or None."""
    epsilon, random_ties, split = params
    sb, u, eta, picks, replay = draws
    k = means.size
    gap, crit, g, out = run_buffers(means, checkpoints)
    scale = split / epsilon  # log_scale = node_scale of every hybrid counter
    pa, pd = padded_index(k)  # (S_i + noise_i)/n_i and n_i^-1/2
    v = np.empty(pa.size)  # index values, written only when several arms share the max
    zero = np.zeros(pa.size)
    kp = pa.size
    s = np.zeros(k)
    inv = np.zeros(k)  # 1/n_i
    n = np.zeros(k, dtype=np.int64)
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
            fill_sqrt_log(g, t)
            if not replay and law == BERNOULLI:
                fill_uniforms(sb, crit, u)
            j = 0
        if t <= k:
            a = np.uintp(t - 1)
        else:
            best, a, m = best_arm3(pa, zero, pd, 0.0, g[j], kp, random_ties, v)
            if m > 1:
                a, pc = resolve_tie(v, zero, 0.0, kp, best, m, sb, picks, pc, replay)
        if law == BERNOULLI:
            r = 1.0 if (u[t - 1] if replay else u[j]) < means[a] else 0.0
        else:  # another law: the reward itself, from the stream
            r = stream_reward(sb, law, means[a])
        s[a] += r
        na = n[a] + 1
        n[a] = na
        inv[a] = 1.0 / na
        pd[a] = 1.0 / math.sqrt(na)
        if ec + k > eta.size:
            ec = refill_laplace(sb, eta, replay)
        for i in range(k):
            noise = hybrid_noise_step(levels[i], state[i], t, eta[ec + i], scale, scale, book, i, marks, n[i])
            pa[i] = (s[i] + noise) * inv[i]  # (S_i + noise_i) / n_i; padding stays -inf
        ec += k
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
        j += 1
    return out, n, total


def _args(means, horizon, epsilon, params):
    """The kernel's (epsilon, random_ties, split)."""
    return epsilon, params["tie_break"] == "random", hybrid_split(params)


run, dp_ucb_tossou_on_draws, releases = entry_points(dp_ucb_tossou_kernel, _args, eta_per_arm=True)


register(
    Algorithm(
        name="dp_ucb_tossou",
        kind="regret",
        label="DP-UCB (hybrid)",
        private=True,
        reference="dpbandits.reference.tossou:DPUCBTossou",
        bound=Bound("Thm 3.3", "dpbandits.drawing.theory:dp_ucb_tossou_thm33"),
        run=run,
        replay=dp_ucb_tossou_on_draws,
        releases=releases,
        contract=Contract(deterministic=Setting((1.0, 0.0, 0.0), 300, 2.0)),
        params={"tie_break": TIE_BREAK, "hybrid_split": HYBRID_SPLIT},
        laws=LAWS,
        cost_ns=400,
        doc="Tossou & Dimitrakakis (2016) Algorithm 2.",
    )
)
