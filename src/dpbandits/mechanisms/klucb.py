"""Bernoulli Kullback-Leibler divergence and the KL-UCB upper index (numba, callable from Python)."""

from __future__ import annotations

import math

from ..core.jit import kernel

#: Inside the logarithms q is clamped into [Q_CLAMP, 1 - Q_CLAMP].
Q_CLAMP = 1e-15


@kernel
def kl_bernoulli(p, q):
    """kl(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)) for p, q in [0, 1], with 0 ln 0 = 0.

    q is clamped into [1e-15, 1 - 1e-15] inside the logarithms, so the result is finite;
    kl(p, p) = 0 exactly. Units: nats.
    """
    if p == q:
        return 0.0
    qc = min(max(q, Q_CLAMP), 1.0 - Q_CLAMP)
    out = 0.0
    if p > 0.0:
        out += p * math.log(p / qc)
    if p < 1.0:
        out += (1.0 - p) * math.log((1.0 - p) / (1.0 - qc))
    return out


@kernel
def klucb_upper(p, level, tol):
    """KL-UCB index max{q in [p, 1] : kl(p, q) <= level} of a Bernoulli mean ``p`` in [0, 1].

    Bisection on [p, 1] until the bracket is at most ``tol`` wide; returns its lower end, which
    satisfies kl(p, q) <= level and lies within ``tol`` below the exact solution. Returns 1.0 if
    p >= 1 or if the solution lies above 1 - 1e-15 (the clamp), and p if level <= 0.
    """
    if p >= 1.0:
        return 1.0
    if level <= 0.0:
        return p
    if kl_bernoulli(p, 1.0 - Q_CLAMP) <= level:
        return 1.0
    lo = p
    hi = 1.0 - Q_CLAMP
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if kl_bernoulli(p, mid) > level:
            hi = mid
        else:
            lo = mid
    return lo


@kernel
def d_eps(x, y, epsilon):
    """The privacy-smoothed divergence d_eps(x, y) = inf over z between x and y of eps |x - z| + kl(z, y), nats.

    Bernoulli means ``x``, ``y`` in [0, 1], ``epsilon`` > 0. Moving the observed mean from x to z costs eps per
    unit (a Laplace tail, Azize et al. 2025's coupling of privacy and information), the rest is the Bernoulli KL.
    The objective is convex in z; its stationary point z0 = y e^-eps / (1 - y + y e^-eps) solves
    eps = ln(y (1 - z) / ((1 - y) z)), clipped into [min(x, y), max(x, y)]. So d_eps <= min(kl(x, y), eps |x - y|),
    d_eps -> kl(x, y) as eps -> inf and d_eps ~ eps |x - y| as eps -> 0; d_eps(x, x) = 0.
    """
    if x == y:
        return 0.0
    lo, hi = min(x, y), max(x, y)
    e = math.exp(-epsilon)
    if x < y:  # z below y: the KL side pulls z up towards y, the privacy side down towards x
        z0 = y * e / (1.0 - y + y * e)
    else:
        z0 = y / (y + (1.0 - y) * e)
    z = min(max(z0, lo), hi)
    return epsilon * abs(x - z) + kl_bernoulli(z, y)
