"""The episodes of Azize & Basu's framework (NeurIPS 2022, Algorithm 1), shared by AdaP-UCB and AdaP-KLUCB.

Rounds 1..K pull each arm once (private mean X_a + Lap(1/epsilon), one sample). Each later episode pulls
the arm its index chose for N_A consecutive rounds (doubling its count N_A, line 7) and ends with the
private mean of this episode's rewards only, mean + Lap(1/(epsilon N_A)) (Lemma 1, Section 4), kept until
that arm's next episode ends. An episode collapses to O(1) work under Bernoulli rewards: one Binomial for its
reward sum, regret linear over it (exact); under another law (``law``, :mod:`._laws`) its rewards are drawn
and summed. The kernels differ only in their index (computed at each episode's start).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.jit import kernel
from ..core.registry import Param
from ..mechanisms.ledger import LAPLACE, next_draw, note
from ._laws import reward, reward_sum
from ._regret import fill_linear, record

#: Reading axis of alpha (docs/reconstructions.md, "AdaP-KLUCB's alpha"), shared by AdaP-UCB and AdaP-KLUCB.
ALPHA_READINGS = {
    3.1: "Azize & Basu 2022, Section 5: 'We set alpha = 3.1 to comply with the regret upper bounds'",
    4.0: "any alpha > 3 meets Azize & Basu's Theorems 7-8 (Algorithm 1 input 'alpha > 3'); 4 is the first "
    "integer, a round value a reimplementation may pick",
}
ALPHA = Param(
    3.1,
    low=3.0,
    readings=ALPHA_READINGS,
    doc="[CHOICE] exploration constant alpha > 3 (Algorithm 1's input; Azize & Basu's experiments use 3.1)",
)


#: One AdaP run's state (:func:`new_state`): private means mu float64[K], last episode lengths last int64[K], pull
#: counts n int64[K], the index scratch float64[K] and the regret at the checkpoints out float64[C].
State = namedtuple("State", "mu last n index out")
#: What an AdaP run does not change: means float64[K], epsilon, checkpoints int64[C], the reward law code ``law``.
Setup = namedtuple("Setup", "means epsilon checkpoints law")


@kernel
def first_pulls(setup, state, rng, book=None):
    """Rounds 1..K: arm a at round a + 1, its private mean mu[a] = X + Lap(1/epsilon).

    Fills the checkpoints up to K; returns (next checkpoint slot, regret, reward sum). With a release ``book``
    (:mod:`dpbandits.mechanisms.ledger`) each release is noted as reading entry 1 of its arm.
    """
    means, epsilon, checkpoints, law = setup
    out, mu = state.out, state.mu
    gap = means.max() - means
    regret = 0.0
    total = 0.0
    c = 0
    for a in range(means.size):
        x = reward(rng, law, means[a])
        scale = 1.0 / epsilon
        noise = rng.laplace(0.0, scale)
        mu[a] = x + noise
        if book is not None:
            note(book, LAPLACE, a, 1, 1, 1.0, scale, next_draw(book), noise)
        total += x
        regret += gap[a]
        c = record(out, checkpoints, c, a + 1, regret)
    return c, regret, total


@kernel
def episode(a, t, horizon, setup, state, c, regret, rng, book=None):
    """Arm ``a``'s episode from round t + 1: N_a pulls (fewer if the horizon cuts it, then no release).

    Updates n[a] (pulls), and for a completed episode last[a] (its length) and mu[a] (its private mean).
    Returns (rounds done, next checkpoint slot, regret, the episode's reward sum). With a release ``book``
    the release is noted as reading the episode's entries N_a + 1..2 N_a of arm ``a`` with weight 1/N_a.
    """
    means, epsilon, checkpoints, law = setup
    n, last, mu, out = state.n, state.last, state.mu, state.out
    gap = means.max() - means[a]
    length = n[a]
    steps = min(length, horizon - t)
    c = fill_linear(out, checkpoints, c, t, regret, t + steps, gap)
    s = reward_sum(rng, law, steps, means[a])
    if steps == length:
        scale = 1.0 / (epsilon * length)
        noise = rng.laplace(0.0, scale)
        mu[a] = s / length + noise
        last[a] = length
        if book is not None:
            note(book, LAPLACE, a, n[a] + 1, n[a] + length, 1.0 / length, scale, next_draw(book), noise)
    n[a] += steps
    return t + steps, c, regret + gap * steps, s


@kernel
def new_state(k, size):
    """The :class:`State` of a fresh run with ``size`` checkpoints (last = n = 1)."""
    return State(np.empty(k), np.ones(k, dtype=np.int64), np.ones(k, dtype=np.int64), np.empty(k), np.empty(size))
