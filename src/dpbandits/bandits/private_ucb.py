"""Private-UCB (Mishra & Thakurta 2015) as reconstructed for Tossou & Dimitrakakis 2016 [RECON].

One binary-tree counter per arm (D = floor(log2 T) + 1 levels, node noise Lap(D / eps_tree),
eps_tree = eps/K by default), advancing on the arm's pulls; failure probability gamma_t = t^-4:
index = y/n + sqrt(2 ln t / n) + c_t / n,  c_t = K (ln T)^2 (ln(K T ln T) + 4 ln t) / eps.

Fast kernel (exact re-organisation): index_i = y_i/n_i + c_t/n_i + w(t) n_i^-1/2 with w(t) =
sqrt(2 ln t) (or sqrt((ln 2 + 4 ln t)/2) for ``sqrt_term="hoeffding"``), only the pulled arm's terms
recomputed; the tree noise in O(1) per insertion (``_counters.tree_noise_step``); reward deciders and
standard Laplace noise in blocks from the run's inline PCG64 stream; tie picks only when ties occur.
:func:`private_ucb_on_draws` runs the same loop on given draws.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Contract, Param, Setting, register
from ..mechanisms.ledger import next_draw
from ..mechanisms.noise import tree_bits
from ._argmax import best_arm3, padded_index, resolve_tie
from ._counters import tree_noise_step, tree_note
from ._laws import BERNOULLI, stream_reward
from ._params import TIE_BREAK
from ._regret import record
from ._tossou import BLOCK, entry_points, log_block, refill_laplace, run_buffers

#: Reading axes of the reconstruction (docs/reconstructions.md, "Private-UCB"); Tossou & Dimitrakakis give
#: only the name, the citation and "a failure probability chosen to be t^-4" (Section 4).
TREE_EPS_READINGS = {
    "eps/K": "the confidence term K (log T)^2 log(K T log T/gamma)/eps carries the factor K of one tree per arm "
    "at privacy eps/K (the usual account of Mishra & Thakurta 2015)",
    "eps": "arms' trees hold disjoint rewards, so eps per tree suffices by parallel composition, as Sajed's thesis "
    "(Algorithm 6) and the keirp/private-bandits code run them",
}
SQRT_TERM_READINGS = {
    "ucb": "UCB's sqrt(2 log t/n), the term Tossou & Dimitrakakis' own algorithms use (Section 3)",
    "hoeffding": "the Hoeffding radius sqrt(ln(2/gamma)/(2n)) at the failure probability gamma = t^-4 of Section 4",
}


@kernel(numpy_errors=True)
def private_ucb_kernel(means, horizon, checkpoints, params, draws, law=0, book=None):
    """One run (``_tossou``'s calling convention; ``params`` from :func:`_args`). Returns (regret[C], pulls[K],
    reward_sum); the trees' standard Laplace draws are eta in order. ``book``: a release book that records each
    tree node (``_counters.tree_note``), or None (compiled away)."""
    epsilon, node_scale, random_ties, hoeffding = params
    sb, u, eta, picks, replay = draws
    k = means.size
    gap, crit, lt, out = run_buffers(means, checkpoints)
    pa, pe = padded_index(k)  # y_i/n_i and 1/n_i
    pd = np.zeros(pa.size)  # n_i^-1/2
    v = np.empty(pa.size)
    zero = np.zeros(pa.size)
    kp = pa.size
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    nxt = np.ones((k, 2))  # 1/n and n^-1/2 of each arm's next pull, prepared off the critical path
    levels = np.zeros((k, 65))
    base = np.zeros(k)
    ln_big_t = math.log(horizon)
    c0 = k * ln_big_t**2 / epsilon
    big = math.log(k * horizon * ln_big_t)
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
            ct = c0 * (big + 4.0 * lt[j])
            w = math.sqrt((math.log(2.0) + 4.0 * lt[j]) / 2.0) if hoeffding else math.sqrt(2.0 * lt[j])
            best, a, m = best_arm3(pa, pe, pd, ct, w, kp, random_ties, v)
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
        e = node_scale * eta[ec]
        ec += 1
        b = base[a]
        base[a] = tree_noise_step(levels[a], b, na, e)
        if book is not None:
            tree_note(book, a, na, node_scale, e, next_draw(book))
        pa[a] = (sa + (b + e)) * nxt[a, 0]
        pe[a] = nxt[a, 0]
        pd[a] = nxt[a, 1]
        nxt[a, 0] = 1.0 / (na + 1)
        nxt[a, 1] = 1.0 / math.sqrt(na + 1)
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
        j += 1
    return out, n, total


def node_scale(k: int, horizon: int, epsilon: float, tree_eps: str) -> float:
    """Laplace scale D / eps_tree of each tree node."""
    eps_tree = epsilon / k if tree_eps == "eps/K" else epsilon
    return tree_bits(horizon) / eps_tree


def _args(means, horizon, epsilon, params):
    """The kernel's (epsilon, node_scale, random_ties, hoeffding)."""
    return (
        epsilon,
        node_scale(means.size, horizon, epsilon, params["tree_eps"]),
        params["tie_break"] == "random",
        params["sqrt_term"] == "hoeffding",
    )


run, private_ucb_on_draws, releases = entry_points(private_ucb_kernel, _args)


register(
    Algorithm(
        name="private_ucb",
        kind="regret",
        label="Private-UCB",
        private=True,
        reference="dpbandits.reference.tossou:PrivateUCB",
        run=run,
        replay=private_ucb_on_draws,
        releases=releases,
        contract=Contract(
            bernoulli=Setting((0.7, 0.5, 0.45), 400, 0.5),
            deterministic=Setting((1.0, 0.0, 0.0), 300, 4.0),
            runs=600,
            fast_runs=3000,
        ),
        params={
            "tie_break": TIE_BREAK,
            "tree_eps": Param(
                "eps/K", ("eps/K", "eps"), readings=TREE_EPS_READINGS, doc="[RECON] privacy of each arm's tree"
            ),
            "sqrt_term": Param(
                "ucb",
                ("ucb", "hoeffding"),
                readings=SQRT_TERM_READINGS,
                doc="[RECON] sqrt(2 ln t/n) or sqrt(ln(2/gamma)/(2n))",
            ),
        },
        needs_horizon=True,
        laws=LAWS,
        cost_ns=65,
        doc="Mishra & Thakurta (2015), reconstructed as in Tossou & Dimitrakakis (2016) [RECON].",
    )
)
