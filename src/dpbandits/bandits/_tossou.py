"""The skeleton of the step-by-step Tossou-family kernels (``dp_ucb_int``, ``dp_ucb_tossou``, ``dp_ucb_bound``,
``private_ucb``, ``ldp_ucb``; ``ucb`` shares the block size): the pieces of their step loop and their entry points.

A kernel is called as ``kernel(means, horizon, checkpoints, params, draws, law=0, book=None)`` and returns (regret
float64[C], pulls int64[K], reward_sum): ``params`` is the tuple of its own parameters, ``draws`` = (sb, u, eta,
picks, replay): ``sb`` its run's stream (uint64[STREAM], :mod:`._pcg64`), ``u`` and ``eta`` scratch blocks of
reward deciders and standard Laplace draws, unless ``replay``: then they are the given draws, and ``picks`` the
given tie picks; ``law`` the reward law's code (:mod:`._laws`; replay is Bernoulli; left out, numba compiles the
Bernoulli path alone); ``book`` a release book (:mod:`dpbandits.mechanisms.ledger`) that records each noise draw,
or None (compiled away).

Every kernel steps t = 1..T in blocks of ``BLOCK`` steps (slot j of the block): at a block's start
:func:`log_block` (or the kernel's own fill), then its own choice of arm a, the reward, its own update
(its standard Laplace draws from ``eta``, refilled by :func:`refill_laplace`), and the regret at the checkpoints
(:func:`._regret.record`). numba inlines the per-step helpers, so each kernel compiles to one loop as if written
out; they take arrays, not tuples of arrays, whose reference counting would cost every step.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import helper, kernel
from ._draws import critical_chunks, fill_laplace, fill_log, fill_uniforms
from ._laws import BERNOULLI, law_args
from ._pcg64 import new_streams, set_streams_state

BLOCK = 384  # steps per block of draws and logarithms (a multiple of 3)
_NO_PICKS = np.zeros(0, dtype=np.int64)


@helper
def run_buffers(means, checkpoints):
    """(gap float64[K], crit (``_draws.critical_chunks``), lt float64[BLOCK] (a block's ln t), out float64[C])."""
    return means.max() - means, critical_chunks(means), np.empty(BLOCK), np.empty(checkpoints.size)


@helper
def log_block(lt, t, sb, crit, u, replay, law):
    """At step t, a block's first: its ln t into ``lt`` (``_draws.fill_log``) and, under Bernoulli rewards and
    unless replaying, its reward deciders into ``u`` from stream ``sb``."""
    fill_log(lt, t)
    if not replay and law == BERNOULLI:
        fill_uniforms(sb, crit, u)


@kernel
def refill_laplace(sb, eta, replay):
    """Refill ``eta`` with standard Laplace draws from stream ``sb`` and return 0, the position of the next one (on
    replay, the given draws are spent: IndexError). Called, not inlined: numba keeps reference counts around an
    inlined helper that may raise, and every step would pay them."""
    if replay:
        raise IndexError("replayed noise exhausted")
    fill_laplace(sb, 1.0, eta)
    return 0


def replay_stream() -> np.ndarray:
    """uint64[STREAM]: the stream of a run on given draws (never read when the tie picks are given too)."""
    return new_streams([np.random.default_rng(0)])[0]


def entry_points(kernel, args, eta_per_arm=False):
    """(run, on_draws, releases) of ``kernel``; ``args(means, horizon, epsilon, params)`` gives its ``params`` tuple.

    ``run(means, horizon, epsilon, checkpoints, rng, params, rewards)``: one run on the PCG64 stream of ``rng``
    under reward law ``rewards`` (default "bernoulli"),
    which is advanced past every word the run pooled. ``on_draws(means, epsilon, checkpoints, params, u,
    eta, picks)``: the kernel on given draws (step t's reward decider u[t-1], so the horizon is
    ``u.size``; the standard Laplace draws eta and the tie picks in order; a release ``book`` records eta[i] as
    draw i). ``eta_per_arm``: the kernel's
    Laplace block holds K draws per step (float64[K * BLOCK]), else one (float64[BLOCK]). ``releases(means,
    horizon, epsilon, params, rng, book)``: ``run`` under Bernoulli rewards recording in ``book``; returns the pulls
    int64[K] (``Algorithm.releases``).
    """

    def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
        streams = new_streams([rng])
        eta = np.empty(means.size * BLOCK if eta_per_arm else BLOCK)
        draws = (streams[0], np.empty(BLOCK), eta, _NO_PICKS, False)
        out = kernel(means, horizon, checkpoints, args(means, horizon, epsilon, params), draws, *law_args(rewards))
        set_streams_state([rng], streams)
        return out

    def on_draws(means, epsilon, checkpoints, params, u, eta, picks, book=None):
        u = np.ascontiguousarray(u, dtype=np.float64)
        eta = np.ascontiguousarray(eta, dtype=np.float64)
        draws = (replay_stream(), u, eta, np.asarray(picks, dtype=np.int64), True)
        recording = () if book is None else (BERNOULLI, book)
        return kernel(means, u.size, checkpoints, args(means, u.size, epsilon, params), draws, *recording)

    def releases(means, horizon, epsilon, params, rng, book):
        streams = new_streams([rng])
        eta = np.empty(means.size * BLOCK if eta_per_arm else BLOCK)
        draws = (streams[0], np.empty(BLOCK), eta, _NO_PICKS, False)
        last = np.array([horizon], dtype=np.int64)
        out = kernel(means, horizon, last, args(means, horizon, epsilon, params), draws, BERNOULLI, book)
        set_streams_state([rng], streams)
        return out[1]

    return run, on_draws, releases
