"""Reference twins of Hu & Hegde's Anytime-Lazy-UCB and Lazy-DP-TS (Algorithms 1 and 3) and of AdaP-KLUCB.

Literal per-step implementations: every pull's Bernoulli reward is accumulated, the Laplace noise is
drawn when an epoch/episode closes. Each policy logs its releases in ``releases`` as tuples
(arm, samples, true statistic, released statistic) -- the sum for the lazy algorithms, the mean for
AdaP-KLUCB -- for the noise-calibration and single-use tests.
"""

from __future__ import annotations

import math

from ..mechanisms.klucb import klucb_upper
from ._policy import argmax_ties


class _LazyEpochs:
    """Alg. 1 lines 5-8 (= Alg. 3 lines 6-9). Starting from r = -1, the initial pull is epoch 0 of
    size 2^0 = 1, so the first update leaves O = 1, r = 0, mu~ = X + Lap(1/eps), N = Phi = 0 as in
    the initialisation line of the algorithms."""

    def __init__(self, k, epsilon, rng, params):
        self.k, self.eps, self.rng = k, epsilon, rng
        self.random_ties = params["tie_break"] == "random"
        self.r = [-1] * k
        self.O = [0] * k
        self.mu = [0.0] * k
        self.N = [0] * k
        self.Phi = [0.0] * k
        self.releases = []

    def update(self, a, x):
        self.N[a] += 1
        self.Phi[a] += x
        if self.N[a] == 2 ** (self.r[a] + 1):
            self.O[a] = 2 ** (self.r[a] + 1)
            noisy = self.Phi[a] + self.rng.laplace(0.0, 1.0 / self.eps)
            self.mu[a] = noisy / self.O[a]
            self.releases.append((a, self.O[a], self.Phi[a], noisy))
            self.r[a] += 1
            self.N[a] = 0
            self.Phi[a] = 0.0


class AnytimeLazyUCB(_LazyEpochs):
    """Algorithm 1: argmax_j mu~_j + sqrt(3 ln t / O_j) + 3 ln t / (eps O_j)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, epsilon, rng, params)

    def select(self, t):
        if t <= self.k:
            return t - 1
        lt = math.log(t)
        index = [self.mu[j] + math.sqrt(3 * lt / self.O[j]) + 3 * lt / (self.eps * self.O[j]) for j in range(self.k)]
        return argmax_ties(index, self.rng, self.random_ties)


class LazyDPTS(_LazyEpochs):
    """Algorithm 3: theta_j ~ Beta(m_j O_j + 1, (1-m_j) O_j + 1), m_j = Clip01(mu~_j + 3 log t/(eps O_j))."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, epsilon, rng, params)
        # log t = ln t times this factor, in the base the bonus_log reading names
        self.log_scale = {"ln": 1.0, "log2": 1.0 / math.log(2.0), "log10": 1.0 / math.log(10.0)}[params["bonus_log"]]

    def select(self, t):
        if t <= self.k:
            return t - 1
        log_t = self.log_scale * math.log(t)
        theta = []
        for j in range(self.k):
            m = min(max(self.mu[j] + 3 * log_t / (self.eps * self.O[j]), 0.0), 1.0)
            theta.append(self.rng.beta(m * self.O[j] + 1, (1 - m) * self.O[j] + 1))
        return argmax_ties(theta, self.rng, self.random_ties)


class _AdaPEpisodes:
    """Azize & Basu's framework (Algorithm 1): commit to the argmax of ``index`` for N_A rounds, then release the
    episode's mean; the index is the subclass's (AdaP-KLUCB here, AdaP-UCB in :mod:`.after`)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.eps, self.rng = k, epsilon, rng
        self.random_ties = params["tie_break"] == "random"
        self.alpha = params["alpha"]
        self.mu = [0.0] * k  # private mean of the arm's last episode
        self.n = [0] * k  # samples behind mu (last episode's length)
        self.N = [0] * k  # total pulls
        self.arm, self.length, self.left, self.S = None, 0, 0, 0.0
        self.releases = []

    def index(self, t) -> list:
        """Every arm's index at an episode's first round t."""
        raise NotImplementedError

    def select(self, t):
        if t <= self.k:
            return t - 1
        if self.left == 0:  # episode starts at t_l = t
            self.arm = argmax_ties(self.index(t), self.rng, self.random_ties)
            self.length = self.left = self.N[self.arm]
            self.S = 0.0
        return self.arm

    def release(self, a, n, s):
        noisy = s / n + self.rng.laplace(0.0, 1.0 / (self.eps * n))
        self.mu[a], self.n[a] = noisy, n
        self.releases.append((a, n, s / n, noisy))

    def update(self, a, x):
        self.N[a] += 1
        if self.arm is None:  # initial pull
            self.release(a, 1, x)
            return
        self.S += x
        self.left -= 1
        if self.left == 0:
            self.release(a, self.length, self.S)


class AdaPKLUCB(_AdaPEpisodes):
    """Azize & Basu's framework with the KL-UCB index."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, horizon, epsilon, rng, params)
        self.tol = params["klucb_tol"]

    def index(self, t):
        lt = math.log(t)
        index = []
        for a in range(self.k):
            mb = min(max(self.mu[a] + self.alpha * lt / (self.eps * self.n[a]), 0.0), 1.0)
            index.append(klucb_upper(mb, self.alpha * lt / self.n[a], self.tol))
        return index
