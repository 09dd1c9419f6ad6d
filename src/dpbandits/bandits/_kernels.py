"""numba building blocks shared by the regret kernels.

Besides the per-step helpers (``bernoulli``, ``argmax_ties``, ``record``, ...), this module holds the
pieces of the fast kernels:

* **Inline PCG64 streams.** A kernel reads the run's ``np.random.Generator`` state into a
  ``uint64[4]`` array (:func:`stream_state`: state low/high, increment low/high), draws with
  :func:`pcg64_next` (numpy's PCG64 step and XSL-RR output, so the same 64-bit words as
  ``rng.bit_generator.random_raw()``) and writes the state back (:func:`set_stream_state`). Passing
  a Generator into a compiled helper costs ~35 ns per call; the inline stream costs ~2 ns per word.
  :func:`standard_exponential` replicates numpy's ziggurat on these words draw for draw.
* **Exact block draws**: Bernoulli deciders (:func:`fill_uniforms`, :func:`fill_draws`), standard
  Laplace noise (:func:`fill_laplace`), uniform tie picks (:func:`uniform_int`) and
  sqrt(2 ln t) for a block of steps (:func:`fill_sqrt_log`).
* **Vector argmax** (:func:`chunk_max`): max and maximiser mask of ``c + g d`` over 8 arms in SIMD.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.random._constants import fe_double, ke_double, we_double, ziggurat_exp_r


@njit(cache=True, inline="always")
def bernoulli(rng, p):
    """One Bernoulli(p) reward in {0., 1.} from one uniform."""
    return 1.0 if rng.random() < p else 0.0


@njit(cache=True, nogil=True)
def argmax_ties(values, rng, random_ties):
    """Index of the maximum; ties broken uniformly at random if ``random_ties`` else lowest index.

    Draws ``rng.integers(0, m)`` only when m > 1 maximisers exist.
    """
    best = values[0]
    count = 1
    arg = 0
    for i in range(1, values.size):
        v = values[i]
        if v > best:
            best = v
            count = 1
            arg = i
        elif v == best:
            count += 1
    if count == 1 or not random_ties:
        return arg
    pick = rng.integers(0, count)
    for i in range(values.size):
        if values[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return arg


@njit(cache=True, inline="always")
def record(out, checkpoints, c, t, regret):
    """Store ``regret`` at every checkpoint equal to step ``t``; return the next checkpoint slot."""
    while c < checkpoints.size and checkpoints[c] == t:
        out[c] = regret
        c += 1
    return c


@njit(cache=True, nogil=True)
def fill_linear(out, checkpoints, c, t0, regret0, t1, rate):
    """Fill checkpoints in (t0, t1] of a segment whose regret grows by ``rate`` per step.

    Used by collapsed kernels (epochs pulled round-robin or by one arm). Returns the next slot.
    """
    while c < checkpoints.size and checkpoints[c] <= t1:
        out[c] = regret0 + rate * (checkpoints[c] - t0)
        c += 1
    return c

@njit(cache=True, nogil=True)
def fill_round_robin(out, checkpoints, c, t0, regret0, arms, m, gap, t1):
    """Fill checkpoints in (t0, t1] of pulls cycling over ``arms[:m]`` in order, starting at a round start.

    At t = t0 + q m + s (0 <= s < m) the regret is regret0 + q sum(gap[arms[:m]]) + sum_{j<s} gap[arms[j]].
    Returns the next checkpoint slot.
    """
    rate = 0.0
    for j in range(m):
        rate += gap[arms[j]]
    while c < checkpoints.size and checkpoints[c] <= t1:
        q, s = divmod(checkpoints[c] - t0, m)
        v = regret0 + q * rate
        for j in range(s):
            v += gap[arms[j]]
        out[c] = v
        c += 1
    return c


def resolve_beta(beta: float | None, horizon: int) -> float:
    """beta, with None meaning 1/T (the thesis experiments, Th:891)."""
    return 1.0 / horizon if beta is None else beta


def gaps(means: np.ndarray) -> np.ndarray:
    """float64[K] of mu* - mu_a."""
    return means.max() - means


# ---------------------------------------------------------------------------------------------
# Inline PCG64 streams

_PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # numpy's PCG_DEFAULT_MULTIPLIER_128
_MASK64 = (1 << 64) - 1
TWO_M53 = 1.0 / 9007199254740992.0  # 2^-53


@intrinsic
def pcg64_next(typingctx, lo, hi, inc_lo, inc_hi):
    """(word, lo, hi): one step of numpy's PCG64 on state (hi:lo) with increment (inc_hi:inc_lo).

    state <- state * MULT + inc (mod 2^128); word = rotr64(high ^ low, high >> 58) of the new state.
    """
    u64 = types.uint64
    sig = types.UniTuple(u64, 3)(u64, u64, u64, u64)

    def codegen(context, builder, signature, args):
        i64, i128 = ir.IntType(64), ir.IntType(128)
        c64 = ir.Constant(i128, 64)

        def join(low, high):
            return builder.or_(builder.shl(builder.zext(high, i128), c64), builder.zext(low, i128))

        state = builder.add(builder.mul(join(args[0], args[1]), ir.Constant(i128, _PCG64_MULTIPLIER)),
                            join(args[2], args[3]))
        low = builder.trunc(state, i64)
        high = builder.trunc(builder.lshr(state, c64), i64)
        fshr = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64] * 3), "llvm.fshr.i64")
        word = builder.call(fshr, [builder.xor(high, low)] * 2 + [builder.lshr(high, ir.Constant(i64, 58))])
        return context.make_tuple(builder, signature.return_type, (word, low, high))

    return sig, codegen


def stream_state(rng: np.random.Generator) -> np.ndarray:
    """uint64[4] (state low, state high, increment low, increment high) of a PCG64 Generator."""
    if not isinstance(rng, np.random.Generator) or not isinstance(rng.bit_generator, np.random.PCG64):
        raise ValueError(f"rng must be a numpy Generator on PCG64, got {rng!r}")
    s = rng.bit_generator.state["state"]
    return np.array([s["state"] & _MASK64, s["state"] >> 64, s["inc"] & _MASK64, s["inc"] >> 64],
                    dtype=np.uint64)


def set_stream_state(rng: np.random.Generator, st: np.ndarray) -> None:
    """Write a stream state (see :func:`stream_state`) back into ``rng``."""
    state = rng.bit_generator.state
    state["state"] = {"state": int(st[0]) | int(st[1]) << 64, "inc": int(st[2]) | int(st[3]) << 64}
    rng.bit_generator.state = state


def streams_state(rngs) -> np.ndarray:
    """uint64[R, 4]: :func:`stream_state` of each Generator."""
    return np.stack([stream_state(rng) for rng in rngs]) if len(rngs) else np.empty((0, 4), np.uint64)


def set_streams_state(rngs, st: np.ndarray) -> None:
    """Write each row of ``st`` back into the matching Generator."""
    for rng, row in zip(rngs, st, strict=True):
        set_stream_state(rng, row)


@njit(inline="always")
def to_double(word):
    """numpy's ``next_double``: the top 53 bits of a word as a double in [0, 1)."""
    return (word >> np.uint64(11)) * TWO_M53


@njit(inline="always")
def standard_exponential(lo, hi, inc_lo, inc_hi):
    """(x, sign, lo, hi): numpy's ziggurat ``standard_exponential`` on the stream, plus a fair sign bit.

    x equals ``rng.standard_exponential()`` for the same state. ``sign`` (0 or 1) is bit 0 of the
    accepted word, which the ziggurat discards (it reads bits 3..63 only): independent of x.
    """
    while True:
        word, lo, hi = pcg64_next(lo, hi, inc_lo, inc_hi)
        ri = word >> np.uint64(3)
        idx = ri & np.uint64(0xFF)
        ri >>= np.uint64(8)
        x = ri * we_double[idx]
        if ri < ke_double[idx]:
            return x, word & np.uint64(1), lo, hi
        v, lo, hi = pcg64_next(lo, hi, inc_lo, inc_hi)
        if idx == 0:
            return ziggurat_exp_r - math.log1p(-to_double(v)), word & np.uint64(1), lo, hi
        if (fe_double[idx - 1] - fe_double[idx]) * to_double(v) + fe_double[idx] < math.exp(-x):
            return x, word & np.uint64(1), lo, hi


@njit(inline="always")
def next_word(st):
    """Next 64-bit word of the stream ``st`` (uint64[4], advanced in place)."""
    word, st[0], st[1] = pcg64_next(st[0], st[1], st[2], st[3])
    return word


@njit(inline="always")
def uniform_int(st, m):
    """Uniform integer in [0, m) for m >= 1, exactly (masked rejection on the stream ``st``)."""
    mask = np.uint64(m - 1)
    for s in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(s)
    while True:
        x = next_word(st) & mask
        if x < np.uint64(m):
            return int(x)


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


@njit(inline="always")
def _decider(crit, c, lo, hi, inc_lo, inc_hi):
    """(u, lo, hi) for 16-bit chunk c: (c + 1/2)/2^16, or (c + V)/2^16 with a fresh uniform V if critical."""
    if (crit[c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
        v, lo, hi = pcg64_next(lo, hi, inc_lo, inc_hi)
        return (c + to_double(v)) * (1.0 / 65536.0), lo, hi
    return (c + 0.5) * (1.0 / 65536.0), lo, hi


@njit(cache=True, nogil=True)
def fill_draws(st, crit, scale, u, eta):
    """Fill one block: ``u[j]`` decides step j's Bernoulli reward (U < p), ``eta[j]`` is Lap(scale).

    Each word gives 53 random bits (those of ``next_double``): three 16-bit chunks c (one per step)
    and three sign bits. u = (c + 1/2)/2^16 when c decides every comparison U < p_i, else (c + V)/2^16
    with a fresh uniform V, so P(u < p_i) = p_i as for a 53-bit uniform. eta = sign * scale * E with
    E from :func:`standard_exponential`: exactly Lap(scale). ``u.size`` must be a multiple of 3.
    Draw for draw the same as the Generator methods ``random()`` and ``standard_exponential()``.
    """
    lo, hi, inc_lo, inc_hi = st[0], st[1], st[2], st[3]
    for j in range(0, u.size, 3):
        word, lo, hi = pcg64_next(lo, hi, inc_lo, inc_hi)
        word >>= np.uint64(11)
        for q in range(3):
            c = int((word >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            u[j + q], lo, hi = _decider(crit, c, lo, hi, inc_lo, inc_hi)
            e, _, lo, hi = standard_exponential(lo, hi, inc_lo, inc_hi)
            x = scale * e
            eta[j + q] = -x if (word >> np.uint64(48 + q)) & np.uint64(1) else x
    st[0], st[1] = lo, hi


@njit(cache=True, nogil=True)
def fill_uniforms(st, crit, u):
    """Fill ``u`` with Bernoulli deciders as :func:`fill_draws` does (three steps per word, no noise)."""
    lo, hi, inc_lo, inc_hi = st[0], st[1], st[2], st[3]
    for j in range(0, u.size, 3):
        word, lo, hi = pcg64_next(lo, hi, inc_lo, inc_hi)
        word >>= np.uint64(11)
        for q in range(3):
            c = int((word >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            u[j + q], lo, hi = _decider(crit, c, lo, hi, inc_lo, inc_hi)
    st[0], st[1] = lo, hi


@njit(cache=True, nogil=True)
def fill_laplace(st, eta):
    """Fill ``eta`` with standard Laplace draws: a fair sign times :func:`standard_exponential` (exact)."""
    lo, hi, inc_lo, inc_hi = st[0], st[1], st[2], st[3]
    for j in range(eta.size):
        e, sign, lo, hi = standard_exponential(lo, hi, inc_lo, inc_hi)
        eta[j] = -e if sign else e
    st[0], st[1] = lo, hi


SERIES_FROM = 1 << 16  # first block start at which sqrt(2 ln t) uses the log1p series


@njit(cache=True, fastmath={"contract"})
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


# ---------------------------------------------------------------------------------------------
# Vector argmax

CHUNK = 8  # arms per SIMD chunk; index arrays are padded to a multiple (pad c = -inf, d = 0)


@njit(cache=True)
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
        if not (isinstance(arr, types.Array) and arr.dtype == types.float64 and arr.ndim == 1
                and arr.layout == "C"):
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
            return builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                          ir.Constant(ir.VectorType(i32, CHUNK), [0] * CHUNK))

        fma = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vec, [vec] * 3), "llvm.fma.v8f64")
        v = builder.call(fma, [splat(args[2]), load(signature.args[1], args[1]), load(signature.args[0], args[0])])
        reduce = cgutils.get_or_insert_function(builder.module, ir.FunctionType(f64, [vec]),
                                                "llvm.vector.reduce.fmax.v8f64")
        m = builder.call(reduce, [v], fastmath=("nnan",))
        mask = builder.bitcast(builder.fcmp_ordered("==", v, splat(m)), ir.IntType(CHUNK))
        return context.make_tuple(builder, signature.return_type, (m, builder.zext(mask, i64)))

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (``llvm.ctpop``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen
