"""Laplace and Gaussian mechanisms for phase-wise empirical means (Chen et al. 2024, eq. (11), Algorithm 2), and
their entries in a release book (:mod:`dpbandits.mechanisms.ledger`).

A mean of n rewards in [0, 1] has sensitivity 1/n to one table entry (l1 and l2 alike).
"""

from __future__ import annotations

import numpy as np

from ..mechanisms.ledger import GAUSS, LAPLACE, next_draw, note
from ..mechanisms.noise import gaussian_sigma, laplace_scale

MECHANISMS = ("laplace", "gauss")
_CODES = {"laplace": LAPLACE, "normal": GAUSS}  # Generator method -> ledger mechanism code


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


class NoiseTap:
    """A ``numpy.random.Generator`` that remembers its last noise draw: ``last`` = (method, scale, values) of the
    latest ``laplace`` or ``normal`` call, the exact array returned. Every other attribute is the generator's, so
    a run given the tap makes the same draws as one given the generator."""

    def __init__(self, rng: np.random.Generator):
        self._rng = rng
        self.last = None

    def laplace(self, loc=0.0, scale=1.0, size=None):
        self.last = ("laplace", scale, self._rng.laplace(loc, scale, size))
        return self.last[2]

    def normal(self, loc=0.0, scale=1.0, size=None):
        self.last = ("normal", scale, self._rng.normal(loc, scale, size))
        return self.last[2]

    def __getattr__(self, name):
        return getattr(self._rng, name)


def note_releases(book: np.ndarray, tap: NoiseTap, arms, last, counts, weights) -> None:
    """Write to ``book`` the releases of the tap's last draw: release i = noise[i] + sum_k weights[i, k] * (sum of
    entries last[k] - counts[k] + 1 .. last[k] of arm arms[k]); arms, last, counts: int64[k]; weights:
    float64[m, k] (|weight| is recorded: one entry moves the statistic by at most that; a zero weight reads
    nothing: no row). One head row and a further row (part 1) per other range read."""
    method, scale, noise = tap.last
    weights = np.abs(np.asarray(weights, dtype=np.float64))
    for i, value in enumerate(np.ravel(noise)):
        draw = next_draw(book)  # the draw's position among the run's noise draws
        reads = np.flatnonzero(weights[i])
        if not reads.size:
            continue
        for part, k in enumerate(reads):
            first, end = float(last[k] - counts[k] + 1), float(last[k])
            row = (float(arms[k]), first, end, float(weights[i, k]), float(scale), draw, float(value))
            note(book, _CODES[method], *row, float(part > 0), -1.0)
