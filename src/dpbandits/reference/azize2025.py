"""Reference twins of DP-KLUCB and DP-IMED (Azize, Wu, Honda, Orabona, Ito & Basu 2025, arXiv 2505.05613), as
this package reconstructs them [RECON] from the abstract (docs/reconstructions.md).

Literal per-step implementations: rounds 1..K pull each arm once (a phase of length 1); then each phase start
chooses an arm A by the index and pulls it for N_A rounds, N_A its entries so far. Every reward is added to the
phase's sum; a completed phase releases sum + Lap(1/epsilon), added to the arm's running total of releases (no
forgetting); the private mean is that total over N_a, clipped into [0, 1]. Each policy logs its releases in
``releases`` as tuples (arm, entries, true sum, released sum).
"""

from __future__ import annotations

import math

from ..mechanisms.klucb import d_eps
from ._policy import argmax_ties


class _Phases:
    """The phases and their Laplace releases; the subclass's ``choose(t)`` picks the arm at a phase start t."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.eps, self.rng = k, epsilon, rng
        self.random_ties = params["tie_break"] == "random"
        self.released = [0.0] * k  # sum of the arm's released noisy phase sums
        self.N = [0] * k  # entries of the arm's completed phases
        self.arm, self.length, self.left, self.S = None, 0, 0, 0.0
        self.releases = []

    def mean(self, a) -> float:
        """Arm a's private mean over all its completed phases, clipped into [0, 1]."""
        return min(max(self.released[a] / self.N[a], 0.0), 1.0)

    def choose(self, t) -> int:
        """The arm of the phase starting at round t (> K)."""
        raise NotImplementedError

    def select(self, t):
        if self.left == 0:  # a phase starts at round t
            self.arm = t - 1 if t <= self.k else self.choose(t)
            self.length = self.left = max(self.N[self.arm], 1)
            self.S = 0.0
        return self.arm

    def update(self, a, x):
        self.S += x
        self.left -= 1
        if self.left == 0:
            noisy = self.S + self.rng.laplace(0.0, 1.0 / self.eps)
            self.released[a] += noisy
            self.N[a] += self.length
            self.releases.append((a, self.length, self.S, noisy))


class DPKLUCB(_Phases):
    """argmax_a max{q in [mu~_a, 1] : N_a d_eps(mu~_a, q) <= ln t + c ln ln t} (ln ln t read as 0 for t < 3)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, horizon, epsilon, rng, params)
        self.c, self.tol = params["c"], params["klucb_tol"]

    def upper(self, x, n, level) -> float:
        """The index of a mean x over n entries: bisection on [x, 1] to width tol, its feasible end."""
        lo, hi = x, 1.0
        if n * d_eps(x, hi, self.eps) <= level:
            return hi
        while hi - lo > self.tol:
            mid = (lo + hi) / 2
            if n * d_eps(x, mid, self.eps) <= level:
                lo = mid
            else:
                hi = mid
        return lo

    def choose(self, t):
        level = math.log(t) + (self.c * math.log(math.log(t)) if t >= 3 else 0.0)
        index = [self.upper(self.mean(a), self.N[a], level) for a in range(self.k)]
        return argmax_ties(index, self.rng, self.random_ties)


class DPIMED(_Phases):
    """argmin_a N_a d_eps(mu~_a, mu~*) + ln N_a with mu~* = max_b mu~_b."""

    def choose(self, t):
        best = max(self.mean(a) for a in range(self.k))
        index = [self.N[a] * d_eps(self.mean(a), best, self.eps) + math.log(self.N[a]) for a in range(self.k)]
        return argmax_ties([-v for v in index], self.rng, self.random_ties)
