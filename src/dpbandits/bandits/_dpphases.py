"""The arm-dependent phases of DP-KLUCB and DP-IMED (Azize, Wu, Honda, Orabona, Ito & Basu 2025, arXiv 2505.05613).

The blueprint the abstract names, "(a) running in arm-dependent phases, and (b) adding Laplace noise", as this
package reconstructs it [RECON] (docs/reconstructions.md):

- rounds 1..K pull each arm once (a phase of length 1); afterwards the chosen arm A is pulled for a phase of N_A
  consecutive rounds, N_A its pull count so far (its count doubles), cut by the horizon;
- a completed phase of arm a releases its reward sum S + Lap(1/epsilon) (sensitivity 1 for rewards in [0, 1]);
  every reward is read by exactly one release, so a run is epsilon-DP (parallel composition, post-processing).
  A phase cut by the horizon releases nothing;
- no forgetting: arm a's private mean is (sum of all its released noisy sums) / N_a, N_a the entries of its
  completed phases (at every decision, its pull count), clipped into [0, 1] where a divergence reads it.

A phase collapses to O(1) work under Bernoulli rewards: one Binomial for its reward sum, regret linear over it
(exact); under another law (``law``, :mod:`._laws`) its rewards are drawn and summed. The kernels differ only in
the index they compute at each phase start.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..core.jit import helper, kernel
from ..mechanisms.ledger import LAPLACE, next_draw, note
from ._laws import reward_sum
from ._regret import fill_linear

#: One run's state (:func:`new_state`): the sums of each arm's released noisy phase sums noisy float64[K], the
#: pulls n int64[K] (entries of completed phases at every decision), index scratch float64[K], regret out float64[C].
State = namedtuple("State", "noisy n index out")
#: What a run does not change: means float64[K], epsilon, checkpoints int64[C], the reward law code ``law``.
Setup = namedtuple("Setup", "means epsilon checkpoints law")


@kernel
def new_state(k, size):
    """The :class:`State` of a fresh run with ``size`` checkpoints (nothing pulled, nothing released)."""
    return State(np.zeros(k), np.zeros(k, dtype=np.int64), np.empty(k), np.empty(size))


@kernel
def phase(a, t, horizon, setup, state, c, regret, rng, book=None):
    """Arm ``a``'s phase from round t + 1: max(n_a, 1) pulls (fewer if the horizon cuts it, then no release).

    A completed phase adds its sum + Lap(1/epsilon) to noisy[a]; n[a] counts the pulls. Returns (rounds done,
    next checkpoint slot, regret, the phase's reward sum). With a release ``book`` the release is noted as
    reading entries n_a + 1 .. n_a + length of arm ``a`` with weight 1 at scale 1/epsilon.
    """
    means, epsilon, checkpoints, law = setup
    n, noisy, out = state.n, state.noisy, state.out
    gap = means.max() - means[a]
    length = max(n[a], 1)
    steps = min(length, horizon - t)
    c = fill_linear(out, checkpoints, c, t, regret, t + steps, gap)
    s = reward_sum(rng, law, steps, means[a])
    if steps == length:
        scale = 1.0 / epsilon
        noise = rng.laplace(0.0, scale)
        noisy[a] += s + noise
        if book is not None:
            note(book, LAPLACE, a, n[a] + 1, n[a] + length, 1.0, scale, next_draw(book), noise)
    n[a] += steps
    return t + steps, c, regret + gap * steps, s


@kernel
def first_phases(horizon, setup, state, rng, book=None):
    """Rounds 1..K (T >= K): arm a's phase of length 1 at round a + 1.

    Returns (rounds done K, next checkpoint slot, regret, reward sum)."""
    t, c, regret, total = 0, 0, 0.0, 0.0
    for a in range(setup.means.size):
        t, c, regret, s = phase(a, t, horizon, setup, state, c, regret, rng, book)
        total += s
    return t, c, regret, total


@helper
def private_mean(state, a):
    """Arm ``a``'s private mean without forgetting, noisy[a] / n[a], clipped into [0, 1] (needs n[a] >= 1)."""
    return min(max(state.noisy[a] / state.n[a], 0.0), 1.0)
