"""AdaP-UCB (Azize & Basu, NeurIPS 2022, arXiv 2209.02570, Section 4): Algorithm 1 with the UCB index.

Rounds 1..K pull each arm once (private mean X_a + Lap(1/epsilon), n_a = 1). At each episode's first round
t_l (t_l - 1 rounds done) every arm gets the index of eq. (7),
    I_a = mu~_a + sqrt(alpha ln(c t_l) / (2 n_a)) + alpha ln(t_l) / (epsilon n_a),
with mu~_a the private mean of the arm's last completed episode, n_a = N_a(t_l - 1)/2 its length (1 after
the initial pull) and c = 2 as eq. (7) prints it (``ucb_log``); A = argmax_a I_a is pulled for N_A rounds
(doubling N_A) and its private mean replaced by this episode's mean + Lap(1/(epsilon N_A)). Anytime.

The episodes (each collapsed to O(1) work, exact) are those of :mod:`._adap`, shared with AdaP-KLUCB.
"""

from __future__ import annotations

import math

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Bound, Contract, Param, Setting, register
from ._adap import ALPHA, Setup, episode, first_pulls, new_state
from ._generator import argmax_ties
from ._laws import law_args, recorded
from ._params import TIE_BREAK

#: Reading axis of the argument of eq. (7)'s sub-Gaussian logarithm (docs/reconstructions.md, "AdaP-UCB").
UCB_LOG_READINGS = {
    "2t": "eq. (7) of Azize & Basu 2022 as printed: sqrt(alpha log(2 t_l) / (2 x N_a(t_l - 1)/2))",
    "t": "log(t_l), the argument of eq. (7)'s privacy term and of AdaP-KLUCB's index in the same section",
}


@kernel
def adap_ucb_kernel(means, horizon, epsilon, alpha, log_c, checkpoints, rng, random_ties, law=0, book=None):
    """One run; ``log_c`` = ln c of the index's ln(c t_l). Returns (regret[C], pulls[K], reward_sum, last[K],
    mu[K]): final pull counts, last episode lengths and private means. ``law``: reward law code (``_laws``);
    ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`) that records each release, or None (compiled away).
    """
    k = means.size
    setup = Setup(means, epsilon, checkpoints, law)
    state = new_state(k, checkpoints.size)
    mu, last, n, index, out = state
    c, regret, total = first_pulls(setup, state, rng, book)
    t = k
    while t < horizon:
        lt = math.log(t + 1)
        for a in range(k):
            index[a] = mu[a] + math.sqrt(alpha * (log_c + lt) / (2.0 * last[a])) + alpha * lt / (epsilon * last[a])
        a = argmax_ties(index, rng, random_ties)
        t, c, regret, s = episode(a, t, horizon, setup, state, c, regret, rng, book)
        total += s
    return out, n, total, last, mu


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run (``Algorithm.run``) under reward law ``rewards``."""
    log_c = math.log(2.0) if params["ucb_log"] == "2t" else 0.0
    out, n, total, _, _ = adap_ucb_kernel(
        means,
        horizon,
        epsilon,
        params["alpha"],
        log_c,
        checkpoints,
        rng,
        params["tie_break"] == "random",
        *law_args(rewards, book),
    )
    return out, n, total


register(
    Algorithm(
        name="adap_ucb",
        kind="regret",
        label="AdaP-UCB",
        private=True,
        reference="dpbandits.reference.after:AdaPUCB",
        collapsed=True,
        audit=Audit(),
        bound=Bound("Azize & Basu 2022, Thm 7", "dpbandits.drawing.theory:adap_ucb_thm7"),
        # ten arms, as AdaP-KLUCB's: the releases of the first episodes (n = 1, 2, ...) decide which arm leads;
        # at eps = 4 a halved noise is seen under every reading (at eps = 16 the sqrt term hides it)
        contract=Contract(
            bernoulli=Setting((1.0, 0.1) + (0.0,) * 8, 1000, 4.0),
            deterministic=Setting((1.0,) + (0.0,) * 9, 1000, 2.0),
            runs=600,
            fast_runs=3000,
        ),
        run=run,
        releases=recorded(run),
        laws=LAWS,
        params={
            "tie_break": TIE_BREAK,
            "alpha": ALPHA,
            "ucb_log": Param(
                "2t",
                ("2t", "t"),
                readings=UCB_LOG_READINGS,
                doc="[RECON] ln(2 t_l) (eq. (7) as printed) or ln(t_l) in the index's sub-Gaussian term",
            ),
        },
        cost_ns=1,  # bench, K = 20: 0.47 ns per simulated pull under load (AdaP-KLUCB 4.6 in the same run)
        doc="Azize & Basu (2022) AdaP-UCB, epsilon-global-DP; the UCB instance of their Algorithm 1. Anytime.",
    )
)
