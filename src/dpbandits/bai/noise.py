"""Laplace and Gaussian mechanisms for phase-wise empirical means (Chen et al. 2024, eq. (11), Algorithm 2).

A mean of n rewards in [0, 1] has sensitivity 1/n to one table entry (l1 and l2 alike).
"""

from __future__ import annotations

import numpy as np

from ..mechanisms.noise import gaussian_sigma, laplace_scale

MECHANISMS = ("laplace", "gauss")


def mean_noise_scale(n: int, epsilon: float, mechanism: str = "laplace", delta: float | None = None) -> float:
    """Noise scale for a mean of ``n`` rewards: Laplace b = 1/(epsilon n); Gaussian
    sigma = sqrt(2 ln(1.25/delta)) / (epsilon n) (classical mechanism, epsilon < 1)."""
    if mechanism == "laplace":
        return laplace_scale(1.0 / n, epsilon)
    if mechanism == "gauss":
        return gaussian_sigma(1.0 / n, epsilon, delta)
    raise ValueError(f"mechanism={mechanism!r} is not one of {list(MECHANISMS)}")


def add_noise(values: np.ndarray, scale: float, mechanism: str, rng: np.random.Generator) -> np.ndarray:
    """``values`` + i.i.d. Lap(scale) (``laplace``) or N(0, scale^2) (``gauss``) noise, one draw each."""
    if mechanism == "laplace":
        return values + rng.laplace(0.0, scale, size=values.shape)
    return values + rng.normal(0.0, scale, size=values.shape)
