"""DP-UCB of Sajed & Sheffet (2019): Mishra-Thakurta UCB over one binary-tree counter per arm.

Thesis Algorithm 6 (Th:584) with the tree mechanism of Algorithm 5 (Th:570), spec §1.3:
pull each arm once, then at step t pull the lowest-index maximiser of

    O_i / n_i + sqrt(2 ln t / n_i) + Gamma / n_i,     Gamma = (log T)^2 ln(K T ln T / beta) / eps  (A8)

where O_i is the release of arm i's tree after its n_i pulls (the tree advances only on that arm's
pulls, A11): L = ceil(log2 T) + 1 levels, every dyadic node noised once with Lap(L/eps) when it
completes, O_n = (sum of the first n rewards) + (sum of the node noises over the set bits of n).

The fast kernel simulates every step exactly (spec §5.3): the tree noise is the correlated dyadic
process itself, never fresh or frozen noise. Speed comes from exact re-organisation only:

* index = c_i + sqrt(2 ln t) d_i with c_i = (O_i + Gamma)/n_i and d_i = n_i^-1/2 updated for the
  pulled arm only (1/(n+1) and (n+1)^-1/2 are prepared one pull ahead, off the critical path);
* tree noise in O(1) without loops (:func:`tree_noise_step`): insertion n gets the release noise of
  n & (n-1) (the nodes of n above level ctz(n)) plus the new node's eta, the same process as
  ``mechanisms.tree_noise_insert``;
* random draws in blocks of ``BLOCK`` steps (see :func:`fill_draws`): an exact Bernoulli from 16
  random bits (refined with a fresh uniform when the bits do not decide), and an exactly
  Laplace-distributed node noise as a random sign times numpy's ziggurat exponential;
* sqrt(2 ln t) for a block from one ``log`` per block: ln t = ln t0 + ln(1 + (t-t0)/t0) by a
  series, within one ulp of libm (libm ``log`` per step for t < 2^16);
* a branch-free argmax (four interleaved running maxima from K = 8 on), lowest index on ties.

:func:`dp_ucb_on_draws` runs the same step loop on given per-step uniforms and node noises; with
draws in the reference runner's order it reproduces ``dpbandits.reference`` pull for pull.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..mechanisms import tree_levels
from ..registry import Algorithm, OptionalProbability, Param, register, sources
from ._kernels import resolve_beta

GAMMA_LOGS = ("e", "2")
GAMMA_DENOMINATORS = ("eps", "2")
BLOCK = 384  # steps per block of random draws: a multiple of 3 (three steps per 53-bit uniform)
SERIES_FROM = 1 << 16  # first block start at which sqrt(2 ln t) uses the log1p series
LANES_FROM = 8  # K from which the argmax runs four interleaved maxima (shorter dependency chain)
_FASTMATH = {"contract"}  # fused multiply-add only; no reassociation


def gamma_bonus(k: int, horizon: int, epsilon: float, beta: float, gamma_log: str = "e",
                gamma_denominator: str = "eps") -> float:
    """Gamma = (log T)^2 ln(K T ln T / beta) / eps of Th:584 (spec A8: the printed "/2" read as "/eps").

    ``gamma_log`` is the base of the squared log T: "e" (default, P:212) or "2"; the log inside
    ln(K T ln T / beta) is natural in both cases. ``gamma_denominator="2"`` divides by the literal 2.
    """
    if gamma_log not in GAMMA_LOGS:
        raise ValueError(f"gamma_log={gamma_log!r} is not one of {list(GAMMA_LOGS)}")
    if gamma_denominator not in GAMMA_DENOMINATORS:
        raise ValueError(f"gamma_denominator={gamma_denominator!r} is not one of {list(GAMMA_DENOMINATORS)}")
    log_t = math.log(horizon) if gamma_log == "e" else math.log2(horizon)
    return log_t**2 * math.log(k * horizon * math.log(horizon) / beta) / (
        epsilon if gamma_denominator == "eps" else 2.0)


def node_scale(horizon: int, epsilon: float) -> float:
    """Laplace scale L/eps of every tree node, L = ceil(log2 T) + 1 (27/eps for T = 5e7; A9)."""
    return tree_levels(horizon) / epsilon


@njit(cache=True, nogil=True)
def critical_chunks(means):
    """Bitset (uint64[1025]) of the 16-bit chunks c with c = floor(p * 2^16) for some arm mean p.

    For any other c, c/2^16 <= U < (c+1)/2^16 decides U < p for every arm.
    """
    bits = np.zeros(1025, dtype=np.uint64)
    for p in means:
        c = int(math.floor(p * 65536.0))
        bits[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return bits


@njit(cache=True, nogil=True)
def fill_draws(rng, crit, scale, u, eta):
    """Fill one block: ``u[j]`` decides step j's Bernoulli reward (U < p), ``eta[j]`` its node noise.

    Each ``rng.random()`` gives 53 random bits: three 16-bit chunks c (one per step) and three sign
    bits. u = (c + 1/2)/2^16 when c decides every comparison U < p_i, else (c + V)/2^16 with a fresh
    uniform V, so P(u < p_i) = p_i as for a 53-bit uniform. eta = sign * scale * E with E from
    ``rng.standard_exponential()``: exactly Lap(scale). ``u.size`` must be a multiple of 3.
    """
    for j in range(0, u.size, 3):
        word = np.uint64(rng.random() * 9007199254740992.0)  # the 53 bits of next_double
        for q in range(3):
            c = int((word >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            if (crit[c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
                u[j + q] = (c + rng.random()) * (1.0 / 65536.0)
            else:
                u[j + q] = (c + 0.5) * (1.0 / 65536.0)
            x = scale * rng.standard_exponential()
            eta[j + q] = -x if (word >> np.uint64(48 + q)) & np.uint64(1) else x


@njit(cache=True, fastmath=_FASTMATH)
def fill_sqrt_log(g, t0):
    """g[j] = sqrt(2 ln(t0 + j)) for t0 >= 1; libm ``log`` per step while t0 < 2^16, else one per block.

    From t0 >= 2^16 on: ln(t0 + j) = ln t0 + ln(1 + d), d = j/t0 < 2^-7 for blocks up to 512, with the
    series of ln(1 + d) summed to d^8/8 (next term < 2e-20, below one ulp of ln t; the loop vectorises).
    """
    if t0 < SERIES_FROM:
        for j in range(g.size):
            g[j] = math.sqrt(2.0 * math.log(t0 + j))
        return
    base = math.log(t0)
    inv = 1.0 / t0
    for j in range(g.size):
        d = j * inv
        p = d * (1.0 + d * (-0.5 + d * (1.0 / 3.0 + d * (-0.25 + d * (0.2 + d * (
            -1.0 / 6.0 + d * (1.0 / 7.0 + d * -0.125)))))))
        g[j] = math.sqrt(2.0 * (base + p))


@njit(cache=True, inline="always")
def tree_noise_step(levels, base, m, eta):
    """Insert the m-th element (m >= 1) of a binary-tree counter's noise process; O(1).

    ``levels[j]`` holds the release noise right after the last node at level j was completed
    (``levels[64]`` stays 0). ``base`` = levels[ctz(m & (m-1))] is the noise of the nodes of m above
    level ctz(m); the node completed now gets noise ``eta``, so the release noise of m is base + eta.
    Returns the ``base`` of insertion m + 1.
    """
    levels[trailing_zeros(m)] = base + eta
    return levels[trailing_zeros(m & (m + 1))]


@njit(cache=True, fastmath=_FASTMATH, inline="always")
def _argmax_lanes(cc, dd, gj, k):
    """Lowest-index argmax of cc + gj dd for k >= 4 with four interleaved running maxima (short chains)."""
    b0 = cc[0] + gj * dd[0]
    b1 = cc[1] + gj * dd[1]
    b2 = cc[2] + gj * dd[2]
    b3 = cc[3] + gj * dd[3]
    a0, a1, a2, a3 = 0, 1, 2, 3
    i = 4
    while i + 3 < k:
        v0 = cc[i] + gj * dd[i]
        v1 = cc[i + 1] + gj * dd[i + 1]
        v2 = cc[i + 2] + gj * dd[i + 2]
        v3 = cc[i + 3] + gj * dd[i + 3]
        u0, u1, u2, u3 = v0 > b0, v1 > b1, v2 > b2, v3 > b3
        a0 = i if u0 else a0
        a1 = i + 1 if u1 else a1
        a2 = i + 2 if u2 else a2
        a3 = i + 3 if u3 else a3
        b0 = v0 if u0 else b0
        b1 = v1 if u1 else b1
        b2 = v2 if u2 else b2
        b3 = v3 if u3 else b3
        i += 4
    while i < k:
        v0 = cc[i] + gj * dd[i]
        u0 = v0 > b0
        a0 = i if u0 else a0
        b0 = v0 if u0 else b0
        i += 1
    # merge lanes: larger value wins, equal values go to the lower index
    t01 = (b1 > b0) | ((b1 == b0) & (a1 < a0))
    a01 = a1 if t01 else a0
    b01 = b1 if t01 else b0
    t23 = (b3 > b2) | ((b3 == b2) & (a3 < a2))
    a23 = a3 if t23 else a2
    b23 = b3 if t23 else b2
    return a23 if (b23 > b01) | ((b23 == b01) & (a23 < a01)) else a01


@njit(cache=True, fastmath=_FASTMATH, error_model="numpy")
def _steps(j0, j1, t, u, eta, g, means, gap, gamma, st, n, zt, acc):
    """Steps t .. t + (j1 - j0) - 1 using draws u[j0:j1], eta[j0:j1] and g[j0:j1]. Returns next t.

    st[q, i] for arm i: q = 0 c = (O + Gamma)/n, 1 d = n^-1/2, 2 w = s + Gamma + b, 3 1/(n+1),
    4 (n+1)^-1/2, 5 reward sum s, 6 b = ``base`` of the next insertion (see :func:`tree_noise_step`).
    zt: (K, 65) tree levels of each arm, n: pulls. acc = [regret, reward total], updated in place.
    """
    k = means.size
    lanes = k >= LANES_FROM
    cc, dd, w, inext, dnext, s, zb = st[0], st[1], st[2], st[3], st[4], st[5], st[6]
    regret = acc[0]
    total = acc[1]
    for j in range(j0, j1):
        if t <= k:
            a = t - 1
        elif lanes:
            a = _argmax_lanes(cc, dd, g[j], k)
        else:
            gj = g[j]
            a = 0
            best = cc[0] + gj * dd[0]
            for i in range(1, k):
                v = cc[i] + gj * dd[i]
                up = v > best
                a = i if up else a
                best = v if up else best
        e = eta[j]
        r = 1.0 if u[j] < means[a] else 0.0
        cc[a] = (w[a] + e + r) * inext[a]
        dd[a] = dnext[a]
        m = n[a] + 1
        n[a] = m
        zba = tree_noise_step(zt[a], zb[a], m, e)
        zb[a] = zba
        sa = s[a] + r
        s[a] = sa
        w[a] = sa + gamma + zba
        inext[a] = 1.0 / (m + 1)
        dnext[a] = 1.0 / math.sqrt(m + 1)
        total += r
        regret += gap[a]
        t += 1
    acc[0] = regret
    acc[1] = total
    return t


@njit(cache=True, nogil=True)
def _new_state(k, gamma):
    """Initial (st, n, zt, acc) of :func:`_steps`: no pulls, w = Gamma, 1/(n+1) = (n+1)^-1/2 = 1."""
    st = np.zeros((7, k))
    st[2, :] = gamma  # w for the first insertion
    st[3, :] = 1.0
    st[4, :] = 1.0
    return st, np.zeros(k, dtype=np.int64), np.zeros((k, 65)), np.zeros(2)


@njit(cache=True, nogil=True)
def _run_block(jn, t, u, eta, g, means, gap, gamma, st, n, zt, acc, checkpoints, c, out):
    """Steps for draws 0..jn-1, recording regret at the checkpoints they reach. Returns (t, c)."""
    j = 0
    while j < jn:
        stop = jn
        if c < checkpoints.size:
            stop = min(jn, j + checkpoints[c] - t + 1)
        t = _steps(j, stop, t, u, eta, g, means, gap, gamma, st, n, zt, acc)
        j = stop
        while c < checkpoints.size and checkpoints[c] == t - 1:
            out[c] = acc[0]
            c += 1
    return t, c


@njit(cache=True, nogil=True)
def dp_ucb_kernel(means, horizon, gamma, scale, checkpoints, rng):
    """One run of DP-UCB with bonus ``gamma`` and node noise Lap(``scale``).

    Returns (regret[C], pulls[K], reward_sum).
    """
    k = means.size
    gap = means.max() - means
    st, n, zt, acc = _new_state(k, gamma)
    crit = critical_chunks(means)
    u = np.empty(BLOCK)
    eta = np.empty(BLOCK)
    g = np.empty(BLOCK)
    out = np.empty(checkpoints.size)
    t = 1
    c = 0
    while t <= horizon:
        fill_draws(rng, crit, scale, u, eta)
        fill_sqrt_log(g, t)
        t, c = _run_block(min(BLOCK, horizon - t + 1), t, u, eta, g, means, gap, gamma, st, n, zt, acc,
                          checkpoints, c, out)
    return out, n, acc[1]


@njit(cache=True, nogil=True)
def dp_ucb_on_draws(means, gamma, u, eta, checkpoints):
    """DP-UCB on given draws: step t (1-based) gets reward u[t-1] < mu_a and node noise eta[t-1].

    The horizon is ``u.size``. Returns (regret[C], pulls[K], reward_sum) like :func:`dp_ucb_kernel`.
    """
    k = means.size
    gap = means.max() - means
    st, n, zt, acc = _new_state(k, gamma)
    out = np.empty(checkpoints.size)
    g = np.empty(u.size)
    for j0 in range(0, u.size, BLOCK):  # the kernel's blocks, so g is the kernel's g
        fill_sqrt_log(g[j0:j0 + BLOCK], j0 + 1)
    _run_block(u.size, 1, u, eta, g, means, gap, gamma, st, n, zt, acc, checkpoints, 0, out)
    return out, n, acc[1]


def run(means, horizon, epsilon, checkpoints, rng, params):
    """One run of DP-UCB; see :func:`dp_ucb_kernel`."""
    beta = resolve_beta(params["beta"], horizon)
    gamma = gamma_bonus(means.size, horizon, epsilon, beta, params["gamma_log"], params["gamma_denominator"])
    return dp_ucb_kernel(means, horizon, gamma, node_scale(horizon, epsilon), checkpoints, rng)


register(
    Algorithm(
        name="dp_ucb",
        kind="regret",
        label="DP-UCB (tree)",
        private=True,
        run=run,
        params={
            "beta": OptionalProbability(
                None, doc="confidence beta in (0, 1) inside Gamma; None = 1/T as in the experiments (P:1115)"
            ),
            "gamma_log": Param(
                "e", GAMMA_LOGS,
                doc="[RECON] A8: base of (log T)^2 in Gamma, natural (e, P:212) or log2 (2)",
            ),
            "gamma_denominator": Param(
                "eps", GAMMA_DENOMINATORS,
                doc="[RECON] A8: Gamma over eps (recommended) or over the literal 2 printed at Th:584",
            ),
        },
        sources=sources(__file__, "bandits/_kernels.py", "mechanisms.py"),
        needs_horizon=True,
        doc="Mishra & Thakurta (2015) tree-based private UCB as in Sajed (2019 thesis) Algorithm 6.",
    )
)
