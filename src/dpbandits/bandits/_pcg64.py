"""Inline PCG64 streams: numpy's PCG64 Generator emulated inside compiled kernels.

A kernel copies each run's ``np.random.Generator`` state into a stream (:func:`new_streams`), reads the
stream's pool of ``POOL`` words, which :func:`refill` fills with numpy's PCG64 recurrence (the words of
``rng.bit_generator.random_raw()`` in order), and writes the state back (:func:`set_streams_state`).
Passing a Generator into a compiled helper costs ~35 ns per call and a Generator draw ~5 ns; a pooled
word ~2 ns. :func:`ziggurat` and :func:`exponential_tail` are numpy's exponential word for word;
:func:`uniform_int` its masked-rejection integers.

A stream is a row ``sb`` of uint64[STREAM]: the 128-bit state (``sb[STATE_LO]``, ``sb[STATE_HI]``), the
increment (``sb[INC_LO]``, ``sb[INC_HI]``), the index of the next unread pool word (``sb[POOL_INDEX]``)
and the pool, word i at ``sb[POOL_START + i]``.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.random._constants import fe_double, ke_double, we_double, ziggurat_exp_r

from ..core.jit import helper, kernel

_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # numpy's PCG_DEFAULT_MULTIPLIER_128
_MASK64 = (1 << 64) - 1
_M_LO, _M_HI = np.uint64(_MULT & _MASK64), np.uint64(_MULT >> 64)  # one step: s <- M s + inc
_M4 = _MULT**4 & ((1 << 128) - 1)  # four steps: s <- M^4 s + (M^3 + M^2 + M + 1) inc
_M4_LO, _M4_HI = np.uint64(_M4 & _MASK64), np.uint64(_M4 >> 64)
_A4 = (_MULT**3 + _MULT**2 + _MULT + 1) & ((1 << 128) - 1)
_A4_LO, _A4_HI = np.uint64(_A4 & _MASK64), np.uint64(_A4 >> 64)
POOL = 256  # words generated per refill of a stream's pool (a multiple of 4)
STATE_LO, STATE_HI, INC_LO, INC_HI = 0, 1, 2, 3  # stream layout: the 128-bit state and increment,
POOL_INDEX = 4  # the index of the next unread pool word,
POOL_START = 5  # and the pool words from here on
STREAM = POOL_START + POOL  # uint64 words per stream
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
        row[STATE_LO], row[STATE_HI] = s["state"] & _MASK64, s["state"] >> 64
        row[INC_LO], row[INC_HI] = s["inc"] & _MASK64, s["inc"] >> 64
        row[POOL_INDEX] = POOL
    return out


def single_run(run_batch):
    """``Algorithm.run`` of a kernel's ``run_batch``: the batch of the one Generator ``rng``, as (regret[C],
    pulls[K], reward_sum)."""

    def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
        regret, pulls, totals = run_batch(means, horizon, epsilon, checkpoints, [rng], params, rewards)
        return regret[0], pulls[0], totals[0]

    run.__doc__ = f"One run of ``{run_batch.__module__}.run_batch`` on the Generator ``rng``."
    return run


def set_streams_state(rngs, streams: np.ndarray) -> None:
    """Advance each Generator to its stream's state: as if it had drawn every pooled word, read or not."""
    for rng, row in zip(rngs, streams, strict=True):
        state = rng.bit_generator.state
        state["state"] = {
            "state": int(row[STATE_LO]) | int(row[STATE_HI]) << 64,
            "inc": int(row[INC_LO]) | int(row[INC_HI]) << 64,
        }
        rng.bit_generator.state = state


@kernel
def refill(sb):
    """Fill stream ``sb``'s pool with its next ``POOL`` words and reset the pool index.

    The words are those of numpy's PCG64 in order (s <- M s + inc, output :func:`xsl_rr`), computed as
    four interleaved chains s_{n+4} = M^4 s_n + (M^3 + M^2 + M + 1) inc so the CPU overlaps them.
    """
    inc_lo, inc_hi = sb[INC_LO], sb[INC_HI]
    add_lo, add_hi = lcg128(inc_lo, inc_hi, _A4_LO, _A4_HI, np.uint64(0), np.uint64(0))
    a_lo, a_hi = lcg128(sb[STATE_LO], sb[STATE_HI], _M_LO, _M_HI, inc_lo, inc_hi)
    b_lo, b_hi = lcg128(a_lo, a_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    c_lo, c_hi = lcg128(b_lo, b_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    d_lo, d_hi = lcg128(c_lo, c_hi, _M_LO, _M_HI, inc_lo, inc_hi)
    for i in range(POOL_START, STREAM, 4):
        sb[i] = xsl_rr(a_lo, a_hi)
        sb[i + 1] = xsl_rr(b_lo, b_hi)
        sb[i + 2] = xsl_rr(c_lo, c_hi)
        sb[i + 3] = xsl_rr(d_lo, d_hi)
        sb[STATE_LO], sb[STATE_HI] = d_lo, d_hi
        a_lo, a_hi = lcg128(a_lo, a_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        b_lo, b_hi = lcg128(b_lo, b_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        c_lo, c_hi = lcg128(c_lo, c_hi, _M4_LO, _M4_HI, add_lo, add_hi)
        d_lo, d_hi = lcg128(d_lo, d_hi, _M4_LO, _M4_HI, add_lo, add_hi)
    sb[POOL_INDEX] = 0


@helper
def to_double(word):
    """numpy's ``next_double``: the top 53 bits of a word as a double in [0, 1)."""
    return (word >> np.uint64(11)) * TWO_M53


# The hot loops read pool words inline: ``if i >= POOL: refill(sb); i = 0`` then ``w = sb[POOL_START + i]``.
# (An inlined helper that itself calls ``refill`` would make numba reference-count ``sb`` per word.)
# Rare paths (rejections, tails), where that cost does not matter, use :func:`next_word`.


@helper
def next_word(sb, i):
    """(word, i + 1): the word at pool index i of stream ``sb``, refilling the pool first if it is spent.

    For rare paths only; hot loops read the pool inline (see above)."""
    if i >= POOL:
        refill(sb)
        i = 0
    return sb[POOL_START + i], i + 1


@helper
def ziggurat(word):
    """(x, accepted): the fast path of numpy's ziggurat ``standard_exponential`` on one word."""
    ri = word >> np.uint64(3)
    idx = ri & np.uint64(0xFF)
    ri >>= np.uint64(8)
    return ri * we_double[idx], ri < ke_double[idx]


@kernel
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


@kernel
def uniform_int(sb, m):
    """Uniform integer in [0, m) for m >= 1 from stream ``sb``, exactly (masked rejection)."""
    mask = np.uint64(m - 1)
    for s in (1, 2, 4, 8, 16, 32):
        mask |= mask >> np.uint64(s)
    i = np.int64(sb[POOL_INDEX])
    while True:
        if i >= POOL:
            refill(sb)
            i = 0
        x = sb[POOL_START + i] & mask
        i += 1
        if x < np.uint64(m):
            sb[POOL_INDEX] = i
            return np.int64(x)
