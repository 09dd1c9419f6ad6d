"""Argmax of the index fma(g, d, c) over arms padded to a multiple of ``CHUNK`` = 8.

:func:`first_max`: SIMD :func:`chunk_max` or a scalar tree; :func:`best_arm` and :func:`best_arm3`
count the maximisers, :func:`resolve_tie` picks one uniformly; :func:`lead_chunk` bounds the rivals of
a leader over a chunk of steps. ``padded_index`` makes the (c, d) arrays (padding arms never win).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ..core.jit import helper, kernel
from ._pcg64 import uniform_int

_U = np.uintp  # unsigned indices: no negative-index wraparound code


CHUNK = 8  # arms per SIMD chunk; index arrays are padded to a multiple (pad c = -inf, d = 0)


@kernel
def padded(k):
    """Smallest multiple of ``CHUNK`` >= k."""
    return -(-k // CHUNK) * CHUNK


@intrinsic
def chunk_max(typingctx, c, d, g, o):
    """(m, mask): m = max over i in [o, o+8) of fma(g, d[i], c[i]); bit i-o of mask set where it equals m.

    ``c`` and ``d`` are contiguous float64 arrays with at least o + 8 elements (not checked). The
    values are those of the scalar fused multiply-add c + g d, so the lowest set bit is the
    lowest-index maximiser.
    """
    for arr in (c, d):
        if not (isinstance(arr, types.Array) and arr.dtype == types.float64 and arr.ndim == 1 and arr.layout == "C"):
            return None
    sig = types.Tuple((types.float64, types.uint64))(c, d, types.float64, types.uintp)

    def codegen(context, builder, signature, args):
        f64, i32, i64 = ir.DoubleType(), ir.IntType(32), ir.IntType(64)
        vec = ir.VectorType(f64, CHUNK)
        off = args[3]

        def load(arrty, value):
            data = context.make_array(arrty)(context, builder, value).data
            return builder.load(builder.bitcast(builder.gep(data, [off]), vec.as_pointer()), align=8)

        def splat(x):
            one = builder.insert_element(ir.Constant(vec, ir.Undefined), x, ir.Constant(i32, 0))
            return builder.shuffle_vector(
                one, ir.Constant(vec, ir.Undefined), ir.Constant(ir.VectorType(i32, CHUNK), [0] * CHUNK)
            )

        fma = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vec, [vec] * 3), "llvm.fma.v8f64")
        v = builder.call(fma, [splat(args[2]), load(signature.args[1], args[1]), load(signature.args[0], args[0])])
        reduce = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(f64, [vec]), "llvm.vector.reduce.fmax.v8f64"
        )
        m = builder.call(reduce, [v], fastmath=("nnan",))
        mask = builder.bitcast(builder.fcmp_ordered("==", v, splat(m)), ir.IntType(CHUNK))
        return context.make_tuple(builder, signature.return_type, (m, builder.zext(mask, i64)))

    return sig, codegen


@helper(contract=True)
def pick(x, i, y, j):
    """(value, index) of the larger of (x, i) and (y, j); the first on ties."""
    up = y > x
    return (y if up else x), (j if up else i)


@intrinsic
def fma(typingctx, x, y, z):
    """x * y + z rounded once (``llvm.fma``), as in :func:`chunk_max`."""
    f64 = types.float64
    sig = f64(f64, f64, f64)

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.DoubleType(), [ir.DoubleType()] * 3), "llvm.fma.f64"
        )
        return builder.call(fn, args)

    return sig, codegen


@kernel(contract=True)
def tree8(c, d, g, o):
    """(max, lowest-index argmax) of fma(g, d, c) over arms o .. o+7: a tree of comparisons (short chain)."""
    o1, o2, o3, o4, o5, o6, o7 = o + _U(1), o + _U(2), o + _U(3), o + _U(4), o + _U(5), o + _U(6), o + _U(7)
    x0, i0 = pick(fma(g, d[o], c[o]), o, fma(g, d[o1], c[o1]), o1)
    x1, i1 = pick(fma(g, d[o2], c[o2]), o2, fma(g, d[o3], c[o3]), o3)
    x2, i2 = pick(fma(g, d[o4], c[o4]), o4, fma(g, d[o5], c[o5]), o5)
    x3, i3 = pick(fma(g, d[o6], c[o6]), o6, fma(g, d[o7], c[o7]), o7)
    x0, i0 = pick(x0, i0, x1, i1)
    x2, i2 = pick(x2, i2, x3, i3)
    return pick(x0, i0, x2, i2)


@helper(contract=True)
def first_max(c, d, g, kp, simd):
    """(max, lowest-index argmax) of fma(g, d, c) over ``kp`` (a multiple of 8) padded arms.

    ``simd``: vector chunks (few instructions, long latency: for several runs in flight), else
    scalar trees (more instructions, shorter latency). Both give the same result.
    """
    if simd:
        best, mask = chunk_max(c, d, g, _U(0))
        a = _U(trailing_zeros(mask))
        for o in range(CHUNK, kp, CHUNK):
            m, mask = chunk_max(c, d, g, _U(o))
            best, a = pick(best, a, m, _U(o) + _U(trailing_zeros(mask)))
        return best, a
    best, a = tree8(c, d, g, _U(0))
    for o in range(CHUNK, kp, CHUNK):
        m, i = tree8(c, d, g, _U(o))
        best, a = pick(best, a, m, i)
    return best, a


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (``llvm.ctpop``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@helper(contract=True)
def count_max(c, d, g, kp, best, simd):
    """Number of padded arms i with fma(g, d[i], c[i]) == best (``simd`` as in :func:`first_max`)."""
    count = 0
    if simd:
        for o in range(0, kp, CHUNK):
            m, mask = chunk_max(c, d, g, _U(o))
            count += np.int64(popcount(mask)) if m == best else 0
        return count
    for i in range(kp):
        count += fma(g, d[_U(i)], c[_U(i)]) == best
    return count


@kernel(contract=True)
def nth_max(c, d, g, kp, best, n):
    """Index of the n-th (0-based, in index order) arm i with fma(g, d[i], c[i]) == best."""
    for o in range(0, kp, CHUNK):
        m, mask = chunk_max(c, d, g, _U(o))
        if m == best:
            for i in range(CHUNK):
                if (mask >> np.uint64(i)) & np.uint64(1):
                    if n == 0:
                        return _U(o + i)
                    n -= 1
    return _U(kp)  # not reached when n < count_max(...)


@helper(contract=True)
def best_arm(c, d, g, kp, random_ties):
    """(max, lowest-index argmax, number of maximisers or 1 if not ``random_ties``) of fma(g, d, c)."""
    best, a = first_max(c, d, g, kp, False)
    return best, a, (count_max(c, d, g, kp, best, False) if random_ties else 1)


@kernel
def resolve_tie(c, d, g, kp, best, m, sb, picks, pc, replay):
    """(arm, pc): one of the m > 1 maximisers, uniformly: the ``picks[pc]``-th if ``replay`` (then pc
    advances), else by :func:`uniform_int` from stream ``sb``."""
    if replay:
        if pc >= picks.size:
            raise IndexError("replayed tie picks exhausted")
        return nth_max(c, d, g, kp, best, picks[pc]), pc + 1
    return nth_max(c, d, g, kp, best, uniform_int(sb, m)), pc


@helper(contract=True)
def tree8_3(a, b, d, h, g, o):
    """(max, lowest-index argmax) of fma(g, d, fma(h, b, a)) over arms o .. o+7 (see :func:`tree8`).

    Scalar loads only: a vector load of an array just written element-wise stalls until the writes
    reach the cache, which costs more than the whole scalar tree.
    """
    o1, o2, o3, o4, o5, o6, o7 = o + _U(1), o + _U(2), o + _U(3), o + _U(4), o + _U(5), o + _U(6), o + _U(7)
    x0, i0 = pick(fma(g, d[o], fma(h, b[o], a[o])), o, fma(g, d[o1], fma(h, b[o1], a[o1])), o1)
    x1, i1 = pick(fma(g, d[o2], fma(h, b[o2], a[o2])), o2, fma(g, d[o3], fma(h, b[o3], a[o3])), o3)
    x2, i2 = pick(fma(g, d[o4], fma(h, b[o4], a[o4])), o4, fma(g, d[o5], fma(h, b[o5], a[o5])), o5)
    x3, i3 = pick(fma(g, d[o6], fma(h, b[o6], a[o6])), o6, fma(g, d[o7], fma(h, b[o7], a[o7])), o7)
    x0, i0 = pick(x0, i0, x1, i1)
    x2, i2 = pick(x2, i2, x3, i3)
    return pick(x0, i0, x2, i2)


@helper(contract=True)
def best_arm3(a, b, d, h, g, kp, random_ties, v):
    """(max, lowest-index argmax, number of maximisers or 1) of fma(g, d, fma(h, b, a)) over ``kp`` arms.

    :func:`best_arm` with the index fused in: the kernels whose index has two moving terms compute it inside
    the argmax rather than write it to an array and read it back (see :func:`tree8_3`).

    When several arms share the max, ``v`` receives the values (for :func:`resolve_tie` with c = v,
    d = 0, g = 0, whose values fma(0, 0, v) equal v).
    """
    best, arm = tree8_3(a, b, d, h, g, _U(0))
    for o in range(CHUNK, kp, CHUNK):
        m, i = tree8_3(a, b, d, h, g, _U(o))
        best, arm = pick(best, arm, m, i)
    if not random_ties:
        return best, arm, 1
    count = 0
    for i in range(kp):
        count += fma(g, d[_U(i)], fma(h, b[_U(i)], a[_U(i)])) == best
    if count > 1:
        for i in range(kp):
            v[_U(i)] = fma(g, d[_U(i)], fma(h, b[_U(i)], a[_U(i)]))
    return best, arm, count


@helper(numpy_errors=True)
def lead_chunk(c, d, g, j, h, a, m, inv, rsq):
    """Prepare h steps g[j:j+h] of a leader ``a`` (int64) with m pulls; return the rivals' bounds (lo, hi).

    inv[q] = 1/(m+q+1) and rsq[q] = (m+q+1)^-1/2 (the pulled arm's next 1/n and n^-1/2, as the kernels'
    pull functions compute them; the loop vectorises). lo / hi: the maxima of fma(top, d[i], c[i]) over
    the padded arms i < a / i > a (-inf if none) at the largest g of the chunk, top. A rival's index
    fma(g, d, c) with d >= 0 never decreases as g grows, so these bound the rivals at every step of the
    chunk while their (c, d) stay fixed (the max is taken because rounding may break g's monotonicity).
    """
    for q in range(h):
        x = np.float64(m + 1 + q)
        inv[_U(q)] = 1.0 / x
        rsq[_U(q)] = 1.0 / math.sqrt(x)
    top = g[j]
    for q in range(h):
        top = max(top, g[j + _U(q)])
    lo = -np.inf
    hi = -np.inf
    for i in range(c.size):
        x = fma(top, d[_U(i)], c[_U(i)])
        if i < a:
            lo = max(lo, x)
        elif i > a:
            hi = max(hi, x)
    return lo, hi


@kernel
def padded_index(k):
    """(c, d) arrays for ``padded(k)`` arms: the padding arms have c = -inf, d = 0 and never win."""
    kp = padded(k)
    c = np.zeros(kp)
    c[k:] = -np.inf
    return c, np.zeros(kp)
