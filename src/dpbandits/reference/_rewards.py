"""The twins' reward draws, one function per law of :mod:`dpbandits.core.laws`, from the run's Generator.

Written apart from the fast kernels' draws (:mod:`dpbandits.bandits._laws`), straight from each law's
definition; a mean of 0 or 1 is a point mass.
"""

from __future__ import annotations

from ..core.laws import BETA_CONCENTRATION


def bernoulli(rng, m: float) -> float:
    """1.0 with probability m, else 0.0 (one uniform: the twins' draw since the start)."""
    return 1.0 if rng.random() < m else 0.0


def beta(rng, m: float) -> float:
    """Beta(c m, c (1 - m)), c = ``BETA_CONCENTRATION``."""
    if m in (0.0, 1.0):
        return m
    return float(rng.beta(BETA_CONCENTRATION * m, BETA_CONCENTRATION * (1.0 - m)))


def uniform(rng, m: float) -> float:
    """Uniform on [m - w, m + w], w = min(m, 1 - m)."""
    if m in (0.0, 1.0):
        return m
    w = min(m, 1.0 - m)
    return float(rng.uniform(m - w, m + w))


REWARDS = {"bernoulli": bernoulli, "beta": beta, "uniform": uniform}
