"""DP-IMED (Azize, Wu, Honda, Orabona, Ito & Basu 2025, "Optimal Regret of Bernoulli Bandits under Global
Differential Privacy", arXiv 2505.05613), as this package reconstructs it [RECON] from the abstract.

Phases and Laplace releases of :mod:`._dpphases`: rounds 1..K pull each arm once; at each later phase start,
with every arm's private mean mu~_a in [0, 1] (all its released noisy phase sums over its N_a entries: no
forgetting) and mu~* = max_b mu~_b, compute IMED's index (Honda & Takemura 2015) with d_eps for kl,
    I_a = N_a d_eps(mu~_a, mu~*) + ln N_a    (nats; d_eps of :func:`dpbandits.mechanisms.klucb.d_eps`),
and pull A = argmin_a I_a for N_A consecutive rounds, then release that phase's sum + Lap(1/epsilon). Anytime;
epsilon-global-DP.
"""

from __future__ import annotations

import math

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Contract, Setting, register
from ..mechanisms.klucb import d_eps
from ._dpphases import Setup, first_phases, new_state, phase, private_mean
from ._generator import argmax_ties
from ._laws import law_args, recorded
from ._params import TIE_BREAK


@kernel
def dp_imed_index(state, epsilon):
    """Fill state.index with -I_a, I_a = N_a d_eps(mu~_a, mu~*) + ln N_a (needs every N_a >= 1), so that the
    argmax (ties alike) is IMED's argmin."""
    best = 0.0
    for a in range(state.n.size):
        best = max(best, private_mean(state, a))
    for a in range(state.n.size):
        n = state.n[a]
        state.index[a] = -(n * d_eps(private_mean(state, a), best, epsilon) + math.log(n))


@kernel
def dp_imed_kernel(means, horizon, epsilon, checkpoints, rng, random_ties, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum, noisy[K]): the sums of each arm's released noisy sums.

    Each phase start fills the index scratch by :func:`dp_imed_index`. ``law``: reward law code (``_laws``);
    ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`), or None (compiled away).
    """
    setup = Setup(means, epsilon, checkpoints, law)
    state = new_state(means.size, checkpoints.size)
    t, c, regret, total = first_phases(horizon, setup, state, rng, book)
    while t < horizon:
        dp_imed_index(state, epsilon)
        a = argmax_ties(state.index, rng, random_ties)
        t, c, regret, s = phase(a, t, horizon, setup, state, c, regret, rng, book)
        total += s
    return state.out, state.n, total, state.noisy


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of DP-IMED under reward law ``rewards``; see :func:`dp_imed_kernel`."""
    out, n, total, _ = dp_imed_kernel(
        means, horizon, epsilon, checkpoints, rng, params["tie_break"] == "random", *law_args(rewards, book)
    )
    return out, n, total


register(
    Algorithm(
        name="dp_imed",
        kind="regret",
        label="DP-IMED",
        private=True,
        reference="dpbandits.reference.azize2025:DPIMED",
        collapsed=True,
        audit=Audit(),
        # ten arms: which of the nine weak arms the early noisy releases favour decides the pulls; a halved noise
        # moves the pull counts by far more than the default runs resolve
        contract=Contract(
            bernoulli=Setting((1.0, 0.1) + (0.0,) * 8, 1000, 4.0),
            deterministic=Setting((1.0,) + (0.0,) * 9, 1000, 8.0),
        ),
        run=run,
        releases=recorded(run),
        params={"tie_break": TIE_BREAK},
        laws=LAWS,
        cost_ns=0.5,  # bench, K = 20, T = 1e6: 0.34 ns per simulated pull
        doc="Azize, Wu, Honda, Orabona, Ito & Basu (2025) DP-IMED, epsilon-global-DP, reconstructed [RECON]. Anytime.",
    )
)
