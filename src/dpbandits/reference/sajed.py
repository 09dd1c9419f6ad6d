"""Reference twins of DP-SE (Sajed & Sheffet 2019 Algorithm 3) and DP-UCB (Sajed 2019 thesis Algorithm 6).

Literal per-step forms: DP-SE pulls one arm at a time round-robin over S in ascending order with
running means, runs ``while r < R_e`` and releases Lap(1/(eps r)) noisy means at each epoch's end;
DP-UCB keeps one literal alpha / alpha-hat binary tree per arm (``mechanisms.BinaryTreeCounter``).
"""

from __future__ import annotations

import math

from ..mechanisms.noise import BinaryTreeCounter, tree_levels
from ._policy import argmax_ties


class DPSE:
    """Sajed & Sheffet 2019 Algorithm 3; the horizon stops it mid-epoch without an elimination
    (docs/reconstructions.md)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.eps, self.rng, self.horizon = epsilon, rng, horizon
        self.beta = 1.0 / horizon if params["beta"] is None else params["beta"]  # None: beta = 1/T
        self.by_real = params["noise_scale_uses"] == "R_e"
        self.S = list(range(k))
        self.t = 0
        self.epoch = 0
        self.new_epoch()

    def new_epoch(self):
        self.epoch += 1
        e, m, beta = self.epoch, len(self.S), self.beta
        delta = 2.0**-e
        self.R = (
            max(32 * math.log(8 * m * e**2 / beta) / delta**2, 8 * math.log(4 * m * e**2 / beta) / (self.eps * delta))
            + 1
        )
        self.mean = dict.fromkeys(self.S, 0.0)
        self.r, self.pos = 1, 0  # first pass of "while r < R_e: r <- r + 1" (R_e > 1)

    def select(self, t):
        return self.S[self.pos]

    def update(self, a, reward):
        self.t += 1
        if len(self.S) == 1:
            return
        self.mean[a] += (reward - self.mean[a]) / self.r
        self.pos += 1
        if self.pos < len(self.S):
            return
        self.pos = 0
        if self.r < self.R:
            self.r += 1
        elif self.t < self.horizon:
            self.eliminate()

    def eliminate(self):
        e, m, beta, eps, big_r = self.epoch, len(self.S), self.beta, self.eps, self.R
        h = math.sqrt(math.log(8 * m * e**2 / beta) / (2 * big_r))
        c = math.log(4 * m * e**2 / beta) / (big_r * eps)
        scale = 1.0 / (eps * (big_r if self.by_real else self.r))
        noisy = {i: self.mean[i] + self.rng.laplace(0.0, scale) for i in self.S}
        top = max(noisy.values())
        self.S = [j for j in self.S if not top - noisy[j] > 2 * h + 2 * c]
        if len(self.S) > 1:
            self.new_epoch()


class DPUCB:
    """Thesis Algorithm 6 (Section 3.4) over Algorithm 5 trees (Section 3.3): one tree per arm, indexed by n_i."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k = k
        levels = tree_levels(horizon)
        self.trees = [BinaryTreeCounter(levels / epsilon, rng, levels) for _ in range(k)]
        beta = 1.0 / horizon if params["beta"] is None else params["beta"]  # None: beta = 1/T
        # Gamma = (log T)^2 ln(K T ln T / beta) / eps (thesis Algorithm 6, line 3; docs/reconstructions.md), read as
        # (squared log T, inner log T, outer log) by gamma_log
        ln_t, lg_t = math.log(horizon), math.log2(horizon)
        square, inner, outer = {
            "e": (ln_t, ln_t, math.log),
            "2": (lg_t, ln_t, math.log),
            "levels": (levels, levels, math.log),
            "2all": (lg_t, lg_t, math.log2),
        }[params["gamma_log"]]
        self.gamma = (
            square**2 * outer(k * horizon * inner / beta) / (epsilon if params["gamma_denominator"] == "eps" else 2.0)
        )
        self.n = [0] * k
        self.released = [0.0] * k
        self.rng = rng

    def select(self, t):
        if t <= self.k:
            return t - 1
        values = [self.released[i] / n + math.sqrt(2 * math.log(t) / n) + self.gamma / n for i, n in enumerate(self.n)]
        return argmax_ties(values, self.rng, random_ties=False)

    def update(self, a, reward):
        self.n[a] += 1
        self.released[a] = self.trees[a].insert(reward)
