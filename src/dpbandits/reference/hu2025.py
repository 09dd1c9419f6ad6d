"""Reference twin of DP-TS-UCB (Hu, Huang, Zhang, Lécuyer & Hegde, ICML 2025), as reconstructed [RECON].

Literal per-step implementation: every reward is kept in its arm's open batch (sizes 1, 1, 2, 4, ...: a batch
completes when it holds as many rewards as the arm had before it); a completed batch of n rewards with mean m
becomes the arm's posterior N(m, sigma^2), sigma = max(1/sqrt(n), sqrt(phi)/(mu n)); each round every arm draws
a fresh sample while its posterior has given fewer than phi, else offers the maximum of its phi samples. mu is
solved here again from Dong, Roth & Su's (2022) Corollary 2.13 with Phi written through ``math.erfc``.
Each sample is logged in ``releases`` as (arm, first entry, last entry, weight, sigma, noise).
"""

from __future__ import annotations

import math

from scipy.optimize import brentq

from ._policy import argmax_ties


def _phi(x: float) -> float:
    """Standard normal cdf."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def gdp_level(epsilon: float, delta: float) -> float:
    """mu with delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""

    def excess(mu):
        tail = _phi(-epsilon / mu - mu / 2)
        return _phi(-epsilon / mu + mu / 2) - (math.exp(epsilon) * tail if tail > 0 else 0.0) - delta

    lo, hi = 1e-3, 1.0
    while excess(lo) > 0:
        lo /= 10
    while excess(hi) < 0:
        hi *= 10
    return brentq(excess, lo, hi, xtol=1e-300)


class DPTSUCB:
    """Lazy Gaussian posteriors per arm, phi samples each, then the maximum of those samples."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.rng = k, rng
        self.random_ties = params["tie_break"] == "random"
        self.phi = max(1, math.ceil(math.log(horizon) ** (1.0 - min(params["alpha"], 1.0))))  # alpha in [0, 1]
        self.mu = gdp_level(epsilon, params["delta"])
        self.batch = [[] for _ in range(k)]  # rewards of the open batch
        self.held = [0] * k  # rewards in completed batches
        self.posterior = [None] * k  # (mean, sigma, n, first entry)
        self.samples = [[] for _ in range(k)]  # samples of the current posterior
        self.releases = []

    def select(self, t):
        if t <= self.k:
            return t - 1
        theta = []
        for j in range(self.k):
            mean, sigma, n, first = self.posterior[j]
            if len(self.samples[j]) < self.phi:
                x = self.rng.normal(mean, sigma)
                self.samples[j].append(x)
                self.releases.append((j, first, first + n - 1, 1.0 / n, sigma, x - mean))
                theta.append(x)
            else:
                theta.append(max(self.samples[j]))
        return argmax_ties(theta, self.rng, self.random_ties)

    def update(self, a, x):
        self.batch[a].append(x)
        n = len(self.batch[a])
        if n == max(1, self.held[a]):
            sigma = max(1.0 / math.sqrt(n), math.sqrt(self.phi) / (self.mu * n))
            self.posterior[a] = (sum(self.batch[a]) / n, sigma, n, self.held[a] + 1)
            self.samples[a] = []
            self.held[a] += n
            self.batch[a] = []
