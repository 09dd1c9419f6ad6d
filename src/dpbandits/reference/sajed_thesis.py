"""Reference twins of DP-SE 2 and modified DP-SE 2 (Sajed 2019 thesis Algorithm 10 and Appendix A.2).

Literal per-step form: one pull at a time, round-robin over S in ascending order, running means,
the SVT test at every check round with a fresh A_r, then the private histogram and elimination.
"""

from __future__ import annotations

import math


class DPSE2:
    """Thesis Algorithm 10.

    ``HALT_MULT`` and ``C_COEF`` are the 10 (of 10 h_r) and 16 (of 16 ln(4K|S|/beta)/eps) of lines 17-18.
    """

    HALT_MULT = 10.0
    C_COEF = 16.0

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.eps, self.rng = k, epsilon, rng
        self.beta = 1.0 / horizon if params["beta"] is None else params["beta"]
        self.plus_one = 1 if params["check_schedule"] == "pow2plus1" else 0
        self.S = list(range(k))
        self.new_epoch()

    def new_epoch(self):
        self.r, self.ell, self.pos = 0, 1, 0
        self.mean = dict.fromkeys(self.S, 0.0)
        self.B = self.rng.laplace(0.0, 6.0 / self.eps)

    def select(self, t):
        return self.S[self.pos]

    def update(self, a, reward):
        if len(self.S) == 1:
            return
        self.mean[a] += (reward - self.mean[a]) / (self.r + 1)
        self.pos += 1
        if self.pos == len(self.S):  # round complete
            self.pos = 0
            self.r += 1
            if self.r == 2**self.ell + self.plus_one:
                self.check()

    def check(self):
        eps, beta, k, m, r, ell = self.eps, self.beta, self.k, len(self.S), self.r, self.ell
        a_r = self.rng.laplace(0.0, 6.0 / eps)
        h = math.sqrt(math.log(16 * k * m * ell**2 / beta) / (2 * r))
        c_r = (
            6 * math.log(4 * k / beta) / eps
            + 6 * math.log(8 * k * ell**2 / beta) / eps
            + self.C_COEF * math.log(4 * k * m / beta) / eps
        )
        means = [self.mean[i] for i in self.S]
        if max(means) - min(means) > self.HALT_MULT * h + (a_r + self.B + c_r) / r:
            noisy = {i: self.mean[i] + self.rng.laplace(0.0, 2.0 / (eps * r)) for i in self.S}
            top = max(noisy.values())
            threshold = 2 * h + 4 * math.log(4 * k * m / beta) / (eps * r)
            self.S = [j for j in self.S if not top - noisy[j] > threshold]
            if len(self.S) > 1:
                self.new_epoch()
        else:
            self.ell += 1


class ModifiedDPSE2(DPSE2):
    """Thesis Appendix A.2: halting test with 2 h_r and c_r's last term 4 ln(4K|S|/beta)/eps."""

    HALT_MULT = 2.0
    C_COEF = 4.0
