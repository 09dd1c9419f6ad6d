"""numba building blocks shared by the regret kernels.

Besides the per-step helpers (``bernoulli``, ``argmax_ties``, ``record``, ...), this module holds the
pieces of the fast kernels:

* **Inline PCG64 streams.** A kernel copies each run's ``np.random.Generator`` state into a stream
  (:func:`new_streams`: uint64 state, increment, pool index and a pool of ``POOL`` words that
  :func:`refill` fills with numpy's PCG64 recurrence: the words of ``rng.bit_generator.random_raw()``
  in order), reads the pool and writes the state back (:func:`set_streams_state`). Passing a
  Generator into a compiled helper costs ~35 ns per call and a Generator draw ~5 ns; a pooled word
  ~2 ns. :func:`ziggurat` and :func:`exponential_tail` are numpy's exponential word for word.
* **Exact block draws**: Bernoulli deciders (:func:`fill_uniforms`, :func:`fill_draws`), Laplace
  noise (:func:`fill_laplace`), uniform tie picks (:func:`uniform_int`), ln t and sqrt(2 ln t) for a
  block of steps (:func:`fill_log`, :func:`fill_sqrt_log`).
* **Counter noise processes** in O(1) per insertion (:func:`tree_noise_step`, :func:`hybrid_noise_step`).
* **Argmax** over arms padded to a multiple of 8 (:func:`first_max`: SIMD :func:`chunk_max` or a
  scalar tree; :func:`best_arm` and :func:`best_arm3` count the maximisers, :func:`resolve_tie` picks
  one uniformly), and the rivals' bounds of a leader's chunk of steps (:func:`lead_chunk`).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic
from numba.np.random._constants import fe_double, ke_double, we_double, ziggurat_exp_r

_U = np.uintp  # unsigned indices: no negative-index wraparound code


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


@njit(cache=True, nogil=True)
def finish_round_robin(out, checkpoints, c, t, regret, total, arms, m, gap, means, pulls, horizon, rng):
    """The horizon cuts a round-robin epoch at step t: split the T - t pulls left over ``arms[:m]``.

    Arm j (ascending) gets floor(rem/m) + [j < rem mod m] pulls, one Binomial each; nothing else
    happens. Fills the remaining checkpoints and updates ``pulls``; returns (c, regret, total).
    """
    q, s = divmod(horizon - t, m)
    c = fill_round_robin(out, checkpoints, c, t, regret, arms, m, gap, horizon)
    rate = 0.0
    for j in range(m):
        a = arms[j]
        rate += gap[a]
        n = q + 1 if j < s else q
        if n > 0:
            total += rng.binomial(n, means[a])
            pulls[a] += n
        if j < s:
            regret += gap[a]
    return c, regret + q * rate, total


def resolve_beta(beta: float | None, horizon: int) -> float:
    """beta, with None meaning 1/T (the experiments of Sajed & Sheffet 2019, Section 5, and of the thesis)."""
    return 1.0 / horizon if beta is None else beta


def gaps(means: np.ndarray) -> np.ndarray:
    """float64[K] of mu* - mu_a."""
    return means.max() - means


# ---------------------------------------------------------------------------------------------
# Inline PCG64 streams

_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # numpy's PCG_DEFAULT_MULTIPLIER_128
_MASK64 = (1 << 64) - 1
_M_LO, _M_HI = np.uint64(_MULT & _MASK64), np.uint64(_MULT >> 64)  # one step: s <- M s + inc
_M4 = _MULT**4 & ((1 << 128) - 1)  # four steps: s <- M^4 s + (M^3 + M^2 + M + 1) inc
_M4_LO, _M4_HI = np.uint64(_M4 & _MASK64), np.uint64(_M4 >> 64)
_A4 = (_MULT**3 + _MULT**2 + _MULT + 1) & ((1 << 128) - 1)
_A4_LO, _A4_HI = np.uint64(_A4 & _MASK64), np.uint64(_A4 >> 64)
POOL = 256  # words generated per refill of a stream's pool (a multiple of 4)
STREAM = 5 + POOL  # stream layout: state lo, hi, increment lo, hi, next pool index, pool words
TWO_M53 = 1.0 / 9007199254740992.0  # 2^-53


@intrinsic
def lcg128(typingctx, lo, hi, mult_lo, mult_hi, add_lo, add_hi):
    """(lo, hi) of (hi:lo) * (mult_hi:mult_lo) + (add_hi:add_lo) mod 2^128."""
    u64 = types.uint64
    sig = types.UniTuple(u64, 2)(u64, u64, u64, u64, u64, u64)

    def codegen(context, builder, signature, args):
        i64, i128 = ir.IntType(64), ir.IntType(128)
        c64 = ir.Constant(i128, 64)

        def join(low, high):
            return builder.or_(builder.shl(builder.zext(high, i128), c64), builder.zext(low, i128))

        x = builder.add(builder.mul(join(args[0], args[1]), join(args[2], args[3])), join(args[4], args[5]))
        low, high = builder.trunc(x, i64), builder.trunc(builder.lshr(x, c64), i64)
        return context.make_tuple(builder, signature.return_type, (low, high))

    return sig, codegen


@intrinsic
def xsl_rr(typingctx, lo, hi):
    """PCG64's output word of state (hi:lo): rotr64(hi ^ lo, hi >> 58)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fshr = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64] * 3), "llvm.fshr.i64")
        x = builder.xor(args[1], args[0])
        return builder.call(fshr, [x, x, builder.lshr(args[1], ir.Constant(i64, 58))])

    return sig, codegen


def new_streams(rngs) -> np.ndarray:
    """uint64[R, STREAM]: an empty-pool stream on the state of each PCG64 Generator in ``rngs``."""
    out = np.zeros((len(rngs), STREAM), dtype=np.uint64)
    for row, rng in zip(out, rngs, strict=True):
        if not isinstance(rng, np.random.Generator) or not isinstance(rng.bit_generator, np.random.PCG64):
            raise ValueError(f"rng must be a numpy Generator on PCG64, got {rng!r}")
        s = rng.bit_generator.state["state"]
        row[:5] = [s["state"] & _MASK64, s["state"] >> 64, s["inc"] & _MASK64, s["inc"] >> 64, POOL]
    return out


def set_streams_state(rngs, streams: np.ndarray) -> None:
    """Advance each Generator to its stream's state: as if it had drawn every pooled word, read or not."""
    for rng, row in zip(rngs, streams, strict=True):
        state = rng.bit_generator.state
        state["state"] = {"state": int(row[0]) | int(row[1]) << 64, "inc": int(row[2]) | int(row[3]) << 64}
        rng.bit_generator.state = state


@njit(cache=True, nogil=True)
def refill(sb):
    """Fill stream ``sb``'s pool with its next ``POOL`` words and reset the pool index.

    The words are those of numpy's PCG64 in order (s <- M s + inc, output :func:`xsl_rr`), computed as
    four interleaved chains s_{n+4} = M^4 s_n + (M^3 + M^2 + M + 1) inc so the CPU overlaps them.
    """
    inc_lo, inc_hi = sb[2], sb[3]
    add_lo, add_hi = lcg128(inc_lo, inc_hi, _A4_LO, _A4_HI, np.uint64(0), np.uint64(0))
    a_lo, a_hi = lcg128(sb[0], sb[1], _M_LO, _M_HI, inc_lo, inc_hi)
    b_lo, b_hi = lcg128(a_lo, a_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    c_lo, c_hi = lcg128(b_lo, b_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    d_lo, d_hi = lcg128(c_lo, c_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    for i in range(5, STREAM, 4):
        sb[i] = xsl_rr(a_lo, a_hi)
        sb[i + 1] = xsl_rr(b_lo, b_hi)
        sb[i + 2] = xsl_rr(c_lo, c_hi)
        sb[i + 3] = xsl_rr(d_lo, d_hi)
        sb[0], sb[1] = d_lo, d_hi
        a_lo, a_hi = lcg128(a_lo, a_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        b_lo, b_hi = lcg128(b_lo, b_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        c_lo, c_hi = lcg128(c_lo, c_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        d_lo, d_hi = lcg128(d_lo, d_hi, _M4_LO, _M4_HI, add_lo, add_hi)
    sb[4] = 0


@njit(inline="always")
def to_double(word):
    """numpy's ``next_double``: the top 53 bits of a word as a double in [0, 1)."""
    return (word >> np.uint64(11)) * TWO_M53


# The hot loops read pool words inline: ``if i >= POOL: refill(sb); i = 0`` then ``w = sb[5 + i]``.
# (An inlined helper that itself calls ``refill`` would make numba reference-count ``sb`` per word.)
# Rare paths (rejections, tails), where that cost does not matter, use :func:`next_word`.


@njit(inline="always")
def next_word(sb, i):
    """(word, i + 1): the word at pool index i of stream ``sb``, refilling the pool first if it is spent.

    For rare paths only; hot loops read the pool inline (see above)."""
    if i >= POOL:
        refill(sb)
        i = 0
    return sb[5 + i], i + 1


@njit(inline="always")
def ziggurat(word):
    """(x, accepted): the fast path of numpy's ziggurat ``standard_exponential`` on one word."""
    ri = word >> np.uint64(3)
    idx = ri & np.uint64(0xFF)
    ri >>= np.uint64(8)
    return ri * we_double[idx], ri < ke_double[idx]


@njit(cache=True, nogil=True)
def exponential_tail(sb, i, word):
    """(x, word, i): numpy's ziggurat after its fast path rejected ``word``; pool index i.

    Returns the exponential, the word finally accepted (bit 0 of it, unread by the ziggurat, is a
    fair sign independent of x) and the next pool index.
    """
    while True:
        ri = word >> np.uint64(3)
        idx = ri & np.uint64(0xFF)
        x = (ri >> np.uint64(8)) * we_double[idx]
        w, i = next_word(sb, i)
        v = to_double(w)
        if idx == 0:
            return ziggurat_exp_r - math.log1p(-v), word, i
        if (fe_double[idx - 1] - fe_double[idx]) * v + fe_double[idx] < math.exp(-x):
            return x, word, i
        word, i = next_word(sb, i)
        x, ok = ziggurat(word)
        if ok:
            return x, word, i


@njit(cache=True, nogil=True)
def uniform_int(sb, m):
    """Uniform integer in [0, m) for m >= 1 from stream ``sb``, exactly (masked rejection)."""
    mask = np.uint64(m - 1)
    for s in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(s)
    i = np.int64(sb[4])
    while True:
        if i >= POOL:
            refill(sb)
            i = 0
        x = sb[5 + i] & mask
        i += 1
        if x < np.uint64(m):
            sb[4] = i
            return np.int64(x)


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
def is_critical(crit, c):
    """True if 16-bit chunk c does not decide every comparison U < p_i (see :func:`critical_chunks`)."""
    return (crit[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != 0


@njit(cache=True, nogil=True)
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
    i = np.int64(sb[4])
    j = 0
    while j < u.size:
        if i + 4 <= POOL:
            bits = sb[5 + i] >> np.uint64(11)
            c0 = int(bits & np.uint64(0xFFFF))
            c1 = int((bits >> np.uint64(16)) & np.uint64(0xFFFF))
            c2 = int((bits >> np.uint64(32)) & np.uint64(0xFFFF))
            x0, ok0 = ziggurat(sb[6 + i])
            x1, ok1 = ziggurat(sb[7 + i])
            x2, ok2 = ziggurat(sb[8 + i])
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
        bits = sb[5 + i] >> np.uint64(11)
        i += 1
        for q in range(3):
            c = int((bits >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            if is_critical(crit, c):
                if i >= POOL:
                    refill(sb)
                    i = 0
                u[j + q] = (c + to_double(sb[5 + i])) * (1.0 / 65536.0)
                i += 1
            else:
                u[j + q] = (c + 0.5) * (1.0 / 65536.0)
            if i >= POOL:
                refill(sb)
                i = 0
            word = sb[5 + i]
            i += 1
            e, ok = ziggurat(word)
            if not ok:
                e, word, i = exponential_tail(sb, i, word)
            x = scale * e
            eta[j + q] = -x if (bits >> np.uint64(48 + q)) & np.uint64(1) else x
        j += 3
    sb[4] = i


@njit(cache=True, nogil=True)
def fill_uniforms(sb, crit, u):
    """Fill ``u`` with Bernoulli deciders as :func:`fill_draws` does (three steps per word, no noise)."""
    i = np.int64(sb[4])
    for j in range(0, u.size, 3):
        if i >= POOL:
            refill(sb)
            i = 0
        bits = sb[5 + i] >> np.uint64(11)
        i += 1
        for q in range(3):
            c = int((bits >> np.uint64(16 * q)) & np.uint64(0xFFFF))
            if is_critical(crit, c):
                if i >= POOL:
                    refill(sb)
                    i = 0
                u[j + q] = (c + to_double(sb[5 + i])) * (1.0 / 65536.0)
                i += 1
            else:
                u[j + q] = (c + 0.5) * (1.0 / 65536.0)
    sb[4] = i


@njit(cache=True, nogil=True)
def fill_laplace(sb, scale, eta):
    """Fill ``eta`` with Lap(scale) draws: a fair sign times ``scale`` times numpy's ziggurat exponential."""
    i = np.int64(sb[4])
    for j in range(eta.size):
        if i >= POOL:
            refill(sb)
            i = 0
        word = sb[5 + i]
        i += 1
        e, ok = ziggurat(word)
        if not ok:
            e, word, i = exponential_tail(sb, i, word)
        x = scale * e
        eta[j] = -x if word & np.uint64(1) else x
    sb[4] = i


SERIES_FROM = 1 << 16  # first block start at which sqrt(2 ln t) uses the log1p series


@njit(cache=True, fastmath={"contract"})
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
        out[j] = base + d * (1.0 + d * (-0.5 + d * (1.0 / 3.0 + d * (-0.25 + d * (0.2 + d * (
            -1.0 / 6.0 + d * (1.0 / 7.0 + d * -0.125)))))))


@njit(cache=True)
def fill_sqrt_log(g, t0):
    """g[j] = sqrt(2 ln(t0 + j)) with ln from :func:`fill_log` (within one ulp of libm)."""
    fill_log(g, t0)
    for j in range(g.size):
        g[j] = math.sqrt(2.0 * g[j])


# ---------------------------------------------------------------------------------------------
# Counters' noise processes (the noise part of a release; release = true running sum + noise)


@njit(cache=True, inline="always")
def tree_noise_step(levels, base, m, eta):
    """Insert the m-th element (m >= 1) of a binary-tree counter's noise process; O(1).

    ``levels[j]`` holds the release noise right after the last node at level j was completed
    (``levels[64]`` stays 0). ``base`` = levels[ctz(m & (m-1))] is the noise of the nodes of m above
    level ctz(m); the node completed now gets noise ``eta``, so the release noise of m is base + eta.
    Returns the ``base`` of insertion m + 1. The same process as ``mechanisms.tree_noise_insert``.
    """
    levels[_U(trailing_zeros(m))] = base + eta
    return levels[_U(trailing_zeros(m & (m + 1)))]


@njit(cache=True, inline="always")
def hybrid_noise_step(levels, state, tau, eta, log_scale, node_scale):
    """Release noise of a hybrid counter after insertion tau >= 1, from one standard Laplace ``eta``.

    The process of ``mechanisms.hybrid_noise_insert``: at tau = 2^k the logarithmic part adds
    Lap(log_scale) (state[0]) and a fresh binary tree starts; insertion 2^k + m (0 < m < 2^k) is
    insertion m of that tree with node noise Lap(k node_scale). state[1] is the tree's ``base``
    (:func:`tree_noise_step`), ``levels`` its levels (stale entries of older trees are never read).
    """
    if tau & (tau - 1) == 0:
        state[0] += log_scale * eta
        state[1] = 0.0
        return state[0]
    k = 63 - leading_zeros(tau)
    m = tau - (1 << k)
    state[1] = tree_noise_step(levels, state[1], m, k * node_scale * eta)
    return state[0] + levels[_U(trailing_zeros(m))]


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


@njit(cache=True, fastmath={"contract"}, inline="always")
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
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.DoubleType(), [ir.DoubleType()] * 3),
                                            "llvm.fma.f64")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, fastmath={"contract"})
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


@njit(cache=True, fastmath={"contract"}, inline="always")
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


@njit(cache=True, fastmath={"contract"}, inline="always")
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


@njit(cache=True, fastmath={"contract"})
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


@njit(cache=True, fastmath={"contract"}, inline="always")
def best_arm(c, d, g, kp, random_ties):
    """(max, lowest-index argmax, number of maximisers or 1 if not ``random_ties``) of fma(g, d, c)."""
    best, a = first_max(c, d, g, kp, False)
    return best, a, (count_max(c, d, g, kp, best, False) if random_ties else 1)


@njit(cache=True, nogil=True)
def resolve_tie(c, d, g, kp, best, m, sb, picks, pc, replay):
    """(arm, pc): one of the m > 1 maximisers, uniformly: the ``picks[pc]``-th if ``replay`` (then pc
    advances), else by :func:`uniform_int` from stream ``sb``."""
    if replay:
        if pc >= picks.size:
            raise IndexError("replayed tie picks exhausted")
        return nth_max(c, d, g, kp, best, picks[pc]), pc + 1
    return nth_max(c, d, g, kp, best, uniform_int(sb, m)), pc


@njit(cache=True, fastmath={"contract"}, inline="always")
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


@njit(cache=True, fastmath={"contract"}, inline="always")
def best_arm3(a, b, d, h, g, kp, random_ties, v):
    """(max, lowest-index argmax, number of maximisers or 1) of fma(g, d, fma(h, b, a)) over ``kp`` arms.

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


@njit(cache=True, error_model="numpy", inline="always")
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


@njit(cache=True)
def padded_index(k):
    """(c, d) arrays for ``padded(k)`` arms: the padding arms have c = -inf, d = 0 and never win."""
    kp = padded(k)
    c = np.zeros(kp)
    c[k:] = -np.inf
    return c, np.zeros(kp)
