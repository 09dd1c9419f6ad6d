"""Thompson sampling for Bernoulli rewards (Thompson, Biometrika 1933; Agrawal & Goyal, COLT 2012, arXiv 1111.1797,
Algorithm 1; Kaufmann, Korda & Munos, ALT 2012, arXiv 1205.4217); the non-private limit of the private samplers.

Beta(1, 1) priors: at every round t >= 1 draw, independently for every arm, theta_a ~ Beta(1 + S_a, 1 + n_a - S_a)
with S_a the successes among arm a's n_a pulls, and pull argmax_a theta_a (no initial round robin). Anytime.

Every reward law on [0, 1]: a reward r strictly between 0 and 1 counts as a success with probability r, an
extra uniform draw (Agrawal & Goyal's Bernoulli trial for general rewards), so S_a stays a count; 0/1 rewards
are used as they are. The regret and reward sums are those of the rewards drawn, not of the trials.

Fast kernel: the twin's loop compiled; the Beta draws, tie picks, rewards and trials come from ``rng``
(``Generator.beta``, which numba draws as numpy does) in the twin's order, so a run reproduces the twin's run on
the same generator draw for draw (Bernoulli and Beta rewards).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, register
from ._generator import argmax_ties
from ._laws import law_args, reward
from ._params import TIE_BREAK
from ._regret import record


@kernel
def thompson_kernel(means, horizon, checkpoints, rng, random_ties, law=0):
    """One run: (regret[C] at ``checkpoints``, pulls int64[K], reward sum); rewards of law ``law`` (``_laws``)."""
    k = means.size
    gap = means.max() - means
    wins = np.zeros(k)  # S_a, successes (exact integers)
    n = np.zeros(k, dtype=np.int64)
    theta = np.empty(k)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    ci = 0
    for t in range(1, horizon + 1):
        for b in range(k):
            theta[b] = rng.beta(1.0 + wins[b], 1.0 + (n[b] - wins[b]))
        a = argmax_ties(theta, rng, random_ties)
        r = reward(rng, law, means[a])
        if 0.0 < r < 1.0:
            wins[a] += 1.0 if rng.random() < r else 0.0
        else:
            wins[a] += r
        n[a] += 1
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
    """One run of Thompson sampling under reward law ``rewards`` (``epsilon`` is ignored); see
    :func:`thompson_kernel`."""
    return thompson_kernel(means, horizon, checkpoints, rng, params["tie_break"] == "random", *law_args(rewards))


register(
    Algorithm(
        name="thompson",
        kind="regret",
        label="Thompson sampling",
        private=False,
        reference="dpbandits.reference.field:Thompson",
        run=run,
        params={"tie_break": TIE_BREAK},
        laws=LAWS,
        cost_ns=810,  # dpbandits bench, K = 20, load 2 on 2 cores: 814 ns (K = 5: 251 ns)
        doc="Thompson sampling, Beta(1, 1) priors (Thompson 1933; Agrawal & Goyal 2012); non-private reference.",
    )
)
