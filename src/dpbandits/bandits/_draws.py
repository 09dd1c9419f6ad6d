"""Exact block draws from an inline PCG64 stream (:mod:`._pcg64`), and ln t for a block of steps.

Bernoulli reward deciders (:func:`fill_uniforms`; with Laplace noise, :func:`fill_draws`), Laplace noise
(:func:`fill_laplace`): word for word the draws of the Generator methods ``random()`` and
``standard_exponential()``. ln t and sqrt(2 ln t) for a block of steps (:func:`fill_log`,
:func:`fill_sqrt_log`).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import helper, kernel
from ._pcg64 import POOL, POOL_INDEX, POOL_START, exponential_tail, refill, to_double, ziggurat


@kernel
def critical_chunks(means):
    """Bitset (uint64[1025]) of the 16-bit chunks c with c = floor(p * 2^16) for some arm mean p.

    For any other c, c/2^16 <= U < (c+1)/2^16 decides U < p for every arm.
    """
    bits = np.zeros(1025, dtype=np.uint64)
    for p in means:
        c = int(math.floor(p * 65536.0))
        bits[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return bits


@helper
def is_critical(crit, c):
    """True if 16-bit chunk c does not decide every comparison U < p_i (see :func:`critical_chunks`)."""
    return (crit[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != 0


@kernel
def fill_draws(sb, crit, scale, u, eta):
    """Fill one block from stream ``sb``: ``u[j]`` decides step j's Bernoulli reward (U < p), ``eta[j]``
    is Lap(scale).

    Each word gives 53 random bits (those of ``next_double``): three 16-bit chunks c (one per step)
    and three sign bits. u = (c + 1/2)/2^16 when c decides every comparison U < p_i, else (c + V)/2^16
    with a fresh uniform V, so P(u < p_i) = p_i as for a 53-bit uniform. eta = sign * scale * E with
    E numpy's ziggurat exponential: exactly Lap(scale). ``u.size`` must be a multiple of 3.
    Word for word the same draws as the Generator methods ``random()`` and ``standard_exponential()``.

    Fast path: a triple of steps whose chunks are all decisive and whose three ziggurat words are all
    accepted reads its four words without further checks; any other triple takes the general path,
    which reads the same words in the same order (so both paths give the same draws).
    """
    i = np.int64(sb[POOL_INDEX])
    j = 0
    while j < u.size:
        if i + 4 <= POOL:
            bits = sb[POOL_START + i] >> np.uint64(11)
            c0 = int(bits & np.uint64(0xFFFF))
            c1 = int((bits >> np.uint64(16)) & np.uint64(0xFFFF))
            c2 = int((bits >> np.uint64(32)) & np.uint64(0xFFFF))
            x0, ok0 = ziggurat(sb[POOL_START + 1 + i])
            x1, ok1 = ziggurat(sb[POOL_START + 2 + i])
            x2, ok2 = ziggurat(sb[POOL_START + 3 + i])
            if ok0 and ok1 and ok2 and not (is_critical(crit, c0) or is_critical(crit, c1) or is_critical(crit, c2)):
                u[j] = (c0 + 0.5) * (1.0 / 65536.0)
                u[j + 1] = (c1 + 0.5) * (1.0 / 65536.0)
                u[j + 2] = (c2 + 0.5) * (1.0 / 65536.0)
                y0, y1, y2 = scale * x0, scale * x1, scale * x2
                eta[j] = -y0 if (bits >> np.uint64(48)) & np.uint64(1) else y0
                eta[j + 1] = -y1 if (bits >> np.uint64(49)) & np.uint64(1) else y1
                eta[j + 2] = -y2 if (bits >> np.uint64(50)) & np.uint64(1) else y2
                i += 4
                j += 3
                continue
        if i >= POOL:
            refill(sb)
            i = 0
        bits = sb[POOL_START + i] >> np.uint64(11)
        i += 1
        for q in range(3):
            c = int((bits >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            if is_critical(crit, c):
                if i >= POOL:
                    refill(sb)
                    i = 0
                u[j + q] = (c + to_double(sb[POOL_START + i])) * (1.0 / 65536.0)
                i += 1
            else:
                u[j + q] = (c + 0.5) * (1.0 / 65536.0)
            if i >= POOL:
                refill(sb)
                i = 0
            word = sb[POOL_START + i]
            i += 1
            e, ok = ziggurat(word)
            if not ok:
                e, word, i = exponential_tail(sb, i, word)
            x = scale * e
            eta[j + q] = -x if (bits >> np.uint64(48 + q)) & np.uint64(1) else x
        j += 3
    sb[POOL_INDEX] = i


@kernel
def fill_uniforms(sb, crit, u):
    """Fill ``u`` with Bernoulli deciders as :func:`fill_draws` does (three steps per word, no noise)."""
    i = np.int64(sb[POOL_INDEX])
    for j in range(0, u.size, 3):
        if i >= POOL:
            refill(sb)
            i = 0
        bits = sb[POOL_START + i] >> np.uint64(11)
        i += 1
        for q in range(3):
            c = int((bits >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            if is_critical(crit, c):
                if i >= POOL:
                    refill(sb)
                    i = 0
                u[j + q] = (c + to_double(sb[POOL_START + i])) * (1.0 / 65536.0)
                i += 1
            else:
                u[j + q] = (c + 0.5) * (1.0 / 65536.0)
    sb[POOL_INDEX] = i


@kernel
def fill_laplace(sb, scale, eta):
    """Fill ``eta`` with Lap(scale) draws: a fair sign times ``scale`` times numpy's ziggurat exponential."""
    i = np.int64(sb[POOL_INDEX])
    for j in range(eta.size):
        if i >= POOL:
            refill(sb)
            i = 0
        word = sb[POOL_START + i]
        i += 1
        e, ok = ziggurat(word)
        if not ok:
            e, word, i = exponential_tail(sb, i, word)
        x = scale * e
        eta[j] = -x if word & np.uint64(1) else x
    sb[POOL_INDEX] = i


SERIES_FROM = 1 << 16  # first block start at which sqrt(2 ln t) uses the log1p series


@kernel(contract=True)
def fill_log(out, t0):
    """out[j] = ln(t0 + j) for t0 >= 1; libm ``log`` per step while t0 < 2^16, else one per block.

    From t0 >= 2^16 on: ln(t0 + j) = ln t0 + ln(1 + d), d = j/t0 < 2^-7 for blocks up to 512, with the
    series of ln(1 + d) summed to d^8/8 (next term < 2e-20, below one ulp of ln t; the loop vectorises).
    """
    if t0 < SERIES_FROM:
        for j in range(out.size):
            out[j] = math.log(t0 + j)
        return
    base = math.log(t0)
    inv = 1.0 / t0
    for j in range(out.size):
        d = j * inv
        out[j] = base + d * (
            1.0
            + d * (-0.5 + d * (1.0 / 3.0 + d * (-0.25 + d * (0.2 + d * (-1.0 / 6.0 + d * (1.0 / 7.0 + d * -0.125))))))
        )


@kernel
def fill_sqrt_log(g, t0):
    """g[j] = sqrt(2 ln(t0 + j)) with ln from :func:`fill_log` (within one ulp of libm)."""
    fill_log(g, t0)
    for j in range(g.size):
        g[j] = math.sqrt(2.0 * g[j])
