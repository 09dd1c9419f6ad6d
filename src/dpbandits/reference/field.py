"""Reference twins of the non-private algorithms at the far end of the privacy axis: KL-UCB, Thompson sampling, IMED.

Literal per-step implementations of the published rules, on the running reward sums S_a and pull counts n_a of
each arm (empirical mean S_a / n_a). Ties are broken by ``argmax_ties`` (uniformly among the maximisers, or the
lowest index); IMED's argmin is the argmax of -I_a.
"""

from __future__ import annotations

import math

from ..mechanisms.klucb import kl_bernoulli, klucb_upper
from ._policy import argmax_ties


class _Counts:
    """Reward sums ``s`` and pull counts ``n`` per arm, and the tie rule."""

    def __init__(self, k, rng, params):
        self.k, self.rng = k, rng
        self.random_ties = params["tie_break"] == "random"
        self.s = [0.0] * k
        self.n = [0] * k

    def update(self, a, r):
        self.s[a] += r
        self.n[a] += 1


class KLUCB(_Counts):
    """Garivier & Cappé (2011): after one pull of each arm, argmax_a max{q in [mu_a, 1] :
    n_a kl(mu_a, q) <= ln t + c ln ln t} (ln ln t read as 0 for t < 3), by bisection to ``klucb_tol``."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)
        self.c, self.tol = params["c"], params["klucb_tol"]

    def select(self, t):
        if t <= self.k:
            return t - 1
        level = math.log(t)
        if t >= 3:
            level = level + self.c * math.log(level)
        index = [klucb_upper(self.s[a] / self.n[a], level / self.n[a], self.tol) for a in range(self.k)]
        return argmax_ties(index, self.rng, self.random_ties)


class Thompson(_Counts):
    """Beta(1, 1) priors; each round theta_a ~ Beta(1 + S_a, 1 + n_a - S_a) for every arm, pull the argmax.

    A reward r strictly between 0 and 1 is first turned into a success with probability r (Agrawal & Goyal's
    Bernoulli trial), so S_a counts successes.
    """

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)

    def select(self, t):
        theta = [self.rng.beta(1 + self.s[a], 1 + self.n[a] - self.s[a]) for a in range(self.k)]
        return argmax_ties(theta, self.rng, self.random_ties)

    def update(self, a, r):
        if 0.0 < r < 1.0:
            r = 1.0 if self.rng.random() < r else 0.0
        super().update(a, r)


class IMED(_Counts):
    """Honda & Takemura (2015), Bernoulli form: after one pull of each arm, argmin_a n_a kl(mu_a, mu*) + ln n_a
    with mu* = max_b mu_b (the empirical best arm's value is ln n)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)

    def select(self, t):
        if t <= self.k:
            return t - 1
        mu = [self.s[a] / self.n[a] for a in range(self.k)]
        best = max(mu)
        minus = [-(self.n[a] * kl_bernoulli(mu[a], best) + math.log(self.n[a])) for a in range(self.k)]
        return argmax_ties(minus, self.rng, self.random_ties)
