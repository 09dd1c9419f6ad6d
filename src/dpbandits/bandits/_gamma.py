"""numpy's normal, gamma and Beta samplers on an inline PCG64 stream (:func:`._pcg64.new_streams`).

Word for word the draws of ``np.random.Generator(PCG64)``: :func:`fill_normals` its ``standard_normal``
(256-layer ziggurat), :func:`fill_gammas` its ``standard_gamma`` (Marsaglia & Tsang for shape > 1, an
exponential for shape 1, numpy's rejection from the Weibull-like proposal for shape < 1) and
:func:`fill_betas` its ``beta`` (Johnk's algorithm for a, b <= 1, else G_a / (G_a + G_b)). With
``closed=True`` :func:`fill_betas` draws Beta(a, 1) as exp(-E/a) and Beta(1, b) as 1 - exp(-E/b) from
one exponential E (the same laws, not numpy's words).

:func:`standard_gamma` and :func:`beta` are inlined into the caller's loop (pool index i in a local,
stored back in ``sb[POOL_INDEX]`` by the caller) and read the pool inline on their fast paths; the rare
slow paths (:func:`normal_tail`, :func:`gamma_small`, :func:`johnk`, ``exponential_tail``) are separate
compiled functions that read words through ``_pcg64.next_word``. Measured: ~13 ns per gamma with
shape > 1, ~26 ns per Beta (numba's ``Generator.beta``: ~50 ns).
"""

from __future__ import annotations

import math

import numpy as np
from numba.np.random._constants import fi_double, ki_double, wi_double, ziggurat_nor_inv_r, ziggurat_nor_r

from ..core.jit import helper, kernel
from ._pcg64 import POOL, POOL_INDEX, POOL_START, exponential_tail, next_word, refill, to_double, ziggurat

_M52 = np.uint64(0x000FFFFFFFFFFFFF)


@helper
def ziggurat_normal(word):
    """(x, accepted): the fast path of numpy's ziggurat ``standard_normal`` on one word."""
    idx = word & np.uint64(0xFF)
    r = word >> np.uint64(8)
    rabs = (r >> np.uint64(1)) & _M52
    x = np.int64(rabs) * wi_double[idx]  # rabs < 2^52: exact as a signed integer
    if r & np.uint64(1):
        x = -x
    return x, rabs < ki_double[idx]


@kernel
def normal_tail(sb, i, word):
    """(x, i): numpy's ziggurat normal after its fast path rejected ``word``; pool index i."""
    while True:
        idx = word & np.uint64(0xFF)
        r = word >> np.uint64(8)
        rabs = (r >> np.uint64(1)) & _M52
        x = np.int64(rabs) * wi_double[idx]
        if r & np.uint64(1):
            x = -x
        if idx == 0:
            while True:
                w, i = next_word(sb, i)
                xx = -ziggurat_nor_inv_r * math.log1p(-to_double(w))
                w, i = next_word(sb, i)
                yy = -math.log1p(-to_double(w))
                if yy + yy > xx * xx:
                    if (rabs >> np.uint64(8)) & np.uint64(1):
                        return -(ziggurat_nor_r + xx), i
                    return ziggurat_nor_r + xx, i
        w, i = next_word(sb, i)
        u = to_double(w)
        if (fi_double[idx - 1] - fi_double[idx]) * u + fi_double[idx] < math.exp(-0.5 * x * x):
            return x, i
        word, i = next_word(sb, i)
        x, ok = ziggurat_normal(word)
        if ok:
            return x, i


@kernel
def gamma_small(sb, i, shape):
    """(x, i): numpy's ``standard_gamma`` for 0 < shape < 1; pool index i."""
    while True:
        w, i = next_word(sb, i)
        u = to_double(w)
        word, i = next_word(sb, i)
        v, ok = ziggurat(word)
        if not ok:
            v, word, i = exponential_tail(sb, i, word)
        if u <= 1.0 - shape:
            x = u ** (1.0 / shape)
            if x <= v:
                return x, i
        else:
            y = -math.log((1.0 - u) / shape)
            x = (1.0 - shape + shape * y) ** (1.0 / shape)
            if x <= v + y:
                return x, i


@kernel
def johnk(sb, i, a, b):
    """(x, i): numpy's ``beta`` for a, b <= 1 (Johnk's algorithm, logarithms where a power underflows)."""
    if a < 3e-103 and b < 3e-103:  # numpy: 0 or 1 with probabilities b/(a+b), a/(a+b)
        w, i = next_word(sb, i)
        u = to_double(w)
        return (1.0 if (a + b) * u < a else 0.0), i
    while True:
        w, i = next_word(sb, i)
        u = to_double(w)
        w, i = next_word(sb, i)
        v = to_double(w)
        x = u ** (1.0 / a)
        y = v ** (1.0 / b)
        xpy = x + y
        if xpy <= 1.0 and u + v > 0.0:
            if x > 0.0 and y > 0.0:
                return x / xpy, i
            delta = math.log(u) / a - math.log(v) / b
            if delta > 0.0:
                return math.exp(-math.log1p(math.exp(-delta))), i
            return math.exp(delta - math.log1p(math.exp(delta))), i


@helper
def exponential(sb, i):
    """(x, i): numpy's ziggurat ``standard_exponential`` from stream ``sb`` at pool index i."""
    if i >= POOL:
        refill(sb)
        i = 0
    word = sb[POOL_START + i]
    i += 1
    x, ok = ziggurat(word)
    if not ok:
        x, word, i = exponential_tail(sb, i, word)
    return x, i


@helper
def gamma_mt(sb, i, shape):
    """(x, i): numpy's ``standard_gamma`` for shape > 1 (Marsaglia & Tsang), pool index i."""
    d = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            if i >= POOL:
                refill(sb)
                i = 0
            word = sb[POOL_START + i]
            i += 1
            x, ok = ziggurat_normal(word)
            if not ok:
                x, i = normal_tail(sb, i, word)
            v = 1.0 + c * x
            if v > 0.0:
                break
        v = v * v * v
        if i >= POOL:
            refill(sb)
            i = 0
        u = to_double(sb[POOL_START + i])
        i += 1
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            break
        if math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            break
    return d * v, i


@helper
def standard_gamma(sb, i, shape):
    """(x, i): numpy's ``standard_gamma(shape)`` (shape >= 0) from stream ``sb`` at pool index i."""
    if shape == 1.0:
        return exponential(sb, i)
    if shape == 0.0:
        return 0.0, i
    if shape < 1.0:
        return gamma_small(sb, i, shape)
    return gamma_mt(sb, i, shape)


@helper
def beta(sb, i, a, b, closed):
    """(x, i): Beta(a, b) (a, b > 0) from stream ``sb`` at pool index i: numpy's ``beta``, or with
    ``closed`` exp(-E/a) for b = 1 and 1 - exp(-E/b) for a = 1 (E one exponential)."""
    if closed and b == 1.0:
        e, i = exponential(sb, i)
        return math.exp(-e / a), i
    if closed and a == 1.0:
        e, i = exponential(sb, i)
        return -math.expm1(-e / b), i
    if a <= 1.0 and b <= 1.0:
        return johnk(sb, i, a, b)
    ga, i = standard_gamma(sb, i, a)
    gb, i = standard_gamma(sb, i, b)
    return ga / (ga + gb), i


@kernel(numpy_errors=True)
def fill_normals(sb, out):
    """Fill ``out`` with standard normals from stream ``sb``: numpy's ``standard_normal`` word for word."""
    i = np.int64(sb[POOL_INDEX])
    for j in range(out.size):
        if i >= POOL:
            refill(sb)
            i = 0
        word = sb[POOL_START + i]
        i += 1
        x, ok = ziggurat_normal(word)
        if not ok:
            x, i = normal_tail(sb, i, word)
        out[j] = x
    sb[POOL_INDEX] = i


@kernel(numpy_errors=True)
def fill_gammas(sb, shapes, out):
    """out[j] ~ Gamma(shapes[j], 1) (float64[N], shapes >= 0) from ``sb``: numpy's ``standard_gamma``."""
    i = np.int64(sb[POOL_INDEX])
    for j in range(out.size):
        out[j], i = standard_gamma(sb, i, shapes[j])
    sb[POOL_INDEX] = i


@kernel(numpy_errors=True)
def fill_betas(sb, a, b, out, closed):
    """out[j] ~ Beta(a[j], b[j]) (float64[N], a, b > 0) from ``sb``: numpy's ``beta`` word for word, except
    that with ``closed`` Beta(a, 1) = exp(-E/a) and Beta(1, b) = 1 - exp(-E/b), E one exponential."""
    i = np.int64(sb[POOL_INDEX])
    for j in range(out.size):
        out[j], i = beta(sb, i, a[j], b[j], closed)
    sb[POOL_INDEX] = i
