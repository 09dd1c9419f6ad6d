"""Reference twins of two private UCB algorithms published after the five papers: AdaP-UCB (Azize & Basu,
NeurIPS 2022, Section 4, eq. (7)) and LDP-UCB-L (Ren, Zhou, Liu & Shroff 2020, the Laplace variant).

Literal per-step implementations. AdaP-UCB accumulates every reward of an episode and draws its Laplace noise
when the episode ends, logging (arm, samples, true mean, released mean) in ``releases``; LDP-UCB-L privatises
each reward as it arrives (X + Lap(1/epsilon)) and keeps only the privatised sums.
"""

from __future__ import annotations

import math

from ._policy import argmax_ties
from .hu import _AdaPEpisodes


class AdaPUCB(_AdaPEpisodes):
    """Azize & Basu's Algorithm 1 with eq. (7): commit to the argmax for N_A rounds, then release its mean."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, horizon, epsilon, rng, params)  # n: the last episode's length, N_a/2 (1 at first)
        self.shift = 2.0 if params["ucb_log"] == "2t" else 1.0  # ln(shift * t_l) in the sub-Gaussian term

    def index(self, t):
        return [
            self.mu[a]
            + math.sqrt(self.alpha * math.log(self.shift * t) / (2 * self.n[a]))
            + self.alpha * math.log(t) / (self.eps * self.n[a])
            for a in range(self.k)
        ]


class LDPUCB:
    """LDP-UCB-L: UCB on the privatised rewards X + Lap(1/epsilon), with forced exploration of rare arms."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.eps, self.rng = k, epsilon, rng
        self.random_ties = params["tie_break"] == "random"
        self.explore_c = params["explore_c"]
        self.sums = [0.0] * k  # sums of privatised rewards
        self.n = [0] * k

    def select(self, t):
        for a in range(self.k):
            if self.n[a] <= self.explore_c * math.log(t + 1):
                return a
        lt = math.log(t)
        index = [
            self.sums[a] / self.n[a]
            + math.sqrt(2.0 * lt / self.n[a])
            + math.sqrt(32.0 / (self.eps * self.eps) * lt / self.n[a])
            for a in range(self.k)
        ]
        return argmax_ties(index, self.rng, self.random_ties)

    def update(self, a, x):
        self.sums[a] += x + self.rng.laplace(0.0, 1.0 / self.eps)
        self.n[a] += 1
