"""DP-KLUCB (Azize, Wu, Honda, Orabona, Ito & Basu 2025, "Optimal Regret of Bernoulli Bandits under Global
Differential Privacy", arXiv 2505.05613), as this package reconstructs it [RECON] from the abstract.

Phases and Laplace releases of :mod:`._dpphases`: rounds 1..K pull each arm once; at each later phase start t
(1-based round) compute, for every arm a with private mean mu~_a in [0, 1] (all its released noisy phase sums
over its N_a entries: no forgetting),
    I_a = max{q in [mu~_a, 1] : N_a d_eps(mu~_a, q) <= ln t + c ln ln t}    (ln ln t = 0 when t < 3),
d_eps of :func:`dpbandits.mechanisms.klucb.d_eps` (nats, increasing in q >= mu~_a, so a bisection finds I_a),
and pull A = argmax_a I_a for N_A consecutive rounds, then release that phase's sum + Lap(1/epsilon). Anytime;
epsilon-global-DP. The exploration constant c is a [CHOICE] (KL-UCB's c of Garivier & Cappe 2011).
"""

from __future__ import annotations

import math

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Contract, Param, Setting, register
from ..mechanisms.klucb import d_eps
from ._dpphases import Setup, first_phases, new_state, phase, private_mean
from ._generator import argmax_ties
from ._laws import law_args, recorded
from ._params import TIE_BREAK


@kernel
def dp_klucb_upper(x, n, level, epsilon, tol):
    """max{q in [x, 1] : n d_eps(x, q) <= level} for a mean ``x`` in [0, 1] and ``n`` >= 1 entries.

    Bisection on [x, 1] until the bracket is at most ``tol`` wide; returns its lower end (feasible, within
    ``tol`` below the solution). Returns 1.0 if x >= 1 or n d_eps(x, 1) = n eps (1 - x) <= level, x if level <= 0.
    """
    if x >= 1.0:
        return 1.0
    if level <= 0.0:
        return x
    if n * d_eps(x, 1.0, epsilon) <= level:
        return 1.0
    lo, hi = x, 1.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if n * d_eps(x, mid, epsilon) > level:
            hi = mid
        else:
            lo = mid
    return lo


@kernel
def dp_klucb_level(t, c_explore):
    """The level ln t + c ln ln t of the index at round t >= 2 (ln ln t read as 0 for t < 3), nats."""
    lt = math.log(t)
    return lt + c_explore * math.log(lt) if t >= 3 else lt


@kernel
def dp_klucb_kernel(means, horizon, epsilon, c_explore, tol, checkpoints, rng, random_ties, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum, noisy[K]): the sums of each arm's released noisy sums.

    ``law``: reward law code (``_laws``); a phase reads only its reward sum (one Binomial under law 0).
    ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`) that records each release, or None (compiled away).
    """
    setup = Setup(means, epsilon, checkpoints, law)
    state = new_state(means.size, checkpoints.size)
    t, c, regret, total = first_phases(horizon, setup, state, rng, book)
    while t < horizon:
        level = dp_klucb_level(t + 1, c_explore)
        for a in range(means.size):
            state.index[a] = dp_klucb_upper(private_mean(state, a), state.n[a], level, epsilon, tol)
        a = argmax_ties(state.index, rng, random_ties)
        t, c, regret, s = phase(a, t, horizon, setup, state, c, regret, rng, book)
        total += s
    return state.out, state.n, total, state.noisy


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of DP-KLUCB under reward law ``rewards``; see :func:`dp_klucb_kernel`."""
    out, n, total, _ = dp_klucb_kernel(
        means,
        horizon,
        epsilon,
        params["c"],
        params["klucb_tol"],
        checkpoints,
        rng,
        params["tie_break"] == "random",
        *law_args(rewards, book),
    )
    return out, n, total


# I_a = 1 whenever N_a eps (1 - mu~_a) <= ln t (d_eps(x, 1) = eps (1 - x)): on the generic audit's 2 x 8 tables
# (seed 4, 1000 trials) eps = 1 measured a loss of 0.26 and a halved noise went unflagged; at eps = 4 a halving is
# flagged (4.6 > 4) while the real twin stays at 2.5
AUDIT = Audit(
    epsilon=4.0,
    note="for eps < 1.1 (ln 3) every index is 1 at the audit's first decision (N eps (1 - mu~) <= ln t), so only the "
    "later decisions read the rewards and the audit sees little of the loss; audited at eps = 4",
)


register(
    Algorithm(
        name="dp_klucb",
        kind="regret",
        label="DP-KLUCB",
        private=True,
        reference="dpbandits.reference.azize2025:DPKLUCB",
        collapsed=True,
        audit=AUDIT,
        # ten arms: which of the nine weak arms the early noisy releases favour decides the pulls; a halved noise
        # moves the pull counts by far more than the default runs resolve
        contract=Contract(
            bernoulli=Setting((1.0, 0.1) + (0.0,) * 8, 1000, 4.0),
            deterministic=Setting((1.0,) + (0.0,) * 9, 1000, 8.0),
        ),
        run=run,
        releases=recorded(run),
        params={
            "tie_break": TIE_BREAK,
            "c": Param(
                0.0,
                low=-1.0,
                doc="[CHOICE] exploration constant c of the level ln t + c ln ln t (KL-UCB's; c > -1 keeps the "
                "level positive)",
            ),
            "klucb_tol": Param(1e-9, low=0.0, doc="[CHOICE] bisection tolerance of the DP-KLUCB index"),
        },
        laws=LAWS,
        cost_ns=3,  # bench, K = 20, T = 1e6: 2.7 ns per simulated pull
        doc="Azize, Wu, Honda, Orabona, Ito & Basu (2025) DP-KLUCB, epsilon-global-DP, reconstructed [RECON]. Anytime.",
    )
)
