"""Reward laws on [0, 1] of the regret simulations: their names, the Beta concentration, validation.

Every law has the arm's mean m (``means[a]``); a mean of exactly 0 or 1 is a point mass under every law.

- ``"bernoulli"`` (default): 1 with probability m, else 0; variance m (1 - m).
- ``"beta"``: Beta(c m, c (1 - m)) with concentration c = ``BETA_CONCENTRATION`` = 1, i.e. Beta(m, 1 - m);
  variance m (1 - m) / (c + 1) = m (1 - m) / 2, half the Bernoulli's.
- ``"uniform"``: uniform on [m - w, m + w], w = min(m, 1 - m); variance w^2 / 3 <= m (1 - m) / 3.

So at every mean in (0, 1) the variances are strictly ordered: uniform < beta < bernoulli (w^2 <= m (1 - m)).
A concentration c >= 2 would not do: the uniform's and the Beta's variances meet at m = 3 / (c + 4)
(c = 4: at m = 3/8, a mean of the papers' instances).

The privacy analyses of all five papers assume rewards in [0, 1], which every law keeps. Fast kernels draw
them through :mod:`dpbandits.bandits._laws`, the twins through :mod:`dpbandits.reference._rewards`.
"""

from __future__ import annotations

from .validation import brief

LAWS = ("bernoulli", "beta", "uniform")  # the kernels' law codes are the indices: 0, 1, 2
DEFAULT = "bernoulli"
BETA_CONCENTRATION = 1.0  # c of Beta(c m, c (1 - m)); at m = 1/2 the variance is 1/8 (uniform: 1/12)


#: Rough ns a pull costs more under each law than under bernoulli (``dpbandits bench``, 2026-11-27, 2-core machine
#: at load 2: +105-250 ns with Beta(m, 1 - m)'s rejection sampler, +5-90 ns with the uniform; docs/reward-laws.md):
#: the collapsed kernels step there and the stepping ones draw each reward, so a cost hint grows by this.
DRAW_NS = {"bernoulli": 0.0, "beta": 200.0, "uniform": 50.0}


def cost_ns(algorithm, rewards: str) -> float:
    """Rough ns per pull of ``algorithm`` (an ``Algorithm``) under law ``rewards``: its ``cost_ns`` hint (measured
    under bernoulli) plus ``DRAW_NS[rewards]``."""
    return algorithm.cost_ns + DRAW_NS[rewards]


def check_rewards(rewards) -> str:
    """Return ``rewards`` if it names a law in ``LAWS``, else raise ``ValueError`` naming ``rewards``."""
    if not isinstance(rewards, str) or rewards not in LAWS:
        raise ValueError(f"rewards={brief(rewards)} is not a reward law; accepted: {list(LAWS)}")
    return rewards


def variance(rewards: str, mean: float) -> float:
    """Variance of one reward of mean ``mean`` under law ``rewards``."""
    m = float(mean)
    if rewards == "bernoulli":
        return m * (1.0 - m)
    if rewards == "beta":
        return m * (1.0 - m) / (BETA_CONCENTRATION + 1.0)
    return min(m, 1.0 - m) ** 2 / 3.0
