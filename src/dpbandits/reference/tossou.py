"""Reference twins: UCB and the Tossou & Dimitrakakis 2016 algorithms (Algorithms 1-3) and Private-UCB."""

from __future__ import annotations

import math

from ..mechanisms.noise import BinaryTreeCounter, HybridCounter, tree_bits
from ._policy import argmax_ties


class _Counts:
    def __init__(self, k, rng, params):
        self.k, self.rng = k, rng
        self.random_ties = params["tie_break"] == "random"
        self.s = [0.0] * k
        self.n = [0] * k

    def argmax(self, values):
        return argmax_ties(values, self.rng, self.random_ties)


class UCB(_Counts):
    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)

    def select(self, t):
        if t <= self.k:
            return t - 1
        return self.argmax([self.s[a] / self.n[a] + math.sqrt(2 * math.log(t) / self.n[a]) for a in range(self.k)])

    def update(self, a, r):
        self.s[a] += r
        self.n[a] += 1


class DPUCBBound(_Counts):
    """Algorithm 1: hybrid counter per arm, index y/n + sqrt(2 ln t/n) + nu/n."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)
        self.eps, self.p = epsilon, params
        self.counters = [HybridCounter(epsilon, rng, params["hybrid_split"]) for _ in range(k)]
        self.y = [0.0] * k

    def nu(self, n, t):
        form = self.p["nu_form"]
        if form == "paper_nprime":
            nprime = n - 2 ** int(math.floor(math.log2(n)))
            return 4 * math.sqrt(8) / self.eps * math.log(t) * (1 + math.log2(max(nprime, 1)))
        if form == "tr_ln_n":
            return math.sqrt(8) / self.eps * math.log(4 * t**4) * (math.log(n) + 1)
        if form == "tr_ln_n_reset":
            power_of_two = 2 ** int(math.floor(math.log2(n))) == n
            return math.sqrt(8) / self.eps * math.log(4 * t**4) * (1 if power_of_two else math.log(n) + 1)
        return 4 * math.sqrt(8) / self.eps * math.log(t) * (1 + math.log2(n))

    def select(self, t):
        if t <= self.k:
            return t - 1
        values = []
        for a in range(self.k):
            n = self.n[a]
            v = self.y[a] / n + self.nu(n, t) / n
            if self.p["bound_sqrt"]:
                v += math.sqrt(2 * math.log(t) / n)
            values.append(v)
        return self.argmax(values)

    def update(self, a, r):
        self.n[a] += 1
        self.y[a] = self.counters[a].insert(r)


class DPUCBTossou(_Counts):
    """Algorithm 2: every arm's hybrid counter gets one item per step (0 if not pulled)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)
        self.counters = [HybridCounter(epsilon, rng, params["hybrid_split"]) for _ in range(k)]
        self.y = [0.0] * k

    def select(self, t):
        if t <= self.k:
            return t - 1
        return self.argmax([self.y[a] / self.n[a] + math.sqrt(2 * math.log(t) / self.n[a]) for a in range(self.k)])

    def update(self, a, r):
        self.n[a] += 1
        for i in range(self.k):
            self.y[i] = self.counters[i].insert(r if i == a else 0.0)


def interval_length(epsilon, delta, v, eps_log):
    """f = ceil(1/eps'), eps' = sqrt((L + 4 eps)/(8 zeta(v))) - sqrt(L/(8 zeta(v))), L = log(1/delta) in the
    base ``eps_log`` names (Tossou & Dimitrakakis 2016, Corollary 3.2), written out apart from the kernel."""
    from scipy.special import zeta

    big_l = math.log(1.0 / delta) / math.log({"ln": math.e, "log2": 2.0, "log10": 10.0}[eps_log])
    z = float(zeta(v, 1))
    return math.ceil(1.0 / (math.sqrt((big_l + 4.0 * epsilon) / (8.0 * z)) - math.sqrt(big_l / (8.0 * z))))


class DPUCBInt(_Counts):
    """Algorithm 3 with the interval f = ceil(1/eps') of Corollary 3.2. ``releases`` logs every Laplace release
    as (t, arm, count n)."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)
        self.f = interval_length(epsilon, params["delta"], params["v"], params["eps_log"])
        self.v, self.update_rule = params["v"], params["int_update"]
        self.last = [0] * k
        self.mean = [0.0] * k
        self.index = [0.0] * k
        self.releases = []

    def select(self, t):
        if t <= self.k * self.f:
            return (t - 1) % self.k
        for a in range(self.k):
            n = self.n[a]
            bonus = math.sqrt(2 * math.log(t) / n)
            if self.update_rule == "scheduled":  # every arm at t = K f + 1, K f + 1 + f, ...
                new_interval = (t - 1) % self.f == 0
            else:
                new_interval = n % self.f == 0 and (self.update_rule == "literal" or n != self.last[a])
            if new_interval:
                self.mean[a] = self.s[a] / n + self.rng.laplace(0.0, n ** (self.v / 2 - 1))
                self.last[a] = n
                self.index[a] = self.mean[a] + bonus
                self.releases.append((t, a, n))
            elif self.update_rule == "live_bonus":
                self.index[a] = self.mean[a] + bonus
        return self.argmax(self.index)

    def update(self, a, r):
        self.s[a] += r
        self.n[a] += 1


class PrivateUCB(_Counts):
    """Mishra-Thakurta Private-UCB [RECON]: tree counter per arm, bonus c_t/n with gamma = t^-4."""

    def __init__(self, k, horizon, epsilon, rng, params):
        super().__init__(k, rng, params)
        eps_tree = epsilon / k if params["tree_eps"] == "eps/K" else epsilon
        self.counters = [BinaryTreeCounter(tree_bits(horizon) / eps_tree, rng) for _ in range(k)]
        self.y = [0.0] * k
        self.eps, self.horizon, self.p = epsilon, horizon, params

    def select(self, t):
        if t <= self.k:
            return t - 1
        big_t, k = self.horizon, self.k
        ct = k * math.log(big_t) ** 2 * math.log(k * big_t * math.log(big_t) / t**-4.0) / self.eps
        values = []
        for a in range(k):
            n = self.n[a]
            if self.p["sqrt_term"] == "hoeffding":
                width = math.sqrt(math.log(2 / t**-4.0) / (2 * n))
            else:
                width = math.sqrt(2 * math.log(t) / n)
            values.append(self.y[a] / n + width + ct / n)
        return self.argmax(values)

    def update(self, a, r):
        self.n[a] += 1
        self.y[a] = self.counters[a].insert(r)
