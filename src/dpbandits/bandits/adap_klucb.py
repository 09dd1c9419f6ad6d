"""AdaP-KLUCB (Azize & Basu, NeurIPS 2022, arXiv 2209.02570): the baseline of Hu & Hegde.

Rounds 1..K pull each arm once (private mean X_a + Lap(1/epsilon), n_a = 1). Then episodes: at the
episode's first round t_l compute once, for every arm,
    c_a = alpha ln(t_l) / n_a,  mb_a = Clip01(mu~_a + alpha ln(t_l) / (epsilon n_a)),
    I_a = max{q in [mb_a, 1] : kl(mb_a, q) <= c_a},
pull A = argmax_a I_a for N_A consecutive rounds (doubling its count N_A), and at the episode's end
replace mu~_A by the mean of this episode's N_A rewards + Lap(1/(epsilon N_A)), n_A = N_A. The
noisy mean is drawn once per completed episode and kept until that arm's next episode ends. Anytime.

The episodes (each collapsed to O(1) work, exact) are those of :mod:`._adap`, shared with AdaP-UCB.
"""

from __future__ import annotations

import math

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Contract, Param, Setting, register
from ..mechanisms.klucb import klucb_upper
from ._adap import ALPHA, Setup, episode, first_pulls, new_state
from ._generator import argmax_ties
from ._laws import law_args, recorded
from ._params import TIE_BREAK


@kernel
def adap_klucb_kernel(means, horizon, epsilon, alpha, tol, checkpoints, rng, random_ties, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum, last[K], mu[K]): final n_a and private means.

    ``law``: reward law code (``_laws``); an episode reads only its reward sum (one Binomial under law 0).
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
            level = alpha * lt / last[a]
            mb = min(max(mu[a] + level / epsilon, 0.0), 1.0)
            index[a] = klucb_upper(mb, level, tol)
        a = argmax_ties(index, rng, random_ties)
        t, c, regret, s = episode(a, t, horizon, setup, state, c, regret, rng, book)
        total += s
    return out, n, total, last, mu


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of AdaP-KLUCB under reward law ``rewards``; see :func:`adap_klucb_kernel`."""
    out, n, total, _, _ = adap_klucb_kernel(
        means,
        horizon,
        epsilon,
        params["alpha"],
        params["klucb_tol"],
        checkpoints,
        rng,
        params["tie_break"] == "random",
        *law_args(rewards, book),
    )
    return out, n, total


# mb_a = Clip01(mu~_a + alpha ln t/(eps n_a)) < 1 at t = 3, n_a = 1 needs eps > 3.1 ln 3 = 3.4
AUDIT = Audit(
    epsilon=4.0,
    note="for eps < 3.4 (alpha ln 3): the optimistic shift clips the private mean to 1 at the audit horizon, so "
    "the actions do not depend on the rewards; audited at eps = 4",
)


register(
    Algorithm(
        name="adap_klucb",
        kind="regret",
        label="AdaP-KLUCB",
        private=True,
        reference="dpbandits.reference.hu:AdaPKLUCB",
        collapsed=True,
        audit=AUDIT,
        # ten arms: the noisy releases of the first episodes (n = 1, 2, ...) decide which arm leads; the
        # KL-UCB bonus dwarfs the noise in the papers' settings
        contract=Contract(
            bernoulli=Setting((1.0, 0.1) + (0.0,) * 8, 1000, 16.0),
            deterministic=Setting((1.0,) + (0.0,) * 9, 1000, 8.0),
            runs=600,
            fast_runs=3000,
        ),
        run=run,
        releases=recorded(run),
        params={
            "tie_break": TIE_BREAK,
            "alpha": ALPHA,
            "klucb_tol": Param(1e-9, low=0.0, doc="[CHOICE] bisection tolerance of the KL-UCB index"),
        },
        laws=LAWS,
        cost_ns=3,
        doc="Azize & Basu (2022) AdaP-KLUCB, epsilon-global-DP; baseline of Hu & Hegde. Anytime.",
    )
)
